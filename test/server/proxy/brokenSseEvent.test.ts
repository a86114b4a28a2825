import http from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { startProxyApp, type ProxyTestApp } from './support/proxyApp';
import { listenOnLoopback } from '../helpers/loopbackServer';

jest.setTimeout(120_000);

// An upstream that dies inside an SSE event: the agent must get the broken event ended cleanly
// and the call's error as an event of its own (an SDK client then fails the call at once instead
// of waiting for its own timeout), and the call is recorded as failed.
async function startDyingUpstream(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    if (req.method !== 'POST') return res.writeHead(405).end();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id?: number; method: string };
      if (message.method === 'initialize') {
        const result = {
          protocolVersion: '2025-06-18',
          capabilities: { tools: {} },
          serverInfo: { name: 'dying', version: '1' },
        };
        return res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
      }
      if (message.id === undefined) return res.writeHead(202).end();
      // Half an event, then the process "dies".
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`data: {"jsonrpc":"2.0","id":`, () => setTimeout(() => res.socket?.destroy(), 20));
    });
  });
  return listenOnLoopback(server);
}

describe('an upstream that dies mid-event', () => {
  let t: ProxyTestApp;
  let upstream: { url: string; close(): Promise<void> };
  beforeAll(async () => {
    t = await startProxyApp();
    upstream = await startDyingUpstream();
  });
  afterAll(async () => {
    await upstream.close();
    await t.close();
  });

  it('ends the broken event, then sends the error as an event of its own', async () => {
    const { proxyUrl } = await t.register(upstream.url);
    const res = await fetch(proxyUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'x', arguments: {} } }),
    });
    const text = await res.text();
    const [broken, error, ...rest] = text.split('\n\n');
    expect(broken).toBe('data: {"jsonrpc":"2.0","id":\nevent: toolscope-incomplete');
    expect(error.startsWith('data: ')).toBe(true);
    expect(JSON.parse(error.slice(6))).toMatchObject({ jsonrpc: '2.0', id: 5, error: { code: -32010 } });
    expect(rest).toEqual(['']);
  });

  it('fails the SDK client’s call at once and records it as failed', async () => {
    const { server, proxyUrl } = await t.register(upstream.url);
    const client = new Client({ name: 'agent', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(proxyUrl));
    try {
      // The client's own timeout is far longer than the test's: only the proxy's error event ends the call.
      const outcome = await client
        .callTool({ name: 'x', arguments: {} }, undefined, { timeout: 120_000 })
        .catch((e: unknown) => e);
      expect(outcome).toBeInstanceOf(McpError);
      expect((outcome as McpError).code).toBe(-32010);
    } finally {
      await client.close();
    }
    await t.app.recorder.flush();
    const calls = await t.database.db.query<{ status: string; error_message: string }>(
      'select status, error_message from tool_calls where server_id = $1',
      [server.id],
    );
    expect(calls).toEqual([{ status: 'error', error_message: expect.stringMatching(/^Tool server unreachable/) }]);
  });
});
