// An official-SDK MCP server (Streamable HTTP, JSON responses, a session per client) whose one tool
// `payload` answers ~1 KB of text: the upstream of scripts/bench-ingest.mjs and
// scripts/bench-proxy.mjs. Run as `node scripts/lib/mcpUpstream.mjs`, it prints its URL and
// exits on SIGTERM or when its stdin ends (the bench that started it died).
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { z } = require('zod');
const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');
const { StreamableHTTPServerTransport } = require('@modelcontextprotocol/sdk/server/streamableHttp.js');

const RESULT_TEXT = 'x'.repeat(1000);

const transports = new Map();
const server = http.createServer(async (req, res) => {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
  const sid = req.headers['mcp-session-id'];
  let transport = sid ? transports.get(sid) : undefined;
  if (!transport) {
    transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (id) => transports.set(id, transport),
    });
    const mcp = new McpServer({ name: 'bench-upstream', version: '1.0.0' });
    mcp.registerTool('payload', { description: 'Returns ~1 KB', inputSchema: { n: z.number() } }, async ({ n }) => ({
      content: [{ type: 'text', text: `${n}:${RESULT_TEXT}` }],
    }));
    await mcp.connect(transport);
  }
  await transport.handleRequest(req, res, body);
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => console.log(`http://127.0.0.1:${server.address().port}/mcp`));
process.on('SIGTERM', () => process.exit(0));
process.stdin.on('end', () => process.exit(0)).resume();
