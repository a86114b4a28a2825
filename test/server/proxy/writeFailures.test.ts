import pg from 'pg';
import type { TestDatabase } from '../helpers/testDatabase';
import { openRecordingWorkspace } from '../helpers/recordingWorkspace';
import { engineName } from '../helpers/testDatabase';
import { recordedCalls } from '../helpers/recordedRows';
import type { Database } from '../../../src/server/db/database';
import { EventBus } from '../../../src/server/events/bus';
import { Recorder, type SessionOrigin } from '../../../src/server/recording/recorder';
import { forgetStoppedRecorders } from '../../../src/server/recording/batchGuard';
import type { LiveMessage } from '../../../src/contract/live';

jest.setTimeout(60_000);

/** The real database, with the recorder's batch statements failing as `failWith` says (null: pass). */
function failingDatabase(
  db: Database,
  failWith: (sql: string, params: unknown[]) => Error | null,
): Database & { failures: number } {
  const wrapper = {
    engine: db.engine,
    failures: 0,
    query: async <T>(sql: string, params: unknown[] = []): Promise<T[]> => {
      const error = /^with (guard|w0) as/.test(sql) ? failWith(sql, params) : null;
      if (error) {
        wrapper.failures++;
        throw error;
      }
      return db.query<T>(sql, params);
    },
    transaction: db.transaction.bind(db),
    exec: db.exec.bind(db),
    listen: db.listen.bind(db),
    notify: db.notify.bind(db),
    close: () => Promise.resolve(),
  };
  return wrapper;
}

const sqlError = (code: string, message: string) => Object.assign(new Error(message), { code });

// Nothing the agent was answered for is lost to a database that is briefly away, and one row the
// database refuses costs only itself.
describe('recorder writes that fail', () => {
  let database: TestDatabase;
  let origin: SessionOrigin;
  beforeAll(async () => {
    ({ database, origin } = await openRecordingWorkspace('write-failures'));
  });
  afterAll(() => database.drop());

  const call = (id: number, q = 'fine') => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'search', arguments: { q } },
  });
  const result = (id: number) => ({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: `r${id}` }] } });

  it('keeps a batch the database cannot take now and writes it, with what came meanwhile, once it is back', async () => {
    let down = true;
    const db = failingDatabase(database.db, () =>
      down ? sqlError('57P01', 'terminating connection due to administrator command') : null,
    );
    const usageBefore = (
      await database.db.query<{ calls: number }>(
        'select coalesce(sum(calls), 0)::int as calls from usage_minutes where server_id = $1',
        [origin.serverId],
      )
    )[0].calls;
    const recorder = new Recorder(db, new EventBus(), { queueLimit: 1000, flushMs: 20 });
    recorder.start();
    const session = recorder.startSession(origin, { transport: 'streamable-http', mcpSessionId: 'away' });
    for (let id = 1; id <= 5; id++) {
      recorder.record(session, 'client_to_server', call(id), 80);
      recorder.record(session, 'server_to_client', result(id), 80);
    }
    // The timer's write fails; the rows wait (and more arrive) while the database is away.
    for (let i = 0; i < 200 && db.failures < 2; i++) await new Promise((r) => setTimeout(r, 10));
    expect(db.failures).toBeGreaterThanOrEqual(1);
    for (let id = 6; id <= 8; id++) {
      recorder.record(session, 'client_to_server', call(id), 80);
      recorder.record(session, 'server_to_client', result(id), 80);
    }
    down = false;
    await recorder.close();

    expect(recorder.stats()).toMatchObject({ lostOnWriteError: 0, written: { toolCalls: 8 } });
    const calls = await recordedCalls(database.db, 'tc.session_id = $1', [session.row.id]);
    expect(calls.map((c) => c.jsonrpc_id).sort()).toEqual(['1', '2', '3', '4', '5', '6', '7', '8']);
    // The usage rollup went back with its batch: counted once, not lost, not doubled.
    const [usage] = await database.db.query<{ calls: number }>(
      'select coalesce(sum(calls), 0)::int as calls from usage_minutes where server_id = $1',
      [origin.serverId],
    );
    expect(usage.calls - usageBefore).toBe(8);
    const [row] = await database.db.query<{ status: string; call_count: number }>(
      'select status, call_count from sessions where id = $1',
      [session.row.id],
    );
    expect(row).toEqual({ status: 'ended', call_count: 8 });
  });

  it('stores a batch once when its connection broke after the commit (the retry is guarded by its number)', async () => {
    let breakAfterCommit = true;
    const db = failingDatabase(database.db, () => null);
    const query = db.query.bind(db);
    db.query = async <T>(sql: string, params: unknown[] = []): Promise<T[]> => {
      const rows = await query<T>(sql, params);
      if (breakAfterCommit && /^with (guard|w0) as/.test(sql)) {
        breakAfterCommit = false; // committed; the answer is lost with the connection
        throw new Error('Connection terminated unexpectedly');
      }
      return rows;
    };
    const usageBefore = (
      await database.db.query<{ calls: number }>(
        'select coalesce(sum(calls), 0)::int as calls from usage_minutes where server_id = $1',
        [origin.serverId],
      )
    )[0].calls;
    const recorder = new Recorder(db, new EventBus(), { queueLimit: 1000, flushMs: 60_000 });
    const session = recorder.startSession(origin, { transport: 'streamable-http', mcpSessionId: 'lost-answer' });
    recorder.record(session, 'client_to_server', { jsonrpc: '2.0', method: 'notifications/initialized' }, 40);
    recorder.record(session, 'client_to_server', call(1), 80);
    recorder.record(session, 'server_to_client', result(1), 80);
    await recorder.close();

    expect(recorder.stats()).toMatchObject({ lostOnWriteError: 0, written: { messages: 1, toolCalls: 1 } });
    const [messages] = await database.db.query<{ n: number }>(
      'select count(*)::int as n from messages where session_id = $1',
      [session.row.id],
    );
    expect(messages.n).toBe(1);
    const [usage] = await database.db.query<{ calls: number }>(
      'select coalesce(sum(calls), 0)::int as calls from usage_minutes where server_id = $1',
      [origin.serverId],
    );
    expect(usage.calls - usageBefore).toBe(1);
    expect(await recordedCalls(database.db, 'tc.session_id = $1', [session.row.id])).toHaveLength(1);
  });

  it('forgets the batch numbers of recorders that stopped a day ago', async () => {
    await database.db.query(
      "insert into recorder_progress (recorder_id, last_batch, updated_at) values (gen_random_uuid(), 7, now() - interval '25 hours'), (gen_random_uuid(), 9, now())",
    );
    const count = async () =>
      (await database.db.query<{ n: number }>('select count(*)::int as n from recorder_progress'))[0].n;
    const before = await count();
    expect(await forgetStoppedRecorders(database.db)).toBe(1);
    expect(await count()).toBe(before - 1);
  });

  it('writes a batch with a row the database refuses row by row: only that row is lost, and it is not announced', async () => {
    // The database refuses whatever carries this marker, alone or in a batch (as it would a value it cannot store).
    const db = failingDatabase(database.db, (_sql, params) =>
      params.some((p) => String(p).includes('POISON')) ? sqlError('22P02', 'invalid input syntax') : null,
    );
    const bus = new EventBus();
    const live: LiveMessage[] = [];
    bus.subscribe(origin.workspaceId, (m) => void live.push(m));
    const recorder = new Recorder(db, bus, { queueLimit: 1000, flushMs: 60_000 });
    const session = recorder.startSession(origin, { transport: 'streamable-http', mcpSessionId: 'poison' });
    recorder.record(session, 'client_to_server', call(1), 80);
    recorder.record(session, 'server_to_client', result(1), 80);
    recorder.record(session, 'client_to_server', call(2, 'POISON'), 80);
    recorder.record(session, 'server_to_client', result(2), 80);
    recorder.record(session, 'client_to_server', call(3), 80);
    recorder.record(session, 'server_to_client', result(3), 80);
    await recorder.close();

    expect(recorder.stats()).toMatchObject({
      lostOnWriteError: 1,
      lastError: 'invalid input syntax',
      written: { toolCalls: 2 },
    });
    const calls = await recordedCalls(database.db, 'tc.session_id = $1', [session.row.id]);
    expect(calls.map((c) => c.jsonrpc_id).sort()).toEqual(['1', '3']);
    const announced = live
      .filter((m) => m.type === 'tool_call')
      .map((m) => (m.data as { jsonrpcId: string }).jsonrpcId);
    expect(announced.sort()).toEqual(['1', '3']);
    expect(live.map((m) => m.type)).toEqual(expect.arrayContaining(['session_started', 'session_ended']));
  });

  // A real PostgreSQL dropping the recorder's connections (a restart, a failover).
  if (engineName === 'postgres') {
    it('loses nothing when the database drops its connections between writes', async () => {
      const recorder = new Recorder(database.db, new EventBus(), { queueLimit: 1000, flushMs: 20 });
      recorder.start();
      const session = recorder.startSession(origin, { transport: 'streamable-http', mcpSessionId: 'restart' });
      recorder.record(session, 'client_to_server', call(1), 80);
      recorder.record(session, 'server_to_client', result(1), 80);
      await recorder.flush();
      // From outside (the test database's own connection would be among the dropped).
      const [{ name }] = await database.db.query<{ name: string }>('select current_database() as name');
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      try {
        const killed = await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [
          name,
        ]);
        expect(killed.rowCount).toBeGreaterThan(0);
      } finally {
        await admin.end();
      }
      for (let id = 2; id <= 6; id++) {
        recorder.record(session, 'client_to_server', call(id), 80);
        recorder.record(session, 'server_to_client', result(id), 80);
      }
      await recorder.close();
      expect(recorder.stats()).toMatchObject({ lostOnWriteError: 0 });
      const calls = await recordedCalls(database.db, 'tc.session_id = $1', [session.row.id]);
      expect(calls).toHaveLength(6);
    });
  }

  it('stops writing row by row when the database goes away part way, and writes the rest once it is back', async () => {
    let statements = 0;
    const db = failingDatabase(database.db, (_sql, params) => {
      statements++;
      if (params.some((p) => String(p).includes('POISON'))) return sqlError('22P02', 'invalid input syntax');
      return statements === 3 ? sqlError('57P01', 'terminating connection due to administrator command') : null;
    });
    const bus = new EventBus();
    const live: LiveMessage[] = [];
    bus.subscribe(origin.workspaceId, (m) => void live.push(m));
    const recorder = new Recorder(db, bus, { queueLimit: 1000, flushMs: 60_000 });
    const session = recorder.startSession(origin, { transport: 'streamable-http', mcpSessionId: 'part-way' });
    for (let id = 1; id <= 4; id++) {
      recorder.record(session, 'client_to_server', call(id, id === 2 ? 'POISON' : 'fine'), 80);
      recorder.record(session, 'server_to_client', result(id), 80);
    }
    await recorder.close();
    expect(recorder.stats()).toMatchObject({ lostOnWriteError: 1, written: { toolCalls: 3 } });
    const calls = await recordedCalls(database.db, 'tc.session_id = $1', [session.row.id]);
    expect(calls.map((c) => c.jsonrpc_id).sort()).toEqual(['1', '3', '4']);
    // The session's ended row went in before the database went away; its end is announced once
    // its calls are stored too, after them.
    const events = live.filter((m) => m.type !== 'notification');
    expect(events.map((m) => m.type)).toEqual([
      'session_started',
      'tool_call',
      'tool_call',
      'tool_call',
      'session_ended',
    ]);
  });

  it('does not put back the rows of a server deleted while their write failed', async () => {
    let failing = true;
    const db = failingDatabase(database.db, () => {
      if (!failing) return null;
      failing = false;
      recorder.forgetServer(origin.serverId); // the server is deleted while this write is under way
      return sqlError('08006', 'connection failure');
    });
    const recorder = new Recorder(db, new EventBus(), { queueLimit: 1000, flushMs: 60_000 });
    const session = recorder.startSession(origin, { transport: 'streamable-http', mcpSessionId: 'forgotten' });
    recorder.record(session, 'client_to_server', call(1), 80);
    recorder.record(session, 'server_to_client', result(1), 80);
    await recorder.flush();
    expect(recorder.stats()).toMatchObject({ queuedRows: 0, lostOnWriteError: 0 });
    expect(await recordedCalls(database.db, 'tc.session_id = $1', [session.row.id])).toEqual([]);
    await recorder.close();
  });

  it('gives up at shutdown when the database stays away, and counts what was lost', async () => {
    const db = failingDatabase(database.db, () => sqlError('08006', 'connection failure'));
    const recorder = new Recorder(db, new EventBus(), { queueLimit: 1000, flushMs: 60_000 });
    const session = recorder.startSession(origin, { transport: 'streamable-http', mcpSessionId: 'gone' });
    recorder.record(session, 'client_to_server', call(1), 80);
    recorder.record(session, 'server_to_client', result(1), 80);
    recorder.record(session, 'client_to_server', { jsonrpc: '2.0', method: 'notifications/initialized' }, 40);
    const started = Date.now();
    await recorder.close();
    // Three more tries after the first (0.5 + 1 + 2 s), then the queue is dropped and counted.
    expect(Date.now() - started).toBeGreaterThanOrEqual(3_000);
    expect(db.failures).toBe(4);
    expect(recorder.stats()).toMatchObject({ queuedRows: 0, lostOnWriteError: 2 });
  });
});
