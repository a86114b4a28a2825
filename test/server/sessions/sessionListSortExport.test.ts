import { buildTestApp, type TestApp } from '../helpers/testApp';
import { engineName } from '../helpers/testDatabase';
import {
  insertMessages,
  insertSessions,
  insertToolCalls,
  minutesAgo,
  seedServer,
  seedWorkspace,
  type SeededWorkspace,
} from './seed';
import type { SessionExport, SessionListResult } from '../../../src/contract/sessions';

// Issue 14 item 11: the sessions list a trace tool's users expect — sortable columns (duration,
// calls, errors, tokens, cost), a has-errors filter, a custom date range, search over prompt and
// resource arguments too, and a CSV/JSON export of the filtered list.

describe(`sessions list: sort, has-errors, search of prompts and resources, export (${engineName})`, () => {
  let t: TestApp;
  let ws: SeededWorkspace;
  let other: SeededWorkspace;
  let server: string;
  let ids: string[];
  const now = Date.now();

  const get = (url: string, token = ws.token) =>
    t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
  const base = () => `/api/v1/workspaces/${ws.workspaceId}`;
  const listIds = async (query: string) => {
    const res = await get(`${base()}/sessions?${query}`);
    expect(res.statusCode).toBe(200);
    return res.json<SessionListResult>().sessions.map((s) => s.id);
  };

  beforeAll(async () => {
    t = await buildTestApp();
    const db = t.database.db;
    ws = await seedWorkspace(db, t.config.secret);
    other = await seedWorkspace(db, t.config.secret, 'Other');
    server = await seedServer(db, ws.workspaceId, 'docs');
    // Four sessions, newest first: A (2 min ago), B, C, D (40 min ago), each different on every column.
    ids = await insertSessions(db, ws.workspaceId, [
      {
        serverId: server,
        clientName: '=cmd|calc',
        startedAt: minutesAgo(now, 2),
        endedAt: minutesAgo(now, 1),
        callCount: 5,
        errorCount: 0,
      },
      {
        serverId: server,
        clientName: 'cursor',
        startedAt: minutesAgo(now, 10),
        endedAt: minutesAgo(now, 2),
        callCount: 1,
        errorCount: 1,
      },
      {
        serverId: server,
        clientName: 'claude-code',
        startedAt: minutesAgo(now, 20),
        endedAt: minutesAgo(now, 18),
        callCount: 9,
        errorCount: 3,
      },
      {
        serverId: server,
        clientName: 'claude-code',
        startedAt: minutesAgo(now, 40),
        endedAt: minutesAgo(now, 39.5),
        callCount: 0,
        errorCount: 0,
      },
    ]);
    const [A, B, C] = ids;
    // tokens: A 300 (all results), B 1,000 (all arguments), C 600 (definitions), D 0.
    await db.query(`update sessions set result_tokens = 300 where id = $1`, [A]);
    await db.query(`update sessions set argument_tokens = 1000 where id = $1`, [B]);
    await db.query(`update sessions set definition_tokens = 600 where id = $1`, [C]);
    // Prices: input $10 and output $1 per million, factor 1 → A $0.003, B $0.001, C $0.006, D $0.
    await db.query(
      `insert into workspace_pricing (workspace_id, model, input_per_million, output_per_million, correction_factor) values ($1, 'gpt-4o', 10, 1, 1)`,
      [ws.workspaceId],
    );

    await insertToolCalls(db, ws.workspaceId, [
      { sessionId: A, serverId: server, toolName: 'echo', arguments: { text: 'hello' }, startedAt: minutesAgo(now, 2) },
    ]);
    await insertMessages(db, ws.workspaceId, B, [
      {
        seq: 1,
        direction: 'client_to_server',
        kind: 'request',
        method: 'prompts/get',
        jsonrpcId: '1',
        payload: {
          jsonrpc: '2.0',
          id: 1,
          method: 'prompts/get',
          params: { name: 'code_review', arguments: { language: 'haskell' } },
        },
        createdAt: minutesAgo(now, 10),
      },
    ]);
    await insertMessages(db, ws.workspaceId, C, [
      {
        seq: 1,
        direction: 'client_to_server',
        kind: 'request',
        method: 'resources/read',
        jsonrpcId: '1',
        payload: { jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: 'file:///srv/quarterly-plan.md' } },
        createdAt: minutesAgo(now, 20),
      },
      // Only prompt and resource requests are searched: a word in a tools/list answer is not.
      {
        seq: 2,
        direction: 'server_to_client',
        kind: 'response',
        method: null,
        jsonrpcId: '1',
        payload: { jsonrpc: '2.0', id: 1, result: { note: 'zanzibar' } },
        createdAt: minutesAgo(now, 20),
      },
    ]);
    // Another workspace's prompt with the same words is never found.
    const theirs = await seedServer(db, other.workspaceId, 'theirs');
    const [otherSession] = await insertSessions(db, other.workspaceId, [
      { serverId: theirs, startedAt: minutesAgo(now, 3) },
    ]);
    await insertMessages(db, other.workspaceId, otherSession, [
      {
        seq: 1,
        direction: 'client_to_server',
        kind: 'request',
        method: 'prompts/get',
        jsonrpcId: '1',
        payload: {
          jsonrpc: '2.0',
          id: 1,
          method: 'prompts/get',
          params: { name: 'code_review', arguments: { language: 'haskell' } },
        },
        createdAt: minutesAgo(now, 3),
      },
    ]);
  }, 60_000);
  afterAll(() => (t as TestApp | undefined)?.close());

  it('carries tokens and cost (at the workspace prices) on each session', async () => {
    const { sessions } = (await get(`${base()}/sessions`)).json<SessionListResult>();
    expect(sessions.map((s) => [s.tokens, s.cost])).toEqual([
      [300, 0.003],
      [1000, 0.001],
      [600, 0.006],
      [0, 0],
    ]);
  });

  it('sorts by every column, both ways, newest first by default', async () => {
    const [A, B, C, D] = ids;
    expect(await listIds('')).toEqual([A, B, C, D]);
    expect(await listIds('sort=startedAt&order=asc')).toEqual([D, C, B, A]);
    expect(await listIds('sort=duration&order=desc')).toEqual([B, C, A, D]);
    expect(await listIds('sort=duration&order=asc')).toEqual([D, A, C, B]);
    expect(await listIds('sort=calls')).toEqual([C, A, B, D]);
    expect(await listIds('sort=errors&order=desc')).toEqual([C, B, A, D]); // A and D tie: newest first
    expect(await listIds('sort=errors&order=asc')).toEqual([D, A, B, C]); // the tie: oldest first
    expect(await listIds('sort=tokens')).toEqual([B, C, A, D]);
    expect(await listIds('sort=cost')).toEqual([C, A, B, D]);
    expect(await listIds('sort=cost&order=asc')).toEqual([D, B, A, C]);
    // Paging follows the order: the second page of two continues the first.
    expect([...(await listIds('sort=cost&limit=2')), ...(await listIds('sort=cost&limit=2&offset=2'))]).toEqual([
      C,
      A,
      B,
      D,
    ]);
  });

  it('filters sessions with or without errors, and by a custom date range', async () => {
    const [A, B, C, D] = ids;
    expect(await listIds('hasErrors=true')).toEqual([B, C]);
    expect(await listIds('hasErrors=false')).toEqual([A, D]);
    const range = `from=${encodeURIComponent(minutesAgo(now, 25))}&to=${encodeURIComponent(minutesAgo(now, 5))}`;
    expect(await listIds(range)).toEqual([B, C]);
    expect(await listIds(`${range}&hasErrors=true&sort=errors&order=asc`)).toEqual([B, C]);
  });

  it('searches the arguments of prompt and resource requests too, within the workspace', async () => {
    const [A, B, C] = ids;
    expect(await listIds('q=haskell')).toEqual([B]);
    expect(await listIds('q=code_review')).toEqual([B]);
    expect(await listIds('q=quarterly%20plan')).toEqual([C]);
    expect(await listIds('q=zanzibar')).toEqual([]);
    expect(await listIds('q=hello')).toEqual([A]);
    expect(await listIds(`q=${encodeURIComponent('///')}`)).toEqual([C]);
  });

  it('exports the filtered, sorted list as CSV with a header row, safe against spreadsheet formulas', async () => {
    const [A, , C] = ids;
    const res = await get(`${base()}/sessions/export?format=csv&hasErrors=false&sort=tokens&order=desc`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="sessions-\d{4}-\d{2}-\d{2}T\d{4}Z\.csv"$/,
    );
    expect(res.headers['x-total-count']).toBe('2');
    const lines = res.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'id,status,server,server_id,client,client_version,protocol_version,transport,started_at,ended_at,duration_ms,messages,calls,errors,tokens,cost_usd',
    );
    expect(lines).toHaveLength(3);
    expect(lines[1].startsWith(`${A},ended,docs,${server},'=cmd|calc,`)).toBe(true);
    expect(lines[1].endsWith(',60000,0,5,0,300,0.003')).toBe(true);
    expect(lines[2].startsWith(`${ids[3]},`)).toBe(true);
    // No filter: every session, C among them.
    const all = await get(`${base()}/sessions/export`);
    expect(all.body.split('\r\n').filter(Boolean)).toHaveLength(5);
    expect(all.body).toContain(C);
  });

  it('exports JSON with the total and the same sessions as the list', async () => {
    const res = await get(`${base()}/sessions/export?format=json&q=haskell`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/filename="sessions-.*\.json"/);
    const body = res.json<SessionExport>();
    const listed = (await get(`${base()}/sessions?q=haskell`)).json<SessionListResult>();
    expect(body.total).toBe(1);
    expect(body.sessions).toEqual(listed.sessions);
    expect(Number.isNaN(Date.parse(body.exportedAt))).toBe(false);
  });

  it('rejects bad sort, order, hasErrors and format values with 400 naming the field, and exports nothing of another workspace', async () => {
    for (const [path, field] of [
      ['sessions?sort=name', 'sort'],
      ['sessions?order=up', 'order'],
      ['sessions?hasErrors=yes', 'hasErrors'],
      ['sessions/export?format=xml', 'format'],
      ['sessions/export?sort=name', 'sort'],
    ] as const) {
      const res = await get(`${base()}/${path}`);
      expect({ path, status: res.statusCode }).toEqual({ path, status: 400 });
      expect(res.json().fields).toHaveProperty(field);
    }
    const foreign = await get(`/api/v1/workspaces/${other.workspaceId}/sessions/export`, ws.token);
    expect(foreign.statusCode).toBe(404);
  });
});
