import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { startProxyApp, type ProxyTestApp } from './support/proxyApp';
import { startStreamableUpstream, type SdkUpstream } from './support/sdkUpstream';
import { bearer, registerAccount } from '../helpers/accounts';
import { buildTestApp, type TestApp } from '../helpers/testApp';
import { engineName, openTestDatabase } from '../helpers/testDatabase';
import { openDatabase } from '../../../src/server/db/database';
import { recordedCalls } from '../helpers/recordedRows';
import type { ServerDto } from '../../../src/contract/servers';
import type { CreatedPlatformKeyDto } from '../../../src/contract/keys';

// The monthly agent-call quota (SPEC §9: starter 1,000) enforced at the proxy.
jest.setTimeout(180_000);

/** Calls recorded earlier this month (the counter starts from them). */
async function seedRecordedCalls(
  db: { query(sql: string, params?: unknown[]): Promise<unknown> },
  workspaceId: string,
  serverId: string,
  calls: number,
) {
  const bucket = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1, 0, 5));
  await db.query(
    `insert into usage_minutes (workspace_id, server_id, tool_name, bucket, calls) values ($1, $2, 'echo', $3, $4)`,
    [workspaceId, serverId, bucket, calls],
  );
}

/** Reads until the value satisfies `done` (what a user sees within about a second), or the last read after `timeoutMs`. */
async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function connect(url: URL, headers: Record<string, string> = {}) {
  const client = new Client({ name: 'quota-agent', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  return client;
}

describe(`the monthly agent-call quota at the proxy (${engineName})`, () => {
  let t: ProxyTestApp;
  let upstream: SdkUpstream;

  beforeAll(async () => {
    upstream = await startStreamableUpstream({ json: true, stateful: true });
    t = await startProxyApp();
  });
  afterAll(async () => {
    await t.close();
    await upstream.close();
  });

  it("answers a starter workspace's 1,001st tools/call with -32023 in an HTTP 200 (the SDK's McpError of the call, not a transport error), keeps tools/list working, and records the refusal", async () => {
    const { proxyUrl, server } = await t.register(upstream.url);
    await seedRecordedCalls(t.database.db, t.account.workspaceId, server.id, 997);
    const client = await connect(proxyUrl);
    for (let i = 998; i <= 1000; i++)
      expect(await client.callTool({ name: 'echo', arguments: { text: `call ${i}` } })).toMatchObject({
        content: [{ text: `echo: call ${i}` }],
      });
    // The SDK surfaces it as the call's own JSON-RPC error (McpError, code -32023), whose text an
    // agent hands its model; an HTTP 429 was a transport error ("Error POSTing to endpoint").
    const overQuota = await client.callTool({ name: 'echo', arguments: { text: 'call 1001' } }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(overQuota).toBeInstanceOf(McpError);
    expect(overQuota).toMatchObject({ code: -32023 });
    expect((overQuota as McpError).message).toMatch(/Monthly agent call limit reached for the Starter plan/);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('echo');

    // What travels on the wire, read without the SDK.
    const sessionId = (client.transport as StreamableHTTPClientTransport).sessionId!;
    const raw = await fetch(proxyUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': sessionId,
        'mcp-protocol-version': '2025-06-18',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 99,
        method: 'tools/call',
        params: { name: 'echo', arguments: { text: 'again' } },
      }),
    });
    const now = new Date();
    const resetsAt = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
    const secondsLeft = (resetsAt.getTime() - now.getTime()) / 1000;
    expect(raw.status).toBe(200);
    expect(Number(raw.headers.get('retry-after'))).toBeGreaterThanOrEqual(Math.floor(secondsLeft) - 5);
    expect(Number(raw.headers.get('retry-after'))).toBeLessThanOrEqual(Math.ceil(secondsLeft) + 1);
    expect(raw.headers.get('ratelimit-policy')).toBe('"monthly";q=1000;w=2592000');
    expect(raw.headers.get('ratelimit')).toMatch(/^"monthly";r=0;t=\d+$/);
    const body = await raw.json();
    expect(body).toMatchObject({
      jsonrpc: '2.0',
      id: 99,
      error: {
        code: -32023,
        message: 'Monthly agent call limit reached for the Starter plan',
        data: { limit: 1000, used: 1000, resetsAt: resetsAt.toISOString(), retryAfterMs: expect.any(Number) },
      },
    });
    expect(upstream.requests.length).toBeGreaterThan(0);

    // The same call sent as a notification (no id, invalid in MCP) would slip past the quota, which
    // counts requests: it is refused and never reaches the upstream.
    // Counted on the JSON-RPC bodies: the SDK client opens its GET stream on its own schedule.
    const toolCallsReceived = () =>
      upstream.posted!.filter((m) => (m as { method?: string }).method === 'tools/call').length;
    const forwardedBefore = toolCallsReceived();
    const notification = await fetch(proxyUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': sessionId,
        'mcp-protocol-version': '2025-06-18',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        method: 'tools/call',
        params: { name: 'echo', arguments: { text: 'x' } },
      }),
    });
    expect(notification.status).toBe(400);
    expect(await notification.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    expect(toolCallsReceived()).toBe(forwardedBefore);
    await client.close();

    const limits = (
      await t.app.inject({
        method: 'GET',
        url: '/api/v1/billing/workspace-limits',
        headers: bearer(t.account.accessToken),
      })
    ).json();
    expect(limits.agentCalls).toMatchObject({ used: 1000, limit: 1000 });

    await t.app.recorder.flush();
    const refused = await recordedCalls(t.database.db, 'tc.server_id = $1 and tc.status = $2', [server.id, 'error']);
    expect(refused.map((c) => c.error_message)).toEqual([
      'Monthly agent call limit reached for the Starter plan',
      'Monthly agent call limit reached for the Starter plan',
    ]);
  });

  it('never counts an unlimited plan against a limit, but counts its calls', async () => {
    const owner = await registerAccount(t.app);
    await t.database.db.query(`update subscriptions set plan = 'enterprise' where user_id = $1`, [owner.user.id]);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/workspaces/${owner.workspaceId}/servers`,
      headers: bearer(owner.accessToken),
      payload: { url: upstream.url, name: 'big' },
    });
    const server = res.json<ServerDto>();
    await seedRecordedCalls(t.database.db, owner.workspaceId, server.id, 5_000_000);
    const client = await connect(new URL(new URL(server.proxyUrl).pathname, t.base));
    expect(await client.callTool({ name: 'echo', arguments: { text: 'unlimited' } })).toMatchObject({
      content: [{ text: 'echo: unlimited' }],
    });
    await client.close();
    // Admitted from memory, counted in the background within about a second.
    expect(
      await waitFor(
        async () =>
          (
            await t.app.inject({
              method: 'GET',
              url: '/api/v1/billing/workspace-limits',
              headers: bearer(owner.accessToken),
            })
          ).json().agentCalls,
        (c) => c.used === 5_000_001,
      ),
    ).toMatchObject({
      used: 5_000_001,
      limit: null,
    });
  });

  it('admits a limited plan from a lease and gives what was not used back to the counter', async () => {
    const owner = await registerAccount(t.app);
    await t.database.db.query(`update subscriptions set plan = 'pro' where user_id = $1`, [owner.user.id]);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/workspaces/${owner.workspaceId}/servers`,
      headers: bearer(owner.accessToken),
      payload: { url: upstream.url, name: 'pro' },
    });
    const server = res.json<ServerDto>();
    const client = await connect(new URL(new URL(server.proxyUrl).pathname, t.base));
    for (let i = 0; i < 10; i++)
      expect(await client.callTool({ name: 'echo', arguments: { text: `pro ${i}` } })).toMatchObject({
        content: [{ text: `echo: pro ${i}` }],
      });
    await client.close();
    const counter = () =>
      t.database.db
        .query<{ used: number }>('select used from agent_call_counters where owner_id = $1', [owner.user.id])
        .then((rows) => rows[0]?.used);
    // While calls flow the counter holds a lease (reserved, never more than the plan allows) ...
    expect(await counter()).toBeGreaterThan(10);
    // ... which goes back once the workspace is idle for a second: the count is exact again.
    expect(await waitFor(counter, (used) => used === 10)).toBe(10);
  });

  it('applies a downgrade to calls within seconds, however many it admitted from memory', async () => {
    const owner = await registerAccount(t.app);
    await t.database.db.query(`update subscriptions set plan = 'enterprise' where user_id = $1`, [owner.user.id]);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/workspaces/${owner.workspaceId}/servers`,
      headers: bearer(owner.accessToken),
      payload: { url: upstream.url, name: 'downgraded' },
    });
    const server = res.json<ServerDto>();
    await seedRecordedCalls(t.database.db, owner.workspaceId, server.id, 2_000);
    const client = await connect(new URL(new URL(server.proxyUrl).pathname, t.base));
    expect(await client.callTool({ name: 'echo', arguments: { text: 'before' } })).toMatchObject({
      content: [{ text: 'echo: before' }],
    });
    await t.database.db.query(`update subscriptions set plan = 'starter' where user_id = $1`, [owner.user.id]);
    const outcome = () =>
      client.callTool({ name: 'echo', arguments: { text: 'after' } }).then(
        () => 'admitted',
        (error: unknown) =>
          /Monthly agent call limit reached for the Starter plan/.test(String(error))
            ? 'refused'
            : `other: ${String(error)}`,
      );
    expect(await waitFor(outcome, (o) => o === 'refused', 10_000)).toBe('refused');
    await client.close();
  });
});

if (engineName === 'postgres') {
  describe('two instances on one PostgreSQL', () => {
    it('hold the limit together under concurrent clients, and a revoke on one stops the key on the other within a second', async () => {
      const database = await openTestDatabase();
      const second = await openDatabase({ databaseUrl: database.url });
      const upstream = await startStreamableUpstream({ json: true, stateful: true });
      const a: TestApp = await buildTestApp({ healthIntervalMs: 3_600_000 }, database);
      const b: TestApp = await buildTestApp(
        { healthIntervalMs: 3_600_000, secret: a.config.secret },
        { db: second, drop: () => second.close() },
      );
      try {
        await a.app.listen({ port: 0, host: '127.0.0.1' });
        await b.app.listen({ port: 0, host: '127.0.0.1' });
        const baseOf = (x: TestApp) => `http://127.0.0.1:${(x.app.server.address() as AddressInfo).port}`;
        const owner = await registerAccount(a.app);
        const server = (
          await a.app.inject({
            method: 'POST',
            url: `/api/v1/workspaces/${owner.workspaceId}/servers`,
            headers: bearer(owner.accessToken),
            payload: { url: upstream.url, name: 'shared' },
          })
        ).json<ServerDto>();
        const path = new URL(server.proxyUrl).pathname;
        await seedRecordedCalls(database.db, owner.workspaceId, server.id, 970);

        // 3 clients per instance, 12 calls each at once: 72 attempts for the 30 calls left.
        const clients = await Promise.all([a, a, a, b, b, b].map((x) => connect(new URL(path, baseOf(x)))));
        const outcomes = await Promise.all(
          clients.flatMap((client, c) =>
            Array.from({ length: 12 }, (_, i) =>
              client.callTool({ name: 'echo', arguments: { text: `${c}-${i}` } }).then(
                () => 'ok',
                (error: unknown) =>
                  /Monthly agent call limit reached/.test(String(error)) ? 'refused' : `other: ${String(error)}`,
              ),
            ),
          ),
        );
        expect(outcomes.filter((o) => o === 'ok').length).toBe(30);
        expect(outcomes.filter((o) => o === 'refused').length).toBe(42);
        const [counter] = await database.db.query<{ used: number }>(
          'select used from agent_call_counters where owner_id = $1',
          [owner.user.id],
        );
        expect(counter.used).toBe(1000);
        for (const x of [a, b]) {
          const limits = (
            await x.app.inject({
              method: 'GET',
              url: '/api/v1/billing/workspace-limits',
              headers: bearer(owner.accessToken),
            })
          ).json();
          expect(limits.agentCalls).toMatchObject({ used: 1000, limit: 1000 });
        }
        await Promise.all(clients.map((client) => client.close()));

        // Revoked through A; B's proxy stops the key within a second.
        const key = (
          await a.app.inject({
            method: 'POST',
            url: `/api/v1/workspaces/${owner.workspaceId}/platform/keys`,
            headers: bearer(owner.accessToken),
            payload: { name: 'shared key' },
          })
        ).json<CreatedPlatformKeyDto>();
        const listOnB = () =>
          fetch(new URL(path, baseOf(b)), {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              accept: 'application/json, text/event-stream',
              authorization: `Bearer ${key.secret}`,
            },
            body: JSON.stringify({
              jsonrpc: '2.0',
              id: 1,
              method: 'initialize',
              params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
            }),
          });
        const deadline = Date.now() + 5_000;
        while ((await listOnB()).status !== 200 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
        await a.app.inject({
          method: 'DELETE',
          url: `/api/v1/workspaces/${owner.workspaceId}/platform/keys/${key.id}`,
          headers: bearer(owner.accessToken),
          payload: { reason: 'rotated' },
        });
        const revokedAt = Date.now();
        let status = 200;
        while (status !== 401 && Date.now() - revokedAt < 5_000) status = (await listOnB()).status;
        expect(status).toBe(401);
        expect(Date.now() - revokedAt).toBeLessThan(1_000);
      } finally {
        for (const x of [a, b]) x.app.server.closeAllConnections();
        await b.close();
        await second.close();
        await a.close();
        await database.drop();
        await upstream.close();
      }
    });
  });
}
