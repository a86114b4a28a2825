import fs from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { startBuiltApp, type BuiltApp } from './helpers/builtApp';
import { launchChromium, type RunningBrowser } from './helpers/chromium';
import { closeBrowserAndApp, describeWhenChromium, recordPageProblems, signUpInBrowser } from './helpers/journey';
import { screenshotIfAsked } from './helpers/screenshots';

// Issue 33's screens in Chromium against the built app: Workspace Settings → Data shows how long
// data is kept and keeps raw data shorter; an export downloads whole JSON Lines; Profile → Delete
// account takes the account and signs out.
const describeInBrowser = describeWhenChromium();

jest.setTimeout(240_000);

describeInBrowser('data lifecycle journey', () => {
  let app: BuiltApp;
  let chromium: RunningBrowser;
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];
  const password = 'analytical-engine-1843';

  beforeAll(async () => {
    app = await startBuiltApp();
    chromium = await launchChromium();
    context = await chromium.browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true });
    page = await context.newPage();
    recordPageProblems(page, problems);
  });
  afterAll(() => closeBrowserAndApp(context, chromium, app));

  it('shows retention, keeps raw data shorter, exports JSON Lines, then deletes the account', async () => {
    const workspaceId = await signUpInBrowser(page, app.baseUrl, {
      firstName: 'Ada',
      lastName: 'Lovelace',
      emailName: 'ada',
      password,
    });

    await page.goto(`${app.baseUrl}/workspace/${workspaceId}/settings?tab=data`);
    await page.getByRole('heading', { name: 'Data retention' }).waitFor();
    await page.getByText('Sessions, messages, tool calls and payloads').waitFor();
    await page.getByText('Your plan keeps raw data 7 days', { exact: false }).waitFor();
    await page.getByRole('combobox', { name: 'Keep raw data' }).click();
    await page.getByRole('option', { name: '3 days' }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Raw data is kept 3 days.').first().waitFor();

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export JSON Lines' }).click();
    const file = await (await download).path();
    const lines = fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { type: string; event?: { action: string } });
    expect(lines[0]).toMatchObject({ type: 'export', workspaceId, sessions: 0 });
    expect(lines.at(-1)).toMatchObject({ type: 'end', sessions: 0 });
    expect(lines.some((l) => l.type === 'audit' && l.event?.action === 'data.exported')).toBe(true);
    await page.getByText('Export saved').first().waitFor();
    await screenshotIfAsked(page, 'workspace-data');

    await page.goto(`${app.baseUrl}/settings?tab=profile`);
    await page.getByRole('button', { name: 'Delete account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
    await dialog.getByLabel('Your password').fill(password);
    await dialog.getByRole('button', { name: 'Delete account' }).click();
    await page.waitForURL(/\/login/);
    const me = await page.evaluate(async () => (await fetch('/api/v1/users/me')).status);
    expect(me).toBe(401);
    expect(problems).toEqual([]);
  });
});
