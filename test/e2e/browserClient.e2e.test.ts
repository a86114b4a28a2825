import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext, Page } from 'playwright-core';
import { startStreamableUpstream, type SdkUpstream } from '../server/proxy/support/sdkUpstream';
import { startBuiltApp, type BuiltApp } from './helpers/builtApp';
import { launchChromium, type RunningBrowser } from './helpers/chromium';
import { closeBrowserAndApp, describeWhenChromium, signUpInBrowser } from './helpers/journey';

// Issue 37 item 4 in Chromium: an MCP client running in a web page of another origin (as the
// Inspector's web UI does) calls a proxy URL through CORS — allowed for the origins the server
// lists, refused by the browser for any other — and reads the session id header the proxy exposes.
const describeInBrowser = describeWhenChromium();

jest.setTimeout(180_000);

/** An empty page on its own origin: the "web app" the browser MCP client runs in. */
async function startWebOrigin(): Promise<{ origin: string; close: () => Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>web client</title>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The MCP handshake and one tool call, from the page, with fetch: what a browser client sends. */
function callFromPage(page: Page, proxyUrl: string): Promise<string> {
  return page.evaluate(async (url) => {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
    };
    const post = (body: unknown) => fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
    try {
      const init = await post({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'web', version: '1' } },
      });
      const session = init.headers.get('mcp-session-id');
      if (!session) return `no session id readable (status ${init.status})`;
      headers['mcp-session-id'] = session;
      await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
      const call = await post({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'echo', arguments: { text: 'from a page' } },
      });
      const answer = (await call.json()) as { result?: { content: { text: string }[] } };
      return answer.result?.content[0].text ?? JSON.stringify(answer);
    } catch (error) {
      return `refused: ${(error as Error).message}`;
    }
  }, proxyUrl);
}

describeInBrowser('a browser MCP client on another origin', () => {
  let upstream: SdkUpstream;
  let allowed: Awaited<ReturnType<typeof startWebOrigin>>;
  let other: Awaited<ReturnType<typeof startWebOrigin>>;
  let app: BuiltApp;
  let chromium: RunningBrowser;
  let context: BrowserContext;

  beforeAll(async () => {
    upstream = await startStreamableUpstream({ json: true, stateful: true });
    allowed = await startWebOrigin();
    other = await startWebOrigin();
    app = await startBuiltApp();
    chromium = await launchChromium();
    context = await chromium.browser.newContext({ viewport: { width: 1280, height: 800 } });
  });
  afterAll(async () => {
    await closeBrowserAndApp(context, chromium, app);
    await Promise.all([upstream.close(), allowed.close(), other.close()]);
  });

  it('calls a tool through CORS from an allowed origin; the browser refuses it to any other origin', async () => {
    const dashboard = await context.newPage();
    const workspaceId = await signUpInBrowser(dashboard, app.baseUrl, {
      firstName: 'Tim',
      lastName: 'Berners-Lee',
      emailName: 'tim',
      password: 'hypertext-1989-cern',
    });
    const proxyUrl = await dashboard.evaluate(
      async ({ ws, url, origin }) => {
        const res = await fetch(`/api/v1/workspaces/${ws}/servers`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${localStorage.getItem('access_token')}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify({ name: 'Echo', url, allowedOrigins: [origin] }),
        });
        return ((await res.json()) as { proxyUrl: string }).proxyUrl;
      },
      { ws: workspaceId, url: upstream.url, origin: allowed.origin },
    );

    const webClient = await context.newPage();
    await webClient.goto(allowed.origin);
    expect(await callFromPage(webClient, proxyUrl)).toBe('echo: from a page');

    const stranger = await context.newPage();
    await stranger.goto(other.origin);
    expect(await callFromPage(stranger, proxyUrl)).toMatch(/^refused: /);
  });
});
