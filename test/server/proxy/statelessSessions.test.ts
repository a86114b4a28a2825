import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startProxyApp, type ProxyTestApp } from './support/proxyApp';

jest.setTimeout(60_000);

// Stateless 2026-07-28 traffic: no initialize, no Mcp-Session-Id; Mcp-Method / Mcp-Name headers,
// clientInfo and traceparent in params._meta. The SDK does not speak it yet, so the agent is
// hand-written JSON-RPC over fetch and the upstream a minimal stateless tool server.
const TRACE_A = '4bf92f3577b34da6a3ce929d0e0e4736';
const TRACE_B = '0af7651916cd43dd8448eb211c80319c';

function statelessCall(id: number, trace: string, client = { name: 'stateless-agent', version: '2.0.0' }) {
  return {
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: {
      name: 'add',
      arguments: { a: id, b: 1 },
      _meta: { clientInfo: client, traceparent: `00-${trace}-00f067aa0ba902b7-01` },
    },
  };
}

describe('stateless (2026-07-28) traffic and session inference', () => {
  let t: ProxyTestApp;
  let upstream: http.Server;
  const seenHeaders: http.IncomingHttpHeaders[] = [];
  let upstreamUrl: string;

  beforeAll(async () => {
    t = await startProxyApp();
    upstream = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const message = JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null');
        if (req.method !== 'POST' || message?.method === 'initialize') return void res.writeHead(405).end();
        seenHeaders.push(req.headers);
        const { a, b } = message.params.arguments;
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: message.id,
            result: { content: [{ type: 'text', text: String(Number(a) + Number(b)) }] },
          }),
        );
      });
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', () => r()));
    upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/mcp`;
  });
  afterAll(async () => {
    upstream.closeAllConnections();
    await new Promise((r) => upstream.close(r));
    await t.close();
  });

  const send = (url: URL, body: unknown, agentKey: string) =>
    fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'add',
        authorization: `Bearer ${agentKey}`,
      },
      body: JSON.stringify(body),
    });

  it('forwards the stateless headers and groups calls by agent and trace into sessions', async () => {
    const { server, proxyUrl } = await t.register(upstreamUrl);
    const answers = [];
    answers.push(await (await send(proxyUrl, statelessCall(1, TRACE_A), 'agent-one')).json());
    answers.push(await (await send(proxyUrl, statelessCall(2, TRACE_A), 'agent-one')).json());
    // Another agent (another key) at the same time: its own session.
    answers.push(
      await (
        await send(proxyUrl, statelessCall(3, TRACE_A, { name: 'other-agent', version: '1.0.0' }), 'agent-two')
      ).json(),
    );
    // The first agent starts a new trace: a new session, the old one ends.
    answers.push(await (await send(proxyUrl, statelessCall(4, TRACE_B), 'agent-one')).json());
    expect(answers.map((a) => a.result.content[0].text)).toEqual(['2', '3', '4', '5']);
    expect(seenHeaders.at(-1)).toMatchObject({
      'mcp-method': 'tools/call',
      'mcp-name': 'add',
      'mcp-protocol-version': '2026-07-28',
    });
    expect(seenHeaders.at(-1)!.authorization).toBeUndefined();

    await t.app.recorder.flush();
    const sessions = await t.database.db.query<{
      id: string;
      client_name: string;
      client_version: string;
      trace_id: string;
      status: string;
      call_count: number;
      protocol_version: string;
      mcp_session_id: string | null;
    }>('select * from sessions where server_id = $1 order by started_at, client_name', [server.id]);
    expect(sessions.map((s) => [s.client_name, s.trace_id, s.call_count, s.status])).toEqual([
      ['stateless-agent', TRACE_A, 2, 'ended'],
      ['other-agent', TRACE_A, 1, 'active'],
      ['stateless-agent', TRACE_B, 1, 'active'],
    ]);
    expect(sessions.every((s) => s.mcp_session_id === null && s.protocol_version === '2026-07-28')).toBe(true);
    const calls = await t.database.db.query<{ traceparent: string; meta: { clientInfo: unknown } }>(
      'select traceparent, meta from tool_calls where session_id = $1',
      [sessions[2].id],
    );
    expect(calls).toEqual([
      {
        traceparent: `00-${TRACE_B}-00f067aa0ba902b7-01`,
        meta: expect.objectContaining({ clientInfo: { name: 'stateless-agent', version: '2.0.0' } }),
      },
    ]);
  });

  // Issue 37, item 5: headers a gateway routes and counts on must say what the body does.
  it('refuses a request whose Mcp-Method or Mcp-Name disagrees with its body (400, -32020), forwarding nothing', async () => {
    const { server, proxyUrl } = await t.register(upstreamUrl);
    const before = seenHeaders.length;
    const post = (headers: Record<string, string>) =>
      fetch(proxyUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          ...headers,
        },
        body: JSON.stringify(statelessCall(41, TRACE_A)),
      });
    for (const [headers, reason] of [
      [
        { 'mcp-method': 'tools/list', 'mcp-name': 'add' },
        'Mcp-Method is "tools/list" but the body\'s method is "tools/call"',
      ],
      [
        { 'mcp-method': 'tools/call', 'mcp-name': 'delete_everything' },
        'Mcp-Name is "delete_everything" but the body names "add"',
      ],
    ] as const) {
      const res = await post(headers);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        jsonrpc: '2.0',
        id: 41,
        error: { code: -32020, message: 'Header mismatch', data: { reason } },
      });
    }
    expect(seenHeaders.length).toBe(before);
    // Agreeing headers, plain or base64-encoded, and none at all (an older client) go on.
    const agreeing: Record<string, string>[] = [
      { 'mcp-method': 'tools/call', 'mcp-name': `=?base64?${Buffer.from('add').toString('base64')}?=` },
      {},
    ];
    for (const headers of agreeing) {
      const res = await post(headers);
      expect(res.status).toBe(200);
      expect((await res.json()).result.content[0].text).toBe('42');
    }
    expect(seenHeaders.length).toBe(before + 2);
    await t.app.recorder.flush();
    const calls = await t.database.db.query('select 1 from tool_calls where server_id = $1', [server.id]);
    expect(calls).toHaveLength(2);
  });
});
