import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { startEverything, type EverythingServer } from '../server/proxy/support/everything';
import { startBuiltApp, type BuiltApp } from './helpers/builtApp';
import { launchChromium, type RunningBrowser } from './helpers/chromium';
import { closeBrowserAndApp, describeWhenChromium, recordPageProblems } from './helpers/journey';
import { screenshotIfAsked } from './helpers/screenshots';

// Issue 20's journey in Chromium against the built app: edit the name → the header shows it;
// pick an avatar → the header shows it; with an operator catalog file whose remote entry points
// at a local server-everything: marketplace search → that entry → Connect → it is on /servers and
// goes online. Screenshots of the settings and marketplace go to TOOLSCOPE_E2E_SCREENSHOTS.
const describeInBrowser = describeWhenChromium();
jest.setTimeout(400_000);

describeInBrowser('settings and marketplace journey', () => {
  let upstream: EverythingServer;
  let app: BuiltApp;
  let chromium: RunningBrowser;
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    upstream = await startEverything();
    const catalogDir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolscope-catalog-'));
    const catalogFile = path.join(catalogDir, 'catalog.json');
    fs.writeFileSync(
      catalogFile,
      JSON.stringify({
        servers: [
          {
            name: 'io.example.local/everything',
            title: 'Local Everything',
            description: 'The MCP reference test server, running on this machine.',
            version: '1.0.0',
            remotes: [{ type: 'streamable-http', url: upstream.url }],
            _meta: {
              'io.toolscope/catalog': { category: 'Testing', tags: ['reference', 'local'], tools: ['echo', 'get-sum'] },
            },
          },
          {
            name: 'io.example.local/weather',
            title: 'Weather',
            description: 'Forecasts.',
            version: '1.0.0',
            packages: [
              { registryType: 'npm', identifier: 'weather-mcp', version: '1.0.0', transport: { type: 'stdio' } },
            ],
          },
        ],
      }),
    );
    app = await startBuiltApp(
      {
        TOOLSCOPE_HEALTH_INTERVAL_MS: '1000',
        TOOLSCOPE_CATALOG_FILE: catalogFile,
        TOOLSCOPE_FLAGS: 'show_personal_preferences=true,show_personal_security=true',
      },
      240_000,
    );
    chromium = await launchChromium();
    context = await chromium.browser.newContext({ viewport: { width: 1400, height: 900 } });
    page = await context.newPage();
    recordPageProblems(page, problems);
  });

  afterAll(async () => {
    await closeBrowserAndApp(context, chromium, app);
    await (upstream as EverythingServer | undefined)?.stop();
  });

  const shoot = (name: string) => screenshotIfAsked(page, name);
  const headerAvatar = () => page.getByRole('button', { name: 'Account menu' }).locator('img');
  const toast = (title: string) => page.locator('[role=alert], [role=status]').filter({ hasText: title });

  it('signs up and opens the profile settings', async () => {
    await page.goto(`${app.baseUrl}/register`);
    await page.getByLabel('First name').fill('Margaret');
    await page.getByLabel('Last name').fill('Hamilton');
    await page.getByLabel('Email').fill(`margaret+${Date.now()}@example.com`);
    await page.getByLabel('Password', { exact: false }).first().fill('apollo-guidance-1969');
    await page.getByLabel('Confirm password').fill('apollo-guidance-1969');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('dialog').getByText('Welcome to Toolscope').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await page.goto(`${app.baseUrl}/settings?tab=profile`);
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    await page
      .getByRole('dialog')
      .waitFor({ state: 'detached' })
      .catch(() => undefined);
    expect(await headerAvatar().getAttribute('alt')).toBe('Margaret Hamilton');
  });

  it('edits the name: the header shows it at once', async () => {
    await page.getByLabel('First name').fill('Grace');
    await page.getByLabel('Last name').fill('Hopper');
    await page.getByRole('button', { name: 'Save name' }).click();
    await toast('Profile updated').waitFor();
    await page.waitForFunction(
      () => document.querySelector('[aria-label="Account menu"] img')?.getAttribute('alt') === 'Grace Hopper',
    );
    // And it was saved: a reload shows it too.
    await page.reload();
    await page.getByLabel('First name').waitFor();
    expect(await page.getByLabel('First name').inputValue()).toBe('Grace');
    expect(await headerAvatar().getAttribute('alt')).toBe('Grace Hopper');
  });

  it('picks an avatar: the header shows it', async () => {
    const group = page.getByRole('radiogroup', { name: 'Choose an avatar' });
    // The picker's code (DiceBear) loads with the profile tab.
    await group.getByRole('radio').first().waitFor();
    expect(await group.getByRole('radio').count()).toBe(6);
    await page.getByRole('button', { name: 'Shuffle' }).click();
    const option = group.locator('label').nth(1);
    const chosen = await option.locator('img').getAttribute('src');
    expect(chosen).toMatch(/^data:image\/svg\+xml/);
    await option.getByRole('radio').check();
    await shoot('settings-profile');
    await page.getByRole('button', { name: 'Save avatar' }).click();
    await toast('Avatar updated').waitFor();
    expect(await headerAvatar().getAttribute('src')).toBe(chosen);
    await page.reload();
    await headerAvatar().waitFor();
    expect(await headerAvatar().getAttribute('src')).toBe(chosen);
  });

  it('shows preferences, security and billing', async () => {
    await page.getByRole('tab', { name: 'Preferences' }).click();
    await page.getByRole('combobox', { name: 'Time zone' }).waitFor();
    await shoot('settings-preferences');
    await page.getByRole('tab', { name: 'Security' }).click();
    await page.getByRole('list', { name: 'Active sign-ins' }).getByText('This device').waitFor();
    await shoot('settings-security');
    await page.getByRole('tab', { name: 'Billing' }).click();
    await page.getByRole('progressbar', { name: 'Agent calls' }).waitFor();
    await shoot('settings-billing');
  });

  it('finds the catalog entry in the marketplace, connects it, and it goes online on /servers', async () => {
    await page.goto(`${app.baseUrl}/marketplace`);
    await page.getByText('2 of 2 servers').waitFor();
    await shoot('marketplace');
    await page.getByLabel('Search the marketplace').fill('reference local');
    await page.getByText('1 of 2 servers').waitFor();
    await page.getByRole('link', { name: /Local Everything/ }).click();
    await page.waitForURL(/\/marketplace\/io-example-local-everything$/);
    await page.getByRole('heading', { name: 'Local Everything', level: 1 }).waitFor();
    await shoot('marketplace-detail');
    await page.getByRole('form', { name: 'Connect Local Everything' }).getByRole('button', { name: 'Connect' }).click();
    await page.waitForURL(/\/servers$/);
    const card = page.getByRole('article', { name: 'Local Everything' });
    await card.waitFor();
    await card.getByTestId('server-status').filter({ hasText: 'Online' }).waitFor({ timeout: 30_000 });
    expect(await card.getByTestId('proxy-url').innerText()).toMatch(/\/mcp\//);
  });

  it('shows an unknown marketplace slug as not found, and the workspace settings', async () => {
    await page.goto(`${app.baseUrl}/marketplace/no-such-server`);
    await page.getByText('Not in the marketplace').waitFor();
    await page.getByRole('button', { name: 'Account menu' }).waitFor();
    const workspaceId = await page.evaluate(() => localStorage.getItem('toolscope.current_workspace_id'));
    await page.goto(`${app.baseUrl}/workspace/${workspaceId}/settings`);
    await page.getByRole('form', { name: 'Workspace details' }).waitFor();
    await shoot('workspace-settings-general');
    await page.getByRole('tab', { name: 'Members' }).click();
    await page.getByRole('row', { name: 'Grace Hopper' }).waitFor();
    await shoot('workspace-settings-members');
    expect(problems).toEqual([]);
  });
});
