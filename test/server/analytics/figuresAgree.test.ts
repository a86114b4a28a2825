import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { z } from 'zod';
import type {
  AnalyticsCostsResult,
  AnalyticsOverviewResult,
  AnalyticsToolsResult,
  CostBreakdown,
  PerformanceSummaryResult,
  UsageDailyResult,
} from '../../../src/contract/analytics';
import type { DashboardOverview } from '../../../src/contract/dashboard';
import type { TimeSeries } from '../../../src/contract/timeSeries';
import type { SessionDto, SessionListResult } from '../../../src/contract/sessions';
import type { ToolCallsLive } from '../../../src/contract/activity';
import { bearer } from '../helpers/accounts';
import { engineName } from '../helpers/testDatabase';
import { startProxyApp, type ProxyTestApp } from '../proxy/support/proxyApp';
import { startStreamableUpstream, type SdkUpstream } from '../proxy/support/sdkUpstream';

jest.setTimeout(300_000);

// One truth for every figure (issue 29): known traffic through the real proxy with the official
// SDK client — calls of known durations, failing calls, two clients, one of them through a
// platform key — then every screen's API asked the same questions: the dashboard overview, the
// five analytics calls, the sessions list and detail, tool-calls/live. Calls, errors, sessions,
// tokens (counted here with the tokenizer), cost and percentiles (the exact nearest-rank
// quantiles of the recorded durations, within the sketch's 1 %) must agree everywhere, also
// under a tool, server, client and platform key filter.

interface SentCall {
  client: string;
  tool: string;
  tokens: number;
  failed: boolean;
}

/** The nearest-rank quantile (docs/analytics.md "Quantile"): the value of rank ⌈q·n⌉, 1-based. */
function exactQuantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(q * sorted.length - 1e-9) - 1)];
}

function expectWithinSketch(actual: number | null, exact: number): void {
  expect(actual).not.toBeNull();
  expect(Math.abs((actual as number) - exact)).toBeLessThanOrEqual(exact * 0.01 + 0.01);
}

const sum = <T>(rows: readonly T[], of: (row: T) => number) => rows.reduce((total, row) => total + of(row), 0);

describe(`every figure agrees across screens (${engineName})`, () => {
  let t: ProxyTestApp;
  let upstream: SdkUpstream;
  let serverId: string;
  let keyId: string;
  let since: string;
  const sent: SentCall[] = [];
  /** Tool definition tokens the agents received, per client. */
  const definitions = new Map<string, number>();

  const ws = () => `/api/v1/workspaces/${t.account.workspaceId}`;
  const get = <T>(path: string) =>
    t.app.inject({ method: 'GET', url: `${ws()}${path}`, headers: bearer(t.account.accessToken) }).then((res) => {
      if (res.statusCode !== 200) throw new Error(`${path} → ${res.statusCode} ${res.body}`);
      return res.json<T>();
    });

  function countingFetch(client: string): typeof fetch {
    return async (input, init) => {
      const response = await fetch(input, init);
      const text = await response.clone().text();
      for (const line of text.split('\n')) {
        const json = line.startsWith('data:') ? line.slice(5).trim() : line.trim();
        if (!json.startsWith('{')) continue;
        const message = JSON.parse(json) as { result?: { tools?: unknown[] } };
        for (const tool of message.result?.tools ?? [])
          definitions.set(client, (definitions.get(client) ?? 0) + countTokens(JSON.stringify(tool)));
      }
      return response;
    };
  }

  let proxyUrl: URL;

  async function call(client: Client, clientName: string, tool: string, args: Record<string, unknown>) {
    const result = (await client.callTool({ name: tool, arguments: args })) as {
      content?: { type: string; text?: string }[];
      isError?: boolean;
    };
    const text = (result.content ?? []).map((block) => block.text ?? '').join('\n');
    sent.push({
      client: clientName,
      tool,
      tokens: countTokens(JSON.stringify(args)) + (text ? countTokens(text) : 0),
      failed: result.isError === true,
    });
  }

  beforeAll(async () => {
    upstream = await startStreamableUpstream({
      json: true,
      // Stateful: each client's session has its own MCP session id, so the proxy records three.
      stateful: true,
      build: () => {
        const server = new McpServer({ name: 'known', version: '1.0.0' });
        server.registerTool(
          'wait',
          { description: 'Answers after the given milliseconds', inputSchema: { ms: z.number() } },
          async ({ ms }) => {
            await new Promise((resolve) => setTimeout(resolve, ms));
            return { content: [{ type: 'text', text: `waited ${ms} ms` }] };
          },
        );
        server.registerTool(
          'add',
          { description: 'Adds two numbers', inputSchema: { a: z.number(), b: z.number() } },
          ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }),
        );
        server.registerTool('fail', { description: 'Always fails' }, () => ({
          content: [{ type: 'text', text: 'this tool failed on purpose' }],
          isError: true,
        }));
        return server;
      },
    });
    t = await startProxyApp();
    since = new Date(Date.now() - 60_000).toISOString();
    const registered = await t.register(upstream.url, { name: 'known' });
    serverId = registered.server.id;
    proxyUrl = registered.proxyUrl;
    const key = await t.app.inject({
      method: 'POST',
      url: `${ws()}/platform/keys`,
      headers: bearer(t.account.accessToken),
      payload: { name: 'keyed agent' },
    });
    expect(key.statusCode).toBe(201);
    keyId = key.json<{ id: string }>().id;
    const secret = key.json<{ secret: string }>().secret;

    const run = async (name: string, keySecret: string | null, body: (client: Client) => Promise<void>) => {
      const client = new Client({ name, version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(proxyUrl, {
          fetch: countingFetch(name),
          requestInit: keySecret ? { headers: { Authorization: `Bearer ${keySecret}` } } : undefined,
        }),
      );
      try {
        await client.listTools();
        await body(client);
      } finally {
        await client.close();
      }
    };
    await run('alpha', null, async (client) => {
      for (const ms of [1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233]) await call(client, 'alpha', 'wait', { ms });
      for (let i = 0; i < 4; i++) await call(client, 'alpha', 'add', { a: i, b: 40 });
      for (let i = 0; i < 3; i++) await call(client, 'alpha', 'fail', {});
    });
    await run('beta', secret, async (client) => {
      await call(client, 'beta', 'wait', { ms: 10 });
      await call(client, 'beta', 'wait', { ms: 400 });
      await call(client, 'beta', 'add', { a: 1, b: 2 });
      await call(client, 'beta', 'add', { a: 3, b: 4 });
      await call(client, 'beta', 'fail', {});
    });
    await run('alpha', null, async (client) => {
      await call(client, 'alpha', 'wait', { ms: 7 });
      await call(client, 'alpha', 'add', { a: 5, b: 6 });
    });
    await t.app.recorder.flush();
  });

  afterAll(async () => {
    await t.close();
    await upstream.close();
  });

  /** What the test sent, narrowed like a filter narrows it. */
  async function expected(filter: { tool?: string; client?: string }) {
    const calls = sent.filter(
      (c) => (!filter.tool || c.tool === filter.tool) && (!filter.client || c.client === filter.client),
    );
    const durations = (
      await t.database.db.query<{ d: number }>(
        `select tc.duration_ms as d from tool_calls tc join sessions s on s.id = tc.session_id
         where ($1::text is null or tc.tool_name = $1) and ($2::text is null or s.client_name = $2)`,
        [filter.tool ?? null, filter.client ?? null],
      )
    ).map((row) => row.d);
    expect(durations).toHaveLength(calls.length);
    const clients = filter.client ? [filter.client] : ['alpha', 'beta'];
    // Definitions belong to no tool: a tool filter leaves them out.
    const definitionTokens = filter.tool ? 0 : sum(clients, (client) => definitions.get(client) ?? 0);
    const sessions = filter.client === 'beta' ? 1 : filter.client === 'alpha' ? 2 : 3;
    return {
      calls: calls.length,
      errors: calls.filter((c) => c.failed).length,
      sessions,
      tokens: sum(calls, (c) => c.tokens) + definitionTokens,
      definitionTokens,
      p50: exactQuantile(durations, 0.5),
      p95: exactQuantile(durations, 0.95),
    };
  }

  it('sent what the test expects: 26 calls, 4 failed, 3 sessions, 2 clients, 5 through the key', () => {
    expect(sent).toHaveLength(26);
    expect(sent.filter((c) => c.failed)).toHaveLength(4);
    expect(sent.filter((c) => c.client === 'beta')).toHaveLength(5);
  });

  it('the dashboard overview, /analytics/overview, /usage/daily and /costs give the same figures', async () => {
    const want = await expected({});
    const dashboard = await get<DashboardOverview>(`/dashboard/overview?since=${encodeURIComponent(since)}`);
    expect(dashboard.toolCalls).toMatchObject({
      today: want.calls,
      errors: want.errors,
      tokens: want.tokens,
      definitionTokens: want.definitionTokens,
    });
    expect(dashboard.sessions.today).toBe(want.sessions);
    expect(dashboard.errorRate).toBeCloseTo(want.errors / want.calls, 4);
    expectWithinSketch(dashboard.latencyP95Ms, want.p95);

    const overview = await get<AnalyticsOverviewResult>('/analytics/overview?range=24h');
    expect(overview.totals).toMatchObject({
      calls: want.calls,
      errors: want.errors,
      sessions: want.sessions,
      clients: 2,
      tokens: want.tokens,
      definitionTokens: want.definitionTokens,
    });
    expectWithinSketch(overview.totals.p50Ms, want.p50);
    expectWithinSketch(overview.totals.p95Ms, want.p95);
    expect(dashboard.latencyP95Ms).toBe(overview.totals.p95Ms);
    expect(dashboard.toolCalls.cost).toBeCloseTo(overview.totals.cost, 6);
    expect(sum(overview.series, (p) => p.calls)).toBe(want.calls);
    expect(sum(overview.series, (p) => p.errors)).toBe(want.errors);

    // The activity stream's chart: the same calls, errors and tokens, and its p95 from the same
    // sketches (one bucket holds the whole test's traffic: a day's).
    const chart = await get<TimeSeries>('/tool-calls/time-series?period=7d&interval=1d');
    expect(sum(chart.points, (p) => p.calls)).toBe(want.calls);
    expect(sum(chart.points, (p) => p.errors)).toBe(want.errors);
    expect(sum(chart.points, (p) => p.tokens)).toBe(want.tokens);
    const busyDays = chart.points.filter((p) => p.calls > 0);
    // (Run across UTC midnight the traffic spans two days: their p95s are not the whole one.)
    if (busyDays.length === 1) expectWithinSketch(busyDays[0].p95DurationMs ?? null, want.p95);

    const usage = await get<UsageDailyResult>('/analytics/usage/daily?range=7d');
    expect(sum(usage.days, (d) => d.calls)).toBe(want.calls);
    expect(sum(usage.days, (d) => d.errors)).toBe(want.errors);
    expect(sum(usage.days, (d) => d.sessions)).toBe(want.sessions);
    expect(sum(usage.days, (d) => d.tokens)).toBe(want.tokens);
    expect(sum(usage.days, (d) => d.cost)).toBeCloseTo(overview.totals.cost, 5);
    // The quota's count is the gate's counter, which holds an instance's unused lease until it goes
    // back (a second idle): then it is the calls made, and the usage bar (workspace-limits) says the same.
    const quotaUsed = async () => {
      const deadline = Date.now() + 15_000;
      for (;;) {
        const used = (await get<UsageDailyResult>('/analytics/usage/daily?range=7d')).quota.used;
        if (used === want.calls || Date.now() > deadline) return used;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    expect(await quotaUsed()).toBe(want.calls);
    const limits = await t.app.inject({
      method: 'GET',
      url: '/api/v1/billing/workspace-limits',
      headers: bearer(t.account.accessToken),
    });
    expect(limits.json<{ agentCalls: { used: number } }>().agentCalls.used).toBe(want.calls);

    const costs = await get<AnalyticsCostsResult>('/analytics/costs?range=24h');
    expect(costs.total).toBeCloseTo(overview.totals.cost, 6);
    expect(costs.tokens.definitions + costs.tokens.arguments + costs.tokens.results).toBe(want.tokens);
    // Every breakdown sums to the total: calls, tokens and cost.
    for (const [name, rows] of [
      ['byServer', costs.byServer],
      ['byTool', costs.byTool],
      ['byClient', costs.byClient],
      ['byKey', costs.byKey],
    ] as [string, CostBreakdown[]][]) {
      expect([name, sum(rows, (r) => r.calls)]).toEqual([name, want.calls]);
      expect([name, sum(rows, (r) => r.tokens)]).toEqual([name, want.tokens]);
      expect(sum(rows, (r) => r.cost)).toBeCloseTo(costs.total, 5);
    }
    expect(costs.byTool.find((r) => r.name === 'Tool definitions')).toMatchObject({
      calls: 0,
      tokens: want.definitionTokens,
    });
    const beta = await expected({ client: 'beta' });
    expect(costs.byKey.find((r) => r.id === keyId)).toMatchObject({
      name: 'keyed agent',
      calls: beta.calls,
      tokens: beta.tokens,
    });
    expect(costs.byKey.find((r) => r.id === 'none')).toMatchObject({ calls: want.calls - beta.calls });
    expect(costs.monthToDate.projectedMonthEnd).not.toBeNull();
    expect(costs.monthToDate.basisHours).toBeGreaterThanOrEqual(1);
  });

  it('/performance, /tools, the sessions list and detail and tool-calls/live agree', async () => {
    const want = await expected({});
    const summary = await get<PerformanceSummaryResult>('/analytics/performance?format=summary&range=24h');
    expect(summary.servers).toHaveLength(1);
    expect(summary.servers[0]).toMatchObject({ calls: want.calls, errors: want.errors });
    expectWithinSketch(summary.servers[0].p50Ms, want.p50);
    expectWithinSketch(summary.servers[0].p95Ms, want.p95);
    const { tools } = await get<AnalyticsToolsResult>('/analytics/tools?range=24h');
    expect(sum(tools, (tool) => tool.calls)).toBe(want.calls);
    const wait = await expected({ tool: 'wait' });
    expectWithinSketch(tools.find((tool) => tool.tool === 'wait')?.p95Ms ?? null, wait.p95);
    expectWithinSketch(summary.tools.find((tool) => tool.tool === 'wait')?.p95Ms ?? null, wait.p95);

    const list = await get<SessionListResult>('/sessions?limit=100');
    expect(list.total).toBe(want.sessions);
    expect(sum(list.sessions, (s) => s.callCount)).toBe(want.calls);
    expect(sum(list.sessions, (s) => s.errorCount)).toBe(want.errors);
    expect(sum(list.sessions, (s) => s.tokens)).toBe(want.tokens);
    let callTokens = 0;
    for (const listed of list.sessions) {
      const detail = await get<SessionDto>(`/sessions/${listed.id}`);
      expect(detail).toMatchObject({ callCount: listed.callCount, errorCount: listed.errorCount });
      const { toolCalls } = await get<ToolCallsLive>(`/tool-calls/live?limit=200&session_id=${listed.id}`);
      expect(toolCalls).toHaveLength(listed.callCount);
      callTokens += sum(toolCalls, (c) => c.tokens ?? Number.NaN);
    }
    const live = await get<ToolCallsLive>('/tool-calls/live?limit=200');
    expect(live.toolCalls).toHaveLength(want.calls);
    expect(live.toolCalls.filter((c) => c.status !== 'ok')).toHaveLength(want.errors);
    expect(sum(live.toolCalls, (c) => c.tokens ?? Number.NaN)).toBe(want.tokens - want.definitionTokens);
    expect(callTokens).toBe(want.tokens - want.definitionTokens);
  });

  it.each([
    ['tool', () => 'tool=wait', { tool: 'wait' }],
    ['server', (ids: { serverId: string; keyId: string }) => `serverId=${ids.serverId}`, {}],
    ['client', () => 'client=beta', { client: 'beta' }],
    ['platform key', (ids: { serverId: string; keyId: string }) => `keyId=${ids.keyId}`, { client: 'beta' }],
    ['no platform key', () => 'keyId=none', { client: 'alpha' }],
  ] as const)('under a %s filter every endpoint agrees', async (_name, query, filter) => {
    const want = await expected(filter);
    const q = query({ serverId, keyId });
    const overview = await get<AnalyticsOverviewResult>(`/analytics/overview?range=24h&${q}`);
    expect(overview.totals).toMatchObject({
      calls: want.calls,
      errors: want.errors,
      sessions: want.sessions,
      tokens: want.tokens,
    });
    expectWithinSketch(overview.totals.p95Ms, want.p95);
    const usage = await get<UsageDailyResult>(`/analytics/usage/daily?range=7d&${q}`);
    expect(sum(usage.days, (d) => d.calls)).toBe(want.calls);
    expect(sum(usage.days, (d) => d.sessions)).toBe(want.sessions);
    expect(sum(usage.days, (d) => d.tokens)).toBe(want.tokens);
    const costs = await get<AnalyticsCostsResult>(`/analytics/costs?range=24h&${q}`);
    expect(costs.total).toBeCloseTo(overview.totals.cost, 6);
    for (const rows of [costs.byServer, costs.byTool, costs.byClient, costs.byKey]) {
      expect(sum(rows, (r) => r.calls)).toBe(want.calls);
      expect(sum(rows, (r) => r.tokens)).toBe(want.tokens);
    }
    const summary = await get<PerformanceSummaryResult>(`/analytics/performance?format=summary&range=24h&${q}`);
    expect(sum(summary.servers, (s) => s.calls)).toBe(want.calls);
    expectWithinSketch(summary.servers[0]?.p95Ms ?? null, want.p95);
    const { tools } = await get<AnalyticsToolsResult>(`/analytics/tools?range=24h&${q}`);
    expect(sum(tools, (tool) => tool.calls)).toBe(want.calls);
  });
});
