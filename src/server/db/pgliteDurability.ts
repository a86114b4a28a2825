import type { PGlite } from '@electric-sql/pglite';

/**
 * PGlite in a data folder, made as durable as PostgreSQL, as source evaluated where PGlite runs
 * (its worker thread, pgliteThread.ts, and through new Function on the calling thread, database.ts).
 *
 * PGlite starts PostgreSQL with `-F` (fsync off), and its Node file system (Emscripten's NODEFS)
 * has no fsync: a commit reached the kernel's page cache and nothing more. A process kill loses
 * nothing that way, but a machine that loses power could lose every commit the kernel had not yet
 * written back (up to ~30 s) — commits whose journal segments the recorder had already deleted —
 * and leave PostgreSQL's files torn, which is what fsync off risks. So, on disk:
 * - PostgreSQL runs with fsync on, and `wal_sync_method = fsync`: its default, fdatasync, is a
 *   no-op in Emscripten, while fsync() reaches the file system's own fsync;
 * - NODEFS gains that fsync (Node's fsyncSync on the file's descriptor), before PostgreSQL starts
 *   (a preRun of the Emscripten module, given as a PGlite extension's set-up). PostgreSQL then
 *   syncs as it does anywhere: the WAL at every commit, the data files at every checkpoint, and the
 *   whole folder when it starts after a crash;
 * - the folder is synced once at open (every file and directory), for what PostgreSQL never
 *   synced itself: initdb's files (PGlite runs initdb without a file system fsync) and a folder
 *   written before this change.
 * In memory (the tests' database) nothing changes: there is no disk to sync.
 * A commit costs one fsync (~0.3 ms of wall time here; the recording proxy's figures did not move:
 * docs/operations.md "The embedded database's durability"); the recorder commits once per flush.
 */
export const DURABLE_PGLITE_SOURCE = String.raw`
function durablePglite(PGlite, nodeFs, nodePath, dataDir) {
  const stats = { fsyncs: 0 };
  const syncOne = (target) => {
    const fd = nodeFs.openSync(target, 'r');
    try {
      nodeFs.fsyncSync(fd);
      stats.fsyncs++;
    } finally {
      nodeFs.closeSync(fd);
    }
  };
  // Children first, then the directory that names them.
  const syncTree = (dir) => {
    for (const entry of nodeFs.readdirSync(dir, { withFileTypes: true })) {
      const target = nodePath.join(dir, entry.name);
      if (entry.isDirectory()) syncTree(target);
      else if (entry.isFile()) syncOne(target);
    }
    syncOne(dir);
  };
  const withFsync = {
    name: 'toolscope-fsync',
    setup: async (_pg, emscriptenOpts) => ({
      emscriptenOpts: {
        ...emscriptenOpts,
        preRun: [
          ...(emscriptenOpts.preRun || []),
          (mod) => {
            mod.NODEFS.stream_ops.fsync = (stream) => {
              try {
                nodeFs.fsyncSync(stream.nfd);
              } catch {
                // EIO: PostgreSQL takes a failed fsync as a reason to stop, as it should.
                throw new mod.FS.ErrnoError(29);
              }
              stats.fsyncs++;
              return 0;
            };
          },
        ],
      },
    }),
  };
  return {
    stats,
    options: {
      extensions: { toolscopeFsync: withFsync },
      startParams: PGlite.defaultStartParams.filter((param) => param !== '-F').concat(['-c', 'wal_sync_method=fsync']),
    },
    /** After PGlite.create: what PostgreSQL did not sync itself is synced now. */
    syncFolder: () => syncTree(dataDir),
  };
}
/** PGlite in memory (no dataDir), or in its folder made durable; stats counts the fsyncs. */
async function openPglite(PGlite, nodeFs, nodePath, dataDir) {
  if (!dataDir) return { db: await PGlite.create(), stats: { fsyncs: 0 } };
  const durable = durablePglite(PGlite, nodeFs, nodePath, dataDir);
  const db = await PGlite.create(dataDir, durable.options);
  durable.syncFolder();
  return { db, stats: durable.stats };
}`;

/** What openPglite gives: the database, and how many fsyncs it has made (none in memory). */
export interface OpenedPglite {
  db: PGlite;
  stats: { fsyncs: number };
}
