import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestDatabase } from '../helpers/testDatabase';
import { engineName } from '../helpers/testDatabase';
import { openRecordingWorkspace } from '../helpers/recordingWorkspace';
import { EventBus } from '../../../src/server/events/bus';
import { Recorder, type SessionOrigin } from '../../../src/server/recording/recorder';
import { Journal } from '../../../src/server/recording/journal/journal';
import { JournaledRows } from '../../../src/server/recording/journal/journaledRows';
import { listSegments, readSegment, segmentPath } from '../../../src/server/recording/journal/segmentFiles';

jest.setTimeout(60_000);

// Issue 32 (e): the journal's folder on a real file system that fills up (a 64 KiB tmpfs, far
// below the journal's budget): the recorder keeps taking traffic, counts the records the disk
// refused, writes every row to the database from memory, leaves no cut record behind, and
// journals again once its segments are freed.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolscope-journal-full-'));
function mountSmallDisk(): string | null {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir], { stdio: 'pipe' });
    return null;
  } catch (error) {
    return `cannot mount a small tmpfs (${(error as Error).message.split('\n')[0]}): needs root`;
  }
}
const unavailable = mountSmallDisk();
if (unavailable) {
  const message = `journalDiskFull.test.ts: ${unavailable}. A full disk is NOT tested here.`;
  if (process.env.CI === 'true') throw new Error(message);
  console.log(message);
}

describe(`the journal on a full disk (${engineName})`, () => {
  let database: TestDatabase;
  let origin: SessionOrigin;
  beforeAll(async () => {
    ({ database, origin } = await openRecordingWorkspace('journal-full'));
  });
  afterAll(async () => {
    await database.drop();
    if (!unavailable) execFileSync('umount', ['-l', dir]);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps recording, counts what the disk refused, stores every row, and journals again once freed', async () => {
    if (unavailable) return; // said above
    const journal = new JournaledRows(new Journal({ dir, fsyncMs: 50, maxBytes: 64 * 1024 * 1024 }));
    const recorder = new Recorder(database.db, new EventBus(), { queueLimit: 10_000, flushMs: 3_600_000, journal });
    const session = recorder.startSession(origin, { transport: 'streamable-http', mcpSessionId: 'disk-full' });
    const notify = (i: number) =>
      recorder.record(
        session,
        'client_to_server',
        { jsonrpc: '2.0', method: 'notifications/message', params: { i, text: 'x'.repeat(1000) } },
        1050,
      );
    // ~1 KB a record on a 64 KiB disk: the disk is full long before the 64 MiB budget.
    for (let i = 0; i < 150; i++) {
      notify(i);
      journal.journal.commitNow(); // one write per record, as an answered call's commit does
    }
    const full = recorder.stats();
    expect(full.journal.notJournaled).toBeGreaterThan(50);
    expect(full.journal.writeErrors).toBe(full.journal.notJournaled);
    expect(full.dropped.messages).toBe(0);
    expect(full.queuedRows).toBe(150);
    // What is on disk reads back whole: no record cut by the full disk.
    for (const id of listSegments(dir)) expect(readSegment(dir, id).stoppedBy).toBeNull();

    await recorder.flush();
    const stored = await database.db.query<{ n: number }>(
      'select count(*)::int as n from messages where session_id = $1',
      [session.row.id],
    );
    expect(stored[0].n).toBe(150);
    // The rows are in the database: their segment is rotated away by the journal's timer, freeing the disk.
    // Wait for the state — the journal empty AND its old segment files gone from the disk (the unlink
    // runs after the fsync, off the event loop) — not for a duration: a loaded machine is slow here.
    // The space itself comes back only when the unlinked file's last descriptor is closed (a tmpfs
    // keeps an open file's pages): wait for the file system to say so too.
    const bytesOnDisk = () => listSegments(dir).reduce((sum, id) => sum + fs.statSync(segmentPath(dir, id)).size, 0);
    const freeBytes = () => {
      const stats = fs.statfsSync(dir);
      return stats.bavail * stats.bsize;
    };
    const freed = () => journal.journal.stats().bytes === 0 && bytesOnDisk() === 0 && freeBytes() >= 32 * 1024;
    for (let i = 0; i < 1200 && !freed(); i++) await new Promise((r) => setTimeout(r, 25));
    expect(journal.journal.stats().bytes).toBe(0);
    expect(bytesOnDisk()).toBe(0);
    expect(freeBytes()).toBeGreaterThanOrEqual(32 * 1024);
    for (let i = 150; i < 155; i++) {
      notify(i);
      journal.journal.commitNow();
    }
    const after = recorder.stats();
    expect(after.journal.notJournaled).toBe(full.journal.notJournaled);
    expect(after.journal.appended).toBeGreaterThanOrEqual(full.journal.appended + 5); // and the session's row
    await recorder.close();
    expect(listSegments(dir)).toEqual([]);
  });
});
