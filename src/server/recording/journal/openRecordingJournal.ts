import type { FastifyInstance } from 'fastify';
import { Journal } from './journal';
import { JournaledRows } from './journaledRows';
import { replayJournal } from './journalReplay';

/**
 * Opens the journal of the configured folder and, before the proxy serves, writes what a previous
 * process left in it (journalReplay.ts), a segment at a time, each deleted once written. When the
 * database refuses the replay the rest stay for the next start, and this one journals beside them.
 */
export async function openRecordingJournal(app: FastifyInstance): Promise<JournaledRows | undefined> {
  const { journalDir, journalFsyncMs, journalMaxBytes } = app.config;
  if (!journalDir) return undefined;
  const journal = new Journal({ dir: journalDir, fsyncMs: journalFsyncMs, maxBytes: journalMaxBytes, log: app.log });
  // Oldest first, one segment at a time (a call pending in one and settled in the next is written
  // pending, then settled: the replay asks the database each time).
  const total = { sessions: 0, messages: 0, toolCalls: 0, skipped: 0, damagedSegments: 0, segments: 0 };
  for (const { id } of [...journal.leftovers]) {
    try {
      const replayed = await replayJournal(app.db, [journal.readLeftover(id)]);
      journal.discardLeftover(id);
      for (const key of ['sessions', 'messages', 'toolCalls', 'skipped', 'damagedSegments'] as const)
        total[key] += replayed[key];
      total.segments++;
    } catch (error) {
      app.log.error(
        { err: error, segment: id },
        'recording journal replay failed: its segments are kept for the next start',
      );
      break;
    }
  }
  if (total.segments > 0) app.log.info(total, 'recording journal replayed');
  return new JournaledRows(journal);
}
