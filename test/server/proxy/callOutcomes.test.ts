import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { AnalyticsOverviewResult } from '../../../src/contract/analytics';
import { Paths } from '../../../src/contract/routes';
import type { SessionListResult } from '../../../src/contract/sessions';
import type { ActivityStreamResult } from '../../../src/contract/activity';
import type { DashboardOverview } from '../../../src/contract/dashboard';
import { bearer } from '../helpers/accounts';
import { startEverything, type EverythingServer } from './support/everything';
import { startProxyApp, type ProxyTestApp } from './support/proxyApp';
import { startStreamableUpstream, type SdkUpstream } from './support/sdkUpstream';

jest.setTimeout(120_000);

// Every call ends with a status and a duration once the agent saw its outcome (docs/sessions.md
// "Definitions"), and every count agrees on it: an upstream that restarted and answers HTTP 400,
// a session the upstream no longer knows (404), a call that gets no answer at all.
describe('how calls end', () => {
  let t: ProxyTestApp;
  let everything: EverythingServer;
  let upstream: SdkUpstream;
  beforeAll(async () => {
    everything = await startEverything();
    upstream = await startStreamableUpstream({ json: false, stateful: true });
    t = await startProxyApp({ unansweredCallMs: 1_000 });
  });
  afterAll(async () => {
    await (t as ProxyTestApp | undefined)?.close();
    await (upstream as SdkUpstream | undefined)?.close();
    await (everything as EverythingServer | undefined)?.stop();
  });

  const get = async <T>(url: string): Promise<T> => {
    const res = await t.app.inject({ method: 'GET', url, headers: bearer(t.account.accessToken) });
    expect(res.statusCode).toBe(200);
    return res.json<T>();
  };

  it('records a call the restarted upstream refused (HTTP 400) as an error, and every screen counts it once', async () => {
    const { server, proxyUrl } = await t.register(everything.url, { name: 'everything' });
    const client = new Client({ name: 'restart-agent', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(proxyUrl));
    try {
      await client.callTool({ name: 'echo', arguments: { message: 'before' } });
      await everything.stop();
      everything = await startEverything(Number(new URL(everything.url).port));
      const seenAt = Date.now();
      await expect(client.callTool({ name: 'echo', arguments: { message: 'after' } })).rejects.toThrow(/400|session/i);

      await t.app.recorder.flush();
      const calls = await t.database.db.query<{
        status: string;
        duration_ms: number | null;
        error_message: string | null;
        ended_at: Date | null;
      }>(
        'select status, duration_ms, error_message, ended_at from tool_calls where server_id = $1 order by started_at',
        [server.id],
      );
      expect(calls.map((c) => c.status)).toEqual(['ok', 'error']);
      // The upstream's own error (its id null), as the agent received it (requestAfterDelete.test.ts).
      expect(calls[1].error_message).toMatch(/No valid session ID/);
      expect(calls[1].duration_ms).not.toBeNull();
      // Ended when the agent saw the refusal, not by a later sweep.
      expect(new Date(calls[1].ended_at!).getTime()).toBeGreaterThanOrEqual(seenAt - 1_000);
      expect(new Date(calls[1].ended_at!).getTime()).toBeLessThan(Date.now() + 1);

      const ws = t.account.workspaceId;
      const sessions = await get<SessionListResult>(`${Paths.sessions(ws)}?serverId=${server.id}`);
      expect(sessions.sessions).toHaveLength(1);
      expect(sessions.sessions[0]).toMatchObject({ callCount: 2, errorCount: 1 });
      const overview = await get<DashboardOverview>(Paths.dashboardOverview(ws));
      expect(overview.toolCalls).toMatchObject({ today: 2, errors: 1 });
      expect(overview.errorRate).toBe(0.5);
      // The analytics screens read the rollups: the same call, the same error.
      const analytics = await get<AnalyticsOverviewResult>(`${Paths.analytics(ws, 'overview')}?range=24h`);
      expect(analytics.totals).toMatchObject({ calls: 2, errors: 1, errorRate: 0.5 });
      const activity = await get<ActivityStreamResult>(
        `${Paths.activityStream(ws)}?serverId=${server.id}&status=error`,
      );
      expect(activity.events).toHaveLength(1);
      const pending = await get<ActivityStreamResult>(
        `${Paths.activityStream(ws)}?serverId=${server.id}&status=pending`,
      );
      expect(pending.events).toHaveLength(0);
    } finally {
      await client.close().catch(() => undefined);
    }
  });

  it('ends the session the upstream answers 404 for, with the refused call as an error', async () => {
    const { server, proxyUrl } = await t.register(upstream.url, { name: 'sdk' });
    const res = await fetch(proxyUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': 'forgotten-session',
        'mcp-protocol-version': '2025-06-18',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'echo', arguments: { text: 'x' } },
      }),
    });
    expect(res.status).toBe(404);
    await t.app.recorder.flush();
    const [call] = await t.database.db.query<{ status: string; error_message: string; duration_ms: number | null }>(
      'select status, error_message, duration_ms from tool_calls where server_id = $1',
      [server.id],
    );
    expect(call).toMatchObject({ status: 'error', error_message: 'Session not found' });
    expect(call.duration_ms).not.toBeNull();
    const [session] = await t.database.db.query<{ status: string; error_count: number; call_count: number }>(
      'select status, error_count, call_count from sessions where server_id = $1',
      [server.id],
    );
    expect(session).toEqual({ status: 'ended', error_count: 1, call_count: 1 });
  });

  it('ends a call that gets no answer as a timeout after the bound', async () => {
    const { server, proxyUrl } = await t.register(upstream.url, { name: 'hanging' });
    upstream.hang(true);
    const agent = new AbortController();
    const before = upstream.requests.length;
    try {
      const sent = fetch(proxyUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-06-18',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 9,
          method: 'tools/call',
          params: { name: 'echo', arguments: { text: 'x' } },
        }),
        signal: agent.signal,
      }).catch(() => undefined);
      // The request reached the upstream, which never answers; the agent gives up. Nothing will answer the call.
      await waitFor(() => Promise.resolve(upstream.requests.length > before));
      agent.abort();
      await sent;
      await waitFor(async () => {
        await t.app.recorder.flush();
        const rows = await t.database.db.query("select 1 from tool_calls where server_id = $1 and status = 'timeout'", [
          server.id,
        ]);
        return rows.length === 1;
      });
    } finally {
      upstream.hang(false);
    }
    const [call] = await t.database.db.query<{ error_message: string; duration_ms: number }>(
      'select error_message, duration_ms from tool_calls where server_id = $1',
      [server.id],
    );
    expect(call.error_message).toBe('No response within 1 s');
    expect(call.duration_ms).toBeGreaterThanOrEqual(1_000);
    const [session] = await t.database.db.query<{ error_count: number }>(
      'select error_count from sessions where server_id = $1',
      [server.id],
    );
    expect(session.error_count).toBe(1);
    const overview = await get<DashboardOverview>(Paths.dashboardOverview(t.account.workspaceId));
    expect(overview.toolCalls.errors).toBeGreaterThanOrEqual(1);
  });
});

async function waitFor(check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}
