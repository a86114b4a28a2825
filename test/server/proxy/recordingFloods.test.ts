import type { TestDatabase } from '../helpers/testDatabase';
import { openRecordingWorkspace } from '../helpers/recordingWorkspace';
import { EventBus } from '../../../src/server/events/bus';
import { Recorder, type SessionOrigin } from '../../../src/server/recording/recorder';
import { RecordingBudgets } from '../../../src/server/recording/recordingBudget';
import { RECORDING_BUDGETS } from '../../../src/contract/plans';

jest.setTimeout(120_000);

// What one workspace's flood may cost the others: the recorder's queue is shared fairly (a flood
// fills its own share and drops its own rows), a progress stream is stored as its first and last
// notification with its count, and a workspace past its plan's budget loses its own messages only.
describe('recording under floods', () => {
  let database: TestDatabase;
  let a: SessionOrigin;
  let b: SessionOrigin;
  beforeAll(async () => {
    ({ database, origin: a } = await openRecordingWorkspace('flood-a'));
    const [user] = await database.db.query<{ id: string }>(
      "insert into users (email, password_hash, first_name, last_name) values ('flood-b@example.com', 'x', 'B', 'B') returning id",
    );
    const [ws] = await database.db.query<{ id: string }>(
      "insert into workspaces (name, owner_id) values ('B', $1) returning id",
      [user.id],
    );
    const [server] = await database.db.query<{ id: string }>(
      "insert into servers (workspace_id, name, url, proxy_key) values ($1, 'S', 'http://127.0.0.1:1/mcp', 'k-flood-b-test-key') returning id",
      [ws.id],
    );
    b = { workspaceId: ws.id, serverId: server.id, serverName: 'S' };
  });
  afterAll(() => database.drop());

  const note = (i: number) => ({
    jsonrpc: '2.0',
    method: 'notifications/message',
    params: { level: 'info', data: `line ${i}` },
  });
  const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: {} } });
  const answer = (id: number) => ({ jsonrpc: '2.0', id, result: { content: [] } });
  const count = async (sql: string, params: unknown[]) => (await database.db.query<{ n: number }>(sql, params))[0].n;

  it('drops only the flooding workspace’s rows when the queue is under pressure', async () => {
    // A long flush interval: nothing is written while the flood fills the queue.
    const recorder = new Recorder(database.db, new EventBus(), { queueLimit: 200, flushMs: 600_000 });
    const flooder = recorder.startSession(a, { transport: 'streamable-http', mcpSessionId: 'flood' });
    for (let i = 0; i < 1_000; i++) recorder.record(flooder, 'server_to_client', note(i), 60);
    const dropped = recorder.stats().dropped.messages;
    expect(dropped).toBeGreaterThan(0);

    const quiet = recorder.startSession(b, { transport: 'streamable-http', mcpSessionId: 'quiet' });
    for (let i = 1; i <= 20; i++) {
      recorder.record(quiet, 'client_to_server', call(i), 80);
      recorder.record(quiet, 'server_to_client', answer(i), 80);
      recorder.record(quiet, 'server_to_client', note(i), 60);
    }
    // B lost nothing; A's flood kept its own share.
    expect(recorder.stats().dropped.messages).toBe(dropped);
    await recorder.close();
    expect(await count('select count(*)::int as n from tool_calls where session_id = $1', [quiet.row.id])).toBe(20);
    expect(await count('select count(*)::int as n from messages where session_id = $1', [quiet.row.id])).toBe(20);
    expect(await count('select count(*)::int as n from messages where session_id = $1', [flooder.row.id])).toBe(
      1_000 - dropped,
    );
    expect(1_000 - dropped).toBeLessThanOrEqual(200);
  });

  it('stores a progress stream as its first and last notification, the last with the count', async () => {
    const recorder = new Recorder(database.db, new EventBus(), { queueLimit: 10_000, flushMs: 600_000 });
    const session = recorder.startSession(a, { transport: 'streamable-http', mcpSessionId: 'progress' });
    recorder.record(
      session,
      'client_to_server',
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'long', arguments: {}, _meta: { progressToken: 'job' } },
      },
      90,
    );
    for (let i = 1; i <= 500; i++) {
      recorder.record(
        session,
        'server_to_client',
        { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'job', progress: i, total: 500 } },
        70,
      );
    }
    // Another token's stream beside it, never answered: written when its session ends.
    for (let i = 1; i <= 3; i++)
      recorder.record(
        session,
        'client_to_server',
        { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 7, progress: i } },
        60,
      );
    recorder.record(session, 'server_to_client', answer(1), 80);
    recorder.endSession(session);
    await recorder.close();

    const rows = await database.db.query<{ direction: string; progress: number; progress_count: number | null }>(
      "select direction, (payload->'params'->>'progress')::int as progress, progress_count from messages where session_id = $1 and method = 'notifications/progress' order by seq",
      [session.row.id],
    );
    expect(rows).toEqual([
      { direction: 'server_to_client', progress: 1, progress_count: null },
      { direction: 'server_to_client', progress: 500, progress_count: 500 },
      { direction: 'client_to_server', progress: 1, progress_count: null },
      { direction: 'client_to_server', progress: 3, progress_count: 3 },
    ]);
    // Every message still counts in the session; the call is stored whole.
    const [stored] = await database.db.query<{ message_count: number; call_count: number }>(
      'select message_count, call_count from sessions where id = $1',
      [session.row.id],
    );
    expect(stored).toEqual({ message_count: 505, call_count: 1 });
    expect(
      await count("select count(*)::int as n from tool_calls where session_id = $1 and status = 'ok'", [
        session.row.id,
      ]),
    ).toBe(1);
  });

  it('keeps a workspace within its plan’s message budget and never drops its calls', async () => {
    let nowMs = Date.parse('2026-11-25T10:00:00Z');
    const budgets = new RecordingBudgets(
      (workspaceId) => (workspaceId === a.workspaceId ? 'starter' : 'pro'),
      () => nowMs,
    );
    const recorder = new Recorder(database.db, new EventBus(), {
      queueLimit: 100_000,
      flushMs: 600_000,
      budgets,
      now: () => nowMs,
    });
    const flooder = recorder.startSession(a, { transport: 'streamable-http', mcpSessionId: 'budget-a' });
    const other = recorder.startSession(b, { transport: 'streamable-http', mcpSessionId: 'budget-b' });
    const perSecond = RECORDING_BUDGETS.starter.messagesPerSecond;
    // 10 simulated seconds of 1,000 messages each from A, 20 from B, and a call from each.
    for (let second = 0; second < 10; second++) {
      for (let i = 0; i < 1_000; i++) recorder.record(flooder, 'server_to_client', note(i), 60);
      for (let i = 0; i < 20; i++) recorder.record(other, 'server_to_client', note(i), 60);
      recorder.record(flooder, 'client_to_server', call(second), 80);
      recorder.record(flooder, 'server_to_client', answer(second), 80);
      nowMs += 1_000;
    }
    await recorder.close();
    // A: a burst of two seconds' worth, then its rate; B: everything.
    expect(await count('select count(*)::int as n from messages where session_id = $1', [flooder.row.id])).toBe(
      perSecond * 2 + perSecond * 9,
    );
    expect(await count('select count(*)::int as n from messages where session_id = $1', [other.row.id])).toBe(200);
    expect(await count('select count(*)::int as n from tool_calls where session_id = $1', [flooder.row.id])).toBe(10);
    expect(recorder.stats().dropped.overBudget).toBe(10_000 - perSecond * 11);
  });
});
