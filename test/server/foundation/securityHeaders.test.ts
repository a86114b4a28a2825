import { buildTestApp, type TestApp } from '../helpers/testApp';
import { engineName } from '../helpers/testDatabase';

jest.setTimeout(300_000);

// Issue 16 item 7 at the API: helmet's headers on answers of every kind (ok, error, not found).
describe(`security headers on the API (${engineName})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it.each(['/api/health', '/api/v1/users/me', '/api/v1/no-such-route'])(
    '%s carries CSP without inline scripts, nosniff, DENY and no-referrer',
    async (url) => {
      const res = await t.app.inject({ method: 'GET', url });
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      // A plain-http install must keep working: HSTS only with an https public URL.
      expect(res.headers['strict-transport-security']).toBeUndefined();
    },
  );

  // Agent-facing: an agent's JSON-RPC and event streams are no page a browser renders, and the
  // headers' hooks cost every proxied call.
  it.each(['/mcp/no-such-key', '/mcp/no-such-key/sse'])('%s (the proxy) carries none of them', async (url) => {
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-security-policy']).toBeUndefined();
    expect(res.headers['x-frame-options']).toBeUndefined();
  });

  it('adds HSTS when the public URL is https', async () => {
    const https = await buildTestApp({ publicUrl: 'https://toolscope.example.com' }, t.database);
    try {
      const res = await https.app.inject({ method: 'GET', url: '/api/health' });
      expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    } finally {
      await https.app.close();
    }
  });
});
