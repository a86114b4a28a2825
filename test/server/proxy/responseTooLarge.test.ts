// Real SDK peers, a real proxy and database: starting them takes seconds on a loaded machine.
jest.setTimeout(90_000);

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { engineName } from '../helpers/testDatabase';
import { recordedCalls } from '../helpers/recordedRows';
import { startProxyApp, type ProxyTestApp } from './support/proxyApp';
import { buildMcpServer, startStreamableUpstream, type SdkUpstream } from './support/sdkUpstream';

// Issue 37, item 8: an answer past TOOLSCOPE_PROXY_RESPONSE_LIMIT_BYTES is the -32013 the docs
// promise. An SDK server answers in SSE by default; its oversized event used to end as -32010
// "Tool server unreachable" (the SSE parser's error was not recognised as "too large").
const LIMIT = 256 * 1024;

// Both answer forms: SSE (the SDK server's default) and JSON (its enableJsonResponse).
describe.each([
  ['SSE', false],
  ['JSON', true],
])(`an answer over the response limit, in %s (${engineName})`, (_form, json) => {
  let t: ProxyTestApp;
  let upstream: SdkUpstream;

  beforeAll(async () => {
    upstream = await startStreamableUpstream({
      json,
      stateful: true,
      build: () => {
        const server = buildMcpServer();
        server.registerTool('huge', { description: 'Answers more than the limit' }, () => ({
          content: [{ type: 'text', text: 'x'.repeat(LIMIT + 1024) }],
        }));
        return server;
      },
    });
    t = await startProxyApp({ proxyResponseLimitBytes: LIMIT });
  });
  afterAll(async () => {
    // The upstream is closed even when the app never started (its TypeError is reported with the setup's).
    try {
      await t.close();
    } finally {
      await upstream.close();
    }
  });

  it('reaches the SDK client as McpError -32013 "Tool server response too large", recorded as that error', async () => {
    const { server, proxyUrl } = await t.register(upstream.url);
    const client = new Client({ name: 'big-answer-agent', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(proxyUrl));
    const failure = await client.callTool({ name: 'huge', arguments: {} }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(McpError);
    expect(failure).toMatchObject({ code: -32013 });
    expect((failure as McpError).message).toContain('Tool server response too large');
    // The session goes on: the next call is answered.
    expect(await client.callTool({ name: 'echo', arguments: { text: 'small' } })).toMatchObject({
      content: [{ text: 'echo: small' }],
    });
    await client.close();

    await t.app.recorder.flush();
    const calls = await recordedCalls(t.database.db, "tc.server_id = $1 and tc.tool_name = 'huge'", [server.id]);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      status: 'error',
      error_message: expect.stringContaining('Tool server response too large'),
    });
  });
});
