import type { BrowserContext, Page } from 'playwright-core';
import { startBuiltApp, type BuiltApp } from './helpers/builtApp';
import { launchChromium, type RunningBrowser } from './helpers/chromium';
import { closeBrowserAndApp, describeWhenChromium, recordPageProblems, signUpInBrowser } from './helpers/journey';
import { screenshotIfAsked } from './helpers/screenshots';

// Issue 35's screen in Chromium against the built app: Workspace Settings → Redaction. An owner
// adds a custom pattern and a JSON path, tests a sample with them before saving (the placeholders
// are marked), saves, and a pattern RE2 refuses is answered with the server's reason.
const describeInBrowser = describeWhenChromium();

jest.setTimeout(240_000);

describeInBrowser('redaction settings journey', () => {
  let app: BuiltApp;
  let chromium: RunningBrowser;
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    app = await startBuiltApp();
    chromium = await launchChromium();
    context = await chromium.browser.newContext({ viewport: { width: 1440, height: 900 } });
    page = await context.newPage();
    recordPageProblems(page, problems);
  });
  afterAll(() => closeBrowserAndApp(context, chromium, app));

  it('adds a custom pattern and a path, tests a sample, saves; a backtracking pattern is refused', async () => {
    const workspaceId = await signUpInBrowser(page, app.baseUrl, {
      firstName: 'Ada',
      lastName: 'Lovelace',
      emailName: 'ada',
      password: 'analytical-engine-1843',
    });

    await page.goto(`${app.baseUrl}/workspace/${workspaceId}/settings?tab=redaction`);
    await page.getByRole('heading', { name: 'Redaction before storage' }).waitFor();
    // Secrets are on by default, personal data off.
    expect(await page.getByRole('switch', { name: 'GitHub personal access token' }).isChecked()).toBe(true);
    expect(await page.getByRole('switch', { name: 'E-mail address' }).isChecked()).toBe(false);

    await page.getByRole('button', { name: 'Add pattern' }).click();
    await page.getByRole('textbox', { name: 'Rule name' }).fill('internal-id');
    await page.getByRole('textbox', { name: 'Pattern' }).fill('acct-(\\d{6})');
    await page.getByRole('button', { name: 'Add path' }).click();
    await page.getByRole('textbox', { name: 'JSON path' }).fill('arguments.note');

    await page
      .getByRole('textbox', { name: 'Sample' })
      .fill(JSON.stringify({ customer: 'acct-123456', note: 'call me back', mail: 'ada@example.com' }));
    await page.getByRole('button', { name: 'Test sample' }).click();
    const stored = page.getByRole('region', { name: 'What would be stored' });
    await stored.getByText('internal-id × 1').waitFor();
    const marks = stored.locator('mark[data-redacted="true"]');
    await marks.first().waitFor();
    expect(await marks.allTextContents()).toEqual(['[REDACTED:internal-id]', '[REDACTED:path]']);
    expect(await stored.textContent()).toContain('ada@example.com');
    await screenshotIfAsked(page, 'redaction-settings');

    await page.getByRole('button', { name: 'Save redaction rules' }).click();
    await page.getByText('Redaction rules saved').first().waitFor();
    const saved = await page.evaluate(async (ws) => {
      const res = await fetch(`/api/v1/workspaces/${ws}/redaction`, {
        headers: { authorization: `Bearer ${localStorage.getItem('access_token')}` },
      });
      return (await res.json()) as { customPatterns: { id: string }[]; paths: { path: string }[] };
    }, workspaceId);
    expect(saved.customPatterns.map((p) => p.id)).toEqual(['internal-id']);
    expect(saved.paths.map((p) => p.path)).toEqual(['arguments.note']);

    await page.getByRole('textbox', { name: 'Pattern' }).fill('(a)\\1');
    await page.getByRole('button', { name: 'Save redaction rules' }).click();
    await page.getByText(/Pattern internal-id is refused: .*no backreferences or lookaround/).waitFor();
    expect(problems).toEqual([]);
  });
});
