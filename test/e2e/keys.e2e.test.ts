import type { BrowserContext, Page } from 'playwright-core';
import { startBuiltApp, type BuiltApp } from './helpers/builtApp';
import { launchChromium, type RunningBrowser } from './helpers/chromium';
import { closeBrowserAndApp, describeWhenChromium, recordPageProblems, signUpInBrowser } from './helpers/journey';
import { screenshotIfAsked } from './helpers/screenshots';

// Issue 17's journey in Chromium against the built app: Workspace Settings → Security, create a
// platform key, copy it the one time it is shown, see it is never shown again, revoke it with a reason.
const describeInBrowser = describeWhenChromium();

jest.setTimeout(180_000);

describeInBrowser('platform keys journey', () => {
  let app: BuiltApp;
  let chromium: RunningBrowser;
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    app = await startBuiltApp({ TOOLSCOPE_FLAGS: 'show_workspace_security=true' });
    chromium = await launchChromium();
    context = await chromium.browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.baseUrl });
    page = await context.newPage();
    recordPageProblems(page, problems);
  });
  afterAll(() => closeBrowserAndApp(context, chromium, app));

  it('creates a key, copies it once, never shows it again, and revokes it with a reason', async () => {
    const workspaceId = await signUpInBrowser(page, app.baseUrl, {
      firstName: 'Radia',
      lastName: 'Perlman',
      emailName: 'radia',
      password: 'spanning-tree-1985',
    });
    await page.goto(`${app.baseUrl}/workspace/${workspaceId}/settings`);
    await page.getByRole('tab', { name: 'Security' }).click();
    await page.getByRole('heading', { name: 'Platform keys' }).waitFor();

    await page.getByRole('button', { name: 'Create key' }).click();
    const form = page.getByRole('dialog', { name: 'Create platform key' });
    await form.getByLabel('Name').fill('Research agent');
    await form.getByRole('button', { name: 'Create key' }).click();

    const reveal = page.getByRole('dialog', { name: 'Copy the key for Research agent' });
    const secret = (await reveal.getByLabel('New platform key').innerText()).trim();
    expect(secret).toMatch(/^tsk_[0-9A-Za-z]{36}$/);
    await screenshotIfAsked(page, 'workspace-security-key-created');
    await reveal.getByRole('button', { name: 'Copy platform key' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await reveal.getByRole('button', { name: 'I have copied it' }).click();
    await reveal.waitFor({ state: 'detached' });

    const row = page.getByRole('row', { name: 'Platform key Research agent' });
    await row.waitFor();
    expect(await row.innerText()).toContain(`${secret.slice(0, 12)}…`);
    expect(await page.content()).not.toContain(secret);
    await page.reload();
    await page.getByRole('tab', { name: 'Security' }).click();
    await row.waitFor();
    expect(await page.content()).not.toContain(secret);

    await row.getByRole('button', { name: 'Revoke' }).click();
    const revoke = page.getByRole('dialog', { name: 'Revoke Research agent?' });
    await revoke.getByLabel('Reason').fill('Leaked in CI logs');
    await revoke.getByRole('button', { name: 'Revoke key' }).click();
    await revoke.waitFor({ state: 'detached' });
    await row.getByText('revoked', { exact: true }).waitFor();
    await row.getByText('Leaked in CI logs').waitFor();
    await screenshotIfAsked(page, 'workspace-security-key-revoked');

    // The proxy refuses the revoked key (a made-up proxy URL would be 404 either way: a real one).
    const status = await page.evaluate(
      async ({ ws, key }) => {
        const headers = {
          authorization: `Bearer ${localStorage.getItem('access_token')}`,
          'content-type': 'application/json',
        };
        const server = await (
          await fetch(`/api/v1/workspaces/${ws}/servers`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ url: 'http://127.0.0.1:9/mcp', name: 'nowhere' }),
          })
        ).json();
        const res = await fetch(new URL(server.proxyUrl).pathname, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${key}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
        });
        return res.status;
      },
      { ws: workspaceId, key: secret },
    );
    expect(status).toBe(401);
    expect(problems).toEqual([]);
  });
});
