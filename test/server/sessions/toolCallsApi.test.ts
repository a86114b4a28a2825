import { buildTestApp, type TestApp } from '../helpers/testApp';
import { engineName } from '../helpers/testDatabase';
import {
  insertSessions,
  insertToolCalls,
  insertTraffic,
  minutesAgo,
  seedServer,
  seedWorkspace,
  type SeededWorkspace,
} from './seed';
import type { ActivityStreamResult, ToolCallsLive } from '../../../src/contract/activity';
import type { TimeSeries } from '../../../src/contract/timeSeries';
import type { DashboardOverview } from '../../../src/contract/dashboard';

const HOUR = 3_600_000;
const floorTo = (time: number, step: number) => new Date(Math.floor(time / step) * step).toISOString();

describe(`tool calls, activity stream and overview API (${engineName})`, () => {
  let t: TestApp;
  let ws: SeededWorkspace;
  let other: SeededWorkspace;
  let alpha: string;
  let beta: string;
  let sessionA: string;
  let sessionB: string;
  let otherSession: string;
  let callIds: string[];
  const now = Date.now();

  const get = (url: string, token = ws.token) =>
    t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
  const base = () => `/api/v1/workspaces/${ws.workspaceId}`;

  beforeAll(async () => {
    t = await buildTestApp();
    const db = t.database.db;
    ws = await seedWorkspace(db, t.config.secret);
    other = await seedWorkspace(db, t.config.secret, 'Other');
    alpha = await seedServer(db, ws.workspaceId, 'alpha', 'online');
    beta = await seedServer(db, ws.workspaceId, 'beta', 'offline');
    await seedServer(db, ws.workspaceId, 'gamma', 'online');
    // Session A: started 30 min ago, ended 20 min ago. Session B: started 10 min ago, still active.
    [sessionA, sessionB] = await insertSessions(db, ws.workspaceId, [
      { serverId: alpha, startedAt: minutesAgo(now, 30), endedAt: minutesAgo(now, 20), callCount: 2 },
      { serverId: beta, startedAt: minutesAgo(now, 10), callCount: 2 },
    ]);
    callIds = await insertToolCalls(db, ws.workspaceId, [
      { sessionId: sessionA, serverId: alpha, toolName: 'add', startedAt: minutesAgo(now, 29), durationMs: 20 },
      {
        sessionId: sessionA,
        serverId: alpha,
        toolName: 'boom',
        status: 'error',
        errorMessage: 'failed',
        startedAt: minutesAgo(now, 25),
      },
      { sessionId: sessionB, serverId: beta, toolName: 'add', startedAt: minutesAgo(now, 9), durationMs: 30 },
      { sessionId: sessionB, serverId: beta, toolName: 'slow', status: 'pending', startedAt: minutesAgo(now, 5) },
    ]);
    const otherServer = await seedServer(db, other.workspaceId, 'theirs');
    [otherSession] = await insertSessions(db, other.workspaceId, [
      { serverId: otherServer, startedAt: minutesAgo(now, 2) },
    ]);
    await insertToolCalls(db, other.workspaceId, [
      { sessionId: otherSession, serverId: otherServer, toolName: 'add', startedAt: minutesAgo(now, 1) },
    ]);
    await insertTraffic(db, other.workspaceId, [
      { serverId: otherServer, toolName: 'add', bucket: floorTo(now - 60_000, 60_000), durations: [1, 1, 1] },
    ]);
  }, 60_000);
  afterAll(() => (t as TestApp | undefined)?.close());

  describe('activity stream', () => {
    it('interleaves tool calls and session starts and ends, newest first', async () => {
      const res = await get(`${base()}/sessions/activity-stream`);
      expect(res.statusCode).toBe(200);
      const { events } = res.json<ActivityStreamResult>();
      expect(
        events.map((e) =>
          e.kind === 'tool_call' ? `call:${e.toolCall.toolName}` : `${e.kind}:${e.session.id === sessionA ? 'A' : 'B'}`,
        ),
      ).toEqual([
        'call:slow',
        'call:add',
        'session_started:B',
        'session_ended:A',
        'call:boom',
        'call:add',
        'session_started:A',
      ]);
      const first = events[0];
      expect(first.kind === 'tool_call' && first.toolCall).toMatchObject({
        serverName: 'beta',
        sessionId: sessionB,
        status: 'pending',
        durationMs: null,
      });
    });

    it('filters tools by a part of the name, in any case, taking % and _ literally (issue 38)', async () => {
      const names = async (tool: string) =>
        (await get(`${base()}/sessions/activity-stream?tool=${encodeURIComponent(tool)}`))
          .json<ActivityStreamResult>()
          .events.map((e) => (e.kind === 'tool_call' ? e.toolCall.toolName : e.kind));
      expect(await names('DD')).toEqual(['add', 'add']);
      expect(await names('o')).toEqual(['slow', 'boom']);
      expect(await names('%')).toEqual([]);
      expect(await names('a_d')).toEqual([]);
    });

    it('honours limit and since (the polling fallback asks only for what is new)', async () => {
      const limited = (await get(`${base()}/sessions/activity-stream?limit=2`)).json<ActivityStreamResult>();
      expect(limited.events).toHaveLength(2);
      const since = (
        await get(`${base()}/sessions/activity-stream?since=${encodeURIComponent(minutesAgo(now, 10))}`)
      ).json<ActivityStreamResult>();
      expect(since.events.map((e) => e.kind)).toEqual(['tool_call', 'tool_call']);
    });

    it('adds the current state of the calls the client shows as pending, of this workspace only', async () => {
      const [foreignCall] = await t.database.db.query<{ id: string }>(
        'select id from tool_calls where workspace_id = $1',
        [other.workspaceId],
      );
      // The slow call (started 5 min ago) finishes; a poll asks only for what is newer, and names it.
      await t.database.db.query(
        "update tool_calls set status = 'ok', ended_at = now(), duration_ms = 300000 where id = $1",
        [callIds[3]],
      );
      try {
        const query = `since=${encodeURIComponent(minutesAgo(now, 1))}&pendingCallIds=${callIds[3]},${foreignCall.id}`;
        const { events } = (await get(`${base()}/sessions/activity-stream?${query}`)).json<ActivityStreamResult>();
        expect(events).toHaveLength(1);
        expect(events[0]).toMatchObject({
          kind: 'tool_call',
          toolCall: { id: callIds[3], status: 'ok', durationMs: 300000, serverName: 'beta' },
        });
        // Already on the page: not twice.
        const again = (
          await get(`${base()}/sessions/activity-stream?pendingCallIds=${callIds[3]}`)
        ).json<ActivityStreamResult>();
        expect(again.events.filter((e) => e.kind === 'tool_call' && e.toolCall.id === callIds[3])).toHaveLength(1);
      } finally {
        await t.database.db.query(
          "update tool_calls set status = 'pending', ended_at = null, duration_ms = null where id = $1",
          [callIds[3]],
        );
      }
    });

    it('filters by server, tool and status (tool and status filters show calls only)', async () => {
      const byServer = (await get(`${base()}/sessions/activity-stream?serverId=${alpha}`)).json<ActivityStreamResult>();
      expect(byServer.events.map((e) => e.kind)).toEqual([
        'session_ended',
        'tool_call',
        'tool_call',
        'session_started',
      ]);
      const byTool = (await get(`${base()}/sessions/activity-stream?tool=add`)).json<ActivityStreamResult>();
      expect(byTool.events.map((e) => e.kind === 'tool_call' && e.toolCall.id)).toEqual([callIds[2], callIds[0]]);
      const errors = (await get(`${base()}/sessions/activity-stream?status=error`)).json<ActivityStreamResult>();
      expect(errors.events.map((e) => e.kind === 'tool_call' && e.toolCall.errorMessage)).toEqual(['failed']);
    });

    it('rejects bad filters with 400', async () => {
      for (const [query, field] of [
        ['limit=500', 'limit'],
        ['since=later', 'since'],
        ['status=failed', 'status'],
        ['serverId=1', 'serverId'],
        ['pendingCallIds=1,2', 'pendingCallIds'],
        [
          `pendingCallIds=${Array.from({ length: 51 }, () => '3f1e5c9a-1b2c-4d5e-8f90-123456789abc').join(',')}`,
          'pendingCallIds',
        ],
      ] as const) {
        const res = await get(`${base()}/sessions/activity-stream?${query}`);
        expect({ query, status: res.statusCode }).toEqual({ query, status: 400 });
        expect(res.json().fields).toHaveProperty(field);
      }
    });
  });

  describe('live tool calls', () => {
    it('lists the newest calls of the workspace, limited', async () => {
      const { toolCalls } = (await get(`${base()}/tool-calls/live?limit=3`)).json<ToolCallsLive>();
      expect(toolCalls.map((c) => c.id)).toEqual([callIds[3], callIds[2], callIds[1]]);
      expect(toolCalls[2]).toMatchObject({
        toolName: 'boom',
        status: 'error',
        serverName: 'alpha',
        requestBytes: 100,
        responseBytes: 200,
      });
    });

    it('lists one session’s calls with session_id, and 404s for a session of another workspace', async () => {
      const { toolCalls } = (await get(`${base()}/tool-calls/live?session_id=${sessionA}`)).json<ToolCallsLive>();
      expect(toolCalls.map((c) => c.id)).toEqual([callIds[1], callIds[0]]);
      const foreign = await get(`${base()}/tool-calls/live?session_id=${otherSession}`);
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json()).toEqual({ message: 'Session not found', code: 'not_found' });
      expect((await get(`${base()}/tool-calls/live?session_id=abc`)).statusCode).toBe(400);
      expect((await get(`${base()}/tool-calls/live?limit=0`)).statusCode).toBe(400);
    });
  });

  describe('time series', () => {
    beforeAll(async () => {
      await insertTraffic(t.database.db, ws.workspaceId, [
        {
          serverId: alpha,
          toolName: 'add',
          bucket: floorTo(now - 3 * HOUR, 60_000),
          durations: [10, 20, 30, 40],
          errors: 1,
          tokens: 400,
        },
        {
          serverId: beta,
          toolName: 'add',
          bucket: floorTo(now - 3 * HOUR + 60_000, 60_000),
          durations: [3000],
          tokens: 100,
        },
        { serverId: alpha, toolName: 'add', bucket: floorTo(now - 25 * HOUR, 60_000), durations: [5] },
      ]);
    });

    it('fills every bucket of the period, oldest first, zeros where nothing happened', async () => {
      const res = await get(`${base()}/tool-calls/time-series?period=24h&interval=1h`);
      expect(res.statusCode).toBe(200);
      const series = res.json<TimeSeries>();
      expect(series).toMatchObject({ period: '24h', interval: '1h' });
      expect(series.points).toHaveLength(24);
      expect(series.points[23].bucket).toBe(floorTo(now, HOUR));
      const busy = series.points.filter((p) => p.calls > 0);
      const expectedBucket = [floorTo(now - 3 * HOUR, HOUR), floorTo(now - 3 * HOUR + 60_000, HOUR)];
      // The two minutes may straddle an hour boundary; either way the totals are the same.
      expect(busy.map((p) => p.bucket)).toEqual([...new Set(expectedBucket)]);
      expect(busy.reduce((sum, p) => sum + p.calls, 0)).toBe(5);
      expect(busy.reduce((sum, p) => sum + p.errors, 0)).toBe(1);
      expect(busy.reduce((sum, p) => sum + p.tokens, 0)).toBe(500);
      const idle = series.points.find((p) => p.calls === 0);
      expect(idle).toEqual({ bucket: idle?.bucket, calls: 0, errors: 0, avgDurationMs: null, tokens: 0 });
    });

    it('reports average and p95 duration per bucket from the latency sketches', async () => {
      const series = (
        await get(`${base()}/tool-calls/time-series?period=30d&interval=1d&serverId=${alpha}`)
      ).json<TimeSeries>();
      expect(series.points).toHaveLength(30);
      expect(series.points[29].bucket).toBe(floorTo(now, 24 * HOUR));
      const threeHoursAgo = series.points.find((p) => p.bucket === floorTo(now - 3 * HOUR, 24 * HOUR));
      const sameDay = floorTo(now - 3 * HOUR, 24 * HOUR) === floorTo(now - 25 * HOUR, 24 * HOUR);
      // 10, 20, 30, 40 ms three hours ago; 5 ms a day earlier, in the same UTC day or the one before.
      expect(threeHoursAgo).toMatchObject(sameDay ? { calls: 5, avgDurationMs: 21 } : { calls: 4, avgDurationMs: 25 });
      // Nearest rank: p95 of four or five calls is the slowest, 40 ms, within the sketch's 1 %.
      expect(Math.abs((threeHoursAgo?.p95DurationMs ?? 0) / 40 - 1)).toBeLessThanOrEqual(0.01);
      expect(series.points.reduce((sum, p) => sum + p.calls, 0)).toBe(5);
    });

    it('uses a default interval per period', async () => {
      const hour = (await get(`${base()}/tool-calls/time-series?period=1h`)).json<TimeSeries>();
      expect(hour.interval).toBe('1m');
      expect(hour.points).toHaveLength(60);
      const fallback = (await get(`${base()}/tool-calls/time-series`)).json<TimeSeries>();
      expect(fallback).toMatchObject({ period: '24h', interval: '1h' });
    });

    it('rejects unknown periods and intervals, and intervals that do not fit the period', async () => {
      for (const query of ['period=2y', 'interval=7s', 'period=1h&interval=1d', 'period=30d&interval=1m']) {
        const res = await get(`${base()}/tool-calls/time-series?${query}`);
        expect({ query, status: res.statusCode }).toEqual({ query, status: 400 });
      }
    });
  });

  describe('overview', () => {
    // Calls, errors, sessions, tokens and p95 are the analytics totals of the traffic rollups
    // (test/server/analytics/figuresAgree.test.ts checks them against real traffic): the same rows
    // the time series reads, so the two agree — 5 calls in the last 4 hours, one failed, 500
    // tokens, and p95 the slowest of five (3,000 ms) within the sketch's 1 %.
    it('counts servers, active sessions and latest activity; the figures come from the analytics rollups', async () => {
      const since = new Date(now - 4 * HOUR).toISOString();
      const res = await get(`${base()}/dashboard/overview?since=${encodeURIComponent(since)}`);
      expect(res.statusCode).toBe(200);
      const overview = res.json<DashboardOverview>();
      expect(overview).toMatchObject({
        since,
        servers: { total: 3, online: 2, offline: 1 },
        sessions: { today: 0, active: 1 },
        toolCalls: { today: 5, errors: 1, tokens: 500, definitionTokens: 0 },
        errorRate: 0.2,
        tokenCorrection: { factor: 1.2, exact: false },
      });
      expect(Math.abs((overview.latencyP95Ms ?? 0) / 3000 - 1)).toBeLessThanOrEqual(0.01);
      expect(overview.toolCalls.cost).toBeGreaterThan(0);
      expect(overview.latestActivity.map((c) => c.id)).toEqual([callIds[3], callIds[2], callIds[1], callIds[0]]);
      expect(overview.lastActivityAt).toBe(minutesAgo(now, 5));
    });

    it('is all zeros for a workspace with nothing recorded', async () => {
      const empty = await seedWorkspace(t.database.db, t.config.secret, 'Empty');
      const overview = (
        await get(`/api/v1/workspaces/${empty.workspaceId}/dashboard/overview`, empty.token)
      ).json<DashboardOverview>();
      expect(overview).toMatchObject({
        servers: { total: 0, online: 0, offline: 0 },
        sessions: { today: 0, active: 0 },
        toolCalls: { today: 0, errors: 0, tokens: 0 },
        errorRate: null,
        latencyP95Ms: null,
        latestActivity: [],
        lastActivityAt: null,
      });
      expect(overview.since).toMatch(/T00:00:00\.000Z$/);
    });

    it('rejects a bad since with 400', async () => {
      expect((await get(`${base()}/dashboard/overview?since=today`)).statusCode).toBe(400);
    });
  });

  it('answers 404 on every route for a workspace the caller is not a member of', async () => {
    for (const path of [
      'sessions/activity-stream',
      'tool-calls/live',
      'tool-calls/time-series',
      'dashboard/overview',
    ]) {
      const res = await get(`/api/v1/workspaces/${other.workspaceId}/${path}`);
      expect({ path, status: res.statusCode }).toEqual({ path, status: 404 });
    }
  });
});
