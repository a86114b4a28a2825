import fs from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { BrowserContext, Page } from 'playwright-core';
import { startEverything, type EverythingServer } from '../server/proxy/support/everything';
import { addServer, signUp } from './helpers/appApi';
import { startBuiltApp, type BuiltApp } from './helpers/builtApp';
import { launchChromium, type RunningBrowser } from './helpers/chromium';
import { closeBrowserAndApp, describeWhenChromium, recordPageProblems, signedInContext } from './helpers/journey';
import { screenshotIfAsked } from './helpers/screenshots';

// Issue 15's journey in Chromium against the built app and a real server-everything: /analytics is
// empty and leads to /servers → agents call tools through the proxy → the call count moves on
// /analytics without a reload → /performance and /cost-analytics show the traffic →
// /cost-attribution by tool → the CSV download holds the same rows as the table. Screenshots of
// the four screens go to TOOLSCOPE_E2E_SCREENSHOTS when set (docs/screenshots holds them).
const describeInBrowser = describeWhenChromium();

jest.setTimeout(480_000);

describeInBrowser('analytics journey', () => {
  let upstream: EverythingServer;
  let app: BuiltApp;
  let chromium: RunningBrowser;
  let context: BrowserContext;
  let page: Page;
  let proxyUrl = '';
  const problems: string[] = [];

  beforeAll(async () => {
    upstream = await startEverything();
    // A loaded machine (other suites, benches) can take minutes to start the built app.
    app = await startBuiltApp({ TOOLSCOPE_FLAGS: 'show_cost_analytics=true,show_cost_attribution=true' }, 360_000);
    const account = await signUp(app.baseUrl, {
      firstName: 'Ada',
      lastName: 'Lovelace',
      emailName: 'ada',
      password: 'ada-lovelace-1815',
    });
    proxyUrl = await addServer(app.baseUrl, account, {
      url: upstream.url,
      name: 'Everything',
      description: 'The reference server',
    });

    chromium = await launchChromium();
    context = await signedInContext(chromium, account, {
      viewport: { width: 1440, height: 1000 },
      acceptDownloads: true,
    });
    page = await context.newPage();
    recordPageProblems(page, problems);
  });

  afterAll(async () => {
    await closeBrowserAndApp(context, chromium, app);
    await (upstream as EverythingServer | undefined)?.stop();
  });

  const shoot = (name: string) => screenshotIfAsked(page, name);

  async function agent(name: string, run: (client: Client) => Promise<void>): Promise<void> {
    const client = new Client({ name, version: '2.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(proxyUrl));
    await client.connect(transport);
    await run(client);
    await transport.terminateSession();
    await client.close();
  }

  it('shows an empty state leading to /servers, then the call count of new traffic without a reload', async () => {
    await page.goto(`${app.baseUrl}/analytics`);
    await page.getByText('No traffic in this range').waitFor();
    await expect(page.getByRole('link', { name: 'Connect a tool server' }).getAttribute('href')).resolves.toBe(
      '/servers',
    );

    await agent('research-agent', async (client) => {
      await client.listTools();
      for (const message of ['find the quarterly report', 'summarise it', 'list the open questions'])
        await client.callTool({ name: 'echo', arguments: { message } });
      await client.callTool({ name: 'get-sum', arguments: { a: 19, b: 23 } });
      await client.callTool({ name: 'no-such-tool', arguments: {} });
    });
    // The empty state gives way to the numbers on the live stream's news (no reload).
    // The calls arrive as separate live events: wait for the count of all five, not the first one.
    await page.getByTestId('kpi-Calls').filter({ hasText: /^5$/ }).waitFor({ timeout: 20_000 });

    // With the page open, more traffic moves the number (the live stream, no reload).
    await agent('coding-agent', async (client) => {
      await client.listTools();
      await client.callTool({ name: 'echo', arguments: { message: 'refactor the parser' } });
      await client.callTool({ name: 'get-sum', arguments: { a: 1, b: 2 } });
    });
    await page.getByTestId('kpi-Calls').filter({ hasText: /^7$/ }).waitFor({ timeout: 20_000 });
    await expect(page.getByTestId('kpi-Errors').innerText()).resolves.toContain('1 ·');
    await expect(page.getByTestId('kpi-Sessions').innerText()).resolves.toBe('2');
    await page.getByRole('table', { name: 'Top tools' }).getByText('echo').waitFor();
    await page.getByRole('list', { name: 'Top clients' }).getByText('research-agent').waitFor();
    await shoot('analytics');
  });

  it('shows the same tokens and p95 on the dashboard as on /analytics for that traffic', async () => {
    // Issue 29: the dashboard said 39,406 tokens where Analytics said 3,890, and p95 2.50 s against
    // 247 ms. Both now read the same rollups through the same code: the same text on both screens.
    await page.goto(`${app.baseUrl}/dashboard`);
    await page.getByTestId('stat-Tool calls today').filter({ hasText: /^7$/ }).waitFor({ timeout: 20_000 });
    const dashboardTokens = (await page.getByText(/^[\d,]+ tokens, /).innerText()).split(' tokens')[0];
    const dashboardP95 = await page.getByTestId('stat-Latency p95').innerText();
    await page.goto(`${app.baseUrl}/analytics?range=24h`);
    await page.getByTestId('kpi-Calls').filter({ hasText: /^7$/ }).waitFor({ timeout: 20_000 });
    expect({
      tokens: await page.getByTestId('kpi-Tokens').innerText(),
      p95: await page.getByTestId('kpi-p95 latency').innerText(),
    }).toEqual({ tokens: dashboardTokens, p95: dashboardP95 });
    expect(dashboardP95).not.toBe('—');
  });

  it('keeps the range in the URL across the screens; /performance shows the slowest tools and errors by class', async () => {
    await page.getByRole('button', { name: '24 hours' }).click();
    await page.waitForURL(/range=24h/);
    await page.goto(`${app.baseUrl}/performance?range=24h`);
    await expect(page.getByRole('button', { name: '24 hours' }).getAttribute('aria-pressed')).resolves.toBe('true');
    const table = page.getByRole('table', { name: 'Slowest tools' });
    await table.getByText('get-sum').waitFor();
    await table.getByText('echo').waitFor();
    await page.getByRole('region', { name: 'Errors by class and tool' }).locator('svg').first().waitFor();
    await shoot('performance');
  });

  it('/cost-analytics shows the month so far, context weight with the unused tools, and the prices', async () => {
    await page.goto(`${app.baseUrl}/cost-analytics`);
    const weight = page.getByRole('table', { name: 'Context weight' });
    await weight.getByText('Everything').waitFor();
    await weight.getByText(/get-tiny-image · \d+ tok/).waitFor();
    await expect(weight.getByText(/^echo ·/).count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Save prices' }).waitFor();
    await shoot('cost-analytics');
  });

  it('/cost-attribution by tool: the CSV download holds exactly the rows of the table', async () => {
    await page.goto(`${app.baseUrl}/cost-attribution`);
    await page.getByRole('button', { name: 'Tool', exact: true }).click();
    await page.waitForURL(/by=tool/);
    const rows = page.getByTestId('attribution-row');
    for (const tool of ['echo', 'get-sum', 'no-such-tool']) await rows.filter({ hasText: tool }).waitFor();
    const shown = await rows.evaluateAll((trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].slice(0, 3).map((td) => (td as HTMLElement).innerText.trim())),
    );
    // The tool definitions' tokens belong to no tool: their own row makes the breakdown add up to the total.
    expect(shown.map((cells) => cells[0]).sort()).toEqual(['Tool definitions', 'echo', 'get-sum', 'no-such-tool']);
    await shoot('cost-attribution');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^cost-attribution-tool-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = fs
      .readFileSync(await download.path(), 'utf8')
      .trim()
      .split(/\r\n/);
    expect(csv[0]).toBe('tool,id,server,calls,tokens,cost_usd,share_percent');
    const exported = csv.slice(1).map((line) => line.split(','));
    // Same rows, same order, same names, servers and call counts as the table.
    expect(exported.map((cells) => [cells[0], cells[2], cells[3]])).toEqual(shown);
    expect(exported.find((cells) => cells[0] === 'echo')![3]).toBe('4');
    expect(problems).toEqual([]);
  });
});
