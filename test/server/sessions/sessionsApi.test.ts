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
import type { ReplayResult, SessionDto, SessionListResult } from '../../../src/contract/sessions';

describe(`sessions API (${engineName})`, () => {
  let t: TestApp;
  let ws: SeededWorkspace;
  let other: SeededWorkspace;
  let alpha: string;
  let beta: string;
  let otherSessionId: string;
  const now = Date.now();
  // 30 sessions on alpha (one per minute, newest = index 0), 5 on beta, the first beta one searchable.
  let alphaIds: string[];
  let betaIds: string[];

  const get = (url: string, token = ws.token) =>
    t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
  const base = () => `/api/v1/workspaces/${ws.workspaceId}`;

  beforeAll(async () => {
    t = await buildTestApp();
    const db = t.database.db;
    ws = await seedWorkspace(db, t.config.secret);
    other = await seedWorkspace(db, t.config.secret, 'Other');
    alpha = await seedServer(db, ws.workspaceId, 'alpha');
    beta = await seedServer(db, ws.workspaceId, 'beta');
    alphaIds = await insertSessions(
      db,
      ws.workspaceId,
      Array.from({ length: 30 }, (_, i) => ({
        serverId: alpha,
        startedAt: minutesAgo(now, 100 + i),
        endedAt: i % 3 === 0 ? null : minutesAgo(now, 99 + i),
        lastActivityAt: minutesAgo(now, 99 + i),
        clientName: i % 2 === 0 ? 'claude-code' : 'Cursor',
        callCount: 1,
      })),
    );
    betaIds = await insertSessions(
      db,
      ws.workspaceId,
      Array.from({ length: 5 }, (_, i) => ({
        serverId: beta,
        startedAt: minutesAgo(now, 10 + i),
        endedAt: minutesAgo(now, 9 + i),
        clientName: 'inspector',
      })),
    );
    await insertToolCalls(db, ws.workspaceId, [
      {
        sessionId: betaIds[0],
        serverId: beta,
        toolName: 'read_file',
        arguments: { path: '/etc/hosts' },
        startedAt: minutesAgo(now, 10),
      },
      {
        sessionId: alphaIds[4],
        serverId: alpha,
        toolName: 'search_docs',
        arguments: { query: 'quarterly revenue report' },
        startedAt: minutesAgo(now, 104),
      },
      {
        sessionId: alphaIds[5],
        serverId: alpha,
        toolName: 'echo',
        arguments: { text: '100% done_ok' },
        startedAt: minutesAgo(now, 105),
      },
    ]);
    const otherServer = await seedServer(db, other.workspaceId, 'theirs');
    [otherSessionId] = await insertSessions(db, other.workspaceId, [
      { serverId: otherServer, startedAt: minutesAgo(now, 1) },
    ]);
    await insertToolCalls(db, other.workspaceId, [
      {
        sessionId: otherSessionId,
        serverId: otherServer,
        toolName: 'read_file',
        arguments: { path: '/etc/hosts' },
        startedAt: minutesAgo(now, 1),
      },
    ]);
  }, 60_000);
  afterAll(() => (t as TestApp | undefined)?.close());

  describe('list', () => {
    it('pages newest first with the total of the whole result', async () => {
      const first = await get(`${base()}/sessions?limit=10`);
      expect(first.statusCode).toBe(200);
      const page1 = first.json<SessionListResult>();
      expect(page1.total).toBe(35);
      expect(page1).toMatchObject({ limit: 10, offset: 0 });
      expect(page1.sessions.map((s) => s.id)).toEqual([...betaIds, ...alphaIds.slice(0, 5)]);

      const page4 = (await get(`${base()}/sessions?limit=10&offset=30`)).json<SessionListResult>();
      expect(page4.sessions.map((s) => s.id)).toEqual(alphaIds.slice(25));
      const beyond = (await get(`${base()}/sessions?limit=10&offset=40`)).json<SessionListResult>();
      expect(beyond).toMatchObject({ sessions: [], total: 35 });
    });

    it('describes each session with its server, client, duration and counts', async () => {
      const { sessions } = (await get(`${base()}/sessions?serverId=${alpha}&limit=2`)).json<SessionListResult>();
      const active: SessionDto = sessions[0];
      expect(active).toMatchObject({
        id: alphaIds[0],
        workspaceId: ws.workspaceId,
        serverId: alpha,
        serverName: 'alpha',
        clientName: 'claude-code',
        clientVersion: '1.0.0',
        protocolVersion: '2025-06-18',
        status: 'active',
        endedAt: null,
        durationMs: 60_000,
        callCount: 1,
      });
      expect(sessions[1]).toMatchObject({ status: 'ended', durationMs: 60_000, clientName: 'Cursor' });
      expect(sessions[1].endedAt).toBe(minutesAgo(now, 100));
    });

    it('filters by server, client prefix (any case), status and time range', async () => {
      expect(
        (await get(`${base()}/sessions?serverId=${beta}`)).json<SessionListResult>().sessions.map((s) => s.id),
      ).toEqual(betaIds);
      const cursor = (await get(`${base()}/sessions?client=cur&limit=200`)).json<SessionListResult>();
      expect(cursor.total).toBe(15);
      expect(cursor.sessions.every((s) => s.clientName === 'Cursor')).toBe(true);
      const active = (await get(`${base()}/sessions?status=active&limit=200`)).json<SessionListResult>();
      expect(active.sessions.map((s) => s.id)).toEqual(alphaIds.filter((_, i) => i % 3 === 0));
      const range = (
        await get(
          `${base()}/sessions?from=${encodeURIComponent(minutesAgo(now, 103))}&to=${encodeURIComponent(minutesAgo(now, 101))}`,
        )
      ).json<SessionListResult>();
      expect(range.sessions.map((s) => s.id)).toEqual(alphaIds.slice(1, 4));
      const combined = (
        await get(`${base()}/sessions?serverId=${alpha}&status=ended&client=claude`)
      ).json<SessionListResult>();
      expect(combined.sessions.map((s) => s.id)).toEqual(alphaIds.filter((_, i) => i % 2 === 0 && i % 3 !== 0));
    });

    it('searches tool names and arguments of the calls, by word prefixes and parts, within the workspace', async () => {
      const ids = async (q: string) =>
        (await get(`${base()}/sessions?q=${encodeURIComponent(q)}`))
          .json<SessionListResult>()
          .sessions.map((s) => s.id);
      expect(await ids('read_file')).toEqual([betaIds[0]]);
      expect(await ids('hosts')).toEqual([betaIds[0]]);
      expect(await ids('/etc/ho')).toEqual([betaIds[0]]);
      expect(await ids('Quarter REV')).toEqual([alphaIds[4]]);
      expect(await ids('search')).toEqual([alphaIds[4]]);
      expect(await ids('revenue hosts')).toEqual([]);
      expect(await ids('%')).toEqual([alphaIds[5]]);
      const withFilter = (await get(`${base()}/sessions?q=read&serverId=${alpha}`)).json<SessionListResult>();
      expect(withFilter).toMatchObject({ sessions: [], total: 0 });
    });

    it('rejects bad query values with 400 naming the field', async () => {
      for (const [query, field] of [
        ['limit=0', 'limit'],
        ['limit=201', 'limit'],
        ['limit=ten', 'limit'],
        ['offset=-1', 'offset'],
        ['status=paused', 'status'],
        ['serverId=nope', 'serverId'],
        ['from=yesterday', 'from'],
        [`from=${encodeURIComponent(minutesAgo(now, 1))}&to=${encodeURIComponent(minutesAgo(now, 2))}`, 'to'],
        [`q=${'x'.repeat(201)}`, 'q'],
      ] as const) {
        const res = await get(`${base()}/sessions?${query}`);
        expect({ query, status: res.statusCode }).toEqual({ query, status: 400 });
        expect(res.json().message).toContain(field);
        expect(res.json().fields).toHaveProperty(field);
      }
    });
  });

  describe('one session and its replay', () => {
    let sessionId: string;
    const t0 = Date.parse(minutesAgo(now, 50));
    const at = (seconds: number) => new Date(t0 + seconds * 1000).toISOString();

    beforeAll(async () => {
      const db = t.database.db;
      [sessionId] = await insertSessions(db, ws.workspaceId, [
        { serverId: alpha, startedAt: at(0), endedAt: at(10), messageCount: 6, callCount: 2, errorCount: 1 },
      ]);
      await insertMessages(db, ws.workspaceId, sessionId, [
        {
          seq: 1,
          direction: 'client_to_server',
          kind: 'request',
          method: 'initialize',
          jsonrpcId: '0',
          payload: { jsonrpc: '2.0', id: 0, method: 'initialize' },
          createdAt: at(0),
        },
        {
          seq: 2,
          direction: 'server_to_client',
          kind: 'response',
          jsonrpcId: '0',
          payload: { jsonrpc: '2.0', id: 0, result: {} },
          createdAt: at(1),
        },
        {
          seq: 3,
          direction: 'client_to_server',
          kind: 'request',
          method: 'tools/call',
          jsonrpcId: '1',
          payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'add' } },
          createdAt: at(2),
        },
        {
          seq: 4,
          direction: 'server_to_client',
          kind: 'response',
          jsonrpcId: '1',
          payload: { jsonrpc: '2.0', id: 1, result: { content: [] } },
          createdAt: at(3),
        },
        {
          seq: 5,
          direction: 'client_to_server',
          kind: 'request',
          method: 'tools/call',
          jsonrpcId: '2',
          payload: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'boom' } },
          createdAt: at(5),
        },
        {
          seq: 6,
          direction: 'server_to_client',
          kind: 'error',
          jsonrpcId: '2',
          payload: { jsonrpc: '2.0', id: 2, error: { code: -32000, message: 'x'.repeat(20) } },
          createdAt: at(6),
          truncated: true,
        },
      ]);
      await insertToolCalls(db, ws.workspaceId, [
        {
          sessionId,
          serverId: alpha,
          jsonrpcId: '1',
          toolName: 'add',
          arguments: { a: 1, b: 2 },
          result: { content: [] },
          startedAt: at(2),
          durationMs: 1000,
        },
        {
          sessionId,
          serverId: alpha,
          jsonrpcId: '2',
          toolName: 'boom',
          status: 'error',
          errorMessage: 'upstream failed',
          startedAt: at(5),
          durationMs: 1000,
          meta: { reasoning: 'try it' },
        },
      ]);
    });

    it('returns the session with its server name', async () => {
      const res = await get(`${base()}/sessions/${sessionId}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        id: sessionId,
        serverName: 'alpha',
        status: 'ended',
        durationMs: 10_000,
        messageCount: 6,
        errorCount: 1,
      });
    });

    it('replays every message in seq order with the tool calls of the page', async () => {
      const replay = (await get(`${base()}/sessions/${sessionId}/replay`)).json<ReplayResult>();
      expect(replay.session.id).toBe(sessionId);
      expect(replay.total).toBe(6);
      expect(replay.messages.map((m) => m.seq)).toEqual([1, 2, 3, 4, 5, 6]);
      expect(replay.messages[5]).toMatchObject({
        kind: 'error',
        direction: 'server_to_client',
        truncated: true,
        jsonrpcId: '2',
        createdAt: at(6),
      });
      expect(replay.messages[0].payload).toEqual({ jsonrpc: '2.0', id: 0, method: 'initialize' });
      expect(replay.toolCalls.map((c) => [c.toolName, c.status])).toEqual([
        ['add', 'ok'],
        ['boom', 'error'],
      ]);
      expect(replay.toolCalls[1]).toMatchObject({
        errorMessage: 'upstream failed',
        meta: { reasoning: 'try it' },
        durationMs: 1000,
      });
    });

    it('pages with limit and offset and windows by startTime and endTime', async () => {
      const page = (await get(`${base()}/sessions/${sessionId}/replay?limit=2&offset=2`)).json<ReplayResult>();
      expect(page.messages.map((m) => m.seq)).toEqual([3, 4]);
      expect(page.total).toBe(6);
      expect(page.toolCalls.map((c) => c.toolName)).toEqual(['add']);
      const window = (
        await get(
          `${base()}/sessions/${sessionId}/replay?startTime=${encodeURIComponent(at(2))}&endTime=${encodeURIComponent(at(5))}`,
        )
      ).json<ReplayResult>();
      expect(window.messages.map((m) => m.seq)).toEqual([3, 4, 5]);
      expect(window.total).toBe(3);
      const windowPage = (
        await get(`${base()}/sessions/${sessionId}/replay?startTime=${encodeURIComponent(at(2))}&limit=1&offset=3`)
      ).json<ReplayResult>();
      expect(windowPage.messages.map((m) => m.seq)).toEqual([6]);
      expect(windowPage.total).toBe(4);
      expect(windowPage.toolCalls).toEqual([]);
    });

    it('rejects bad replay windows with 400', async () => {
      for (const [query, field] of [
        ['limit=1001', 'limit'],
        ['offset=x', 'offset'],
        ['startTime=noon', 'startTime'],
        [`startTime=${encodeURIComponent(at(5))}&endTime=${encodeURIComponent(at(2))}`, 'endTime'],
      ] as const) {
        const res = await get(`${base()}/sessions/${sessionId}/replay?${query}`);
        expect({ query, status: res.statusCode }).toEqual({ query, status: 400 });
        expect(res.json().fields).toHaveProperty(field);
      }
    });

    it('answers 404 for unknown, malformed and other workspaces’ session ids', async () => {
      for (const id of ['7b0c7d1e-3a7e-4f59-9f7c-3f3f0f5e1a11', 'not-a-uuid', otherSessionId]) {
        for (const suffix of ['', '/replay']) {
          const res = await get(`${base()}/sessions/${id}${suffix}`);
          expect({ id, suffix, status: res.statusCode }).toEqual({ id, suffix, status: 404 });
          expect(res.json()).toEqual({ message: 'Session not found', code: 'not_found' });
        }
      }
    });
  });

  describe('workspace isolation', () => {
    it('lists and searches only the workspace’s own sessions', async () => {
      const theirs = (
        await get(`/api/v1/workspaces/${other.workspaceId}/sessions?q=read_file`, other.token)
      ).json<SessionListResult>();
      expect(theirs.sessions.map((s) => s.id)).toEqual([otherSessionId]);
    });

    it('answers 404 for a workspace the caller is not a member of, and 401 without a token', async () => {
      const res = await get(`/api/v1/workspaces/${other.workspaceId}/sessions`);
      expect(res.statusCode).toBe(404);
      const anonymous = await t.app.inject({ method: 'GET', url: `${base()}/sessions` });
      expect(anonymous.statusCode).toBe(401);
    });
  });
});
