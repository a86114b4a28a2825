import http from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startProxyApp, type ProxyTestApp } from '../../proxy/support/proxyApp';
import { recordedCalls } from '../../helpers/recordedRows';
import { CORPUS } from '../../helpers/redactionCorpus';
import { listenOnLoopback } from '../../helpers/loopbackServer';

jest.setTimeout(120_000);

// A value split across the network writes of one SSE event, or across the `data:` lines of one
// event, is one message once the event is whole: the proxy records events, not chunks, so the
// value is found (docs/security.md: only a value split across two messages is not).
const token = CORPUS['github-pat'].positives[0].value;

async function startSplittingUpstream(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    if (req.method !== 'POST') return res.writeHead(405).end();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        id?: number;
        method: string;
        params?: { name?: string };
      };
      if (message.method === 'initialize') {
        const result = {
          protocolVersion: '2025-06-18',
          capabilities: { tools: {} },
          serverInfo: { name: 'splitting', version: '1' },
        };
        return res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
      }
      if (message.id === undefined) return res.writeHead(202).end();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const head = `{"jsonrpc":"2.0","id":${message.id},"result":{"content":[{"type":"text",`;
      if (message.params?.name === 'lines') {
        // One event, its JSON over two data lines (joined by a line feed: whitespace between tokens).
        res.end(`data: ${head}\ndata: "text":"key ${token} here"}]}}\n\n`);
        return;
      }
      // One event in three writes, the token cut in two between them.
      const text = `data: ${head}"text":"key ${token} here"}]}}\n\n`;
      const cut = text.indexOf(token) + 10;
      res.write(text.slice(0, cut), () =>
        setTimeout(
          () => res.write(text.slice(cut, cut + 20), () => setTimeout(() => res.end(text.slice(cut + 20)), 20)),
          20,
        ),
      );
    });
  });
  return listenOnLoopback(server);
}

describe('redaction of SSE responses', () => {
  let t: ProxyTestApp;
  let upstream: { url: string; close(): Promise<void> };
  beforeAll(async () => {
    t = await startProxyApp();
    upstream = await startSplittingUpstream();
  });
  afterAll(async () => {
    await upstream.close();
    await t.close();
  });

  it('finds a value cut across network writes or data lines of one event; the agent gets it whole', async () => {
    const { server, proxyUrl } = await t.register(upstream.url);
    const client = new Client({ name: 'agent', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(proxyUrl));
    for (const name of ['chunks', 'lines']) {
      const result = await client.callTool({ name, arguments: {} });
      expect(JSON.stringify(result)).toContain(token);
    }
    await client.close();
    await t.app.recorder.flush();
    const calls = await recordedCalls(t.database.db, 'tc.server_id = $1', [server.id]);
    expect(calls.map((call) => call.result)).toEqual([
      { content: [{ type: 'text', text: 'key [REDACTED:github-pat] here' }] },
      { content: [{ type: 'text', text: 'key [REDACTED:github-pat] here' }] },
    ]);
  });
});
