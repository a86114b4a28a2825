import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { bearer } from '../helpers/accounts';
import { engineName } from '../helpers/testDatabase';
import { recordedCalls, recordedMessages } from '../helpers/recordedRows';
import { startProxyApp, type ProxyTestApp } from '../proxy/support/proxyApp';
import { startTaskUpstream, type TaskUpstream } from './support/taskUpstream';

jest.setTimeout(60_000);

// Issue 37, item 5: a tools/call the server answers with a task (MCP 2025-11-25 tasks, the
// official SDK on both sides) is one tool call for the user — open while the task runs, its polls
// and statuses messages of the session in their place, settled by the task's final result, its
// failure or its cancellation, timed to the task's end — even when another session (or another
// Toolscope instance) asks for the result.

/** A stored time in ms (the drivers give Date objects or ISO text). */
const ms = (time: unknown) => (time instanceof Date ? time.getTime() : Date.parse(String(time)));

interface StoredTask {
  task_id: string | null;
  task_status: string | null;
  response_seq: number | null;
}

describe(`tool calls answered with a task (${engineName})`, () => {
  let t: ProxyTestApp;
  let upstream: TaskUpstream;
  let proxyUrl: URL;
  let serverId: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    upstream = await startTaskUpstream();
    t = await startProxyApp();
    const registered = await t.register(upstream.url, { name: 'Jobs' });
    proxyUrl = registered.proxyUrl;
    serverId = registered.server.id;
  });
  afterAll(async () => {
    for (const client of clients) await client.close();
    await t.close();
    await upstream.close();
  });

  const connect = async (name: string, base = t.base) => {
    const client = new Client({ name, version: '1.0.0' });
    clients.push(client);
    await client.connect(new StreamableHTTPClientTransport(new URL(proxyUrl.pathname, base)));
    return client;
  };
  /** The call of `job`, as the API reads it, with its task columns. */
  const callOf = async (job: string) => {
    const calls = await recordedCalls(t.database.db, `tc.server_id = $1 and tc.request_payload like $2`, [
      serverId,
      `%"job":"${job}"%`,
    ]);
    expect(calls).toHaveLength(1);
    const [task] = await t.database.db.query<StoredTask>(
      'select task_id, task_status, response_seq from tool_calls where id = $1',
      [calls[0].id],
    );
    return { ...calls[0], ...task };
  };
  /** The session's calls as the API lists them. */
  const liveCallsOf = async (sessionId: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/workspaces/${t.account.workspaceId}/tool-calls/live?session_id=${sessionId}`,
      headers: bearer(t.account.accessToken),
    });
    expect(res.statusCode).toBe(200);
    return res.json<{ toolCalls: unknown[] }>().toolCalls;
  };
  const sessionCounts = async (sessionId: string) =>
    (
      await t.database.db.query<{ call_count: number; error_count: number }>(
        'select call_count, error_count from sessions where id = $1',
        [sessionId],
      )
    )[0];
  /** The session's replay from the tools/call on: who sent what, and the task status an answer gave. */
  const replayFrom = async (sessionId: string) => {
    const messages = await recordedMessages(t.database.db, sessionId);
    const shown = messages.map((m) => {
      const payload = m.payload as {
        method?: string;
        result?: { status?: string; task?: { status?: string }; content?: { text?: string }[] };
      };
      const status = payload.result?.task?.status ?? payload.result?.status;
      return {
        direction: m.direction,
        method: payload.method,
        ...(status === undefined ? {} : { status }),
        ...(payload.result?.content ? { text: payload.result.content[0]?.text } : {}),
        created_at: m.created_at,
      };
    });
    return shown.slice(shown.findIndex((m) => m.method === 'tools/call'));
  };

  it('records a task polled to completion as one call, open until the task ends, with its final result', async () => {
    const client = await connect('polling-agent');
    const stream = client.experimental.tasks.callToolStream(
      { name: 'work', arguments: { job: 'polled' } },
      CallToolResultSchema,
      { task: { ttl: 60_000 } },
    );
    const lifecycle: string[] = [];
    for await (const message of stream) {
      if (message.type === 'taskCreated') lifecycle.push('created');
      else if (message.type === 'taskStatus') {
        lifecycle.push(message.task.status);
        // The task ends once the agent has seen it running (the call is open meanwhile).
        if (message.task.status === 'working') {
          await t.app.recorder.flush();
          const open = await callOf('polled');
          expect(open).toMatchObject({ status: 'pending', task_status: 'working', ended_at: null });
          expect(open.task_id).toBe(message.task.taskId);
          expect(await liveCallsOf(open.session_id)).toEqual([
            expect.objectContaining({ status: 'pending', task: { id: message.task.taskId, status: 'working' } }),
          ]);
          await upstream.finish(message.task.taskId, 'done: polled');
        }
      } else if (message.type === 'result')
        lifecycle.push(`result: ${(message.result.content[0] as { text?: string } | undefined)?.text}`);
      else throw message.error;
    }
    expect(lifecycle).toEqual(['created', 'working', 'completed', 'result: done: polled']);

    await t.app.recorder.flush();
    const call = await callOf('polled');
    expect(call).toMatchObject({
      tool_name: 'work',
      status: 'ok',
      error_message: null,
      task_status: 'completed',
      result: { content: [{ type: 'text', text: 'done: polled' }] },
    });
    expect(call.task_id).toBe(upstream.taskIds.at(-1));
    expect(await liveCallsOf(call.session_id)).toEqual([
      expect.objectContaining({ status: 'ok', task: { id: call.task_id, status: 'completed' } }),
    ]);
    expect(await sessionCounts(call.session_id)).toEqual({ call_count: 1, error_count: 0 });

    // The replay: the call's request, the task it was answered with, each poll and its answer,
    // the result asked for and the final result (the call's answer), in order.
    const replay = await replayFrom(call.session_id);
    expect(replay.map(({ created_at: _, ...m }) => m)).toEqual([
      { direction: 'client_to_server', method: 'tools/call' },
      { direction: 'server_to_client', status: 'working' },
      { direction: 'client_to_server', method: 'tasks/get' },
      { direction: 'server_to_client', status: 'working' },
      { direction: 'client_to_server', method: 'tasks/get' },
      { direction: 'server_to_client', status: 'completed' },
      { direction: 'client_to_server', method: 'tasks/result' },
      { direction: 'server_to_client', text: 'done: polled' },
    ]);
    // Its duration runs from the request to the task's end (the poll that found it completed),
    // not to the answer that created the task.
    const startedMs = ms(replay[0].created_at);
    const completedMs = ms(replay[5].created_at);
    expect(ms(call.ended_at)).toBe(completedMs);
    expect(Number(call.duration_ms)).toBe(completedMs - startedMs);
    expect(completedMs).toBeGreaterThan(ms(replay[1].created_at));
  });

  it('settles a task the agent cancels as cancelled, with the reason the server gives', async () => {
    const client = await connect('cancelling-agent');
    const stream = client.experimental.tasks.callToolStream(
      { name: 'work', arguments: { job: 'cancelled' } },
      CallToolResultSchema,
      { task: { ttl: 60_000 } },
    );
    const lifecycle: string[] = [];
    for await (const message of stream) {
      if (message.type === 'taskCreated') {
        lifecycle.push('created');
        const cancelled = await client.experimental.tasks.cancelTask(message.task.taskId);
        lifecycle.push(`cancel: ${cancelled.status}`);
      } else if (message.type === 'taskStatus') lifecycle.push(message.task.status);
      else lifecycle.push(message.type);
    }
    expect(lifecycle).toEqual(['created', 'cancel: cancelled', 'cancelled', 'error']);

    await t.app.recorder.flush();
    const call = await callOf('cancelled');
    expect(call).toMatchObject({
      status: 'cancelled',
      task_status: 'cancelled',
      error_message: 'Cancelled: Client cancelled task execution.',
    });
    expect(await sessionCounts(call.session_id)).toEqual({ call_count: 1, error_count: 0 });
    const replay = await replayFrom(call.session_id);
    expect(replay.map(({ created_at: _, ...m }) => m)).toEqual([
      { direction: 'client_to_server', method: 'tools/call' },
      { direction: 'server_to_client', status: 'working' },
      { direction: 'client_to_server', method: 'tasks/cancel' },
      { direction: 'server_to_client', status: 'cancelled' },
      { direction: 'client_to_server', method: 'tasks/get' },
      { direction: 'server_to_client', status: 'cancelled' },
    ]);
    // The cancel's answer is the call's answer; the poll after it a message of the session.
    expect(call.response_seq).not.toBeNull();
    expect(ms(call.ended_at)).toBe(ms(replay[3].created_at));
  });

  it('settles a failed task as an error of its session', async () => {
    const client = await connect('failing-agent');
    const stream = client.experimental.tasks.callToolStream(
      { name: 'work', arguments: { job: 'failed' } },
      CallToolResultSchema,
      { task: { ttl: 60_000 } },
    );
    const lifecycle: string[] = [];
    for await (const message of stream) {
      if (message.type === 'taskStatus') {
        lifecycle.push(message.task.status);
        if (message.task.status === 'working') await upstream.fail(message.task.taskId, 'disk full');
      } else lifecycle.push(message.type);
    }
    expect(lifecycle).toEqual(['taskCreated', 'working', 'failed', 'error']);

    await t.app.recorder.flush();
    const call = await callOf('failed');
    expect(call).toMatchObject({ status: 'error', task_status: 'failed', error_message: 'The task failed' });
    expect(await sessionCounts(call.session_id)).toEqual({ call_count: 1, error_count: 1 });
  });

  it('settles the call opened by one session with the result another session asks for', async () => {
    const opener = await connect('opening-agent');
    const created = await opener.request(
      { method: 'tools/call', params: { name: 'work', arguments: { job: 'handed over' }, task: { ttl: 60_000 } } },
      CreateTaskResultSchema,
    );
    await upstream.finish(created.task.taskId, 'done: handed over');
    const other = await connect('result-agent');
    const result = await other.experimental.tasks.getTaskResult(created.task.taskId, CallToolResultSchema);
    expect(result.content).toEqual([{ type: 'text', text: 'done: handed over' }]);

    await t.app.recorder.flush();
    const call = await callOf('handed over');
    expect(call).toMatchObject({
      status: 'ok',
      task_status: 'completed',
      result: { content: [{ type: 'text', text: 'done: handed over' }] },
      // The answer is a message of the other session: it has no place in the call's.
      response_seq: null,
    });
    const [asking] = await t.database.db.query<{ id: string }>(
      "select id from sessions where server_id = $1 and client_name = 'result-agent'",
      [serverId],
    );
    expect(asking.id).not.toBe(call.session_id);
    const theirs = (await recordedMessages(t.database.db, asking.id)).map((m) => m.payload as { method?: string });
    expect(theirs.map((m) => m.method ?? 'answer').slice(-2)).toEqual(['tasks/result', 'answer']);
    expect(await sessionCounts(call.session_id)).toEqual({ call_count: 1, error_count: 0 });
  });

  it('settles a call opened through one instance with the result asked through another', async () => {
    const opener = await connect('first-instance-agent');
    const created = await opener.request(
      { method: 'tools/call', params: { name: 'work', arguments: { job: 'elsewhere' }, task: { ttl: 60_000 } } },
      CreateTaskResultSchema,
    );
    await t.app.recorder.flush();
    expect(await callOf('elsewhere')).toMatchObject({ status: 'pending', task_status: 'working' });

    const second = await startProxyApp({}, t.database);
    try {
      await upstream.fail(created.task.taskId, 'quota exceeded');
      const other = await connect('second-instance-agent', second.base);
      const result = await other.experimental.tasks.getTaskResult(created.task.taskId, CallToolResultSchema);
      expect(result.isError).toBe(true);
      await second.app.recorder.flush();
    } finally {
      await second.close();
    }
    const call = await callOf('elsewhere');
    expect(call).toMatchObject({
      status: 'error',
      error_message: 'quota exceeded',
      task_status: 'failed',
      result: { content: [{ type: 'text', text: 'quota exceeded' }], isError: true },
      response_seq: null,
    });
    expect(Number(call.duration_ms)).toBe(ms(call.ended_at) - ms(call.started_at));
    expect((await sessionCounts(call.session_id)).error_count).toBe(1);
  });

  it('ends a task nobody asks about once its ttl has passed, as a timeout', async () => {
    const client = await connect('forgetful-agent');
    await client.request(
      { method: 'tools/call', params: { name: 'work', arguments: { job: 'forgotten' }, task: { ttl: 1 } } },
      CreateTaskResultSchema,
    );
    await t.app.recorder.flush();
    expect(await callOf('forgotten')).toMatchObject({ status: 'pending' });
    // The recorder's sweep of unanswered calls ends it once the millisecond of its ttl is over.
    let call = await callOf('forgotten');
    while (call.status === 'pending') {
      t.app.recorder.sweepIdle();
      await t.app.recorder.flush();
      call = await callOf('forgotten');
    }
    expect(call).toMatchObject({ status: 'timeout', error_message: 'The task did not end within its ttl' });
  });

  // Last: it changes the workspace's redaction rules.
  it("applies the tool's redaction paths to the task's final result", async () => {
    const settings = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/workspaces/${t.account.workspaceId}/redaction`,
      headers: bearer(t.account.accessToken),
      payload: {
        rules: [],
        customPatterns: [],
        paths: [{ path: 'result.content[*].text', tool: 'work' }],
        allowlist: [],
      },
    });
    expect(settings.statusCode).toBe(200);
    const client = await connect('redacted-agent');
    const created = await client.request(
      { method: 'tools/call', params: { name: 'work', arguments: { job: 'secret' }, task: { ttl: 60_000 } } },
      CreateTaskResultSchema,
    );
    await upstream.finish(created.task.taskId, 'the launch code is 0000');
    const result = await client.experimental.tasks.getTaskResult(created.task.taskId, CallToolResultSchema);
    expect(result.content).toEqual([{ type: 'text', text: 'the launch code is 0000' }]);

    await t.app.recorder.flush();
    const call = await callOf('secret');
    expect(call.status).toBe('ok');
    expect(JSON.stringify(call.result)).not.toContain('launch code');
    expect(call.result).toMatchObject({ content: [{ type: 'text', text: expect.stringMatching(/^\[REDACTED:/) }] });
  });
});
