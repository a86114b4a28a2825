import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { BrowserContext, Page } from 'playwright-core';
import { startEverything, type EverythingServer } from '../server/proxy/support/everything';
import { startBuiltApp, type BuiltApp } from './helpers/builtApp';
import { launchChromium, type RunningBrowser } from './helpers/chromium';
import { closeBrowserAndApp, describeWhenChromium, recordPageProblems } from './helpers/journey';
import { screenshotIfAsked } from './helpers/screenshots';

// docs/getting-started.md, step by step, as a newcomer does it: sign up, add their MCP server
// (server-everything over Streamable HTTP stands for it), copy the Claude Code line with the proxy
// URL, let their agent (an SDK client named claude-code) call a tool through it, and find that
// call in Sessions. The pictures of the guide come from here (TOOLSCOPE_E2E_SCREENSHOTS=docs/screenshots).
const describeInBrowser = describeWhenChromium();

jest.setTimeout(480_000);

describeInBrowser('getting started: from sign-up to the first recorded call of your own agent', () => {
  let upstream: EverythingServer;
  let app: BuiltApp;
  let chromium: RunningBrowser;
  let context: BrowserContext;
  let page: Page;
  let proxyUrl = '';
  const problems: string[] = [];
  const shoot = (name: string) => screenshotIfAsked(page, name);

  beforeAll(async () => {
    upstream = await startEverything();
    app = await startBuiltApp({}, 360_000);
    chromium = await launchChromium();
    context = await chromium.browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    recordPageProblems(page, problems);
  });

  afterAll(async () => {
    await closeBrowserAndApp(context, chromium, app);
    await (upstream as EverythingServer | undefined)?.stop();
  });

  it('2. creates an account and is led to Tool Servers', async () => {
    await page.goto(`${app.baseUrl}/register`);
    await page.getByLabel('First name').fill('Ada');
    await page.getByLabel('Last name').fill('Lovelace');
    await page.getByLabel('Email').fill(`ada+${Date.now()}@example.com`);
    await page.getByLabel('Password', { exact: false }).first().fill('analytical-engine-1843');
    await page.getByLabel('Confirm password').fill('analytical-engine-1843');
    await page.getByRole('button', { name: 'Create account' }).click();
    const onboarding = page.getByRole('dialog');
    await onboarding.getByRole('button', { name: 'Get Started' }).click();
    await onboarding.getByRole('button', { name: 'Connect Tool Server' }).click();
    await page.waitForURL(/\/servers$/);
  });

  it('3. adds the MCP server and gets its proxy URL with a line for Claude Code', async () => {
    await page.getByRole('button', { name: 'Add server' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add tool server' });
    await dialog.getByLabel('Server URL').fill(upstream.url);
    await dialog.getByLabel('Name', { exact: false }).first().fill('My tools');
    await page.mouse.move(0, 0);
    await shoot('getting-started-add-server');
    await dialog.getByRole('button', { name: 'Add server' }).click();

    // Out of the pictures: the "Server added" toast (it stays until closed).
    await page.locator('[role=status], [role=alert]').filter({ hasText: 'Server added' }).getByRole('button').click();
    const card = page.getByRole('article', { name: 'My tools' });
    await card.getByTestId('server-status').filter({ hasText: 'Online' }).waitFor({ timeout: 40_000 });
    proxyUrl = (await card.getByTestId('proxy-url').innerText()).trim();
    expect(proxyUrl).toMatch(new RegExp(`^${app.baseUrl.replace(/[.]/g, '\\.')}/mcp/[A-Za-z0-9_-]{32}$`));
    await card.getByRole('button', { name: 'Connect a client' }).click();
    await card.getByRole('tab', { name: 'Claude Code' }).click();
    // The line docs/getting-started.md and the README give.
    expect(await card.getByLabel('Claude Code configuration', { exact: true }).innerText()).toBe(
      `claude mcp add --transport http my-tools ${proxyUrl}`,
    );
    await page.mouse.move(0, 0);
    await page.waitForTimeout(500);
    await shoot('getting-started-proxy-url');
  });

  it("4. records the agent's first tool call and shows it in Sessions", async () => {
    const client = new Client({ name: 'claude-code', version: '2.1.4' });
    const transport = new StreamableHTTPClientTransport(new URL(proxyUrl));
    await client.connect(transport);
    const result = await client.callTool({ name: 'echo', arguments: { message: 'hello from my agent' } });
    expect(JSON.stringify(result.content)).toContain('hello from my agent');
    await transport.terminateSession();
    await client.close();

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sessions' }).click();
    const row = page.getByRole('list', { name: 'Sessions' }).getByRole('listitem').first();
    await row.getByText('claude-code').first().waitFor({ timeout: 30_000 });
    await page.mouse.move(0, 0);
    await shoot('getting-started-sessions');
    await row.getByRole('link', { name: /Open session claude-code/ }).click();
    await page.getByRole('article', { name: 'Tool call echo' }).waitFor();
    await page.mouse.move(0, 0);
    await page.waitForTimeout(300);
    await shoot('getting-started-first-call');
    expect(problems).toEqual([]);
  });
});
