import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startProxyApp, type ProxyTestApp } from './support/proxyApp';
import { registerInSecondWorkspace } from './support/secondWorkspace';
import { startStreamableUpstream, type SdkUpstream } from './support/sdkUpstream';

jest.setTimeout(240_000);

// Every SDK session holds a standalone GET stream open for its whole life. Those streams must not
// take the connections requests need: with 300 sessions open on one origin (past the 256
// connections per origin the proxy's single pool once had), every call is still answered, and
// another workspace's server on that origin answers too.
const SESSIONS = 300;
const CALLS_PER_SESSION = 2;

async function waitFor(condition: () => boolean, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function inBatches<T>(count: number, batch: number, make: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let start = 0; start < count; start += batch) {
    out.push(...(await Promise.all(Array.from({ length: Math.min(batch, count - start) }, (_, k) => make(start + k)))));
  }
  return out;
}

describe(`${SESSIONS} SDK sessions with open streams through the proxy`, () => {
  let t: ProxyTestApp;
  let upstream: SdkUpstream;
  const clients: Client[] = [];
  beforeAll(async () => {
    // The 300 clients share this process's event loop with the proxy, and the proxy's slow-client
    // limits count from the moment a connection is accepted (Node's headersTimeout, 10 s) or a
    // request begins (requestTimeout, 30 s). On a saturated 2-core CI machine this process got so
    // little CPU that connections were accepted and not read for longer than that: a 408 ("Client
    // Timeout") for a client that was never slow. Those limits are proved by slowClients.test.ts;
    // here they are out of the way.
    t = await startProxyApp({ headersTimeoutMs: 180_000, requestTimeoutMs: 180_000 });
    t.app.recorder.setEnabled(false); // the streams are under test here, not recording
    upstream = await startStreamableUpstream({ json: false, stateful: true, keepAliveTimeoutMs: 120_000 });
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await upstream.close();
    await t.close();
  });

  it('answers every call while every stream stays open, and another workspace on the origin is not held', async () => {
    const { proxyUrl } = await t.register(upstream.url);
    clients.push(
      ...(await inBatches(SESSIONS, 50, async (i) => {
        const client = new Client({ name: `agent-${i}`, version: '1' });
        await client.connect(new StreamableHTTPClientTransport(proxyUrl));
        return client;
      })),
    );
    // Each client opens its GET stream after initialize; all of them reach the upstream.
    await waitFor(() => upstream.openStreams!() >= SESSIONS, `${SESSIONS} open streams`, 60_000);

    const answers = await Promise.all(
      clients.flatMap((client, i) =>
        Array.from({ length: CALLS_PER_SESSION }, (_, k) =>
          client.callTool({ name: 'echo', arguments: { text: `${i}.${k}` } }, undefined, { timeout: 90_000 }).then(
            (r) => (r.content as { text: string }[])[0].text,
            (e: unknown) => `failed: ${String(e)}`,
          ),
        ),
      ),
    );
    const answered = answers.filter(
      (text, n) => text === `echo: ${Math.floor(n / CALLS_PER_SESSION)}.${n % CALLS_PER_SESSION}`,
    ).length;
    expect({ answered, failures: answers.filter((a) => a.startsWith('failed')).slice(0, 3) }).toEqual({
      answered: SESSIONS * CALLS_PER_SESSION,
      failures: [],
    });
    expect(upstream.openStreams!()).toBeGreaterThanOrEqual(SESSIONS);

    // Another tenant on the same origin, while all those streams are open.
    const other = await registerInSecondWorkspace(t, upstream.url);
    const otherClient = new Client({ name: 'other-tenant', version: '1' });
    clients.push(otherClient);
    await otherClient.connect(new StreamableHTTPClientTransport(other.proxyUrl));
    expect(
      await otherClient.callTool({ name: 'echo', arguments: { text: 'b' } }, undefined, { timeout: 30_000 }),
    ).toMatchObject({ content: [{ text: 'echo: b' }] });
  });
});
