import http from 'node:http';
import { engineName } from '../helpers/testDatabase';
import { recordedCalls, recordedMessages } from '../helpers/recordedRows';
import { startProxyApp, type ProxyTestApp } from '../proxy/support/proxyApp';
import { listenOnLoopback } from '../helpers/loopbackServer';

jest.setTimeout(60_000);

// Issue 37, item 5: a 2026-07-28 multi round-trip tool call — the server answers
// `resultType: "input_required"`, the client sends the call again under a new id with
// `inputResponses` and the `requestState` echoed — is one tool call for the user: one row from
// the first request to the final answer, its rounds visible in the session's replay.

/** A stateless 2026-07-28 server whose `confirm_delete` asks the user to confirm first. */
async function startAskingUpstream() {
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    req.on('end', () => {
      const message = JSON.parse(text) as { id: number; params: Record<string, unknown> };
      const { requestState, inputResponses } = message.params as {
        requestState?: string;
        inputResponses?: { confirm?: { action?: string } };
      };
      const result =
        requestState === 'state-1' && inputResponses?.confirm?.action === 'accept'
          ? { resultType: 'complete', content: [{ type: 'text', text: 'deleted 3 files' }] }
          : {
              resultType: 'input_required',
              inputRequests: {
                confirm: {
                  method: 'elicitation/create',
                  params: { message: 'Delete 3 files?', requestedSchema: { type: 'object', properties: {} } },
                },
              },
              requestState: 'state-1',
            };
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
    });
  });
  return listenOnLoopback(server);
}

/** A stateless 2026-07-28 `confirm_delete` call at `url`; `extra`: what a retry adds to its params. */
async function callTool(url: URL, id: number, extra: Record<string, unknown>) {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'confirm_delete',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: {
        name: 'confirm_delete',
        arguments: { folder: 'tmp' },
        _meta: { 'io.modelcontextprotocol/clientInfo': { name: 'rounds-agent', version: '1.0.0' } },
        ...extra,
      },
    }),
  });
  return (await res.json()) as { result: { resultType: string; requestState?: string } };
}

/** Who sent what in a replay: direction, kind, JSON-RPC id and the result's type. */
function rounds(replay: { direction: string; kind: string; payload: unknown }[]) {
  return replay.map((m) => {
    const payload = m.payload as { id?: number; result?: { resultType?: string } } | null;
    return { direction: m.direction, kind: m.kind, id: String(payload?.id), resultType: payload?.result?.resultType };
  });
}

const ACCEPT = { inputResponses: { confirm: { action: 'accept', content: {} } } };

/** Resolves once `condition` holds (checked every few ms: a state, not a duration). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe(`multi round-trip tool calls (${engineName})`, () => {
  let t: ProxyTestApp;
  let upstream: Awaited<ReturnType<typeof startAskingUpstream>>;
  beforeAll(async () => {
    upstream = await startAskingUpstream();
    t = await startProxyApp();
  });
  afterAll(async () => {
    await t.close();
    await upstream.close();
  });

  it('records an input_required answer and the retry under a new id as one call with its rounds', async () => {
    const { server, proxyUrl } = await t.register(upstream.url, { name: 'Files' });
    const call = (id: number, extra: Record<string, unknown>) =>
      callTool(new URL(proxyUrl.pathname, t.base), id, extra);
    const first = await call(1, {});
    expect(first.result).toMatchObject({ resultType: 'input_required', requestState: 'state-1' });
    const retry = await call(2, { ...ACCEPT, requestState: first.result.requestState });
    expect(retry.result).toMatchObject({ resultType: 'complete' });

    await t.app.recorder.flush();
    const calls = await recordedCalls(t.database.db, 'tc.server_id = $1', [server.id]);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      jsonrpc_id: '1',
      tool_name: 'confirm_delete',
      status: 'ok',
      result: { resultType: 'complete', content: [{ type: 'text', text: 'deleted 3 files' }] },
    });
    const sessions = await t.database.db.query<{ call_count: number }>(
      'select call_count from sessions where id = $1',
      [calls[0].session_id],
    );
    expect(sessions[0].call_count).toBe(1);

    // The replay: the first request, the interim answer, the retry, the final answer, in order,
    // each as it travelled (the call's row keeps the first round's id: the final answer is shown
    // as the call's answer).
    const replay = await recordedMessages(t.database.db, calls[0].session_id);
    expect(rounds(replay)).toEqual([
      { direction: 'client_to_server', kind: 'request', id: '1', resultType: undefined },
      { direction: 'server_to_client', kind: 'response', id: '1', resultType: 'input_required' },
      { direction: 'client_to_server', kind: 'request', id: '2', resultType: undefined },
      { direction: 'server_to_client', kind: 'response', id: '2', resultType: 'complete' },
    ]);
  });

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

  /** A server's calls, asserted to be one: the first round's, ended by the retry's final answer. */
  async function oneCallEndedByTheRetry(serverId: string) {
    const calls = await recordedCalls(t.database.db, 'tc.server_id = $1', [serverId]);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      jsonrpc_id: '1',
      status: 'ok',
      error_message: null,
      result: { resultType: 'complete', content: [{ type: 'text', text: 'deleted 3 files' }] },
    });
    return calls;
  }

  it('continues a call waiting on one instance with the retry another instance receives', async () => {
    const { server, proxyUrl } = await t.register(upstream.url, { name: 'Files elsewhere' });
    // Two instances on one database, as behind a load balancer that sends each request anywhere.
    const first = await startProxyApp({}, t.database);
    const second = await startProxyApp({}, t.database);
    try {
      const asked = await callTool(new URL(proxyUrl.pathname, first.base), 1, {});
      expect(asked.result).toMatchObject({ resultType: 'input_required', requestState: 'state-1' });
      await first.app.recorder.flush();
      const done = await callTool(new URL(proxyUrl.pathname, second.base), 2, {
        ...ACCEPT,
        requestState: asked.result.requestState,
      });
      expect(done.result).toMatchObject({ resultType: 'complete' });
      await second.app.recorder.flush();
    } finally {
      // The first instance still held the call for its retry: its end must not undo the answer.
      await first.close();
      await second.close();
    }

    const calls = await oneCallEndedByTheRetry(server.id);
    expect(Number(calls[0].duration_ms)).toBeGreaterThanOrEqual(0);
    expect(await figures(server.id)).toEqual({ sessions: { calls: 1, errors: 0 }, usage: { calls: 1, errors: 0 } });

    // Each instance inferred the agent's session of its own (stateless traffic): the call's session
    // shows its first round, the other the retry and its answer, each as it travelled.
    const sessions = await t.database.db.query<{ id: string }>(
      'select id from sessions where server_id = $1 order by started_at',
      [server.id],
    );
    const replays = await Promise.all(sessions.map((s) => recordedMessages(t.database.db, s.id)));
    expect(sessions[0].id).toBe(calls[0].session_id);
    expect(replays.map(rounds)).toEqual([
      [
        { direction: 'client_to_server', kind: 'request', id: '1', resultType: undefined },
        { direction: 'server_to_client', kind: 'response', id: '1', resultType: 'input_required' },
      ],
      [
        { direction: 'client_to_server', kind: 'request', id: '2', resultType: undefined },
        { direction: 'server_to_client', kind: 'response', id: '2', resultType: 'complete' },
      ],
    ]);
  });

  // Before its holder stores the waiting call (within its flush, ~50 ms, or however long a slow
  // database takes), a retry through another instance finds no waiting row and is a call of its
  // own; whichever side writes second joins the two halves. Both apps write only when told here.
  it.each(['the holder', "the retry's instance"])(
    'joins a retry answered elsewhere before the waiting call was stored, %s writing second',
    async (second) => {
      const { server, proxyUrl } = await t.register(upstream.url, { name: `Files raced, ${second} second` });
      const holder = await startProxyApp({ recorderFlushMs: 3_600_000 }, t.database);
      const other = await startProxyApp({ recorderFlushMs: 3_600_000 }, t.database);
      try {
        const asked = await callTool(new URL(proxyUrl.pathname, holder.base), 1, {});
        expect(asked.result).toMatchObject({ resultType: 'input_required', requestState: 'state-1' });
        const done = await callTool(new URL(proxyUrl.pathname, other.base), 2, {
          ...ACCEPT,
          requestState: asked.result.requestState,
        });
        expect(done.result).toMatchObject({ resultType: 'complete' });
        // The retry's answer found no waiting row: its own call is queued beside its two messages.
        await until(() => other.app.recorder.stats().queuedRows >= 3);
        const [first, last] = second === 'the holder' ? [other, holder] : [holder, other];
        await first.app.recorder.flush();
        await last.app.recorder.flush();
      } finally {
        await holder.close();
        await other.close();
      }
      const calls = await oneCallEndedByTheRetry(server.id);
      expect(await figures(server.id)).toEqual({ sessions: { calls: 1, errors: 0 }, usage: { calls: 1, errors: 0 } });
      // Nothing that travelled is lost by the join: the retry and its answer stay in their session's replay.
      const sessions = await t.database.db.query<{ id: string }>(
        'select id from sessions where server_id = $1 and id <> $2',
        [server.id, calls[0].session_id],
      );
      expect(sessions).toHaveLength(1);
      expect(rounds(await recordedMessages(t.database.db, sessions[0].id))).toEqual([
        { direction: 'client_to_server', kind: 'request', id: '2', resultType: undefined },
        { direction: 'server_to_client', kind: 'response', id: '2', resultType: 'complete' },
      ]);
    },
  );

  it('records a retry whose call waits nowhere as a call of its own', async () => {
    const { server, proxyUrl } = await t.register(upstream.url, { name: 'Files unknown' });
    const done = await callTool(new URL(proxyUrl.pathname, t.base), 7, { ...ACCEPT, requestState: 'state-1' });
    expect(done.result).toMatchObject({ resultType: 'complete' });
    await t.app.recorder.flush();
    const calls = await recordedCalls(t.database.db, 'tc.server_id = $1', [server.id]);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ jsonrpc_id: '7', status: 'ok' });
    expect(await figures(server.id)).toEqual({ sessions: { calls: 1, errors: 0 }, usage: { calls: 1, errors: 0 } });
    // Its request and answer are in the replay once each.
    expect(rounds(await recordedMessages(t.database.db, calls[0].session_id))).toEqual([
      { direction: 'client_to_server', kind: 'request', id: '7', resultType: undefined },
      { direction: 'server_to_client', kind: 'response', id: '7', resultType: 'complete' },
    ]);
  });
});
