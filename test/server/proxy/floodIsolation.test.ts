import { bearer, registerAccount, type TestAccount } from '../helpers/accounts';
import { PROXY_INBOUND_BYTES_PER_SECOND, RECORDING_BUDGETS } from '../../../src/contract/plans';
import { engineName } from '../helpers/testDatabase';
import { startProxyApp, type ProxyTestApp } from './support/proxyApp';
import { startStreamableUpstream, type SdkUpstream } from './support/sdkUpstream';

jest.setTimeout(240_000);

// Issue 18 item 3 end to end: workspace A floods the proxy with batches of progress notifications
// while workspace B's agents call tools on the same upstream origin. B loses nothing (every call
// answered and recorded); A's flood is stored only within its plan's budget, so the database does
// not grow with the flood; past its inbound budget its bodies are refused before they are parsed.
// (B's throughput against its baseline is a timing: scripts/bench-flood.mjs in `npm run bench`, docs/benchmarks.md.)
describe(`a flood from one workspace (${engineName})`, () => {
  let t: ProxyTestApp;
  let upstream: SdkUpstream;
  let b: TestAccount;
  beforeAll(async () => {
    upstream = await startStreamableUpstream({ json: true, stateful: false });
    // The flood saturates this process on purpose. Node's slow-client limits (headersTimeout from a
    // connection's accept, requestTimeout) would answer 408 to a client that was never slow when a
    // loaded CI machine leaves it no CPU to read with (as in streamsAtScale.test.ts): they are
    // proved by slowClients.test.ts, and out of the way here.
    t = await startProxyApp({ headersTimeoutMs: 180_000, requestTimeoutMs: 180_000 });
    b = await registerAccount(t.app);
  });
  afterAll(async () => {
    await t.close();
    await upstream.close();
  });

  // Batches are a 2025-03-26 feature (2025-06-18 removed them): the flood speaks that version.
  const post = (url: URL, body: unknown, version = '2025-06-18') =>
    fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': version,
      },
      body: JSON.stringify(body),
    });

  it("drops only A's own messages past its budget; B's calls are all answered and recorded", async () => {
    const a = await t.register(upstream.url);
    const registered = await t.app.inject({
      method: 'POST',
      url: `/api/v1/workspaces/${b.workspaceId}/servers`,
      headers: bearer(b.accessToken),
      payload: { url: upstream.url, name: 'same origin' },
    });
    expect(registered.statusCode).toBe(201);
    const bUrl = new URL(new URL(registered.json().proxyUrl).pathname, t.base);

    // A: four senders of 150 batches of 100 progress notifications each (the proxy's batch limit;
    // each its own token: nothing to coalesce) — 60,000 notifications.
    const SENDERS = 4;
    const BATCHES = 150;
    const SIZE = 100;
    const batch = (sender: number, n: number) =>
      Array.from({ length: SIZE }, (_, i) => ({
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: `flood-${sender}-${n}-${i}`, progress: i, total: SIZE },
      }));
    let floodDone = false;
    const started = Date.now();
    let accepted = 0;
    const flood = (async () => {
      const statuses = new Set<number | string>();
      await Promise.all(
        Array.from({ length: SENDERS }, async (_, sender) => {
          for (let n = 0; n < BATCHES; n++) {
            const res = await post(a.proxyUrl, batch(sender, n), '2025-03-26');
            const text = await res.text();
            // Past its inbound budget (bytes per second) a batch is refused unread: 429, -32019.
            const refused = res.status === 429 && JSON.parse(text).error?.code === -32019;
            if (res.status === 202) accepted++;
            statuses.add(res.status === 202 || refused ? res.status : `${res.status} ${text.slice(0, 200)}`);
          }
        }),
      );
      floodDone = true;
      return statuses;
    })();

    // B: four agents calling echo one after another until the flood is over.
    let nextId = 1;
    const answered: number[] = [];
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (!floodDone) {
          const res = await post(bUrl, {
            jsonrpc: '2.0',
            id: nextId++,
            method: 'tools/call',
            params: { name: 'echo', arguments: { text: 'b' } },
          });
          const text = await res.text();
          expect({ status: res.status, text }).toMatchObject({ status: 200, text: expect.stringContaining('echo: b') });
          answered.push(res.status);
        }
      }),
    );
    const floodStatuses = await flood;
    const seconds = (Date.now() - started) / 1000;
    // Notifications only: the proxy accepts a batch (202) after forwarding it, or refuses it unread.
    expect([...floodStatuses].filter((status) => status !== 202 && status !== 429)).toEqual([]);
    expect(accepted).toBeGreaterThan(0);

    await t.app.recorder.flush();
    const [{ n: bCalls }] = await t.database.db.query<{ n: number }>(
      `select count(*)::int as n from tool_calls where server_id = $1 and status = 'ok'`,
      [registered.json().id],
    );
    expect(bCalls).toBe(answered.length);
    expect(answered.length).toBeGreaterThan(0);

    const [{ n: aMessages }] = await t.database.db.query<{ n: number }>(
      `select count(*)::int as n from messages m join sessions s on s.id = m.session_id where s.server_id = $1`,
      [a.server.id],
    );
    // Starter: a burst of two seconds' worth, then its rate, for as long as the flood lasted.
    const { messagesPerSecond } = RECORDING_BUDGETS.starter;
    expect(aMessages).toBeLessThanOrEqual(messagesPerSecond * (2 + Math.ceil(seconds) + 1));
    expect(t.app.recorder.stats().dropped.overBudget).toBeGreaterThanOrEqual(accepted * SIZE - aMessages);
  });

  it("refuses A's bodies past its inbound budget unread (429, Retry-After, -32019), forwards none of them, and keeps B answering", async () => {
    const a = await registerAccount(t.app);
    const aServer = (
      await t.app.inject({
        method: 'POST',
        url: `/api/v1/workspaces/${a.workspaceId}/servers`,
        headers: bearer(a.accessToken),
        payload: { url: upstream.url, name: 'flooder' },
      })
    ).json();
    const aUrl = new URL(new URL(aServer.proxyUrl).pathname, t.base);
    const bServer = (
      await t.app.inject({
        method: 'POST',
        url: `/api/v1/workspaces/${b.workspaceId}/servers`,
        headers: bearer(b.accessToken),
        payload: { url: upstream.url, name: 'neighbour' },
      })
    ).json();
    const bUrl = new URL(new URL(bServer.proxyUrl).pathname, t.base);

    // ~1 MiB batches (100 notifications of ~10 KB: the upstream's batch limit), twelve at once: the
    // starter bucket holds two seconds' worth but never less than the largest body the proxy takes,
    // and refills at its rate, so only the first few pass.
    const big = Array.from({ length: 100 }, (_, i) => ({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: `big-${i}`, progress: i, message: 'p'.repeat(10_000) },
    }));
    const bytes = Buffer.byteLength(JSON.stringify(big));
    const rate = PROXY_INBOUND_BYTES_PER_SECOND.starter;
    const fitting = Math.floor(Math.max(2 * rate, t.app.config.proxyBodyLimitBytes) / bytes);
    expect(fitting).toBeGreaterThanOrEqual(2);
    // The flood alone speaks 2025-03-26 (discovery and probes of the new servers do not).
    const floodRequests = () =>
      upstream.requests.filter(
        (headers) =>
          headers['mcp-protocol-version'] === '2025-03-26' && String(headers['content-length']) === String(bytes),
      ).length;
    const forwardedBefore = floodRequests();
    const started = Date.now();
    const results = await Promise.all(
      Array.from({ length: 12 }, () =>
        post(aUrl, big, '2025-03-26').then(async (res) => ({
          status: res.status,
          retryAfter: res.headers.get('retry-after'),
          body: await res.text(),
        })),
      ),
    );
    const refilled = Math.ceil((((Date.now() - started) / 1000) * rate) / bytes);
    const refused = results.filter((r) => r.status === 429);
    const accepted = results.filter((r) => r.status === 202);
    expect(results.map((r) => r.status).filter((status) => status !== 202 && status !== 429)).toEqual([]);
    expect(accepted.length).toBeGreaterThanOrEqual(fitting);
    expect(accepted.length).toBeLessThanOrEqual(fitting + refilled);
    expect(refused.length).toBe(12 - accepted.length);
    for (const r of refused) {
      expect(Number(r.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(JSON.parse(r.body)).toMatchObject({
        jsonrpc: '2.0',
        id: null,
        error: {
          code: -32019,
          message: expect.stringMatching(
            /^Too much request data for this workspace \(limit 1 MiB\/s\); retry in \d+ s$/,
          ),
        },
      });
    }
    // Only the accepted batches reached the tool server.
    expect(floodRequests() - forwardedBefore).toBe(accepted.length);

    // B is another workspace with a budget of its own: answered at once.
    const res = await post(bUrl, {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'echo', arguments: { text: 'still here' } },
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('echo: still here');
  });
});
