import http from 'node:http';
import { startProxyApp, type ProxyTestApp } from './support/proxyApp';
import { registerInSecondWorkspace } from './support/secondWorkspace';
import { listenOnLoopback } from '../helpers/loopbackServer';

jest.setTimeout(180_000);

// One origin, two tenants. Workspace A sends hundreds of calls its tool hangs on; workspace B's
// calls to the same origin are answered meanwhile (nothing of A's holds a connection B needs). A
// can only exhaust its own share: past its per-server and per-workspace limits its calls get a
// JSON-RPC error at once. A's hanging calls end at A's server timeout, once: every one of them
// reached the upstream at once (none waited in a queue for a second timeout).
const HANGING = 300;

async function startHangingOrigin(): Promise<{ url: string; hanging: () => number; close(): Promise<void> }> {
  let hanging = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const message = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as {
        id?: number;
        method?: string;
        params?: { name?: string };
      };
      if (message.method === 'tools/call' && message.params?.name === 'hang') {
        hanging++;
        res.once('close', () => hanging--);
        return; // never answers
      }
      if (message.id === undefined) return res.writeHead(202).end();
      const result = message.method === 'tools/call' ? { content: [{ type: 'text', text: 'quick' }] } : {};
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
    });
  });
  return { ...(await listenOnLoopback(server)), hanging: () => hanging };
}

let nextId = 1;
const callTool = async (url: URL, name: string) => {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { name, arguments: {} } }),
  });
  return {
    status: res.status,
    body: (await res.json()) as { result?: unknown; error?: { code: number; message: string } },
  };
};

async function waitFor(condition: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('two workspaces on one hanging origin', () => {
  let t: ProxyTestApp;
  let origin: Awaited<ReturnType<typeof startHangingOrigin>>;
  beforeAll(async () => {
    t = await startProxyApp({ callsInFlightPerServer: HANGING, callsInFlightPerWorkspace: HANGING + 1 });
    origin = await startHangingOrigin();
  });
  afterAll(async () => {
    await origin.close();
    await t.close();
  });

  it('answers B while A hangs, refuses A past its limits at once, and ends A’s calls at its timeout', async () => {
    const a1 = await t.register(origin.url, { timeoutMs: 15_000 });
    const a2 = await t.register(origin.url, { timeoutMs: 15_000 });
    const b = await registerInSecondWorkspace(t, origin.url);
    expect(a1.server.timeoutMs).toBe(15_000);

    let settled = 0;
    const hangingCalls = Array.from({ length: HANGING }, () => callTool(a1.proxyUrl, 'hang').finally(() => settled++));
    // Every one of A's calls is at the upstream at once: none waits behind another for a connection.
    await waitFor(() => origin.hanging() === HANGING, `${HANGING} calls at the upstream`);
    expect(settled).toBe(0);

    // A's server is at its limit: one more call is refused at once, and never reaches the upstream.
    const refused = await callTool(a1.proxyUrl, 'hang');
    expect(refused).toEqual({
      status: 200,
      body: expect.objectContaining({
        error: expect.objectContaining({
          code: -32016,
          message: `Too many calls in flight for this server (limit ${HANGING}); retry when some have finished`,
        }),
      }),
    });
    // A's other server takes the workspace's last place; the next call is over the workspace's limit.
    const lastPlace = callTool(a2.proxyUrl, 'hang');
    await waitFor(() => origin.hanging() === HANGING + 1, 'the last place of workspace A');
    expect((await callTool(a2.proxyUrl, 'quick')).body.error).toMatchObject({
      code: -32015,
      message: `Too many calls in flight for this workspace (limit ${HANGING + 1}); retry when some have finished`,
    });

    // B, on the same origin, is answered while all of that hangs.
    for (let i = 0; i < 20; i++)
      expect((await callTool(b.proxyUrl, 'quick')).body).toMatchObject({ result: { content: [{ text: 'quick' }] } });
    expect(settled).toBe(0);

    // A's calls end at A's timeout, each with the timeout error.
    const outcomes = await Promise.all([...hangingCalls, lastPlace]);
    expect(new Set(outcomes.map((o) => `${o.status} ${o.body.error?.code} ${o.body.error?.message}`))).toEqual(
      new Set(['200 -32011 Tool server did not answer within 15000 ms']),
    );
    await waitFor(() => origin.hanging() === 0, 'the upstream connections to close');

    // The refused calls are in the record as failed calls.
    await t.app.recorder.flush();
    const rows = await t.database.db.query<{ error_message: string; count: number }>(
      "select error_message, count(*)::int as count from tool_calls where server_id = any($1::uuid[]) and status = 'error' group by error_message",
      [[a1.server.id, a2.server.id]],
    );
    expect(rows.sort((x, y) => y.count - x.count || x.error_message.localeCompare(y.error_message))).toEqual([
      { error_message: 'Tool server did not answer within 15000 ms', count: HANGING + 1 },
      {
        error_message: `Too many calls in flight for this server (limit ${HANGING}); retry when some have finished`,
        count: 1,
      },
      {
        error_message: `Too many calls in flight for this workspace (limit ${HANGING + 1}); retry when some have finished`,
        count: 1,
      },
    ]);
  });

  it('keeps a per-server timeout and takes it back to the default with null', async () => {
    const { server } = await t.register(origin.url, { timeoutMs: 2_500 });
    const path = `/api/v1/workspaces/${t.account.workspaceId}/servers/${server.id}`;
    const headers = { authorization: `Bearer ${t.account.accessToken}` };
    const tooShort = await t.app.inject({ method: 'PUT', url: path, headers, payload: { timeoutMs: 5 } });
    expect(tooShort.statusCode).toBe(400);
    const reset = await t.app.inject({ method: 'PUT', url: path, headers, payload: { timeoutMs: null } });
    expect(reset.json()).toMatchObject({ timeoutMs: null });
  });
});
