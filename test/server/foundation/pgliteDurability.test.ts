import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../../src/server/db/database';

// PGlite in a data folder is synced to disk as PostgreSQL syncs its own (pgliteDurability.ts):
// PGlite's defaults (fsync off, a file system without fsync) left every commit in the kernel's
// cache, where a power cut loses it after the recorder had already deleted its journal segment.
// A real power cut cannot be staged here; what can be checked is that every commit, checkpoint
// and the open itself reach fsync(), and that a read does not pay for one.
jest.setTimeout(60_000);

/** Files and directories below `dir`, `dir` included. */
function entriesBelow(dir: string): number {
  let count = 1;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true }))
    count += entry.isDirectory() ? entriesBelow(path.join(dir, entry.name)) : entry.isFile() ? 1 : 0;
  return count;
}

describe('PGlite in a data folder is durable', () => {
  it.each([
    ['in its own thread', false],
    ['on the calling thread', true],
  ])(
    '%s: fsync on, the WAL synced by fsync(), the folder synced at open, every commit synced',
    async (_, onCallingThread) => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolscope-durable-'));
      const db = await openDatabase({ dataDir, pgliteOnCallingThread: onCallingThread });
      try {
        const count = () => db.fsyncCount!();
        // Every file and directory PostgreSQL (or initdb before it) left, synced once at open.
        expect(await count()).toBeGreaterThanOrEqual(entriesBelow(path.join(dataDir, 'pglite')));
        expect(await db.query('show fsync')).toEqual([{ fsync: 'on' }]);
        expect(await db.query('show wal_sync_method')).toEqual([{ wal_sync_method: 'fsync' }]);

        await db.exec('create table durable_probe (v text)');
        const beforeCommits = await count();
        for (const v of ['a', 'b', 'c']) await db.query('insert into durable_probe (v) values ($1)', [v]);
        expect(await count()).toBeGreaterThanOrEqual(beforeCommits + 3);

        const beforeRead = await count();
        expect(await db.query('select count(*)::int as n from durable_probe')).toEqual([{ n: 3 }]);
        expect(await count()).toBe(beforeRead);

        // A checkpoint syncs the data files it wrote, not only the WAL.
        await db.query('insert into durable_probe (v) values ($1)', ['d']);
        const beforeCheckpoint = await count();
        await db.exec('checkpoint');
        expect(await count()).toBeGreaterThan(beforeCheckpoint + 1);
      } finally {
        await db.close();
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );

  it('in memory (the tests’ database) stays as PGlite makes it: nothing to sync', async () => {
    const db = await openDatabase({});
    try {
      expect(await db.query('show fsync')).toEqual([{ fsync: 'off' }]);
      expect(await db.fsyncCount!()).toBe(0);
    } finally {
      await db.close();
    }
  });
});
