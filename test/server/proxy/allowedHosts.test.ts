import http from 'node:http';
import { hostRule } from '../../../src/server/proxy/browserAccess';
import { startProxyApp, type ProxyTestApp } from './support/proxyApp';
import { startStreamableUpstream, type SdkUpstream } from './support/sdkUpstream';

// Issue 37 item 4: the Host names the proxy answers under are the operator's to set
// (TOOLSCOPE_ALLOWED_HOSTS, TOOLSCOPE_PUBLIC_URL): a DNS-rebinding page's Host is refused, the
// names the operator gives are served. browserAccess.test.ts covers the loopback default and CORS.

/** A raw POST, so Host can be anything (fetch sets it from the URL). */
function postAs(url: URL, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        headers: { host, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'host-check', version: '1' } },
      }),
    );
  });
}

describe('the Host names the proxy answers under (DNS rebinding)', () => {
  it('follows the operator’s list and public URL, and the loopback default', () => {
    const rule = (config: { allowedHosts?: string[]; publicUrl?: string; host: string }) =>
      hostRule({ allowedHosts: config.allowedHosts ?? [], publicUrl: config.publicUrl, host: config.host });
    const listed = rule({ host: '0.0.0.0', allowedHosts: ['mcp.example.com', '[::1]'] });
    expect([listed?.('mcp.example.com'), listed?.('::1'), listed?.('evil.example.com')]).toEqual([true, true, false]);
    // Loopback names stay this machine's own: no page of another site can send them.
    expect(listed?.('localhost')).toBe(true);
    const publicOnly = rule({ host: '0.0.0.0', publicUrl: 'https://toolscope.example.com' });
    expect([publicOnly?.('toolscope.example.com'), publicOnly?.('evil.example.com')]).toEqual([true, false]);
    const loopback = rule({ host: '127.0.0.1' });
    expect([loopback?.('localhost'), loopback?.('127.0.0.1'), loopback?.('evil.example.com')]).toEqual([
      true,
      true,
      false,
    ]);
    // Any name: said by the operator, or not knowable (bound to the network with neither set: documented).
    expect(rule({ host: '127.0.0.1', allowedHosts: ['*'] })).toBeNull();
    expect(rule({ host: '0.0.0.0' })).toBeNull();
  });

  describe.each([
    ['TOOLSCOPE_ALLOWED_HOSTS', { allowedHosts: ['mcp.example.com'] }, 'mcp.example.com'],
    ['TOOLSCOPE_PUBLIC_URL', { publicUrl: 'https://toolscope.example.com' }, 'toolscope.example.com'],
  ])('an instance bound to the network with %s', (_name, config, served) => {
    let t: ProxyTestApp;
    let upstream: SdkUpstream;
    let proxyUrl: URL;

    beforeAll(async () => {
      upstream = await startStreamableUpstream({ json: true, stateful: false });
      // The upstream is on loopback: an operator bound to the network allows it by name, as they would.
      t = await startProxyApp({ host: '0.0.0.0', allowPrivateUpstreams: true, ...config });
      ({ proxyUrl } = await t.register(upstream.url));
    });
    afterAll(async () => {
      try {
        await t.close();
      } finally {
        await upstream.close();
      }
    });

    it(`serves ${served} and refuses any other name before the upstream is reached`, async () => {
      expect(await postAs(proxyUrl, `${served}:${proxyUrl.port}`)).toBe(200);
      expect(await postAs(proxyUrl, `evil.example.com:${proxyUrl.port}`)).toBe(403);
      await t.app.recorder.flush();
      const sessions = await t.database.db.query('select 1 from sessions');
      expect(sessions).toHaveLength(1);
    });
  });
});
