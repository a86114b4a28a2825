import type { BrowserContext, Page } from 'playwright-core';
import { randomUUID } from 'node:crypto';
import { startBuiltApp, type BuiltApp } from './helpers/builtApp';
import { launchChromium, type RunningBrowser } from './helpers/chromium';
import { closeBrowserAndApp, describeWhenChromium, recordPageProblems } from './helpers/journey';
import { screenshotIfAsked } from './helpers/screenshots';
import { stopEverythingStarted } from './helpers/processRegistry';
import { EVERYTHING_ENTRY, processesWithMarker, waitFor } from '../server/deployments/support/processes';

// Issue 21's journey in Chromium against the built app: on /servers (flag show_deployments) a
// user adds a hosted server (server-everything over stdio), deploys it, watches the status chip
// turn Running live, opens the log tail, and stops it — after which no process of it is left.
const describeInBrowser = describeWhenChromium();

jest.setTimeout(240_000);

describeInBrowser('hosted servers journey', () => {
  let app: BuiltApp;
  let chromium: RunningBrowser;
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];
  const marker = `TOOLSCOPE_JOURNEY_MARKER_${randomUUID().replace(/-/g, '')}`;

  beforeAll(async () => {
    // A loaded machine can take over a minute to open PGlite and listen.
    app = await startBuiltApp(
      {
        TOOLSCOPE_DEPLOYMENTS: 'on',
        TOOLSCOPE_FLAGS: 'show_deployments=true',
        TOOLSCOPE_DEPLOYMENT_STOP_GRACE_MS: '2000',
      },
      150_000,
    );
    chromium = await launchChromium();
    context = await chromium.browser.newContext({ viewport: { width: 1440, height: 900 } });
    page = await context.newPage();
    recordPageProblems(page, problems);
  });

  afterAll(async () => {
    await closeBrowserAndApp(context, chromium, app);
    await stopEverythingStarted();
  });

  const hosted = () => page.getByRole('region', { name: 'Hosted' });
  const card = () => hosted().getByTestId('deployment-card').filter({ hasText: 'Everything over stdio' });

  it('adds a hosted server from /servers', async () => {
    await page.goto(`${app.baseUrl}/register`);
    await page.getByLabel('First name').fill('Frances');
    await page.getByLabel('Last name').fill('Allen');
    await page.getByLabel('Email').fill(`frances+${Date.now()}@example.com`);
    await page.getByLabel('Password', { exact: false }).first().fill('optimizing-compilers-1966');
    await page.getByLabel('Confirm password').fill('optimizing-compilers-1966');
    await page.getByRole('button', { name: 'Create account' }).click();
    // A new account with no servers meets the onboarding dialog, which leads to /servers.
    const onboarding = page.getByRole('dialog');
    await onboarding.getByText('Welcome to Toolscope').waitFor();
    await onboarding.getByRole('button', { name: 'Get Started' }).click();
    await onboarding.getByRole('button', { name: 'Connect Tool Server' }).click();
    await page.waitForURL(/\/servers$/);
    await page.getByRole('status', { name: 'Live: connected' }).waitFor();

    await hosted().getByRole('button', { name: 'New hosted server' }).click();
    const dialog = page.getByRole('dialog', { name: 'New hosted server' });
    await dialog.getByLabel('Name', { exact: false }).first().fill('Everything over stdio');
    await dialog.getByLabel('Command', { exact: false }).fill('node');
    await dialog.getByLabel('Arguments').fill(`${EVERYTHING_ENTRY}\nstdio`);
    await dialog.getByLabel('Environment').fill(`${marker}=1`);
    await dialog.getByRole('button', { name: 'Add' }).click();
    await card().waitFor();
    await card().getByTestId('deployment-status').filter({ hasText: 'Not deployed' }).waitFor();
  });

  it('deploys it and the status chip turns Running live, with a proxy URL', async () => {
    await card().getByRole('button', { name: 'Deploy' }).click();
    await card().locator('[data-testid=deployment-status][data-status=running]').waitFor({ timeout: 30_000 });
    await card().getByTestId('deployment-proxy-url').filter({ hasText: '/mcp/' }).waitFor();
    // The deployed server is listed among the tool servers too.
    await page.getByRole('article', { name: 'Everything over stdio' }).waitFor();
    await screenshotIfAsked(page, 'servers-hosted');
  });

  it('opens the log tail, which shows what the program wrote', async () => {
    await card().getByRole('button', { name: 'Logs' }).click();
    const log = card().getByRole('log', { name: 'Deployment log' });
    await log.getByText('Starting default (STDIO) server...').waitFor();
    await log.getByText('Initialized; serving agents').waitFor();
  });

  it('stops it: the chip says Stopped and no process is left', async () => {
    await card().getByRole('button', { name: 'Stop' }).click();
    await page
      .getByRole('dialog', { name: /^Stop / })
      .getByRole('button', { name: 'Stop' })
      .click();
    await card().locator('[data-testid=deployment-status][data-status=stopped]').waitFor({ timeout: 30_000 });
    // The live tail got the supervisor's note about the stop.
    await card()
      .getByRole('log', { name: 'Deployment log' })
      .getByText(/The program (exited|was killed)/)
      .waitFor();
    await waitFor(
      'no process of the deployment',
      () => (processesWithMarker(marker).length === 0 ? true : undefined),
      10_000,
    );
    expect(problems).toEqual([]);
  });
});
