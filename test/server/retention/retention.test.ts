import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startProxyApp, type ProxyTestApp } from '../proxy/support/proxyApp';
import { startStreamableUpstream, type SdkUpstream } from '../proxy/support/sdkUpstream';
import { bearer } from '../helpers/accounts';
import { engineName } from '../helpers/testDatabase';
import { foldAllPendingTraffic } from '../../../src/server/recording/trafficFold';
import { expireRecordedData } from '../../../src/server/data/retention/expiry';
import type { WorkspaceRetention } from '../../../src/contract/retention';
import type { AnalyticsOverviewResult } from '../../../src/contract/analytics';
import type { SessionListResult } from '../../../src/contract/sessions';

jest.setTimeout(90_000);

// Issue 33 item 1: raw data past the workspace's window goes, rollups stay (each grain for its
// own window), and the API says when a range reaches past what is kept. The expiry runs with a
// clock the test sets: "8 days later" is a Date, not a wait.

const DAY = 86_400_000;

describe(`retention by plan and workspace (${engineName})`, () => {
  let t: ProxyTestApp;
  let upstream: SdkUpstream;
  let workspaceId: string;
  const recordedAt = Date.now();
  const later = (days: number) => new Date(recordedAt + days * DAY);

  const api = (method: 'GET' | 'PUT', path: string, payload?: object) =>
    t.app.inject({
      method,
      url: `/api/v1/workspaces/${workspaceId}${path}`,
      headers: bearer(t.account.accessToken),
      payload,
    });
  const count = async (table: string) =>
    (
      await t.database.db.query<{ n: number }>(`select count(*)::int as n from ${table} where workspace_id = $1`, [
        workspaceId,
      ])
    )[0].n;
  const rawCounts = async () => ({
    sessions: await count('sessions'),
    messages: await count('messages'),
    toolCalls: await count('tool_calls'),
  });

  beforeAll(async () => {
    t = await startProxyApp();
    workspaceId = t.account.workspaceId;
    upstream = await startStreamableUpstream({ json: true, stateful: true });
    const { proxyUrl } = await t.register(upstream.url, { name: 'fixture' });
    const client = new Client({ name: 'retention-agent', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(proxyUrl);
    await client.connect(transport);
    await client.callTool({ name: 'echo', arguments: { text: 'kept a while' } });
    await client.callTool({ name: 'echo', arguments: { text: 'then gone' } });
    await transport.terminateSession();
    await client.close();
    await t.app.recorder.flush();
    await foldAllPendingTraffic(t.database.db);
  });
  afterAll(async () => {
    await (upstream as SdkUpstream | undefined)?.close();
    await (t as ProxyTestApp | undefined)?.close();
  });

  it('shows the plan’s days and the rollups’ windows; a workspace may keep less, never more', async () => {
    const shown = (await api('GET', '/retention')).json<WorkspaceRetention>();
    expect(shown).toMatchObject({ rawDays: 7, planDays: 7, chosenDays: null, operatorCapDays: null });
    expect(shown.minuteRollupDays).toBeGreaterThanOrEqual(28);
    expect(shown.hourRollupDays).toBeGreaterThan(365);
    expect(shown.dayRollupDays).toBeGreaterThan(365);

    const over = await api('PUT', '/retention', { rawDays: 8 });
    expect(over.statusCode).toBe(400);
    expect(over.json().message).toBe('The Starter plan keeps raw data at most 7 days');
    const zero = await api('PUT', '/retention', { rawDays: 0 });
    expect(zero.statusCode).toBe(400);
    expect((await api('GET', '/retention')).json<WorkspaceRetention>().chosenDays).toBeNull();
  });

  it('keeps raw data inside the window, whatever the day', async () => {
    const before = await rawCounts();
    expect(before.sessions).toBe(1);
    expect(before.toolCalls).toBe(2);
    expect(before.messages + before.toolCalls).toBeGreaterThan(2);
    await t.app.retention.runOnce(later(6));
    expect(await rawCounts()).toEqual(before);
  });

  it('deletes raw data past the window the workspace chose, and keeps every rollup', async () => {
    const chosen = (await api('PUT', '/retention', { rawDays: 3 })).json<WorkspaceRetention>();
    expect(chosen).toMatchObject({ rawDays: 3, chosenDays: 3, planDays: 7 });
    const rollupsBefore = {
      minutes: await count('traffic_minutes'),
      hours: await count('traffic_hours'),
      days: await count('traffic_days'),
    };
    expect(rollupsBefore.minutes).toBeGreaterThan(0);

    const expired = await t.app.retention.runOnce(later(4));
    expect(expired.sessions).toBe(1);
    expect(await rawCounts()).toEqual({ sessions: 0, messages: 0, toolCalls: 0 });
    expect({
      minutes: await count('traffic_minutes'),
      hours: await count('traffic_hours'),
      days: await count('traffic_days'),
    }).toEqual(rollupsBefore);

    // The analytics still count the calls (from rollups) and say the raw data of the range is gone.
    const from = new Date(recordedAt - 10 * DAY).toISOString();
    const overview = (
      await api('GET', `/analytics/overview?from=${from}&to=${new Date().toISOString()}`)
    ).json<AnalyticsOverviewResult>();
    expect(overview.totals.calls).toBe(2);
    expect(overview.range.retention).toMatchObject({ reachesPastRaw: true, reachesPastRollups: false });
  });

  it('expires minute rollups after weeks and hour rollups after a year; day rows stay longest', async () => {
    await t.app.retention.runOnce(later(36));
    expect(await count('traffic_minutes')).toBe(0);
    expect(await count('latency_minutes')).toBe(0);
    expect(await count('traffic_hours')).toBeGreaterThan(0);
    await t.app.retention.runOnce(later(401));
    expect(await count('traffic_hours')).toBe(0);
    expect(await count('traffic_days')).toBeGreaterThan(0);
  });

  it('says when a range reaches past what is kept: analytics and the sessions list', async () => {
    const recent = new Date(Date.now() - 3_600_000).toISOString();
    const now = new Date().toISOString();
    const inside = (await api('GET', `/analytics/overview?from=${recent}&to=${now}`)).json<AnalyticsOverviewResult>();
    expect(inside.range.retention).toMatchObject({ reachesPastRaw: false, reachesPastRollups: false });
    // 40 days back at 7 past the hour: that edge is read from minute rows, kept 35 days.
    const hour = Math.floor(Date.now() / 3_600_000) * 3_600_000;
    const ragged = new Date(hour - 40 * DAY + 7 * 60_000).toISOString();
    const past = (await api('GET', `/analytics/overview?from=${ragged}&to=${now}`)).json<AnalyticsOverviewResult>();
    expect(past.range.retention).toMatchObject({ reachesPastRaw: true, reachesPastRollups: true });
    const ancient = (
      await api(
        'GET',
        `/analytics/overview?from=${new Date(hour - 1200 * DAY).toISOString()}&to=${new Date(hour - 1100 * DAY).toISOString()}`,
      )
    ).json<AnalyticsOverviewResult>();
    expect(ancient.range.retention?.reachesPastRollups).toBe(true);

    const all = (await api('GET', '/sessions')).json<SessionListResult>();
    expect(all.retention?.reachesPastRaw).toBe(true);
    expect(Date.parse(all.retention!.rawKeptSince)).toBeGreaterThan(Date.now() - 3 * DAY - 60_000);
    const lastHour = (await api('GET', `/sessions?from=${recent}`)).json<SessionListResult>();
    expect(lastHour.retention?.reachesPastRaw).toBe(false);
  });

  it('caps every workspace at the operator’s days', async () => {
    await api('PUT', '/retention', { rawDays: null });
    const [row] = await t.database.db.query<{ n: number }>(
      'select count(*)::int as n from workspaces where id = $1 and raw_retention_days is null',
      [workspaceId],
    );
    expect(row.n).toBe(1);
    // A fresh session, then a run 2 days on under a cap of 1 day: gone though the plan keeps 7.
    await t.database.db.query(
      `insert into sessions (workspace_id, server_id, transport, status, started_at, last_activity_at)
       select $1, id, 'streamable_http', 'ended', now(), now() from servers where workspace_id = $1 limit 1`,
      [workspaceId],
    );
    expect((await expireRecordedData(t.database.db, { now: later(2), operatorCapDays: null })).sessions).toBe(0);
    expect((await expireRecordedData(t.database.db, { now: later(2), operatorCapDays: 1 })).sessions).toBe(1);
  });
});
