import { randomUUID } from 'node:crypto';
import type { NotificationDto } from '../../../src/contract/notifications';
import { percentile95 } from '../../../src/server/notifications/sources/sessionHealthMonitor';
import { buildTestApp, type TestApp } from '../helpers/testApp';
import { engineName } from '../helpers/testDatabase';
import { createServer, createUser, createWorkspace, toolCall, type TestUser } from './fixtures';

// Opening PGlite on a busy shared machine can take longer than Jest's default 5 s.
jest.setTimeout(60_000);

describe(`session health → session_alert / performance_warning (${engineName})`, () => {
  let t: TestApp;
  let ada: TestUser;
  let workspaceId: string;
  let serverId: string;

  beforeAll(async () => {
    t = await buildTestApp();
    ada = await createUser(t.app, 'Ada');
    workspaceId = await createWorkspace(t.app, ada);
    serverId = await createServer(t.app, workspaceId, 'weather-tools');
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.app.db.query('delete from notifications');
    await t.app.notificationSettings.update(workspaceId, {
      sessionErrorRatePercent: 25,
      sessionP95LatencyMs: 5_000,
      sessionMinCalls: 10,
    });
  });

  /** Publishes finished calls of one session the way the recorder does, then waits for the evaluator. */
  async function publishCalls(sessionId: string, calls: { status: 'ok' | 'error'; durationMs?: number }[]) {
    for (const call of calls) {
      t.app.bus.publish(workspaceId, {
        type: 'tool_call',
        data: toolCall({
          sessionId,
          serverId,
          status: call.status,
          durationMs: call.durationMs ?? 40,
          errorMessage: call.status === 'error' ? 'boom' : null,
        }),
      });
    }
    await t.app.notificationMonitors.sessionHealth.idle();
  }
  const list = async (): Promise<NotificationDto[]> =>
    (await t.app.inject({ method: 'GET', url: '/api/v1/notifications', headers: ada.auth })).json().notifications;

  const ok = (n: number) => Array.from({ length: n }, () => ({ status: 'ok' as const }));
  const failed = (n: number) => Array.from({ length: n }, () => ({ status: 'error' as const }));

  it('alerts once when a session’s error rate crosses the threshold, linking to the session', async () => {
    const sessionId = randomUUID();
    await publishCalls(sessionId, [...ok(7), ...failed(2)]);
    expect(await list()).toEqual([]);
    await publishCalls(sessionId, failed(1)); // 3 of 10 = 30% ≥ 25%
    await publishCalls(sessionId, failed(5));

    const alerts = await list();
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({
      type: 'session_alert',
      severity: 'error',
      title: 'High Session Error Rate',
      message: '3 of 10 tool calls failed (30%) in a session on weather-tools; the threshold is 25%',
      actionUrl: `/sessions/${sessionId}`,
      occurrences: 1,
      metadata: { sessionId, serverId, serverName: 'weather-tools', calls: 10, errors: 3, thresholdPercent: 25 },
    });
  });

  it('waits for the minimum number of calls', async () => {
    await publishCalls(randomUUID(), failed(9));
    expect(await list()).toEqual([]);
  });

  it('warns when the p95 latency of a session reaches the threshold, and not for fast sessions', async () => {
    await publishCalls(randomUUID(), ok(30));
    expect(await list()).toEqual([]);

    const slow = randomUUID();
    await publishCalls(slow, [...ok(9), { status: 'ok', durationMs: 7_200 }, { status: 'ok', durationMs: 8_000 }]);
    const [warning] = await list();
    expect(warning).toMatchObject({
      type: 'performance_warning',
      severity: 'warning',
      title: 'Slow Session',
      actionUrl: `/sessions/${slow}`,
      metadata: { sessionId: slow, p95LatencyMs: 8_000, thresholdMs: 5_000 },
    });
  });

  it('judges slow calls made before the minimum was reached once it is reached', async () => {
    const sessionId = randomUUID();
    await publishCalls(sessionId, [{ status: 'ok', durationMs: 9_000 }, ...ok(8)]);
    expect(await list()).toEqual([]);
    await publishCalls(sessionId, ok(1)); // 10 calls: the p95 is the 9 s call
    expect((await list()).map((n) => [n.type, n.metadata.p95LatencyMs])).toEqual([['performance_warning', 9_000]]);
  });

  it('follows the workspace’s thresholds', async () => {
    await t.app.notificationSettings.update(workspaceId, { sessionErrorRatePercent: 50, sessionMinCalls: 4 });
    const sessionId = randomUUID();
    await publishCalls(sessionId, [...ok(3), ...failed(1)]);
    expect(await list()).toEqual([]);
    await publishCalls(sessionId, failed(2)); // 3 of 6 = 50%
    expect((await list()).map((n) => n.type)).toEqual(['session_alert']);
  });

  it('re-arms after the session recovers; a new crossing within the window bumps the same notification', async () => {
    const sessionId = randomUUID();
    await publishCalls(sessionId, [...ok(5), ...failed(5)]);
    await publishCalls(sessionId, ok(30)); // 5 of 40 = 12.5%: recovered
    await publishCalls(sessionId, failed(12)); // 17 of 52 ≈ 33%: crossed again
    const alerts = await list();
    expect(alerts).toHaveLength(1);
    expect(alerts[0].occurrences).toBe(2);
  });

  it('ignores pending calls and other message types', async () => {
    const sessionId = randomUUID();
    for (let i = 0; i < 12; i += 1) {
      t.app.bus.publish(workspaceId, {
        type: 'tool_call',
        data: toolCall({ sessionId, serverId, status: 'pending', durationMs: null }),
      });
      t.app.bus.publish(workspaceId, { type: 'server_updated', data: { status: 'error' } });
    }
    await t.app.notificationMonitors.sessionHealth.idle();
    expect(await list()).toEqual([]);
  });

  it('computes a nearest-rank p95', () => {
    expect(percentile95([])).toBeNull();
    expect(percentile95([3])).toBe(3);
    expect(percentile95(Array.from({ length: 100 }, (_, i) => i + 1))).toBe(95);
    expect(percentile95([...Array(18).fill(10), 900, 1000])).toBe(900);
  });
});
