import http from 'node:http';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';

// Real MCP servers (the official SDK) on 127.0.0.1 for the proxy tests: Streamable HTTP in JSON
// or SSE response mode, stateful or stateless, and the legacy HTTP+SSE transport. Each keeps the
// headers of the requests it received, so tests can check what reached the upstream.
export interface SdkUpstream {
  url: string;
  requests: http.IncomingHttpHeaders[];
  /** The JSON-RPC bodies POSTed to it (Streamable HTTP upstreams): what reached it, not the GET
   * streams or DELETEs the SDK client opens on its own schedule. */
  posted?: unknown[];
  /** Makes the next requests hang (never answer) until released. */
  hang(on: boolean): void;
  /** GET streams open now (Streamable HTTP upstreams). */
  openStreams?(): number;
  close(): Promise<void>;
}

export function buildMcpServer(): McpServer {
  const server = new McpServer({ name: 'fixture-upstream', version: '1.2.3' }, { capabilities: { logging: {} } });
  server.registerTool('echo', { description: 'Echoes text', inputSchema: { text: z.string() } }, ({ text }) =>
    Promise.resolve({
      content: [{ type: 'text', text: `echo: ${text}` }],
    }),
  );
  server.registerTool('fail', { description: 'Always fails', inputSchema: {} }, () =>
    Promise.resolve({
      content: [{ type: 'text', text: 'the tool broke' }],
      isError: true,
    }),
  );
  server.registerTool(
    'count',
    { description: 'Counts with progress and logs', inputSchema: { to: z.number() } },
    async ({ to }, extra) => {
      const token = extra._meta?.progressToken;
      for (let i = 1; i <= to; i++) {
        if (token !== undefined)
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken: token, progress: i, total: to },
          });
        await extra.sendNotification({ method: 'notifications/message', params: { level: 'info', data: `step ${i}` } });
      }
      return { content: [{ type: 'text', text: `counted to ${to}` }] };
    },
  );
  server.registerTool(
    'ask',
    { description: 'Asks the client to sample', inputSchema: { question: z.string() } },
    async ({ question }) => {
      const answer = await server.server.createMessage({
        messages: [{ role: 'user', content: { type: 'text', text: question } }],
        maxTokens: 50,
      });
      return { content: [{ type: 'text', text: `client said: ${(answer.content as { text?: string }).text}` }] };
    },
  );
  server.registerTool('grow', { description: 'Adds a tool (the list changes)', inputSchema: {} }, () => {
    server.registerTool(`grown-${Date.now()}`, { description: 'A new tool', inputSchema: {} }, () =>
      Promise.resolve({
        content: [],
      }),
    );
    return Promise.resolve({ content: [{ type: 'text' as const, text: 'grown' }] });
  });
  server.registerPrompt('greet', { description: 'A greeting', argsSchema: { name: z.string() } }, ({ name }) => ({
    messages: [{ role: 'user', content: { type: 'text', text: `Hello ${name}` } }],
  }));
  server.registerResource('readme', 'fixture://readme', { description: 'The readme', mimeType: 'text/plain' }, (uri) =>
    Promise.resolve({
      contents: [{ uri: uri.href, text: 'read me' }],
    }),
  );
  return server;
}

function listen(server: http.Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
}

function readBody(req: http.IncomingMessage): Promise<unknown> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      try {
        resolve(text ? JSON.parse(text) : undefined);
      } catch {
        resolve(undefined);
      }
    });
  });
}

/** `build`: the MCP server behind it (default buildMcpServer's fixture). */
export async function startStreamableUpstream(options: {
  json: boolean;
  stateful: boolean;
  build?: () => McpServer;
  keepAliveTimeoutMs?: number;
}): Promise<SdkUpstream> {
  const build = options.build ?? buildMcpServer;
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const requests: http.IncomingHttpHeaders[] = [];
  const posted: unknown[] = [];
  let hanging = false;
  let openStreams = 0;
  const server = http.createServer((req, res) => {
    // Node does not await a request handler: the async handling runs on its own.
    void (async () => {
      requests.push(req.headers);
      if (hanging) return; // never answers
      if (req.method === 'GET') {
        openStreams++;
        res.once('close', () => openStreams--);
      }
      const body = req.method === 'POST' ? await readBody(req) : undefined;
      if (body !== undefined) posted.push(body);
      if (!options.stateful) {
        const transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: undefined,
          enableJsonResponse: options.json,
        });
        const mcp = build();
        res.on('close', () => void transport.close());
        await mcp.connect(transport);
        await transport.handleRequest(req, res, body);
        return;
      }
      const sessionId = req.headers['mcp-session-id'];
      let transport = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
      if (!transport) {
        if (typeof sessionId === 'string') {
          res
            .writeHead(404, { 'content-type': 'application/json' })
            .end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } }));
          return;
        }
        transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          enableJsonResponse: options.json,
          onsessioninitialized: (id) => void transports.set(id, transport!),
          onsessionclosed: (id) => void transports.delete(id),
        });
        await build().connect(transport);
      }
      await transport.handleRequest(req, res, body);
    })();
  });
  // Node closes an idle keep-alive connection after 5 s; on a loaded machine a client may reuse it
  // just as it goes (a reset). Load tests keep connections longer than they run.
  if (options.keepAliveTimeoutMs !== undefined) server.keepAliveTimeout = options.keepAliveTimeoutMs;
  const url = `${await listen(server)}/mcp`;
  return {
    url,
    requests,
    posted,
    hang: (on) => void (hanging = on),
    openStreams: () => openStreams,
    close: async () => {
      for (const t of transports.values()) await t.close().catch(() => undefined);
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

export async function startLegacySseUpstream(): Promise<SdkUpstream> {
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- a legacy SSE upstream on purpose: the proxy must keep bridging to servers that only speak it
  const transports = new Map<string, SSEServerTransport>();
  const requests: http.IncomingHttpHeaders[] = [];
  let hanging = false;
  const server = http.createServer((req, res) => {
    // Node does not await a request handler: the async handling runs on its own.
    void (async () => {
      requests.push(req.headers);
      if (hanging && req.method === 'POST') return; // the stream stays up, messages get no answer
      const url = new URL(req.url ?? '/', 'http://x');
      if (req.method === 'GET' && url.pathname === '/sse') {
        // eslint-disable-next-line @typescript-eslint/no-deprecated -- a legacy SSE upstream on purpose: the proxy must keep bridging to servers that only speak it
        const transport = new SSEServerTransport('/messages', res);
        transports.set(transport.sessionId, transport);
        res.on('close', () => transports.delete(transport.sessionId));
        await buildMcpServer().connect(transport);
        return;
      }
      if (req.method === 'POST' && url.pathname === '/messages') {
        const transport = transports.get(url.searchParams.get('sessionId') ?? '');
        if (!transport) return void res.writeHead(404).end('no session');
        await transport.handlePostMessage(req, res, await readBody(req));
        return;
      }
      res.writeHead(404).end();
    })();
  });
  const base = await listen(server);
  return {
    url: `${base}/sse`,
    requests,
    hang: (on) => void (hanging = on),
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
