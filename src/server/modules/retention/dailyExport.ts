import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Queryable } from '../../db/database';
import { dailyExportFilename } from '../../../contract/dataExport';
import { syncPathLater } from '../../files/fileSync';
import { makePrivateDir } from '../../files/privatePaths';
import { exportLines } from '../sessions/workspaceExport';

// Scheduled daily exports (docs/operations.md "Export"): each workspace whose owner asked for it
// gets one JSON Lines file per UTC day in {TOOLSCOPE_EXPORT_DIR}/{workspaceId}/, written by the
// retention job before it expires anything — so what a day's file holds was exported before it
// could go. A file is written under a temporary name, synced and renamed whole; a missed day
// (Toolscope down) is written at the next run, at most MAX_CATCH_UP_DAYS back.

const DAY_MS = 86_400_000;
const MAX_CATCH_UP_DAYS = 7;

const dayText = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Writes one workspace's file of one UTC day; returns its path. */
export async function writeDailyExport(db: Queryable, dir: string, workspaceId: string, day: string): Promise<string> {
  const folder = path.join(dir, workspaceId);
  makePrivateDir(folder);
  const file = path.join(folder, dailyExportFilename(day));
  const partial = `${file}.partial`;
  const from = `${day}T00:00:00.000Z`;
  const to = new Date(Date.parse(from) + DAY_MS - 1).toISOString();
  const lines = exportLines(db, { workspaceId, from, to, parts: ['sessions', 'audit'] }, new Date());
  await pipeline(
    Readable.from(
      (async function* () {
        for await (const line of lines) yield `${JSON.stringify(line)}\n`;
      })(),
    ),
    fs.createWriteStream(partial, { mode: 0o600 }),
  );
  // Synced before it is named, and its name synced: the retention job expires this day's rows next,
  // and a machine crash must not take both the rows and the file that holds them.
  await syncPathLater(partial);
  fs.renameSync(partial, file);
  await syncPathLater(folder);
  return file;
}

/** Every file due by `now` (the days up to yesterday not written yet); returns the paths written. */
export async function runDailyExports(db: Queryable, dir: string, now: Date): Promise<string[]> {
  const yesterday = Math.floor(now.getTime() / DAY_MS) * DAY_MS - DAY_MS;
  // As text: drivers turn a date into a Date at local midnight, which is not the UTC day.
  const due = await db.query<{ id: string; through: string | null }>(
    'select id, daily_export_through::text as through from workspaces where daily_export order by id',
  );
  const written: string[] = [];
  for (const workspace of due) {
    const through = workspace.through === null ? null : Date.parse(`${workspace.through}T00:00:00.000Z`);
    let day = Math.max(through === null ? yesterday : through + DAY_MS, yesterday - (MAX_CATCH_UP_DAYS - 1) * DAY_MS);
    for (; day <= yesterday; day += DAY_MS) {
      written.push(await writeDailyExport(db, dir, workspace.id, dayText(day)));
      await db.query('update workspaces set daily_export_through = $2 where id = $1', [workspace.id, dayText(day)]);
    }
  }
  return written;
}
