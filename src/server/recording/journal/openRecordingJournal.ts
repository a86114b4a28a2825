import type { FastifyInstance } from 'fastify';
import { Journal } from './journal';
import { JournaledRows } from './journaledRows';
import { replayJournal } from './journalReplay';

/**
 * Opens the journal of the configured folder and, before the proxy serves, writes what a previous
 * process left in it (journalReplay.ts); the replayed segments are deleted once written. When the
 * database refuses the replay they stay for the next start, and this one journals beside them.
 */
export async function openRecordingJournal(app: FastifyInstance): Promise<JournaledRows | undefined> {
  const { journalDir, journalFsyncMs, journalMaxBytes } = app.config;
  if (!journalDir) return undefined;
  const journal = new Journal({ dir: journalDir, fsyncMs: journalFsyncMs, maxBytes: journalMaxBytes, log: app.log });
  const leftovers = journal.leftovers;
  if (leftovers.length > 0) {
    try {
      const replayed = await replayJournal(app.db, leftovers);
      journal.discardLeftovers();
      app.log.info({ ...replayed, segments: leftovers.length }, 'recording journal replayed');
    } catch (error) {
      app.log.error({ err: error }, 'recording journal replay failed: its segments are kept for the next start');
    }
  }
  return new JournaledRows(journal);
}
