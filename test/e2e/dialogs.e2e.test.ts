import type { BrowserContext, Page } from 'playwright-core';
import { signUp } from './helpers/appApi';
import { startBuiltApp, type BuiltApp } from './helpers/builtApp';
import { launchChromium, type RunningBrowser } from './helpers/chromium';
import { closeBrowserAndApp, describeWhenChromium, recordPageProblems, signedInContext } from './helpers/journey';
import { screenshotIfAsked } from './helpers/screenshots';

// Issue 8's journey in Debian's Chromium against the built app: a Starter account meets the
// workspace limit, follows 'Upgrade to Create' to the plans, and walks the upgrade dialog.
const describeInBrowser = describeWhenChromium();

// Starting the built app and Chromium on a busy machine takes longer than Jest's default 5 s.
jest.setTimeout(240_000);

describeInBrowser('dialogs journey', () => {
  let app: BuiltApp;
  let chromium: RunningBrowser;
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    app = await startBuiltApp();
    // A fresh account is on Starter and already owns its personal workspace: the limit is reached.
    const account = await signUp(app.baseUrl, {
      firstName: 'Katherine',
      lastName: 'Johnson',
      emailName: 'katherine',
      password: 'trajectory-1962',
    });
    chromium = await launchChromium();
    context = await signedInContext(chromium, account, { viewport: { width: 1366, height: 900 } });
    page = await context.newPage();
    recordPageProblems(page, problems, { consoleErrors: true });
  });

  afterAll(async () => {
    await closeBrowserAndApp(context, chromium, app);
  });

  const shoot = async (name: string) => {
    await screenshotIfAsked(page, name);
  };

  it("opens Create Workspace from the workspace menu and meets the limit: 'Upgrade to Create'", async () => {
    await page.goto(`${app.baseUrl}/dashboard`);
    // A newcomer has no servers, so onboarding greets them first; they skip it for now.
    const onboarding = page.getByRole('dialog').filter({ hasText: 'Welcome to Toolscope' });
    await onboarding.getByRole('button', { name: 'Skip setup' }).click();
    await onboarding.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Workspace menu' }).click();
    await page.getByRole('menuitem', { name: 'Create Workspace' }).click();

    const dialog = page.getByRole('dialog', { name: 'Create Workspace' });
    await dialog.getByRole('button', { name: 'Upgrade to Create' }).waitFor();
    expect(await dialog.getByRole('alert').innerText()).toBe(
      'Your Starter plan allows 1 workspace. Upgrade to create more.',
    );
    expect(await dialog.getByRole('textbox', { name: 'Name' }).isDisabled()).toBe(true);
    await shoot('create-workspace-limit');
  });

  it('follows it to the upgrade dialog, where the current plan is Starter', async () => {
    await page.getByRole('button', { name: 'Upgrade to Create' }).click();
    const dialog = page.getByRole('dialog', { name: 'Upgrade your plan' });
    await dialog.getByRole('button', { name: 'Upgrade to Pro' }).waitFor();
    expect(await page.getByRole('dialog', { name: 'Create Workspace' }).count()).toBe(0);

    const current = dialog.getByRole('button', { name: 'Current Plan' });
    expect(await current.isDisabled()).toBe(true);
    expect(await dialog.getByRole('region', { name: 'Starter' }).getByRole('button').innerText()).toBe('Current Plan');
    expect(await dialog.getByRole('button', { name: 'Upgrade to Enterprise' }).isEnabled()).toBe(true);
  });

  it("toggles annual billing and sees 'Save 17%' and the yearly prices", async () => {
    const dialog = page.getByRole('dialog', { name: 'Upgrade your plan' });
    const annual = dialog.getByRole('button', { name: /Annual/ });
    expect(await annual.getByText('Save 17%').isVisible()).toBe(true);
    await annual.click();
    expect(await annual.getAttribute('aria-pressed')).toBe('true');
    const pro = dialog.getByRole('region', { name: 'Pro' });
    await pro.getByText('$290').waitFor();
    expect(await pro.getByText('Save $4.83/month').isVisible()).toBe(true);
    await shoot('upgrade-plans-annual');
  });

  it('chooses Pro, reaches the payment summary, and goes back', async () => {
    const dialog = page.getByRole('dialog', { name: 'Upgrade your plan' });
    await dialog.getByRole('button', { name: 'Upgrade to Pro' }).click();
    await dialog.getByRole('heading', { name: 'Payment summary' }).waitFor();
    expect(await dialog.getByText('Billed annually').isVisible()).toBe(true);
    expect(await dialog.getByText('$290/year').isVisible()).toBe(true);
    await shoot('upgrade-payment-summary');

    await dialog.getByRole('button', { name: 'Back' }).click();
    await dialog.getByRole('button', { name: 'Upgrade to Pro' }).waitFor();
    expect(await dialog.getByRole('button', { name: /Annual/ }).getAttribute('aria-pressed')).toBe('true');
  });

  it("pays through the stub: an alert instead of the provider's page, then 'Payment Successful!'", async () => {
    const dialog = page.getByRole('dialog', { name: 'Upgrade your plan' });
    await dialog.getByRole('button', { name: 'Upgrade to Enterprise' }).click();
    const alertShown = new Promise<string>((resolve) => {
      page.once('dialog', (browserDialog) => {
        resolve(browserDialog.message());
        void browserDialog.accept();
      });
    });
    await dialog.getByRole('button', { name: 'Pay $990' }).click();
    await dialog.getByRole('button', { name: 'Processing' }).waitFor();

    expect(await alertShown).toContain('cs_simulated_enterprise_annually');
    await page.getByText('Payment Successful!').waitFor();
    await page.getByRole('dialog', { name: 'Upgrade your plan' }).waitFor({ state: 'detached' });
    expect(problems).toEqual([]);
  });
});
