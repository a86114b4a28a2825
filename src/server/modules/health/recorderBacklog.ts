import type { RecorderBacklog } from '../../../contract/health';
import type { RecorderStats } from '../../recording/recorder';

/** Rows waiting longer than this (a write takes ~50 ms) mean recording is behind the traffic. */
export const BEHIND_AFTER_MS = 5_000;

/**
 * What /system/health says of the recorder (issue 32): whether it is behind the traffic, by how
 * much (rows waiting, the journal's bytes) and since when (the oldest waiting row, the first write
 * the database refused as unavailable), and what it could not keep. No error text: unauthenticated.
 */
export function recorderBacklog(stats: RecorderStats | undefined): RecorderBacklog | null {
  if (!stats) return null;
  const { queuedRows, oldestQueuedMs, oldestQueuedAt, writeFailingSince, journalBytes } = stats.behind;
  return {
    behind: writeFailingSince !== null || (oldestQueuedMs !== null && oldestQueuedMs >= BEHIND_AFTER_MS),
    waitingRows: queuedRows,
    oldestWaitingSince: oldestQueuedAt,
    writeFailingSince,
    journalBytes,
    dropped: stats.dropped.messages + stats.dropped.toolCalls,
    notJournaled: stats.journal.notJournaled,
    setAside: stats.lostOnWriteError,
  };
}
