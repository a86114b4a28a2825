import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { writeDailyExport } from '../../../src/server/modules/retention/dailyExport';
import { watchFileSyncs } from '../helpers/fileSyncs';
import { engineName, openTestDatabase, type TestDatabase } from '../helpers/testDatabase';

// "Export comes before expiry": the retention job expires a day's rows right after it writes the
// day's file, and the database's expiry is durable at once. So the file must be on disk first —
// its bytes synced before it gets its name, and the name synced — or a machine crash could take
// both the rows and the file that holds them.
describe(`a day's export is on disk before it is named (${engineName})`, () => {
  let t: TestDatabase;
  let dir: string;
  beforeAll(async () => {
    t = await openTestDatabase();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolscope-export-sync-'));
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await t.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('syncs the file, then renames it, then syncs its folder', async () => {
    const events = watchFileSyncs();
    const rename = fs.renameSync;
    jest.spyOn(fs, 'renameSync').mockImplementation((from, to) => {
      events.push(`rename ${String(to)}`);
      rename(from, to);
    });

    const workspaceId = randomUUID();
    const file = await writeDailyExport(t.db, dir, workspaceId, '2026-11-29');
    expect(events).toEqual([`sync ${file}.partial`, `rename ${file}`, `sync ${path.join(dir, workspaceId)}`]);
    expect(fs.existsSync(file)).toBe(true);
    expect(fs.existsSync(`${file}.partial`)).toBe(false);
  });
});
