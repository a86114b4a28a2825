import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { BrowserContext, Page } from 'playwright-core';
import { startBuiltApp, type BuiltApp } from './helpers/builtApp';
import { launchChromium, type RunningBrowser } from './helpers/chromium';
import { closeBrowserAndApp, describeWhenChromium, recordPageProblems, signUpInBrowser } from './helpers/journey';
import { screenshotIfAsked } from './helpers/screenshots';
import { startProtectedMcpServer, type ProtectedMcpServer } from '../fixtures/oidcProvider/testProvider';

// Issue 34 item 2 in Chromium against the built app: a server that requires OAuth (the SDK's
// bearer-protected server, oidc-provider as its authorization server) connected from its card,
// used by an SDK agent that holds no upstream token, then its grant revoked: the card asks to
// sign in again.
const describeInBrowser = describeWhenChromium();

jest.setTimeout(180_000);

async function whoami(proxyUrl: string): Promise<string> {
  const client = new Client({ name: 'journey-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(proxyUrl)));
  try {
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    return (result.content as { text: string }[])[0].text;
  } finally {
    await client.close();
  }
}

describeInBrowser('connecting a server that requires OAuth', () => {
  let upstream: ProtectedMcpServer;
  let app: BuiltApp;
  let chromium: RunningBrowser;
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    upstream = await startProtectedMcpServer();
    app = await startBuiltApp();
    chromium = await launchChromium();
    context = await chromium.browser.newContext({ viewport: { width: 1440, height: 900 } });
    page = await context.newPage();
    recordPageProblems(page, problems);
  });
  afterAll(async () => {
    await closeBrowserAndApp(context, chromium, app);
    await upstream.close();
  });

  it('connects from the card, serves an agent with no upstream token, and asks to reconnect once the grant is revoked', async () => {
    const workspaceId = await signUpInBrowser(page, app.baseUrl, {
      firstName: 'Grace',
      lastName: 'Hopper',
      emailName: 'grace',
      password: 'cobol-compiler-1959',
    });
    // Registered through the API, then listed once: its discovery is refused with the challenge,
    // which marks it as needing a connection before the page loads.
    const proxyUrl = await page.evaluate(
      async ({ ws, url }) => {
        const headers = {
          authorization: `Bearer ${localStorage.getItem('access_token')}`,
          'content-type': 'application/json',
        };
        const created = (await (
          await fetch(`/api/v1/workspaces/${ws}/servers`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ name: 'Protected', url }),
          })
        ).json()) as { id: string; proxyUrl: string };
        await fetch(`/api/v1/workspaces/${ws}/servers/${created.id}/schemas/discover`, { method: 'POST', headers });
        return created.proxyUrl;
      },
      { ws: workspaceId, url: upstream.mcpUrl },
    );

    await page.goto(`${app.baseUrl}/servers`);
    const panel = page.getByRole('group', { name: 'OAuth connection of Protected' });
    await panel.getByText('OAuth: not connected').waitFor();
    await screenshotIfAsked(page, 'servers-oauth-required');
    await panel.getByRole('button', { name: 'Connect' }).click();

    // The server's authorization server: its own sign-in and consent pages.
    await page.locator('input[name="login"]').fill('grace');
    await page.locator('input[name="password"]').fill('any password');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();

    await page.waitForURL(`${app.baseUrl}/servers`);
    await page.getByText('Server connected').waitFor();
    await panel.getByText('OAuth: connected').waitFor();
    await screenshotIfAsked(page, 'servers-oauth-connected');

    expect(await whoami(proxyUrl)).toBe(`sub=grace aud=${upstream.mcpUrl}`);

    await upstream.revokeRefreshTokens();
    await upstream.revokeAccessTokens();
    await expect(whoami(proxyUrl)).rejects.toThrow();
    await page.reload();
    await panel.getByText('OAuth: sign in again').waitFor();
    await panel.getByText(/refused the refresh/).waitFor();
    await panel.getByRole('button', { name: 'Reconnect' }).waitFor();
    expect(problems.filter((p) => !p.includes('/mcp/'))).toEqual([]);
  });
});
