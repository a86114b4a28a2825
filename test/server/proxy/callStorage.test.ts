import type { TestDatabase } from '../helpers/testDatabase';
import { openRecordingWorkspace } from '../helpers/recordingWorkspace';
import { recordedCalls, recordedMessages } from '../helpers/recordedRows';
import { EventBus } from '../../../src/server/events/bus';
import { Recorder, type SessionOrigin } from '../../../src/server/recording/recorder';
import { listSessions } from '../../../src/server/modules/sessions/sessionList';
import { findSession, replaySession } from '../../../src/server/modules/sessions/sessionStore';
import { toolCallSearchDocument } from '../../../src/server/modules/sessions/sessionSearch';
import { toToolCallDto } from '../../../src/server/data/sessions/mappers';
import type { LiveMessage } from '../../../src/contract/live';

jest.setTimeout(60_000);

// A tool call's request and response are stored once, as the exact text that crossed the proxy, in
// the call's row (migration 007). These tests hold the read side to what it was before: the replay
// has every message in its place, the API and the live stream show the same call, search finds it.
describe('tool call storage', () => {
  let database: TestDatabase;
  let origin: SessionOrigin;
  let clock = Date.parse('2026-11-21T10:00:00Z');
  const now = () => clock;

  beforeAll(async () => {
    ({ database, origin } = await openRecordingWorkspace('call-storage'));
  });
  afterAll(() => database.drop());

  const make = (bus = new EventBus(), extra: Partial<ConstructorParameters<typeof Recorder>[2]> = {}) =>
    new Recorder(database.db, bus, { queueLimit: 1000, flushMs: 10_000, now, ...extra });
  // Exact wire text, with spacing and key order a re-serialisation would not keep.
  const requestText = (id: number, q: string) =>
    `{"jsonrpc":"2.0", "id":${id}, "method":"tools/call", "params":{"name":"search","arguments":{"q":"${q}","limit":5}}}`;
  const responseText = (id: number) =>
    `{"id":${id},"jsonrpc":"2.0","result":{"content":[{"type":"text","text":"found"}]}}`;
  const send = (
    recorder: Recorder,
    session: ReturnType<Recorder['startSession']>,
    direction: 'client_to_server' | 'server_to_client',
    text: string,
  ) => recorder.record(session, direction, JSON.parse(text), Buffer.byteLength(text), text);

  it('stores a call once, in its own row, and replays its request and response in their places', async () => {
    const recorder = make();
    const session = recorder.startSession(origin, { transport: 'streamable-http', mcpSessionId: 'once' });
    send(recorder, session, 'client_to_server', requestText(1, 'needle'));
    clock += 5;
    send(
      recorder,
      session,
      'server_to_client',
      '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}',
    );
    clock += 5;
    send(recorder, session, 'server_to_client', responseText(1));
    send(recorder, session, 'client_to_server', '{"jsonrpc":"2.0","id":2,"method":"tools/list"}');
    send(recorder, session, 'server_to_client', '{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}');
    await recorder.close();

    // The call's two messages are not also rows of `messages`; its row holds their exact text.
    const messageRows = await database.db.query<{ seq: number; method: string | null }>(
      'select seq, method from messages where session_id = $1 order by seq',
      [session.row.id],
    );
    expect(messageRows).toEqual([
      { seq: 2, method: 'notifications/progress' },
      { seq: 4, method: 'tools/list' },
      { seq: 5, method: null },
    ]);
    const [stored] = await database.db.query(
      'select request_seq, request_payload, response_seq, response_kind, response_payload, arguments, result from tool_calls where session_id = $1',
      [session.row.id],
    );
    expect(stored).toEqual({
      request_seq: 1,
      request_payload: requestText(1, 'needle'),
      response_seq: 3,
      response_kind: 'response',
      response_payload: responseText(1),
      arguments: null,
      result: null,
    });

    const replay = await recordedMessages(database.db, session.row.id);
    expect(replay.map((m) => [Number(m.seq), m.direction, m.kind, m.method])).toEqual([
      [1, 'client_to_server', 'request', 'tools/call'],
      [2, 'server_to_client', 'notification', 'notifications/progress'],
      [3, 'server_to_client', 'response', null],
      [4, 'client_to_server', 'request', 'tools/list'],
      [5, 'server_to_client', 'response', null],
    ]);
    expect(replay[0]).toMatchObject({
      jsonrpc_id: '1',
      payload: JSON.parse(requestText(1, 'needle')),
      truncated: false,
      size_bytes: Buffer.byteLength(requestText(1, 'needle')),
    });
    expect(replay[2]).toMatchObject({ jsonrpc_id: '1', payload: JSON.parse(responseText(1)) });

    // The replay API pages and windows across both kinds of rows alike.
    const dto = (await findSession(database.db, origin.workspaceId, session.row.id))!;
    const page = await replaySession(database.db, dto, { limit: 2, offset: 1 });
    expect(page.total).toBe(5);
    expect(page.messages.map((m) => m.seq)).toEqual([2, 3]);
    expect(page.messages[1]).toMatchObject({ kind: 'response', jsonrpcId: '1', payload: JSON.parse(responseText(1)) });
    expect(page.toolCalls).toEqual([]); // the page holds the answer, not the call's request
    const windowed = await replaySession(database.db, dto, {
      limit: 10,
      offset: 0,
      startTime: new Date(clock).toISOString(),
    });
    expect(windowed.messages.map((m) => m.seq)).toEqual([3, 4, 5]);
    const first = await replaySession(database.db, dto, { limit: 1, offset: 0 });
    expect(first.toolCalls).toMatchObject([
      {
        toolName: 'search',
        arguments: { q: 'needle', limit: 5 },
        result: { content: [{ type: 'text', text: 'found' }] },
      },
    ]);
  });

  it('writes a slow call’s request before its answer, then settles the same row and announces it once', async () => {
    const bus = new EventBus();
    const live: LiveMessage[] = [];
    bus.subscribe(origin.workspaceId, (m) => void live.push(m));
    const recorder = make(bus);
    const searchCalls = async () =>
      (
        await database.db.query<{ calls: number }>(
          "select coalesce(sum(calls), 0)::int as calls from usage_minutes where server_id = $1 and tool_name = 'search'",
          [origin.serverId],
        )
      )[0].calls;
    const callsBefore = await searchCalls();
    const session = recorder.startSession(origin, { transport: 'streamable-http', mcpSessionId: 'slow' });
    send(recorder, session, 'client_to_server', requestText(7, 'slow'));
    await recorder.flush();
    // In flight: announced as started (the activity stream shows it pending), not as a finished call.
    expect(live.map((m) => m.type)).toEqual(['session_started', 'tool_call_started']);
    expect(live[1].data).toMatchObject({ status: 'pending', toolName: 'search' });
    expect(await recordedMessages(database.db, session.row.id)).toMatchObject([
      { kind: 'request', method: 'tools/call', jsonrpc_id: '7' },
    ]);
    expect(await recordedCalls(database.db, 'tc.session_id = $1', [session.row.id])).toMatchObject([
      { status: 'pending', arguments: { q: 'slow', limit: 5 }, result: null },
    ]);

    clock += 40_000;
    send(recorder, session, 'server_to_client', responseText(7));
    await recorder.flush();
    const calls = await recordedCalls(database.db, 'tc.session_id = $1', [session.row.id]);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      status: 'ok',
      duration_ms: 40_000,
      result: { content: [{ type: 'text', text: 'found' }] },
    });
    const announced = live.filter((m) => m.type === 'tool_call');
    expect(announced).toHaveLength(1);
    expect(live.filter((m) => m.type === 'tool_call_started')).toHaveLength(1);
    // The stream and the API show the same call.
    expect(announced[0].data).toEqual(toToolCallDto(calls[0]));
    expect((await recordedMessages(database.db, session.row.id)).map((m) => m.kind)).toEqual(['request', 'response']);
    await recorder.close();
    expect(await searchCalls()).toBe(callsBefore + 1); // usage counts the call once, at its answer
    expect(recorder.stats()).toMatchObject({ written: { toolCalls: 1 }, lostOnWriteError: 0 }); // written twice, one call
  });

  it('keeps the start of a request or answer past the limit, alike on the stream and in the API', async () => {
    const bus = new EventBus();
    const live: LiveMessage[] = [];
    bus.subscribe(origin.workspaceId, (m) => void live.push(m));
    const recorder = make(bus, { payloadLimit: 60 });
    const session = recorder.startSession(origin, { transport: 'streamable-http', mcpSessionId: 'cut' });
    const big = requestText(9, 'x'.repeat(200));
    send(recorder, session, 'client_to_server', big);
    send(
      recorder,
      session,
      'server_to_client',
      `{"jsonrpc":"2.0","id":9,"error":{"code":-32000,"message":"${'y'.repeat(100)}"}}`,
    );
    await recorder.close();
    const [call] = await recordedCalls(database.db, 'tc.session_id = $1', [session.row.id]);
    expect(call.arguments).toEqual({ truncated: true, preview: big.slice(0, 60) });
    expect(call.result).toEqual({
      truncated: true,
      preview: `{"jsonrpc":"2.0","id":9,"error":{"code":-32000,"message":"${'y'.repeat(100)}"}}`.slice(0, 60),
    });
    expect(call).toMatchObject({ status: 'error', error_message: 'y'.repeat(100) });
    expect(live.find((m) => m.type === 'tool_call')?.data).toEqual(toToolCallDto(call));
    const replay = await recordedMessages(database.db, session.row.id);
    expect(replay).toMatchObject([
      { truncated: true, payload: big.slice(0, 60) },
      { kind: 'error', truncated: true },
    ]);
  });

  it('finds sessions by the arguments of calls stored this way, through the search index', async () => {
    const recorder = make();
    const session = recorder.startSession(origin, { transport: 'streamable-http', mcpSessionId: 'search' });
    send(recorder, session, 'client_to_server', requestText(11, 'quarterly-report.pdf'));
    send(recorder, session, 'server_to_client', responseText(11));
    await recorder.close();
    const found = await listSessions(database.db, origin.workspaceId, {
      limit: 10,
      offset: 0,
      sort: 'startedAt',
      order: 'desc',
      q: 'quarterly report',
    });
    expect(found.sessions.map((s) => s.id)).toEqual([session.row.id]);
    const envelope = await listSessions(database.db, origin.workspaceId, {
      limit: 10,
      offset: 0,
      sort: 'startedAt',
      order: 'desc',
      q: 'jsonrpc',
    });
    expect(envelope.sessions.map((s) => s.id)).not.toContain(session.row.id); // the call's arguments are searched, not its envelope
    const punctuation = await listSessions(database.db, origin.workspaceId, {
      limit: 10,
      offset: 0,
      sort: 'startedAt',
      order: 'desc',
      q: '-report.',
    });
    expect(punctuation.sessions.map((s) => s.id)).toEqual([session.row.id]);

    // The query's document is the index's expression (m007), so the planner can use the index.
    const plan = await database.db.transaction(async (tx) => {
      await tx.query('set local enable_seqscan = off');
      return tx.query<{ 'QUERY PLAN': string }>(
        `explain select id from tool_calls tc where ${toolCallSearchDocument('tc')} @@ to_tsquery('simple', 'quarterly:*')`,
      );
    });
    // Partitioned by week (m034): each partition's copy of the index, named after it, is read.
    const text = plan.map((row) => row['QUERY PLAN']).join('\n');
    expect(text).toMatch(/Index Scan on tool_calls_\w*(search_v2|to_tsvector_idx)/);
    expect(text).not.toMatch(/Seq Scan/);
  });

  it('stores what jsonb refuses (lone surrogates, NUL, deep nesting) so that every read still works', async () => {
    const bus = new EventBus();
    const live: LiveMessage[] = [];
    bus.subscribe(origin.workspaceId, (m) => void live.push(m));
    const recorder = make(bus);
    const session = recorder.startSession(origin, { transport: 'streamable-http', mcpSessionId: 'refused' });
    // Valid JSON for JavaScript, refused by PostgreSQL's jsonb: a lone surrogate and NUL, and a pair kept whole.
    send(
      recorder,
      session,
      'client_to_server',
      '{"jsonrpc":"2.0","id":21,"method":"tools/call","params":{"name":"odd","arguments":{"a":"x\\ud800y","b":"\\u0000","c":"\\ud83d\\ude00","d":"\\\\u0000"}}}',
    );
    send(
      recorder,
      session,
      'server_to_client',
      '{"jsonrpc":"2.0","id":21,"result":{"content":[{"type":"text","text":"\\udc00"}]},"error":null}',
    );
    const deep = '['.repeat(600) + ']'.repeat(600);
    send(
      recorder,
      session,
      'client_to_server',
      `{"jsonrpc":"2.0","id":22,"method":"tools/call","params":{"name":"deep","arguments":{"v":${deep}}}}`,
    );
    send(recorder, session, 'server_to_client', '{"jsonrpc":"2.0","id":22,"result":{"content":[]}}');
    await recorder.close();
    expect(recorder.stats()).toMatchObject({ lostOnWriteError: 0, lastError: null });

    const calls = await recordedCalls(database.db, 'tc.session_id = $1', [session.row.id]);
    const odd = calls.find((c) => c.tool_name === 'odd')!;
    // Lone surrogates and NUL read back as U+FFFD; a real pair and an escaped backslash stay as sent.
    expect(odd.arguments).toEqual({ a: 'x\ufffdy', b: '\ufffd', c: '\u{1f600}', d: '\\u0000' });
    // `"error": null` is a success (JSON-RPC 1.0 style), not an error.
    expect(odd).toMatchObject({
      status: 'ok',
      error_message: null,
      result: { content: [{ type: 'text', text: '\ufffd' }] },
    });
    const deepCall = calls.find((c) => c.tool_name === 'deep')!;
    expect(deepCall.arguments).toEqual({ truncated: true, preview: expect.stringContaining('"name":"deep"') });
    // The stream shows each call as the API does.
    const announced = live.filter((m) => m.type === 'tool_call').map((m) => m.data as { toolName: string });
    for (const call of calls) expect(announced.find((a) => a.toolName === call.tool_name)).toEqual(toToolCallDto(call));
    const replay = await recordedMessages(database.db, session.row.id);
    expect(replay.map((m) => m.kind)).toEqual(['request', 'response', 'request', 'response']);
    expect(replay[2]).toMatchObject({ truncated: true, payload: expect.stringContaining('[[[') });
  });

  it('settles a waiting call as a timeout (no answer it can be paired with) when its id is reused, and never leaves a written call pending', async () => {
    // A lone workspace fills half the queue (its fair share): four rows leave it two.
    const recorder = make(new EventBus(), { queueLimit: 4 });
    const session = recorder.startSession(origin, { transport: 'streamable-http', mcpSessionId: 'reused' });
    const progress = (n: number) =>
      `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":${n}}}`;
    send(recorder, session, 'client_to_server', requestText(31, 'slow'));
    await recorder.flush(); // written while pending
    send(recorder, session, 'server_to_client', progress(1));
    send(recorder, session, 'server_to_client', progress(2));
    send(recorder, session, 'server_to_client', progress(3)); // the workspace's share is full now
    send(recorder, session, 'server_to_client', responseText(31)); // still kept: the call took its place at its request
    await recorder.flush();
    send(recorder, session, 'client_to_server', requestText(32, 'first'));
    await recorder.flush();
    send(recorder, session, 'client_to_server', requestText(32, 'second')); // same id: the first can no longer be paired
    send(recorder, session, 'server_to_client', responseText(32));
    await recorder.close();
    const calls = await recordedCalls(database.db, 'tc.session_id = $1', [session.row.id]);
    expect(calls.map((c) => [c.jsonrpc_id, c.status, c.arguments, c.error_message])).toEqual([
      ['31', 'ok', { q: 'slow', limit: 5 }, null],
      ['32', 'timeout', { q: 'first', limit: 5 }, 'No response recorded: the client reused this request id'],
      ['32', 'ok', { q: 'second', limit: 5 }, null],
    ]);
  });
});
