import type { AddressInfo } from 'node:net';
import { Paths } from '../../../src/contract/routes';
import type { ServerDto } from '../../../src/contract/servers';
import { withPublicBase } from '../../../src/server/http/publicUrl';
import { bearer } from '../helpers/accounts';
import { openSse } from '../monitor/support/sseReader';
import { startProxyApp, type ProxyTestApp } from '../proxy/support/proxyApp';
import { startStreamableUpstream, type SdkUpstream } from '../proxy/support/sdkUpstream';

jest.setTimeout(90_000);

// One rule for the URLs Toolscope hands out (docs/operations.md "Public URLs"): without
// TOOLSCOPE_PUBLIC_URL the proxy URL of a card is the same from REST and from a live update.
describe('public URLs', () => {
  let t: ProxyTestApp;
  let upstream: SdkUpstream;
  beforeAll(async () => {
    t = await startProxyApp();
    upstream = await startStreamableUpstream({ json: true, stateful: false });
  });
  afterAll(async () => {
    await (t as ProxyTestApp | undefined)?.close();
    await (upstream as SdkUpstream | undefined)?.close().catch(() => undefined);
  });

  it('keeps the proxy URL of the REST answer in the live update after the upstream goes offline', async () => {
    const port = (t.app.server.address() as AddressInfo).port;
    const ws = t.account.workspaceId;
    const { server } = await t.register(upstream.url);
    // The browser reached Toolscope at 127.0.0.1 (not "localhost"), for REST and for the stream.
    const rest = await fetch(`http://127.0.0.1:${port}${Paths.servers(ws)}/${server.id}`, {
      headers: bearer(t.account.accessToken),
    });
    const restUrl = ((await rest.json()) as ServerDto).proxyUrl;
    expect(restUrl.startsWith(`http://127.0.0.1:${port}/mcp/`)).toBe(true);
    const sse = await openSse(
      `http://127.0.0.1:${port}/api/v1/workspaces/${ws}/platform/sse?token=${encodeURIComponent(t.account.accessToken)}`,
    );
    try {
      await sse.waitFor((m) => m.type === 'heartbeat');
      await upstream.close();
      const probe = await t.app.inject({
        method: 'POST',
        url: `${Paths.servers(ws)}/${server.id}/health`,
        headers: bearer(t.account.accessToken),
      });
      expect(probe.statusCode).toBe(200);
      const update = await sse.waitFor((m) => m.type === 'server_updated' && m.data.status === 'offline');
      expect(update.data.proxyUrl).toBe(restUrl);
    } finally {
      sse.close();
    }
  });

  it('uses TOOLSCOPE_PUBLIC_URL for every stream when it is set, and leaves other messages alone', () => {
    const message = { type: 'server_updated', data: { id: 's', proxyUrl: '/mcp/key' } };
    expect(withPublicBase(message, 'https://toolscope.example.com')).toEqual({
      type: 'server_updated',
      data: { id: 's', proxyUrl: 'https://toolscope.example.com/mcp/key' },
    });
    const other = { type: 'tool_call', data: { proxyUrl: '/x' } };
    expect(withPublicBase(other, 'https://toolscope.example.com')).toBe(other);
  });
});
