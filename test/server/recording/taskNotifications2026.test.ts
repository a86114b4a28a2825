import { engineName } from '../helpers/testDatabase';
import { recordedCalls, recordedMessages } from '../helpers/recordedRows';
import { startProxyApp, type ProxyTestApp } from '../proxy/support/proxyApp';
import { replayed, send2026, startTasks2026Upstream, type Tasks2026Upstream } from './support/tasks2026Upstream';

jest.setTimeout(60_000);

// Issue 37, item 5: a 2026-07-28 task's end inlined in a `notifications/tasks` (the tasks
// extension: "Each notification carries a complete DetailedTask … identical to what tasks/get
// would have returned") ends its call with the tool's result — `ok`, an error for `isError: true`
// — or the JSON-RPC error of a failed task, on the instance holding the task and, through the
// stored row, on another one. Before, it only marked the task completed and the result was lost.

describe(`2026-07-28 task ends in notifications/tasks (${engineName})`, () => {
  let t: ProxyTestApp;
  let upstream: Tasks2026Upstream;
  beforeAll(async () => {
    upstream = await startTasks2026Upstream();
    t = await startProxyApp();
  });
  afterAll(async () => {
    await t.close();
    await upstream.close();
  });

  const sessionCounts = async (sessionId: string) =>
    (
      await t.database.db.query<{ call_count: number; error_count: number }>(
        'select call_count, error_count from sessions where id = $1',
        [sessionId],
      )
    )[0];

  /** Sums over the server's sessions, and its minute usage rows: what every screen counts. */
  const figures = async (serverId: string) => {
    const [sessions] = await t.database.db.query<{ calls: number; errors: number }>(
      'select sum(call_count)::int as calls, sum(error_count)::int as errors from sessions where server_id = $1',
      [serverId],
    );
    const [usage] = await t.database.db.query<{ calls: number | null; errors: number | null }>(
      'select sum(calls)::int as calls, sum(errors)::int as errors from usage_minutes where server_id = $1',
      [serverId],
    );
    return { sessions, usage };
  };

  it('ends the call with the result a notification inlines, the notification in its place in the replay', async () => {
    const { server, proxyUrl } = await t.register(upstream.url, { name: 'Notified renderer' });
    const url = new URL(proxyUrl.pathname, t.base);
    const events: { status?: string; result?: unknown }[] = [];
    const unsubscribe = t.app.bus.subscribe(t.account.workspaceId, (message) => {
      if (message.type === 'tool_call') events.push(message.data as { status?: string; result?: unknown });
    });
    const [created] = await send2026(url, 1, 'tools/call', { name: 'render', arguments: { doc: 'a' } }, 'render');
    const taskId = created.result?.taskId as string;
    expect(created.result).toMatchObject({ resultType: 'task', status: 'working' });
    const result = { content: [{ type: 'text', text: 'rendered 12 pages' }], isError: false };
    upstream.end(taskId, { result });
    const listened = await send2026(url, 2, 'subscriptions/listen', { notifications: { taskIds: [taskId] } });
    expect(listened.map((m) => m.method ?? 'result')).toEqual([
      'notifications/subscriptions/acknowledged',
      'notifications/tasks',
      'result',
    ]);

    await t.app.recorder.flush();
    const calls = await recordedCalls(t.database.db, 'tc.server_id = $1', [server.id]);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      jsonrpc_id: '1',
      status: 'ok',
      error_message: null,
      task_id: taskId,
      task_status: 'completed',
      // Read back as a tasks/get answer's: the task, holding the tool's result.
      result: { taskId, status: 'completed', result },
    });
    expect(await sessionCounts(calls[0].session_id)).toEqual({ call_count: 1, error_count: 0 });
    // The live stream's event shows the call as the API reads it.
    unsubscribe();
    expect(events.filter((e) => e.status === 'ok').map((e) => e.result)).toEqual([calls[0].result]);
    // The notification is a message of the session, once: the call holds its text but no place of its own.
    expect(replayed(await recordedMessages(t.database.db, calls[0].session_id))).toEqual([
      '→ tools/call 1',
      '← result 1',
      '→ subscriptions/listen 2',
      '← notifications/subscriptions/acknowledged',
      '← notifications/tasks',
      '← result 2',
    ]);
  });

  it('ends the call as an error for a tool result with isError, and for a failed task with its JSON-RPC error', async () => {
    const { server, proxyUrl } = await t.register(upstream.url, { name: 'Notified failures' });
    const url = new URL(proxyUrl.pathname, t.base);
    const [refused] = await send2026(url, 1, 'tools/call', { name: 'refuse', arguments: {} }, 'refuse');
    const [broken] = await send2026(url, 2, 'tools/call', { name: 'break', arguments: {} }, 'break');
    const refusedId = refused.result?.taskId as string;
    const brokenId = broken.result?.taskId as string;
    upstream.end(refusedId, { result: { content: [{ type: 'text', text: 'no such document' }], isError: true } });
    upstream.end(brokenId, { error: { code: -32603, message: 'renderer crashed' } });
    await send2026(url, 3, 'subscriptions/listen', { notifications: { taskIds: [refusedId, brokenId] } });

    await t.app.recorder.flush();
    const calls = await recordedCalls(t.database.db, 'tc.server_id = $1', [server.id]);
    expect(calls.map((c) => [c.task_id, c.status, c.task_status, c.error_message])).toEqual([
      [refusedId, 'error', 'completed', 'no such document'],
      [brokenId, 'error', 'failed', 'renderer crashed'],
    ]);
    expect(calls[1].result).toMatchObject({ status: 'failed', error: { code: -32603, message: 'renderer crashed' } });
    expect(await sessionCounts(calls[0].session_id)).toEqual({ call_count: 2, error_count: 2 });
  });

  it('ends the stored call of a task held by another instance with the result or error a notification inlines', async () => {
    const { server, proxyUrl } = await t.register(upstream.url, { name: 'Notified elsewhere' });
    // Two instances on one database, as behind a load balancer that sends each request anywhere.
    const first = await startProxyApp({}, t.database);
    const second = await startProxyApp({}, t.database);
    const result = { content: [{ type: 'text', text: 'exported' }] };
    let okId = '';
    let failedId = '';
    try {
      const at = (app: ProxyTestApp) => new URL(proxyUrl.pathname, app.base);
      okId = (await send2026(at(first), 1, 'tools/call', { name: 'export', arguments: {} }, 'export'))[0].result
        ?.taskId as string;
      failedId = (await send2026(at(first), 2, 'tools/call', { name: 'export', arguments: {} }, 'export'))[0].result
        ?.taskId as string;
      await first.app.recorder.flush();
      upstream.end(okId, { result });
      upstream.end(failedId, { error: { code: -32603, message: 'disk full' } });
      await send2026(at(second), 3, 'subscriptions/listen', { notifications: { taskIds: [okId, failedId] } });
      await second.app.recorder.flush();
    } finally {
      // The first instance still holds both tasks open: its stop must not undo their ends.
      await first.close();
      await second.close();
    }
    const calls = await recordedCalls(t.database.db, 'tc.server_id = $1', [server.id]);
    expect(calls.map((c) => [c.task_id, c.status, c.task_status, c.error_message])).toEqual([
      [okId, 'ok', 'completed', null],
      [failedId, 'error', 'failed', 'disk full'],
    ]);
    expect(calls[0].result).toMatchObject({ taskId: okId, status: 'completed', result });
    expect(await figures(server.id)).toEqual({ sessions: { calls: 2, errors: 1 }, usage: { calls: 2, errors: 1 } });
  });
});
