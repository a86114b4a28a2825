import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { z } from 'zod';
import type {
  AnalyticsCostsResult,
  AnalyticsOverviewResult,
  AnalyticsToolsResult,
  PerformanceSeriesResult,
  PerformanceSummaryResult,
  UsageDailyResult,
} from '../../../src/contract/analytics';
import { modelPrice, type PricingSettings } from '../../../src/contract/pricing';
import { bearer } from '../helpers/accounts';
import { engineName } from '../helpers/testDatabase';
import { startEverything, type EverythingServer } from '../proxy/support/everything';
import { startProxyApp, type ProxyTestApp } from '../proxy/support/proxyApp';
import { startStreamableUpstream, type SdkUpstream } from '../proxy/support/sdkUpstream';

jest.setTimeout(420_000);

// Scripted agent traffic through the real proxy to server-everything (and to an SDK server with
// no tools, whose tools/call answers the protocol error −32601), then every analytics call
// checked against what the test itself knows: the calls it made, their outcomes, the tokens of
// their arguments, results and tool lists counted here with gpt-tokenizer, costs computed here
// from the price table, and exact percentiles of the durations the proxy recorded.

type CallResult = { content?: { type: string; text?: string }[]; isError?: boolean };

/** What of a result reaches the model, as docs/analytics.md defines it: the text of its content. */
function resultTokensOf(result: CallResult): number {
  const text = (result.content ?? [])
    .filter((block) => block.type === 'text')
    .map((block) => block.text ?? '')
    .join('\n');
  return text.length === 0 ? 0 : countTokens(text);
}

/** The exact value at quantile q by the nearest rank, the one definition every figure uses. */
function exactQuantile(sorted: number[], q: number): number {
  // The nearest rank (docs/analytics.md "Quantile"): the value of 1-based rank ⌈q·n⌉.
  return sorted[Math.max(0, Math.ceil(q * sorted.length - 1e-9) - 1)];
}

describe(`analytics of agent traffic through the proxy (${engineName})`, () => {
  let t: ProxyTestApp;
  let everything: EverythingServer;
  let noTools: SdkUpstream;
  let everythingId: string;
  let noToolsId: string;
  const expected = { arguments: 0, results: 0, definitions: 0 };
  const perTool = new Map<string, number>();
  const perClient = new Map<string, number>();

  const api = <T>(path: string) =>
    t.app
      .inject({
        method: 'GET',
        url: `/api/v1/workspaces/${t.account.workspaceId}/analytics/${path}`,
        headers: bearer(t.account.accessToken),
      })
      .then((res) => {
        if (res.statusCode !== 200) throw new Error(`${path} → ${res.statusCode} ${res.body}`);
        return res.json<T>();
      });

  /**
   * Counts the definitions of every tools/list answer as the server sent them (the SDK client's
   * parsed list is not byte for byte what crossed the proxy).
   */
  const countingFetch: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const text = await response.clone().text();
    for (const line of text.split('\n')) {
      const json = line.startsWith('data:') ? line.slice(5).trim() : line.trim();
      if (!json.startsWith('{')) continue;
      const message = JSON.parse(json) as { result?: { tools?: unknown[] } };
      for (const tool of message.result?.tools ?? []) expected.definitions += countTokens(JSON.stringify(tool));
    }
    return response;
  };

  async function agent(name: string, url: URL, run: (client: Client) => Promise<void>): Promise<void> {
    const client = new Client({ name, version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url, { fetch: countingFetch }));
    try {
      await run(client);
    } finally {
      await client.close();
    }
  }

  async function call(
    client: Client,
    clientName: string,
    tool: string,
    args: Record<string, unknown>,
  ): Promise<CallResult> {
    const result = (await client.callTool({ name: tool, arguments: args })) as CallResult;
    expected.arguments += countTokens(JSON.stringify(args));
    expected.results += resultTokensOf(result);
    perTool.set(tool, (perTool.get(tool) ?? 0) + 1);
    perClient.set(clientName, (perClient.get(clientName) ?? 0) + 1);
    return result;
  }

  async function listTools(client: Client): Promise<void> {
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(0);
  }

  beforeAll(async () => {
    everything = await startEverything();
    noTools = await startStreamableUpstream({
      json: true,
      stateful: false,
      build: () => {
        const server = new McpServer({ name: 'prompts-only', version: '1.0.0' });
        server.registerPrompt('hello', { description: 'Says hello' }, () => ({
          messages: [{ role: 'user', content: { type: 'text', text: 'hello' } }],
        }));
        return server;
      },
    });
    t = await startProxyApp();
    const a = await t.register(everything.url, { name: 'everything' });
    const b = await t.register(noTools.url, { name: 'prompts-only' });
    everythingId = a.server.id;
    noToolsId = b.server.id;

    await agent('agent-alpha', a.proxyUrl, async (client) => {
      await listTools(client);
      for (const message of ['short', 'a somewhat longer message with several words in it', 'x'.repeat(300)])
        await call(client, 'agent-alpha', 'echo', { message });
      await call(client, 'agent-alpha', 'get-sum', { a: 2, b: 40 });
      await call(client, 'agent-alpha', 'get-sum', { a: 1234, b: 5678 });
      const failed = await call(client, 'agent-alpha', 'no-such-tool', {});
      expect(failed.isError).toBe(true);
    });
    await agent('agent-beta', a.proxyUrl, async (client) => {
      await listTools(client);
      await call(client, 'agent-beta', 'echo', { message: 'from beta' });
      // A tools/call without a name: the server fails it (JSON-RPC −32603).
      await expect(
        client.request({ method: 'tools/call', params: { arguments: { q: 1 } } }, z.any()),
      ).rejects.toMatchObject({ code: -32603 });
      expected.arguments += countTokens(JSON.stringify({ q: 1 }));
      perTool.set('(unnamed)', 1);
      perClient.set('agent-beta', (perClient.get('agent-beta') ?? 0) + 1);
    });
    await agent('agent-gamma', b.proxyUrl, async (client) => {
      for (let i = 0; i < 2; i++) {
        await expect(
          client.request({ method: 'tools/call', params: { name: 'anything', arguments: { i } } }, z.any()),
        ).rejects.toMatchObject({ code: -32601 });
        expected.arguments += countTokens(JSON.stringify({ i }));
      }
      perTool.set('anything', 2);
      perClient.set('agent-gamma', 2);
    });
    await t.app.recorder.flush();
    // Error messages of JSON-RPC errors reach the model as its result text: counted from what was stored.
    const errorTexts = await t.database.db.query<{ message: string }>(
      `select error_message as message from tool_calls where response_kind = 'error'`,
    );
    for (const row of errorTexts) expected.results += countTokens(row.message);
  });

  afterAll(async () => {
    await (t as ProxyTestApp | undefined)?.close();
    await (everything as EverythingServer | undefined)?.stop();
    await (noTools as SdkUpstream | undefined)?.close();
  });

  const totalTokens = () => expected.arguments + expected.results + expected.definitions;
  const priceOf = (
    tokens: { arguments: number; results: number; definitions: number },
    model = modelPrice('claude-sonnet-4.5'),
  ) =>
    (((tokens.definitions + tokens.results) * model.inputPerMillion + tokens.arguments * model.outputPerMillion) *
      model.correctionFactor) /
    1e6;

  it('stores each call with its own token counts and error class', async () => {
    const rows = await t.database.db.query<{
      tool_name: string;
      argument_tokens: number;
      result_tokens: number;
      error_class: string | null;
    }>('select tool_name, argument_tokens, result_tokens, error_class from tool_calls order by started_at');
    expect(rows).toHaveLength(10);
    expect(rows.map((row) => row.error_class)).toEqual([
      null,
      null,
      null,
      null,
      null,
      'tool',
      null,
      'server',
      'protocol',
      'protocol',
    ]);
    expect(rows.reduce((sum, row) => sum + row.argument_tokens, 0)).toBe(expected.arguments);
    expect(rows.reduce((sum, row) => sum + row.result_tokens, 0)).toBe(expected.results);
    const sessions = await t.database.db.query<{ client_name: string; definition_tokens: string | number }>(
      'select client_name, definition_tokens from sessions order by started_at',
    );
    expect(sessions.map((s) => s.client_name)).toEqual(['agent-alpha', 'agent-beta', 'agent-gamma']);
    expect(sessions.reduce((sum, s) => sum + Number(s.definition_tokens), 0)).toBe(expected.definitions);
  });

  it('/overview: exact totals, costs from the price table, the period before empty', async () => {
    const overview = await api<AnalyticsOverviewResult>('overview?range=24h');
    expect(overview.totals).toMatchObject({
      calls: 10,
      errors: 4,
      errorRate: 0.4,
      sessions: 3,
      clients: 3,
      tokens: totalTokens(),
    });
    expect(overview.totals.cost).toBeCloseTo(priceOf(expected), 6);
    expect(overview.previous).toMatchObject({ calls: 0, errors: 0, sessions: 0, tokens: 0, cost: 0, p95Ms: null });
    expect(overview.range).toMatchObject({ preset: '24h', step: '1h' });
    expect(overview.series).toHaveLength(25 - (Date.parse(overview.range.from) % 3_600_000 === 0 ? 1 : 0));
    expect(overview.series.reduce((sum, point) => sum + point.calls, 0)).toBe(10);
    expect(overview.series.reduce((sum, point) => sum + point.errors, 0)).toBe(4);

    // Percentiles of the recorded durations, from the merged sketches: within 1 %.
    const durations = (
      await t.database.db.query<{ d: number }>('select duration_ms as d from tool_calls order by 1')
    ).map((row) => row.d);
    for (const [q, key] of [
      [0.5, 'p50Ms'],
      [0.95, 'p95Ms'],
    ] as const) {
      const exact = exactQuantile(durations, q);
      expect(Math.abs((overview.totals[key] ?? Number.NaN) - exact)).toBeLessThanOrEqual(exact * 0.01 + 1e-9); // 1 %, and a hair for floating point
    }
  });

  it('/tools: per-tool counts, error rates and result tokens', async () => {
    const { tools } = await api<AnalyticsToolsResult>('tools');
    expect(Object.fromEntries(tools.map((tool) => [tool.tool, tool.calls]))).toEqual(Object.fromEntries(perTool));
    const byName = new Map(tools.map((tool) => [tool.tool, tool]));
    expect(byName.get('echo')).toMatchObject({ serverId: everythingId, serverName: 'everything', errorRate: 0 });
    expect(byName.get('no-such-tool')).toMatchObject({ errorRate: 1 });
    expect(byName.get('anything')).toMatchObject({ serverId: noToolsId, errorRate: 1 });
    expect(tools[0].tool).toBe('echo');
    expect(byName.get('echo')!.lastCalledAt).not.toBeNull();
  });

  it('/performance: errors by class per server, percentiles per tool, a series per server', async () => {
    const summary = await api<PerformanceSummaryResult>('performance?format=summary');
    const servers = new Map(summary.servers.map((server) => [server.serverId, server]));
    expect(servers.get(everythingId)).toMatchObject({
      calls: 8,
      errors: 2,
      errorsByClass: { protocol: 0, server: 1, tool: 1 },
    });
    expect(servers.get(noToolsId)).toMatchObject({
      calls: 2,
      errors: 2,
      errorRate: 1,
      errorsByClass: { protocol: 2, server: 0, tool: 0 },
    });
    for (const tool of summary.tools) expect(tool.p99Ms).toBeGreaterThanOrEqual(tool.p50Ms ?? 0);

    const series = await api<PerformanceSeriesResult>('performance?range=24h');
    expect(series.servers.map((server) => server.serverId).sort()).toEqual([everythingId, noToolsId].sort());
    expect(
      series.servers
        .find((server) => server.serverId === everythingId)!
        .series.reduce((sum, point) => sum + point.calls, 0),
    ).toBe(8);
  });

  it('/costs: the token split, every breakdown, context weight and the month so far', async () => {
    const costs = await api<AnalyticsCostsResult>('costs?range=7d');
    expect(costs.currency).toBe('USD');
    expect(costs.tokens).toEqual({
      definitions: expected.definitions,
      arguments: expected.arguments,
      results: expected.results,
    });
    expect(costs.total).toBeCloseTo(priceOf(expected), 6);
    // A 7-day range is 7 whole UTC days, today the last: 7 day columns (it touched 8, issue 38).
    expect(costs.byDay).toHaveLength(7);
    expect(costs.byDay.at(-1)?.date).toBe(new Date().toISOString().slice(0, 10));
    expect(costs.byDay.reduce((sum, day) => sum + day.tokens, 0)).toBe(totalTokens());
    expect(Object.fromEntries(costs.byClient.map((row) => [row.name, row.calls]))).toEqual({
      ...Object.fromEntries(perClient),
    });
    expect(costs.byServer.map((row) => [row.name, row.calls]).sort()).toEqual([
      ['everything', 8],
      ['prompts-only', 2],
    ]);
    expect(costs.byTool.reduce((sum, row) => sum + row.calls, 0)).toBe(10);
    expect(costs.byKey).toEqual([expect.objectContaining({ id: 'none', calls: 10, tokens: totalTokens() })]);
    expect(costs.bySession).toHaveLength(3);
    expect(costs.bySession.reduce((sum, row) => sum + row.tokens, 0)).toBe(totalTokens());

    const weight = costs.contextWeight.find((row) => row.serverId === everythingId)!;
    expect(weight.definitionTokens).toBe(expected.definitions / 2); // two agents listed the same tools
    const unused = weight.unusedTools.map((tool) => tool.name);
    expect(unused).toContain('get-tiny-image');
    expect(unused).not.toContain('echo');
    expect(unused).not.toContain('get-sum');
    expect(costs.monthToDate.cost).toBeGreaterThanOrEqual(costs.total - 1e-6);
    expect(costs.prices).toMatchObject({ model: 'claude-sonnet-4.5', exactTokenizer: false, tokenizer: 'o200k_base' });
  });

  it('re-prices history when the workspace changes its model and prices a tool per call', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/workspaces/${t.account.workspaceId}/analytics/pricing`,
      headers: bearer(t.account.accessToken),
      payload: { model: 'gpt-4o', toolPrices: [{ serverId: everythingId, tool: 'echo', pricePerCall: 0.01 }] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<PricingSettings>().prices).toMatchObject({
      model: 'gpt-4o',
      inputPerMillion: 2.5,
      outputPerMillion: 10,
      correctionFactor: 1,
      exactTokenizer: true,
    });
    const costs = await api<AnalyticsCostsResult>('costs');
    expect(costs.total).toBeCloseTo(priceOf(expected, modelPrice('gpt-4o')) + 4 * 0.01, 6);
    const echo = costs.byTool.find((row) => row.name === 'echo')!;
    expect(echo.cost).toBeGreaterThan(0.04);

    const override = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/workspaces/${t.account.workspaceId}/analytics/pricing`,
      headers: bearer(t.account.accessToken),
      payload: { inputPerMillion: 1, outputPerMillion: 2, toolPrices: [] },
    });
    expect(override.json<PricingSettings>().prices).toMatchObject({
      model: 'gpt-4o',
      inputPerMillion: 1,
      outputPerMillion: 2,
      overridden: { inputPerMillion: true, outputPerMillion: true, correctionFactor: false },
    });
    const repriced = await api<AnalyticsCostsResult>('costs');
    expect(repriced.total).toBeCloseTo(
      ((expected.definitions + expected.results) * 1 + expected.arguments * 2) / 1e6,
      6,
    );
  });

  it('refuses prices for servers of another workspace and bad values, changing nothing', async () => {
    const before = await api<PricingSettings>('pricing');
    for (const payload of [
      { toolPrices: [{ serverId: '00000000-0000-4000-8000-000000000000', tool: 'echo', pricePerCall: 1 }] },
      { model: 'gpt-99' },
      { inputPerMillion: -1 },
      { correctionFactor: 'lots' },
      { unexpected: true },
    ]) {
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/v1/workspaces/${t.account.workspaceId}/analytics/pricing`,
        headers: bearer(t.account.accessToken),
        payload,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toEqual(expect.any(String));
    }
    expect(await api<PricingSettings>('pricing')).toEqual(before);
  });

  it('/usage/daily: today holds the calls, the quota counts them', async () => {
    const usage = await api<UsageDailyResult>('usage/daily?range=7d');
    expect(usage.timeZone).toBe('UTC');
    expect(usage.days.reduce((sum, day) => sum + day.calls, 0)).toBe(10);
    expect(usage.days.reduce((sum, day) => sum + day.sessions, 0)).toBe(3);
    expect(usage.days[usage.days.length - 1].date).toBe(new Date().toISOString().slice(0, 10));
    expect(usage.quota).toMatchObject({ plan: 'starter', limit: 1000 });
    // The quota's count is the gate's counter: it holds an unused lease of admissions until that goes
    // back (a second idle), then it is the calls made. Wait for that state, not for a duration.
    let used = usage.quota.used;
    for (const deadline = Date.now() + 30_000; used !== 10 && Date.now() < deadline;) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      used = (await api<UsageDailyResult>('usage/daily?range=7d')).quota.used;
    }
    expect(used).toBe(10);
  });

  it('filters by server, tool and client', async () => {
    const byServer = await api<AnalyticsOverviewResult>(`overview?serverId=${noToolsId}`);
    expect(byServer.totals).toMatchObject({ calls: 2, errors: 2, sessions: 1 });
    const byTool = await api<AnalyticsToolsResult>('tools?tool=echo');
    expect(byTool.tools).toEqual([expect.objectContaining({ tool: 'echo', calls: 4 })]);
    const byClient = await api<AnalyticsOverviewResult>('overview?client=agent-beta');
    expect(byClient.totals).toMatchObject({ calls: 2, clients: 1, sessions: 1 });
  });

  it.each([
    ['range=1y', 'range'],
    ['range=7d&from=2026-01-01T00:00:00Z&to=2026-01-02T00:00:00Z', 'range'],
    ['from=2026-01-01T00:00:00Z', 'to'],
    ['from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z', 'to'],
    ['from=yesterday&to=2026-01-01T00:00:00Z', 'from'],
    ['from=2020-01-01T00:00:00Z&to=2026-01-01T00:00:00Z', 'to'],
    ['serverId=not-a-uuid', 'serverId'],
    ['tool=', 'tool'],
    ['color=blue', ''],
  ])('answers 400 with a message to %s', async (query, field) => {
    for (const path of ['overview', 'costs', 'performance', 'usage/daily', 'tools']) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/v1/workspaces/${t.account.workspaceId}/analytics/${path}?${query}`,
        headers: bearer(t.account.accessToken),
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(new RegExp(field ? `^${field}: ` : '.'));
    }
  });

  it('answers 400 to an unknown performance format', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/workspaces/${t.account.workspaceId}/analytics/performance?format=csv`,
      headers: bearer(t.account.accessToken),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/^format: /);
  });
});
