import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { AlertRuleDto } from '../../../src/contract/alertRules';
import type { WebhookEventBody } from '../../../src/contract/integrations';
import { previewAlertRule } from '../../../src/server/modules/alertRules/preview';
import { readRuleSeries, windowValue } from '../../../src/server/modules/alertRules/ruleSeries';
import type { AlertRuleFields } from '../../../src/server/modules/alertRules/store';
import { engineName } from '../helpers/testDatabase';
import { bearer } from '../helpers/accounts';
import { startProxyApp, type ProxyTestApp } from '../proxy/support/proxyApp';
import { startReceiver, type Receiver } from '../integrations/receiver';
import { startFlakyMcpServer, type FlakyMcpServer } from './flakyMcpServer';

jest.setTimeout(90_000);

const MINUTE = 60_000;

// Alert rules end to end: traffic through the real proxy lands in the rollups; the test drives the
// evaluation clock minute by minute past it. A tool's error rate over the threshold for the
// for-duration fires once (one notification, one webhook delivery, one PagerDuty trigger); the
// recovery resolves once (PagerDuty resolve, same dedup key); the 7-day preview replays to the
// same episode.
describe(`alert rules (${engineName})`, () => {
  let t: ProxyTestApp;
  let upstream: FlakyMcpServer;
  let hook: Receiver;
  let pagerDuty: Receiver;
  const api = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, payload?: unknown) =>
    t.app.inject({
      method,
      url: `/api/v1/workspaces/${t.account.workspaceId}${path}`,
      headers: bearer(t.account.accessToken),
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  beforeAll(async () => {
    upstream = await startFlakyMcpServer();
    hook = await startReceiver();
    pagerDuty = await startReceiver([{ status: 202 }]);
    t = await startProxyApp();
    // The test is the clock: no evaluation of its own.
    await t.app.alertRuleMonitor.stop();
  });
  afterAll(async () => {
    await (t as ProxyTestApp | undefined)?.close();
    await (upstream as FlakyMcpServer | undefined)?.stop();
    await (hook as Receiver | undefined)?.close();
    await (pagerDuty as Receiver | undefined)?.close();
  });

  const rule = (serverId: string): AlertRuleFields => ({
    name: 'Charge failing',
    metric: 'error_rate',
    scope: { serverId, tool: 'charge' },
    condition: 'above',
    threshold: 5,
    windowMinutes: 5,
    forMinutes: 2,
    severity: 'error',
    quietHours: null,
    notifyIntegrations: true,
    enabled: true,
  });

  async function alertNotifications(): Promise<{ title: string; metadata: Record<string, unknown> }[]> {
    return t.database.db.query(
      `select title, metadata from notifications where user_id = $1 and type = 'alert_rule' order by created_at`,
      [t.account.user.id],
    );
  }

  it('fires once when the error rate holds over the threshold, and resolves once', async () => {
    for (const payload of [
      {
        kind: 'webhook',
        name: 'Hook',
        config: { url: hook.url },
        rules: { types: ['alert_rule'], minSeverity: 'info' },
      },
      {
        kind: 'pagerduty',
        name: 'On call',
        config: { routingKey: 'R0UT1NGKEY', eventsUrl: `${pagerDuty.url}/v2/enqueue` },
        rules: { types: ['alert_rule'], minSeverity: 'error' },
      },
    ])
      expect((await api('POST', '/integrations', payload)).statusCode).toBe(201);
    const { server, proxyUrl } = await t.register(upstream.url, { name: 'Payments' });
    const created = await api('POST', '/alert-rules', rule(server.id));
    expect(created.statusCode).toBe(201);
    const ruleId = created.json<AlertRuleDto>().id;

    upstream.state.failing = true;
    const agent = new Client({ name: 'checkout-agent', version: '1.0.0' });
    await agent.connect(new StreamableHTTPClientTransport(proxyUrl));
    for (let i = 0; i < 8; i++) expect((await agent.callTool({ name: 'charge' })).isError).toBe(true);
    await agent.close();
    await t.app.recorder.flush();
    const [traffic] = await t.database.db.query<{ calls: number; first: Date; last: Date }>(
      `select sum(calls)::int as calls, min(bucket) as first, max(bucket) as last
         from (select calls, bucket, tool_name, workspace_id from traffic_minutes
               union all select calls, bucket, tool_name, workspace_id from traffic_pending) r
        where workspace_id = $1 and tool_name = 'charge'`,
      [t.account.workspaceId],
    );
    expect(traffic.calls).toBe(8);
    const base = new Date(traffic.last).getTime();
    expect(base - new Date(traffic.first).getTime()).toBeLessThanOrEqual(MINUTE);

    // The other metrics read the same rollups: a p95 from the merged sketches, the new pair.
    const scope = { serverId: server.id, tool: 'charge' };
    const from = base - 5 * MINUTE;
    const to = base + MINUTE;
    const latency = await readRuleSeries(t.app.db, t.account.workspaceId, { metric: 'latency_p95', scope }, from, to);
    expect(windowValue(latency, 'latency_p95', to, 6 * MINUTE)).toBeGreaterThan(0);
    const pairs = await readRuleSeries(t.app.db, t.account.workspaceId, { metric: 'new_tool_client', scope }, from, to);
    expect(windowValue(pairs, 'new_tool_client', to, 6 * MINUTE)).toBe(1);
    expect(windowValue(pairs, 'new_tool_client', to + 10 * MINUTE, 6 * MINUTE)).toBe(0);

    const evaluate = async (minutes: number) => {
      await t.app.alertRuleMonitor.evaluateAll(base + minutes * MINUTE + 7_000);
      return (await api('GET', `/alert-rules/${ruleId}`)).json<AlertRuleDto>();
    };
    expect(await evaluate(1)).toMatchObject({ state: 'pending', lastValue: 100 });
    expect((await evaluate(2)).state).toBe('pending');
    expect(await alertNotifications()).toEqual([]);
    expect((await evaluate(3)).state).toBe('firing');
    // The same instant again, and the next ones while it holds: nothing new.
    await evaluate(3);
    expect((await evaluate(4)).state).toBe('firing');
    const fired = await alertNotifications();
    expect(fired).toEqual([
      expect.objectContaining({
        title: 'Alert firing: Charge failing',
        metadata: expect.objectContaining({ ruleId, ruleName: 'Charge failing', status: 'firing', value: 100 }),
      }),
    ]);
    await t.app.integrationDispatcher.deliverDue();
    const [delivery] = await hook.waitForRequests(1);
    const body = JSON.parse(delivery.body) as WebhookEventBody;
    expect(body.data.notification).toMatchObject({
      type: 'alert_rule',
      title: 'Alert firing: Charge failing',
      metadata: { ruleName: 'Charge failing', status: 'firing' },
    });
    const trigger = JSON.parse((await pagerDuty.waitForRequests(1))[0].body);
    expect(trigger).toMatchObject({ event_action: 'trigger', dedup_key: expect.stringContaining(ruleId) });

    // The window moves past the failures (minute by minute, as the monitor runs): no calls, no
    // error rate; clear for 2 minutes resolves.
    expect((await evaluate(5)).state).toBe('firing');
    expect((await evaluate(6)).state).toBe('resolving');
    expect((await evaluate(7)).state).toBe('resolving');
    expect((await evaluate(8)).state).toBe('ok');
    await evaluate(9);
    const all = await alertNotifications();
    expect(all.map((n) => n.title)).toEqual(['Alert firing: Charge failing', 'Alert resolved: Charge failing']);
    await t.app.integrationDispatcher.deliverDue();
    await hook.waitForRequests(2);
    const resolve = JSON.parse((await pagerDuty.waitForRequests(2))[1].body);
    expect(resolve).toEqual({ routing_key: 'R0UT1NGKEY', event_action: 'resolve', dedup_key: trigger.dedup_key });
    expect(hook.requests).toHaveLength(2);
    expect(pagerDuty.requests).toHaveLength(2);

    const firings = (await api('GET', `/alert-rules/${ruleId}/firings`)).json<{
      firings: { firedAt: string; resolvedAt: string | null; value: number }[];
    }>().firings;
    expect(firings).toEqual([
      expect.objectContaining({
        firedAt: new Date(base + 3 * MINUTE).toISOString(),
        resolvedAt: new Date(base + 8 * MINUTE).toISOString(),
        value: 100,
      }),
    ]);

    // The preview replays the same rollups at the same instants: the same single episode.
    const preview = await previewAlertRule(t.app.db, t.account.workspaceId, rule(server.id), base + 12 * MINUTE);
    expect(preview.firings).toBe(1);
    expect(preview.episodes).toEqual(firings.map((f) => ({ firedAt: f.firedAt, resolvedAt: f.resolvedAt })));
    expect(preview.evaluations).toBe(7 * 1440);
    // A threshold above 100 % would never have fired; through the API, the same shape.
    const never = await api('POST', '/alert-rules/preview', { ...rule(server.id), threshold: 100 });
    expect(never.statusCode).toBe(200);
    expect(never.json()).toMatchObject({ firings: 0, episodes: [] });
  });

  it('validates rules, keeps them per workspace, and documents the routes in OpenAPI', async () => {
    const bad = await api('POST', '/alert-rules', {
      name: 'x',
      metric: 'calls',
      condition: 'below',
      threshold: 1,
      windowMinutes: 1441,
      forMinutes: 0,
      severity: 'warning',
      quietHours: { start: '18:00', end: '08:00', timeZone: 'Mars/Olympus' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toMatch(/windowMinutes|24 h/);
    expect((await api('GET', '/alert-rules/00000000-0000-4000-8000-000000000001')).statusCode).toBe(404);
    const quiet = await api('POST', '/alert-rules', {
      name: 'No calls in business hours',
      metric: 'calls',
      condition: 'below',
      threshold: 1,
      windowMinutes: 30,
      forMinutes: 10,
      severity: 'warning',
      quietHours: { start: '18:00', end: '08:00', timeZone: 'Europe/Paris' },
    });
    expect(quiet.statusCode).toBe(201);
    const id = quiet.json<AlertRuleDto>().id;
    const changed = await api('PATCH', `/alert-rules/${id}`, { enabled: false });
    expect(changed.json()).toMatchObject({ enabled: false, quietHours: { timeZone: 'Europe/Paris' } });
    expect((await api('DELETE', `/alert-rules/${id}`)).statusCode).toBe(204);
    expect((await api('GET', `/alert-rules/${id}`)).statusCode).toBe(404);
    const openapi = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{ paths: object }>();
    expect(Object.keys(openapi.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/workspaces/{workspaceId}/alert-rules',
        '/api/v1/workspaces/{workspaceId}/alert-rules/{ruleId}',
        '/api/v1/workspaces/{workspaceId}/alert-rules/{ruleId}/firings',
        '/api/v1/workspaces/{workspaceId}/alert-rules/preview',
      ]),
    );
  });
});
