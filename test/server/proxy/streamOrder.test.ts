// Real SDK peers, a real proxy and database: starting them takes seconds on a loaded machine.
jest.setTimeout(90_000);

import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { startProxyApp, type ProxyTestApp } from './support/proxyApp';
import { listenOnLoopback } from '../helpers/loopbackServer';

// Issue 37, item 2: an SDK client opens its GET stream right after initialize and then calls a
// tool; a server that asks the client something on that stream (elicitation not tied to the
// request) loses the question when the call reaches it before the GET. Directly the upstream sees
// them in the order sent; through the proxy the call overtook its session's GET (the GET needs a
// connection of the stream pool) and 11–18 of 40 questions were lost.
const SESSIONS = 12;

/** Requests of a kind that have arrived somewhere, counted per session; `arrived` waits for the nth. */
class ArrivalLog {
  private readonly counts = new Map<string, number>();
  private readonly waiting = new Map<string, { count: number; resolve: () => void }[]>();
  add(sessionId: string): void {
    const count = (this.counts.get(sessionId) ?? 0) + 1;
    this.counts.set(sessionId, count);
    for (const waiter of this.waiting.get(sessionId) ?? []) if (count >= waiter.count) waiter.resolve();
  }
  has(sessionId: string): boolean {
    return this.counts.has(sessionId);
  }
  arrived(sessionId: string, count = 1): Promise<void> {
    if ((this.counts.get(sessionId) ?? 0) >= count) return Promise.resolve();
    return new Promise((resolve) => {
      const waiters = this.waiting.get(sessionId) ?? [];
      waiters.push({ count, resolve });
      this.waiting.set(sessionId, waiters);
    });
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
  const listening = await listenOnLoopback(server);
  return {
    url: listening.url,
    overtaken,
    getsSeen: streamArrived,
    close: async () => {
      for (const transport of transports.values()) await transport.close().catch(() => undefined);
      await listening.close();
    },
  };
}

/** What an agent's requests wait for before they are sent: fixes an order the network leaves to chance. */
interface SendOrder {
  /** Before its tools/call: e.g. until the GET has arrived somewhere. */
  call?: (sessionId: string) => Promise<void>;
  /** Before its GET stream: e.g. until the tools/call has arrived somewhere. */
  stream?: (sessionId: string) => Promise<void>;
}

/** One SDK agent: connect, then call the tool at once (the SDK starts its GET before connect() returns). */
async function confirmOnce(url: URL, order: SendOrder, credential?: string): Promise<string> {
  const client = new Client({ name: 'eliciting-agent', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { ok: true } }));
  const orderedFetch: typeof fetch = async (input, init) => {
    const sessionId = new Headers(init?.headers).get('mcp-session-id');
    const isCall = init?.method === 'POST' && typeof init.body === 'string' && init.body.includes('"tools/call"');
    if (sessionId && isCall && order.call) await order.call(sessionId);
    if (sessionId && (init?.method ?? 'GET') === 'GET' && order.stream) await order.stream(sessionId);
    return fetch(input, init);
  };
  // A credential makes the agent one of its own to the proxy (its fingerprint), as each user's key would.
  const requestInit = credential ? { headers: { authorization: `Bearer ${credential}` } } : undefined;
  await client.connect(new StreamableHTTPClientTransport(url, { fetch: orderedFetch, requestInit }));
  try {
    const result = await client.callTool({ name: 'confirm', arguments: {} });
    return (result.content as { text: string }[])[0].text;
  } finally {
    await client.close();
  }
}

/** Logs the requests of one kind the proxy's HTTP server receives, before the proxy does anything with them. */
function proxyArrivals(t: ProxyTestApp, isWatched: (request: http.IncomingMessage) => boolean): ArrivalLog {
  const log = new ArrivalLog();
  t.app.server.prependListener('request', (request: http.IncomingMessage) => {
    const sessionId = request.headers['mcp-session-id'];
    if (typeof sessionId === 'string' && isWatched(request)) log.add(sessionId);
  });
  return log;
}

describe('a session’s requests reach the upstream in the order the agent sent them', () => {
  let t: ProxyTestApp;
  let upstream: OrderedUpstream;

  beforeAll(async () => {
    upstream = await startElicitingUpstream();
    // A call waits for its session's expected GET for 1 s by default; on a loaded machine the gap
    // between initializing and the call can be longer than that, which is not what is tested here.
    t = await startProxyApp({ streamExpectMs: 60_000 });
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
      Array.from({ length: SESSIONS }, () =>
        confirmOnce(new URL(upstream.url), { call: (id) => upstream.getsSeen.arrived(id) }),
      ),
    );
    expect(upstream.overtaken.size).toBe(0);
    expect(answers).toEqual(Array.from({ length: SESSIONS }, () => 'user said accept'));
  });

  it(`through the proxy, delivers every elicitation on the GET stream to ${SESSIONS} parallel SDK sessions`, async () => {
    const { proxyUrl } = await t.register(upstream.url);
    const proxyGets = proxyArrivals(t, (request) => request.method === 'GET');
    const answers = await Promise.all(
      Array.from({ length: SESSIONS }, () => confirmOnce(proxyUrl, { call: (id) => proxyGets.arrived(id) })),
    );
    expect(upstream.overtaken.size).toBe(0);
    expect(answers).toEqual(Array.from({ length: SESSIONS }, () => 'user said accept'));
  });

  it('holds a call that reaches the proxy before its session’s GET until that GET is open upstream', async () => {
    const { proxyUrl } = await t.register(upstream.url);
    const proxyGets = proxyArrivals(t, (request) => request.method === 'GET');
    // One session in the usual order: the proxy learns that this agent opens its GET after initializing.
    expect(await confirmOnce(proxyUrl, { call: (id) => proxyGets.arrived(id) })).toBe('user said accept');
    // Then the race the SDK client can lose: every GET leaves only once the proxy has its session's
    // call. Without the proxy holding the calls, each would reach the upstream first and lose its question.
    // A session's first POST is its notifications/initialized, the second its tools/call.
    const proxyPosts = proxyArrivals(t, (request) => request.method === 'POST');
    const overtakenBefore = upstream.overtaken.size;
    const answers = await Promise.all(
      Array.from({ length: SESSIONS }, () => confirmOnce(proxyUrl, { stream: (id) => proxyPosts.arrived(id, 2) })),
    );
    expect(upstream.overtaken.size).toBe(overtakenBefore);
    expect(answers).toEqual(Array.from({ length: SESSIONS }, () => 'user said accept'));
  });

  it('holds the call of an agent it has never seen, whose initialize declared elicitation, until its GET is open', async () => {
    const { proxyUrl } = await t.register(upstream.url);
    // Each session is a different agent (its own credential): the proxy knows nothing of any of them.
    // Every GET leaves only once the proxy has its session's call, so each call would overtake it.
    const proxyPosts = proxyArrivals(t, (request) => request.method === 'POST');
    const overtakenBefore = upstream.overtaken.size;
    const answers = await Promise.all(
      Array.from({ length: SESSIONS }, () =>
        confirmOnce(proxyUrl, { stream: (id) => proxyPosts.arrived(id, 2) }, `agent-${randomUUID()}`),
      ),
    );
    expect(upstream.overtaken.size).toBe(overtakenBefore);
    expect(answers).toEqual(Array.from({ length: SESSIONS }, () => 'user said accept'));
  });
});
