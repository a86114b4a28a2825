import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startProxyApp, type ProxyTestApp } from './support/proxyApp';
import { startEverything, type EverythingServer } from './support/everything';

jest.setTimeout(90_000);

// The reference server @modelcontextprotocol/server-everything behind the proxy.
describe('server-everything through the proxy', () => {
  let t: ProxyTestApp;
  let everything: EverythingServer;
  beforeAll(async () => {
    everything = await startEverything();
    t = await startProxyApp();
  });
  afterAll(async () => {
    // Close the app while the upstream still runs: with it gone, shutdown waits on upstream timeouts.
    await (t as ProxyTestApp | undefined)?.close();
    await (everything as EverythingServer | undefined)?.stop();
  });

  async function observe(url: URL) {
    const client = new Client({ name: 'everything-agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url));
    try {
      const tools = await client.listTools();
      const progress: unknown[] = [];
      return {
        tools,
        echo: await client.callTool({ name: 'echo', arguments: { message: 'through the proxy' } }),
        sum: await client.callTool({ name: 'get-sum', arguments: { a: 2, b: 40 } }),
        prompts: await client.listPrompts(),
        resources: await client.listResources(),
        longRunning: await client.callTool(
          { name: 'trigger-long-running-operation', arguments: { duration: 0.3, steps: 3 } },
          undefined,
          {
            onprogress: (p) => void progress.push(p),
          },
        ),
        progress,
      };
    } finally {
      await client.close();
    }
  }

  it('answers exactly as it does directly, progress included', async () => {
    const direct = await observe(new URL(everything.url));
    const { server, proxyUrl } = await t.register(everything.url);
    const proxied = await observe(proxyUrl);
    expect(proxied).toEqual(direct);
    expect(proxied.progress.length).toBe(3);

    await t.app.recorder.flush();
    const calls = await t.database.db.query<{ tool_name: string; status: string }>(
      'select tool_name, status from tool_calls where server_id = $1 order by started_at',
      [server.id],
    );
    expect(calls).toEqual([
      { tool_name: 'echo', status: 'ok' },
      { tool_name: 'get-sum', status: 'ok' },
      { tool_name: 'trigger-long-running-operation', status: 'ok' },
    ]);
  });
});
