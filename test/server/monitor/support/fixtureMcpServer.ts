import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

// A real MCP server (the SDK's McpServer behind StreamableHTTPServerTransport, stateless, JSON
// responses) on 127.0.0.1 whose tool descriptions a test can change — the "rug pull" — and which
// a test can stop and start again on the same port.
export interface FixtureState {
  /** Description of the `add` tool; change it to simulate a rug pull. */
  addDescription: string;
  /** Extra tools offered next to `add`. */
  extraTools: string[];
}

export interface FixtureMcpServer {
  url: string;
  state: FixtureState;
  /** Requests answered, by JSON-RPC method. */
  calls: Map<string, number>;
  stop(): Promise<void>;
  start(): Promise<void>;
}

function buildMcpServer(state: FixtureState): McpServer {
  const server = new McpServer({ name: 'fixture-calculator', version: '1.0.0' });
  server.registerTool(
    'add',
    { description: state.addDescription, inputSchema: { a: z.number(), b: z.number() } },
    ({ a, b }) => Promise.resolve({ content: [{ type: 'text', text: String(a + b) }] }),
  );
  for (const name of state.extraTools) {
    server.registerTool(name, { description: `The ${name} tool` }, () =>
      Promise.resolve({
        content: [{ type: 'text', text: name }],
      }),
    );
  }
  server.registerPrompt('greet', { description: 'Greets someone', argsSchema: { who: z.string() } }, ({ who }) => ({
    messages: [{ role: 'user', content: { type: 'text', text: `Hello ${who}` } }],
  }));
  server.registerResource('readme', 'fixture://readme', { description: 'The readme', mimeType: 'text/plain' }, (uri) =>
    Promise.resolve({
      contents: [{ uri: uri.href, text: 'Read me' }],
    }),
  );
  server.registerResource(
    'note',
    new ResourceTemplate('fixture://notes/{id}', { list: undefined }),
    { description: 'A note by id' },
    (uri) => Promise.resolve({ contents: [{ uri: uri.href, text: 'note' }] }),
  );
  return server;
}

export async function startFixtureMcpServer(initial: Partial<FixtureState> = {}): Promise<FixtureMcpServer> {
  const state: FixtureState = { addDescription: 'Adds two numbers', extraTools: [], ...initial };
  const calls = new Map<string, number>();
  const httpServer = http.createServer((req, res) => {
    // Node does not await a request handler: the async handling runs on its own.
    void (async () => {
      if (req.method !== 'POST') {
        res.writeHead(405, { allow: 'POST' }).end();
        return;
      }
      let text = '';
      for await (const chunk of req) text += (chunk as Buffer).toString('utf8');
      const body = JSON.parse(text) as { method?: string } | { method?: string }[];
      for (const message of Array.isArray(body) ? body : [body]) {
        if (message.method) calls.set(message.method, (calls.get(message.method) ?? 0) + 1);
      }
      const server = buildMcpServer(state);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    })();
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const port = (httpServer.address() as AddressInfo).port;
  let listening = true;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    state,
    calls,
    async stop() {
      if (!listening) return;
      listening = false;
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
    async start() {
      if (listening) return;
      await new Promise<void>((resolve, reject) => {
        httpServer.once('error', reject);
        httpServer.listen(port, '127.0.0.1', () => {
          httpServer.off('error', reject);
          resolve();
        });
      });
      listening = true;
    },
  };
}
