import type { RecordingBudgets } from './recordingBudget';
import type { JournaledRows } from './journal/journaledRows';
import type { WriteQueue } from './writeQueue';

// What the recorder tells the health routes: its queue, what it wrote and dropped, and how far
// behind the traffic it is (the journal holds what the database has not taken yet).
export interface RecorderStats {
  enabled: boolean;
  queuedRows: number;
  activeSessions: number;
  written: { sessions: number; messages: number; toolCalls: number };
  dropped: { messages: number; toolCalls: number; overBudget: number };
  lostOnWriteError: number;
  flushes: number;
  lastFlushMs: number | null;
  lastError: string | null;
  /** How far recording is behind the traffic: rows waiting for the database, and the journal holding them. */
  behind: {
    queuedRows: number;
    oldestQueuedMs: number | null;
    /** When the oldest row still waiting was recorded (ISO), or null when none waits. */
    oldestQueuedAt: string | null;
    /** Since when the database has refused every write as unavailable (ISO), or null while it takes them. */
    writeFailingSince: string | null;
    journalBytes: number | null;
    journalSegments: number | null;
  };
  journal: {
    enabled: boolean;
    appended: number;
    overBudget: number;
    writeErrors: number;
    /** Records a write could not put on disk (disk full): kept in memory only. */
    notJournaled: number;
    syncs: number;
    maxBytes: number | null;
  };
}

export function recorderStats(
  enabled: boolean,
  activeSessions: number,
  queue: WriteQueue,
  options: { budgets?: RecordingBudgets; journal?: JournaledRows; journalMaxBytes?: number },
): RecorderStats {
  const c = queue.counters;
  const oldestQueuedMs = queue.oldestWaitingMs();
  const journal = options.journal?.journal;
  const journalStats = journal?.stats();
  return {
    enabled,
    queuedRows: queue.queuedRows,
    activeSessions,
    written: { sessions: c.sessions, messages: c.messages, toolCalls: c.toolCalls },
    dropped: { messages: c.droppedMessages, toolCalls: c.droppedCalls, overBudget: options.budgets?.overBudget ?? 0 },
    lostOnWriteError: c.lost,
    flushes: c.flushes,
    lastFlushMs: queue.lastFlushMs,
    lastError: queue.lastError,
    behind: {
      queuedRows: queue.waitingRows,
      oldestQueuedMs,
      oldestQueuedAt: oldestQueuedMs === null ? null : new Date(Date.now() - oldestQueuedMs).toISOString(),
      writeFailingSince: queue.writeFailingSinceMs === null ? null : new Date(queue.writeFailingSinceMs).toISOString(),
      journalBytes: journalStats?.bytes ?? null,
      journalSegments: journalStats?.segments ?? null,
    },
    journal: {
      enabled: journal !== undefined,
      appended: journalStats?.appended ?? 0,
      overBudget: journalStats?.overBudget ?? 0,
      writeErrors: journalStats?.writeErrors ?? 0,
      notJournaled: journalStats?.notJournaled ?? 0,
      syncs: journalStats?.syncs ?? 0,
      maxBytes: options.journalMaxBytes ?? null,
    },
  };
}
