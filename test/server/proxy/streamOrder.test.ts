// Real SDK peers, a real proxy and database: starting them takes seconds on a loaded machine.
jest.setTimeout(90_000);

import http from 'node:http';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { startProxyApp, type ProxyTestApp } from './support/proxyApp';

// Issue 37, item 2: an SDK client opens its GET stream right after initialize and then calls a
// tool; a server that asks the client something on that stream (elicitation not tied to the
// request) loses the question when the call reaches it before the GET. Directly the upstream sees
// them in the order sent; through the proxy the call overtook its session's GET (the GET needs a
// connection of the stream pool) and 11–18 of 40 questions were lost.
const SESSIONS = 12;

/** The sessions whose GET stream has arrived somewhere; `arrived` waits for one. */
class ArrivalLog {
  private readonly seen = new Set<string>();
  private readonly waiting = new Map<string, () => void>();
  add(sessionId: string): void {
    this.seen.add(sessionId);
    this.waiting.get(sessionId)?.();
  }
  has(sessionId: string): boolean {
    return this.seen.has(sessionId);
  }
  arrived(sessionId: string): Promise<void> {
    if (this.seen.has(sessionId)) return Promise.resolve();
    return new Promise((resolve) => this.waiting.set(sessionId, resolve));
  }
}

interface OrderedUpstream {
  url: string;
  /** Sessions whose tools/call arrived before their GET stream. */
  overtaken: Set<string>;
  getsSeen: ArrivalLog;
  close(): Promise<void>;
}

async function startElicitingUpstream(): Promise<OrderedUpstream> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const streamArrived = new ArrivalLog();
  const overtaken = new Set<string>();
  const build = () => {
    const server = new McpServer({ name: 'eliciting-upstream', version: '1.0.0' });
    server.registerTool('confirm', { description: 'Asks the user on the GET stream' }, async (extra) => {
      const sessionId = extra.sessionId ?? '';
      if (!streamArrived.has(sessionId)) {
        // The question would go nowhere (the SDK drops it): say so instead of hanging.
        overtaken.add(sessionId);
        return { content: [{ type: 'text', text: 'lost: no GET stream yet' }], isError: true };
      }
      const answer = await server.server.elicitInput({
        message: 'Go ahead?',
        requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
      });
      return { content: [{ type: 'text', text: `user said ${answer.action}` }] };
    });
    return server;
  };
  // Node does not await a request handler: the async handling runs on its own.
  const server = http.createServer((req, res) => void handle(req, res));
  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const sessionId = req.headers['mcp-session-id'];
    if (req.method === 'GET' && typeof sessionId === 'string') streamArrived.add(sessionId);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = chunks.length > 0 ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown) : undefined;
    let transport = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
    if (!transport) {
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void transports.set(id, transport!),
      });
      await build().connect(transport);
    }
    await transport.handleRequest(req, res, body);
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    overtaken,
    getsSeen: streamArrived,
    close: async () => {
      for (const transport of transports.values()) await transport.close().catch(() => undefined);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * One SDK agent: connect, then call the tool at once. Its tools/call is sent only once `getsSeen`
 * holds the session's GET, so the test fixes what an agent on a fast network does by chance: the
 * GET arrives first (the SDK starts it before connect() returns).
 */
async function confirmOnce(url: URL, getsSeen: ArrivalLog): Promise<string> {
  const client = new Client({ name: 'eliciting-agent', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { ok: true } }));
  const orderedFetch: typeof fetch = async (input, init) => {
    const sessionId = new Headers(init?.headers).get('mcp-session-id');
    if (init?.method === 'POST' && sessionId && typeof init.body === 'string' && init.body.includes('"tools/call"'))
      await getsSeen.arrived(sessionId);
    return fetch(input, init);
  };
  await client.connect(new StreamableHTTPClientTransport(url, { fetch: orderedFetch }));
  try {
    const result = await client.callTool({ name: 'confirm', arguments: {} });
    return (result.content as { text: string }[])[0].text;
  } finally {
    await client.close();
  }
}

describe('a session’s requests reach the upstream in the order the agent sent them', () => {
  let t: ProxyTestApp;
  let upstream: OrderedUpstream;

  beforeAll(async () => {
    upstream = await startElicitingUpstream();
    t = await startProxyApp();
  });
  afterAll(async () => {
    // The upstream is closed even when the app never started (its TypeError is reported with the setup's).
    try {
      await t.close();
    } finally {
      await upstream.close();
    }
  });

  it(`directly, the upstream sees every GET before its session's call (${SESSIONS} parallel SDK sessions)`, async () => {
    const answers = await Promise.all(
      Array.from({ length: SESSIONS }, () => confirmOnce(new URL(upstream.url), upstream.getsSeen)),
    );
    expect(upstream.overtaken.size).toBe(0);
    expect(answers).toEqual(Array.from({ length: SESSIONS }, () => 'user said accept'));
  });

  it(`through the proxy, delivers every elicitation on the GET stream to ${SESSIONS} parallel SDK sessions`, async () => {
    const { proxyUrl } = await t.register(upstream.url);
    // The GETs the proxy's HTTP server has received (before the proxy has done anything with them).
    const proxyGets = new ArrivalLog();
    t.app.server.prependListener('request', (request: http.IncomingMessage) => {
      const sessionId = request.headers['mcp-session-id'];
      if (request.method === 'GET' && typeof sessionId === 'string') proxyGets.add(sessionId);
    });
    const answers = await Promise.all(Array.from({ length: SESSIONS }, () => confirmOnce(proxyUrl, proxyGets)));
    expect(upstream.overtaken.size).toBe(0);
    expect(answers).toEqual(Array.from({ length: SESSIONS }, () => 'user said accept'));
  });
});
