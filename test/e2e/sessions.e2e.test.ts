import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { BrowserContext, Page } from 'playwright-core';
import { startStreamableUpstream, type SdkUpstream } from '../server/proxy/support/sdkUpstream';
import { addServer, signUp } from './helpers/appApi';
import { startBuiltApp, type BuiltApp } from './helpers/builtApp';
import { launchChromium, type RunningBrowser } from './helpers/chromium';
import { closeBrowserAndApp, describeWhenChromium, recordPageProblems, signedInContext } from './helpers/journey';
import { screenshotIfAsked } from './helpers/screenshots';

// Issue 6's journey in Chromium against the built app: while /activity-stream is open, an MCP SDK
// client runs a scripted session through the proxy (echo, a failing tool, echo again) — the calls
// appear live and in order; the session then opens in /sessions/{id}, whose replay shows the same
// calls in the same order; /thought-tracing shows the chain with the reasoning the agent sent.
// Screenshots of the four pages go to TOOLSCOPE_E2E_SCREENSHOTS when set (docs/screenshots holds them).
const describeInBrowser = describeWhenChromium();

jest.setTimeout(240_000);

describeInBrowser('sessions journey', () => {
  let upstream: SdkUpstream;
  let app: BuiltApp;
  let chromium: RunningBrowser;
  let context: BrowserContext;
  let page: Page;
  let proxyUrl = '';
  const problems: string[] = [];

  beforeAll(async () => {
    upstream = await startStreamableUpstream({ json: false, stateful: true });
    app = await startBuiltApp();
    const account = await signUp(app.baseUrl, {
      firstName: 'Grace',
      lastName: 'Hopper',
      emailName: 'grace',
      password: 'grace-hopper-1906',
    });
    proxyUrl = await addServer(app.baseUrl, account, {
      url: upstream.url,
      name: 'Fixture tools',
      description: 'echo and a failing tool',
    });

    chromium = await launchChromium();
    context = await signedInContext(chromium, account, { viewport: { width: 1440, height: 900 } });
    page = await context.newPage();
    recordPageProblems(page, problems);
  });

  afterAll(async () => {
    await closeBrowserAndApp(context, chromium, app);
    await (upstream as SdkUpstream | undefined)?.close();
  });

  const shoot = (name: string) => screenshotIfAsked(page, name);
  const feedRows = () => page.getByRole('list', { name: 'Activity' }).getByRole('listitem');

  it('shows the calls of a session live in /activity-stream, newest first, as the agent makes them', async () => {
    await page.goto(`${app.baseUrl}/activity-stream`);
    await page.getByText('Live: new calls appear as they happen.').waitFor();

    const client = new Client({ name: 'journey-agent', version: '3.1.0' });
    const transport = new StreamableHTTPClientTransport(new URL(proxyUrl));
    await client.connect(transport);
    await client.callTool({
      name: 'echo',
      arguments: { text: 'look up the release notes' },
      _meta: { 'com.example/reasoning': 'The user asked what changed in the last release.' },
    });
    await feedRows().filter({ hasText: 'echo' }).first().waitFor();
    await client.callTool({ name: 'fail', arguments: {} });
    await client.callTool({
      name: 'echo',
      arguments: { text: 'summarise what you found' },
      _meta: { thought: 'The lookup failed; answer from the first result.' },
    });
    await transport.terminateSession();
    await client.close();

    await page.getByText('journey-agent 3.1.0 ended a session').waitFor({ timeout: 15_000 });
    const texts = await feedRows().allInnerTexts();
    const order = texts.map((t) =>
      t.includes('ended a session')
        ? 'end'
        : t.includes('started a session')
          ? 'start'
          : t.includes('fail')
            ? 'fail'
            : t.includes('echo')
              ? 'echo'
              : 'other',
    );
    expect(order).toEqual(['end', 'echo', 'fail', 'echo', 'start']);
    await expect(feedRows().filter({ hasText: 'fail' }).first().innerText()).resolves.toContain('the tool broke');
    await shoot('activity-stream');
  });

  it('lists the session in /sessions and replays the same calls in the same order', async () => {
    await page.goto(`${app.baseUrl}/sessions`);
    const row = page.getByRole('list', { name: 'Sessions' }).getByRole('listitem').first();
    await row.getByText('journey-agent 3.1.0').waitFor();
    await expect(row.innerText()).resolves.toContain('Fixture tools');
    await shoot('sessions');
    await row.getByRole('link', { name: /Open session journey-agent/ }).click();
    await page.waitForURL(/\/sessions\/[0-9a-f-]{36}$/);

    const timeline = page.getByRole('list', { name: 'Messages' });
    await timeline.waitFor();
    const calls = page.getByRole('article');
    await calls.first().waitFor();
    expect(await calls.evaluateAll((cards) => cards.map((c) => c.getAttribute('aria-label')))).toEqual([
      'Tool call echo',
      'Tool call fail',
      'Tool call echo',
    ]);
    await expect(calls.nth(1).getByRole('alert').innerText()).resolves.toContain('the tool broke');

    // Step through from the start: the first messages are the handshake, then the calls in order.
    const toolbar = page.getByRole('toolbar', { name: 'Replay' });
    await toolbar.getByRole('button', { name: 'Step', exact: true }).click();
    await expect(timeline.getByRole('listitem').count()).resolves.toBe(1);
    await expect(timeline.getByRole('listitem').first().innerText()).resolves.toContain('initialize');
    await toolbar.getByRole('button', { name: 'Play' }).click();
    await toolbar.getByRole('button', { name: 'Play' }).waitFor({ timeout: 30_000 });
    const requested = await timeline.getByRole('listitem').filter({ hasText: 'tools/call' }).allInnerTexts();
    expect(requested.map((t) => (t.includes('fail') ? 'fail' : 'echo'))).toEqual(['echo', 'fail', 'echo']);
    await shoot('session-detail');
  });

  it('shows the chain with timing, the failure, what came next and the agent’s reasoning in /thought-tracing', async () => {
    await page.getByRole('main').getByRole('link', { name: 'Tool reasoning', exact: true }).click();
    const chain = page.getByRole('list', { name: 'Tool call chain' });
    await chain.waitFor();
    const steps = chain.getByRole('listitem');
    expect(await steps.evaluateAll((items) => items.map((i) => i.getAttribute('aria-label')))).toEqual([
      'Call 1: echo',
      'Call 2: fail',
      'Call 3: echo',
    ]);
    await expect(steps.nth(0).innerText()).resolves.toContain('The user asked what changed in the last release.');
    await expect(steps.nth(1).innerText()).resolves.toContain('Switched to echo');
    await expect(steps.nth(2).innerText()).resolves.toContain('The lookup failed; answer from the first result.');
    await shoot('thought-tracing');
    expect(problems).toEqual([]);
  });
});
