import http from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { listenOnLoopback } from '../helpers/loopbackServer';

// A real MCP server (the SDK's McpServer, stateless, JSON responses) with one tool, `charge`,
// that fails (a tool error: isError) while `state.failing` is set — traffic for alert rules.
export interface FlakyMcpServer {
  url: string;
  state: { failing: boolean };
  stop(): Promise<void>;
}

export async function startFlakyMcpServer(): Promise<FlakyMcpServer> {
  const state = { failing: false };
  const httpServer = http.createServer((req, res) => {
    void (async () => {
      if (req.method !== 'POST') {
        res.writeHead(405, { allow: 'POST' }).end();
        return;
      }
      let text = '';
      for await (const chunk of req) text += (chunk as Buffer).toString('utf8');
      const server = new McpServer({ name: 'flaky', version: '1.0.0' });
      server.registerTool('charge', { description: 'Charges a card' }, () =>
        Promise.resolve(
          state.failing
            ? { content: [{ type: 'text' as const, text: 'card declined' }], isError: true }
            : { content: [{ type: 'text' as const, text: 'charged' }] },
        ),
      );
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, JSON.parse(text));
    })();
  });
  const listening = await listenOnLoopback(httpServer);
  return { url: listening.url, state, stop: listening.close };
}
