import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { startProxyApp, type ProxyTestApp } from './support/proxyApp';
import { startStreamableUpstream, type SdkUpstream } from './support/sdkUpstream';

jest.setTimeout(60_000);

// A call's duration is what the agent waited for the tool: from the moment the proxy had the
// request to the moment it had the answer. A tool server answering in JSON sends its headers and
// body together, so a start taken when the upstream's headers arrive would make every such call
// look instant (and analytics' percentiles with it).
const TOOL_MS = 300;

function slowServer(): McpServer {
  const server = new McpServer({ name: 'slow-upstream', version: '1.0.0' });
  server.registerTool(
    'slow',
    { description: 'Answers after a pause', inputSchema: { ms: z.number() } },
    async ({ ms }) => {
      await sleep(ms);
      return { content: [{ type: 'text', text: `slept ${ms} ms` }] };
    },
  );
  return server;
}

const flavours = [
  { name: 'JSON responses, stateful', json: true, stateful: true },
  { name: 'JSON responses, stateless', json: true, stateful: false },
  { name: 'SSE responses, stateful', json: false, stateful: true },
];

describe('recorded call durations', () => {
  let t: ProxyTestApp;
  beforeAll(async () => {
    t = await startProxyApp();
  });
  afterAll(() => t.close());

  describe.each(flavours)('$name', ({ json, stateful }) => {
    let upstream: SdkUpstream;
    beforeAll(async () => {
      upstream = await startStreamableUpstream({ json, stateful, build: slowServer });
    });
    afterAll(() => upstream.close());

    it('holds the whole time the tool took, from the request reaching the proxy', async () => {
      const { server, proxyUrl } = await t.register(upstream.url, {
        name: `slow ${json ? 'json' : 'sse'} ${stateful}`,
      });
      const client = new Client({ name: 'duration-agent', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(proxyUrl));
      const sentAt = Date.now();
      try {
        await client.callTool({ name: 'slow', arguments: { ms: TOOL_MS } });
        await client.callTool({ name: 'slow', arguments: { ms: 0 } });
      } finally {
        await client.close();
      }
      await t.app.recorder.flush();
      const calls = await t.database.db.query<{ duration_ms: number; started_at: Date; arguments: string }>(
        "select duration_ms, started_at, request_payload::jsonb #>> '{params,arguments,ms}' as arguments from tool_calls where server_id = $1 order by started_at",
        [server.id],
      );
      expect(calls.map((call) => call.arguments)).toEqual([String(TOOL_MS), '0']);
      expect(calls[0].duration_ms).toBeGreaterThanOrEqual(TOOL_MS);
      // The start is when the proxy had the request, not when the tool's answer began to arrive.
      expect(new Date(calls[0].started_at).getTime()).toBeLessThan(sentAt + TOOL_MS);
    });
  });
});
