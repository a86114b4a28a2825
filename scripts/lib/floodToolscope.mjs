// Toolscope for scripts/bench-flood.mjs: the server as `npm start` runs it (recording on, journal
// on, PGlite on disk in its worker thread, or PostgreSQL with BENCH_DATABASE_URL in a scratch
// database), with two accounts, each with its workspace and a server on the same upstream origin:
// A (the flooder, BENCH_FLOOD_PLAN, default starter) at {origin}/flood, B (enterprise: no monthly
// call quota to end the bench) at {origin}/mcp. `sizes()` flushes the recorder and measures.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { requireSource as require } from './tsSources.mjs';

/** Bytes under a folder (the PGlite data folder), or null without one. */
function folderBytes(dir) {
  if (!dir) return null;
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += fs.statSync(path.join(entry.parentPath ?? entry.path, entry.name)).size;
  }
  return total;
}

async function openBenchDatabase() {
  const { openDatabase } = require('../src/server/db/database.ts');
  const base = process.env.BENCH_DATABASE_URL;
  if (!base) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolscope-bench-flood-'));
    return {
      db: await openDatabase({ dataDir }),
      engine: 'PGlite on disk, in its worker thread',
      dataDir,
      drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const { createScratchDatabase } = require('../test/server/helpers/scratchDatabase.ts');
  const scratch = await createScratchDatabase(base, 'toolscope_bench_flood');
  return {
    db: await openDatabase({ databaseUrl: scratch.url }),
    engine: 'PostgreSQL',
    dataDir: undefined,
    drop: scratch.drop,
  };
}

export async function startToolscopeForFlood(upstreamOrigin) {
  const { migrate } = require('../src/server/db/migrate.ts');
  const { buildApp } = require('../src/server/app.ts');
  const { loadConfig, generateSecret } = require('../src/server/config.ts');
  const { RECORDING_BUDGETS } = require('../src/contract/plans.ts');
  const database = await openBenchDatabase();
  const { db } = database;
  await migrate(db);
  const journalDir =
    process.env.BENCH_JOURNAL === 'off'
      ? undefined
      : fs.mkdtempSync(path.join(os.tmpdir(), 'toolscope-bench-flood-journal-'));
  const config = loadConfig(
    { TOOLSCOPE_LOG_LEVEL: 'silent' },
    { secret: generateSecret(), clientDir: undefined, healthIntervalMs: 3_600_000, journalDir },
  );
  const app = await buildApp({ config, db });
  await app.ready();
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${app.server.address().port}`;

  const floodPlan = process.env.BENCH_FLOOD_PLAN ?? 'starter';
  const account = async (name, plan, url) => {
    const [user] = await db.query(
      "insert into users (email, password_hash, first_name, last_name) values ($1, 'x', $2, 'Bench') returning id",
      [`${name}@example.com`, name],
    );
    await db.query('insert into subscriptions (user_id, plan) values ($1, $2)', [user.id, plan]);
    const [ws] = await db.query('insert into workspaces (name, owner_id) values ($1, $2) returning id', [
      name,
      user.id,
    ]);
    const key = `bench-flood-${name}-${'0'.repeat(20)}`;
    const [server] = await db.query(
      'insert into servers (workspace_id, name, url, proxy_key) values ($1, $2, $3, $4) returning id',
      [ws.id, name, url, key],
    );
    return { workspaceId: ws.id, serverId: server.id, url: `${base}/mcp/${key}` };
  };
  const a = await account('flooder', floodPlan, `${upstreamOrigin}/flood`);
  const b = await account('neighbour', 'enterprise', `${upstreamOrigin}/mcp`);

  const count = async (sql, params) => (await db.query(sql, params))[0].n;
  return {
    engine: database.engine,
    floodPlan,
    budget: RECORDING_BUDGETS[floodPlan],
    aUrl: a.url,
    bUrl: b.url,
    /** After the recorder has written what it holds: sizes, A's stored messages, B's stored calls. */
    async sizes() {
      await app.recorder.flush();
      const stats = app.recorder.stats();
      return {
        dbBytes: await count('select pg_database_size(current_database())::float8 as n'),
        messagesBytes: await count("select pg_total_relation_size('messages')::float8 as n"),
        dataDirBytes: folderBytes(database.dataDir),
        aMessages: await count('select count(*)::int as n from messages where workspace_id = $1', [a.workspaceId]),
        bCalls: await count('select count(*)::int as n from tool_calls where server_id = $1', [b.serverId]),
        overBudget: stats.dropped.overBudget,
        droppedCalls: stats.dropped.toolCalls,
      };
    },
    async close() {
      await app.close();
      await db.close();
      await database.drop();
      if (journalDir) fs.rmSync(journalDir, { recursive: true, force: true });
    },
  };
}
