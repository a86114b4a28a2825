import type { TestDatabase } from '../helpers/testDatabase';
import { openRecordingWorkspace } from '../helpers/recordingWorkspace';
import { EventBus } from '../../../src/server/events/bus';
import { Recorder, type SessionOrigin } from '../../../src/server/recording/recorder';
import type { LiveMessage } from '../../../src/contract/live';
import { recordedCalls, recordedMessages } from '../helpers/recordedRows';

jest.setTimeout(60_000);

// The recorder on its own, with a simulated clock: bounded queue, idle endings, the inference
// rule's gap, shutdown flush, and the live events that follow stored rows.
describe('recorder', () => {
  let database: TestDatabase;
  let origin: SessionOrigin;
  let clock = Date.parse('2026-11-21T10:00:00Z');
  const now = () => clock;

  beforeAll(async () => {
    ({ database, origin } = await openRecordingWorkspace('recorder'));
  });
  afterAll(() => database.drop());

  const make = (bus = new EventBus(), extra: Partial<ConstructorParameters<typeof Recorder>[2]> = {}) =>
    new Recorder(database.db, bus, { queueLimit: 1000, flushMs: 10_000, now, ...extra });
  const call = (id: number) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'search', arguments: { q: `query ${id}` } },
  });
  const result = (id: number) => ({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: 'found' }] } });

  it('drops and counts what does not fit the queue instead of blocking', async () => {
    const recorder = make(new EventBus(), { queueLimit: 10 });
    const session = recorder.startSession(origin, { transport: 'streamable-http', mcpSessionId: 'bounded' });
    for (let i = 0; i < 15; i++)
      recorder.record(
        session,
        'client_to_server',
        { jsonrpc: '2.0', method: 'notifications/progress', params: { i } },
        50,
      );
    // Alone in the queue, a workspace fills its fair share (half: the other half waits for a
    // newcomer, docs/proxy.md "Limits under load") and drops the rest.
    expect(recorder.stats()).toMatchObject({ queuedRows: 5, dropped: { messages: 10, toolCalls: 0 } });
    await recorder.close();
    const [{ n }] = await database.db.query<{ n: number }>(
      'select count(*)::int as n from messages where session_id = $1',
      [session.row.id],
    );
    expect(n).toBe(5);
    const [row] = await database.db.query<{ message_count: number; status: string }>(
      'select message_count, status from sessions where id = $1',
      [session.row.id],
    );
    expect(row).toEqual({ message_count: 15, status: 'ended' });
  });

  it('pairs calls with results, rolls usage up per minute and announces stored rows', async () => {
    const bus = new EventBus();
    const live: LiveMessage[] = [];
    bus.subscribe(origin.workspaceId, (m) => void live.push(m));
    const recorder = make(bus);
    const session = recorder.startSession(origin, {
      transport: 'streamable-http',
      mcpSessionId: 'pairs',
      clientName: 'agent',
      clientVersion: '1',
    });
    recorder.record(session, 'client_to_server', call(1), 100);
    clock += 250;
    recorder.record(session, 'server_to_client', result(1), 300);
    recorder.record(session, 'client_to_server', call(2), 100);
    expect(live).toEqual([]); // nothing is announced before it is stored
    await recorder.flush();
    // Call 2 is in flight: announced as started (the activity stream shows it pending, issue 38).
    expect(live.map((m) => m.type)).toEqual(['session_started', 'tool_call', 'tool_call_started']);
    expect(live[2].data).toMatchObject({ status: 'pending', arguments: { q: 'query 2' } });
    expect(live[1].data).toMatchObject({
      toolName: 'search',
      status: 'ok',
      durationMs: 250,
      requestBytes: 100,
      responseBytes: 300,
      tokens: expect.any(Number),
      arguments: { q: 'query 1' },
    });

    // Call 2 never gets an answer: the session's end settles it as an error.
    await recorder.close();
    expect(live.map((m) => m.type)).toEqual([
      'session_started',
      'tool_call',
      'tool_call_started',
      'tool_call',
      'session_ended',
    ]);
    expect(live[3].data).toMatchObject({
      toolName: 'search',
      status: 'timeout',
      errorMessage: 'No response before the session ended',
    });
    expect(live[4].data).toMatchObject({ status: 'ended', callCount: 2, errorCount: 1, messageCount: 3 });
    const usage = await database.db.query<{ calls: number; errors: number; duration_sum_ms: string; tokens: string }>(
      "select calls, errors, duration_sum_ms::int as duration_sum_ms, tokens::int as tokens from usage_minutes where tool_name = 'search'",
    );
    expect(usage).toEqual([{ calls: 2, errors: 1, duration_sum_ms: 250, tokens: 125 }]);
  });

  it("announces a session's end after every call of it, when its calls take several writes", async () => {
    const bus = new EventBus();
    const live: LiveMessage[] = [];
    bus.subscribe(origin.workspaceId, (m) => void live.push(m));
    // Two calls per statement: a backlog of six settled calls takes three writes.
    const recorder = make(bus, { maxBatchRows: 4 });
    const session = recorder.startSession(origin, { transport: 'streamable-http', mcpSessionId: 'backlog' });
    for (let id = 1; id <= 6; id++) {
      recorder.record(session, 'client_to_server', call(id), 100);
      recorder.record(session, 'server_to_client', result(id), 100);
    }
    recorder.endSession(session);
    await recorder.flush();
    const types = live.filter((m) => m.type !== 'notification').map((m) => m.type);
    expect(types).toEqual(['session_started', ...Array(6).fill('tool_call'), 'session_ended']);
    expect(live.at(-1)?.data).toMatchObject({ id: session.row.id, status: 'ended', callCount: 6 });
    expect(await recordedCalls(database.db, 'tc.session_id = $1', [session.row.id])).toHaveLength(6);
    // Its row went once: holding the end does not write the session again with every write.
    expect(recorder.stats().written.sessions).toBe(1);
    await recorder.close();
  });

  it('ends idle sessions and starts a new inferred session after the gap', async () => {
    const recorder = make(new EventBus(), { statefulIdleMs: 60_000, inferredIdleGapMs: 30_000 });
    const stateful = recorder.startSession(origin, { transport: 'streamable-http', mcpSessionId: 'idle' });
    const identity = { transport: 'streamable-http', clientKey: 'agent-key', clientName: 'bot', clientVersion: '1' };
    const first = recorder.inferSession(origin, identity);
    recorder.record(first, 'client_to_server', call(1), 10);
    clock += 20_000;
    expect(recorder.inferSession(origin, identity)).toBe(first); // within the gap
    recorder.record(first, 'client_to_server', call(2), 10);
    clock += 31_000;
    const second = recorder.inferSession(origin, identity); // past the gap
    expect(second).not.toBe(first);
    expect(first.row.status).toBe('ended');
    clock += 10_000;
    recorder.sweepIdle();
    expect(stateful.row.status).toBe('ended'); // 61 s without traffic
    expect(second.row.status).toBe('active');
    expect(recorder.sessionByMcpId(origin.serverId, 'idle')).toBeUndefined();
    await recorder.close();
  });

  it('stores calls whose tool name, error, ids or metadata carry NUL without losing the batch', async () => {
    const recorder = make();
    const session = recorder.startSession(origin, {
      transport: 'streamable-http',
      mcpSessionId: 'nul',
      clientName: 'agent\u0000x',
    });
    // Two ordinary calls share the batch with calls full of NUL (PostgreSQL text/jsonb cannot hold it).
    recorder.record(session, 'client_to_server', call(1), 100);
    recorder.record(session, 'server_to_client', result(1), 100);
    const nulCall = {
      jsonrpc: '2.0',
      id: 'a\u0000b',
      method: 'tools/call',
      params: {
        name: 'bad\u0000tool',
        arguments: { q: 'x\u0000y' },
        _meta: { traceparent: 't\u0000p', 'k\u0000': 'v' },
      },
    };
    recorder.record(session, 'client_to_server', nulCall, 100);
    recorder.record(
      session,
      'server_to_client',
      { jsonrpc: '2.0', id: 'a\u0000b', error: { code: -32000, message: 'boom\u0000!', data: { why: '\u0000' } } },
      100,
    );
    recorder.record(
      session,
      'client_to_server',
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'flagged' } },
      100,
    );
    recorder.record(
      session,
      'server_to_client',
      { jsonrpc: '2.0', id: 3, result: { isError: true, content: [{ type: 'text', text: 'bad\u0000news' }] } },
      100,
    );
    recorder.record(session, 'client_to_server', call(4), 100);
    recorder.record(session, 'server_to_client', result(4), 100);
    await recorder.close();

    expect(recorder.stats()).toMatchObject({ lostOnWriteError: 0, lastError: null });
    const calls = (await recordedCalls(database.db, 'tc.session_id = $1', [session.row.id])).map(
      ({ tool_name, jsonrpc_id, status, error_message, arguments: args, result, meta, traceparent }) => ({
        tool_name,
        jsonrpc_id,
        status,
        error_message,
        arguments: args,
        result,
        meta,
        traceparent,
      }),
    );
    expect(calls.map((c) => c.tool_name).sort()).toEqual(['bad\ufffdtool', 'flagged', 'search', 'search']);
    expect(calls.find((c) => c.tool_name === 'bad\ufffdtool')).toEqual({
      tool_name: 'bad\ufffdtool',
      jsonrpc_id: 'a\ufffdb',
      status: 'error',
      error_message: 'boom\ufffd!',
      arguments: { q: 'x\ufffdy' },
      result: { error: { code: -32000, message: 'boom\ufffd!', data: { why: '\ufffd' } } },
      meta: { traceparent: 't\ufffdp', 'k\ufffd': 'v' },
      traceparent: 't\ufffdp',
    });
    expect(calls.find((c) => c.tool_name === 'flagged')).toMatchObject({
      status: 'error',
      error_message: 'bad\ufffdnews',
    });
    const [row] = await database.db.query<{ client_name: string; message_count: number }>(
      'select client_name, message_count from sessions where id = $1',
      [session.row.id],
    );
    expect(row).toEqual({ client_name: 'agent\ufffdx', message_count: 8 });
    expect(await recordedMessages(database.db, session.row.id)).toHaveLength(8);
  });

  it('stores lone surrogates in names, ids and errors, and a payload cut mid-pair, without losing the batch', async () => {
    // The request of call 5 is cut at the limit right between the two halves of its emoji.
    const beforeEmoji = '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"yyy';
    const emojiText = `${beforeEmoji}\u{1f600}"}}`;
    const recorder = make(new EventBus(), { payloadLimit: beforeEmoji.length + 1 });
    // An agent's "\ud800" escape parses to a lone surrogate; the batch travels as JSON, where it is refused as text.
    const session = recorder.startSession(origin, {
      transport: 'streamable-http',
      mcpSessionId: 'surrogates',
      clientName: JSON.parse('"agent\\udc00"'),
    });
    recorder.record(session, 'client_to_server', call(1), 100);
    recorder.record(session, 'server_to_client', result(1), 100);
    recorder.record(
      session,
      'client_to_server',
      JSON.parse('{"jsonrpc":"2.0","id":"a\\ud800","method":"tools/call","params":{"name":"bad\\ud800tool"}}'),
      100,
    );
    recorder.record(
      session,
      'server_to_client',
      JSON.parse('{"jsonrpc":"2.0","id":"a\\ud800","error":{"code":-32000,"message":"boom\\udfff"}}'),
      100,
    );
    recorder.record(session, 'client_to_server', JSON.parse(emojiText), Buffer.byteLength(emojiText), emojiText);
    recorder.record(session, 'server_to_client', result(5), 100);
    recorder.record(session, 'client_to_server', call(6), 100);
    recorder.record(session, 'server_to_client', result(6), 100);
    await recorder.close();

    expect(recorder.stats()).toMatchObject({ lostOnWriteError: 0, lastError: null });
    const calls = await recordedCalls(database.db, 'tc.session_id = $1', [session.row.id]);
    expect(calls.map((c) => c.tool_name).sort()).toEqual(['bad\ufffdtool', 'search', 'search', 'yyy\u{1f600}']);
    expect(calls.find((c) => c.tool_name === 'bad\ufffdtool')).toMatchObject({
      jsonrpc_id: 'a\ufffd',
      status: 'error',
      error_message: 'boom\ufffd',
    });
    // The stored start of the request keeps its whole characters; the half emoji reads as U+FFFD.
    const cut = calls.find((c) => c.tool_name === 'yyy\u{1f600}')!;
    expect(cut.arguments).toEqual({ truncated: true, preview: `${beforeEmoji}\ufffd` });
    const [row] = await database.db.query<{ client_name: string }>('select client_name from sessions where id = $1', [
      session.row.id,
    ]);
    expect(row.client_name).toBe('agent\ufffd');
  });

  it('marks payloads cut to the limit as truncated', async () => {
    const recorder = make(new EventBus(), { payloadLimit: 100 });
    const session = recorder.startSession(origin, { transport: 'streamable-http', mcpSessionId: 'big' });
    const big = { jsonrpc: '2.0', method: 'notifications/message', params: { data: 'x'.repeat(500) } };
    recorder.record(session, 'server_to_client', big, 540);
    await recorder.close();
    const [row] = await database.db.query<{ truncated: boolean; size_bytes: number; payload: unknown }>(
      'select truncated, size_bytes, payload from messages where session_id = $1',
      [session.row.id],
    );
    expect(row).toEqual({ truncated: true, size_bytes: 540, payload: JSON.stringify(big).slice(0, 100) });
  });
});
