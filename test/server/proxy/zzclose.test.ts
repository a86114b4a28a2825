import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startProxyApp } from './support/proxyApp';
import { startStreamableUpstream } from './support/sdkUpstream';
jest.setTimeout(120_000);
it('closes', async () => {
  const t = await startProxyApp();
  const upstream = await startStreamableUpstream({ json: false, stateful: true });
  const sockets = new Set<import('node:net').Socket>();
  t.app.server.on('connection', (s) => { sockets.add(s); s.on('close', () => sockets.delete(s)); });
  const { proxyUrl } = await t.register(upstream.url);
  if (process.env.ZZ_CLIENT) {
    const client = new Client({ name: 'x', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(proxyUrl));
    await client.listTools();
    await client.close();
  }
  await new Promise((r) => setTimeout(r, 1000));
  await new Promise<void>((r) => t.app.server.getConnections((_e, n) => { console.log('conns', n); r(); }));
  for (const s of sockets) { const m = (s as unknown as { _httpMessage?: { req?: { method: string; url: string }; writableFinished?: boolean } })._httpMessage; console.log('sock', m?.req?.method, m?.req?.url, m?.writableFinished); }
  await upstream.close();
  await new Promise((r) => setTimeout(r, 500));
  for (const s of sockets) { const m = (s as unknown as { _httpMessage?: { req?: { method: string; url: string }; writableFinished?: boolean } })._httpMessage; console.log('sock2', m?.req?.method, m?.req?.url, m?.writableFinished); }
  const hooks: [string, () => Promise<unknown>][] = [
    ['idle', async () => { t.app.server.closeIdleConnections(); await new Promise((r) => setTimeout(r, 200)); await new Promise<void>((r) => t.app.server.getConnections((_e, n) => { console.log('conns-after-idle', n); r(); })); }],
    ['recorder', () => t.app.recorder.close()],
    ['hm', () => t.app.healthMonitor.stop()],
    ['sd', () => t.app.schemaDiscovery.close()],
    ['outbound', () => t.app.outbound.close()],
    ['app', () => t.app.close()],
    ['db', () => t.database.drop()],
  ];
  for (const [name, fn] of hooks) {
    const t0 = Date.now();
    await fn();
    console.log(name, Date.now() - t0);
  }
});
