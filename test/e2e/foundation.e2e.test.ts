import type { BrowserContext, Page } from 'playwright-core';
import { startBuiltApp, type BuiltApp } from './helpers/builtApp';
import { launchChromium, type RunningBrowser } from './helpers/chromium';
import { closeBrowserAndApp, describeWhenChromium, recordPageProblems } from './helpers/journey';
import { stopEverythingStarted } from './helpers/processRegistry';

// Starting PGlite and Chromium on a shared machine takes a while; each step waits for real UI.
jest.setTimeout(240_000);

// Issue 3's journey, in Debian's Chromium against the built app started as `npm start` runs it.
const describeInBrowser = describeWhenChromium();

// Every flag that adds a sidebar entry is on, so the walk covers all of them (and proves that
// TOOLSCOPE_FLAGS reaches the SPA without a rebuild).
const FLAGS = 'show_cost_analytics=true,show_cost_attribution=true,show_schema_studio=true,show_upgrade_pro=true';

describeInBrowser('foundation journey', () => {
  let app: BuiltApp;
  let chromium: RunningBrowser;
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    app = await startBuiltApp({ TOOLSCOPE_FLAGS: FLAGS });
    chromium = await launchChromium();
    context = await chromium.browser.newContext({ viewport: { width: 1366, height: 900 } });
    page = await context.newPage();
    recordPageProblems(page, problems, { consoleErrors: true });
  });

  afterAll(async () => {
    await closeBrowserAndApp(context, chromium, app);
    // Whatever a timed-out hook left running.
    await stopEverythingStarted();
  });

  const path = () => new URL(page.url()).pathname;

  it('sends a signed-out visitor from /servers to /login', async () => {
    await page.goto(`${app.baseUrl}/servers`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(path()).toBe('/login');
  });

  it('registers from there and lands back on /servers, signed in', async () => {
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();
    expect(path()).toBe('/register');
    await page.getByLabel('First name').fill('Grace');
    await page.getByLabel('Last name').fill('Hopper');
    await page.getByLabel('Email').fill(`grace+${Date.now()}@example.com`);
    await page.getByLabel('Password', { exact: false }).first().fill('compiler-1952');
    await page.getByLabel('Confirm password').fill('compiler-1952');
    await page.getByRole('button', { name: 'Create account' }).click();

    await page.waitForURL((url) => url.pathname === '/servers');
    // A newcomer has no servers yet, so the onboarding dialog greets them; they skip it for now.
    const onboarding = page.getByRole('dialog');
    await onboarding.getByText('Welcome to Toolscope').waitFor();
    await onboarding.getByRole('button', { name: 'Skip setup' }).click();
    await onboarding.waitFor({ state: 'detached' });
    await page.getByRole('main').getByRole('heading', { name: 'Tool Servers', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Account menu' }).waitFor();
    expect(await page.getByText('Dashboard', { exact: true }).first().isVisible()).toBe(true);
  });

  it('opens every sidebar route without an error', async () => {
    const sidebar = page.getByRole('navigation', { name: 'Main' });
    const links = sidebar.getByRole('link');
    const names = await links.allInnerTexts();
    expect(names.map((name) => name.trim())).toEqual([
      'Overview',
      'Tool Servers',
      'Marketplace',
      'Sessions',
      'Activity Stream',
      'Tool Reasoning',
      'Analytics',
      'Alert Rules',
      'Cost Analytics',
      'Cost Attribution',
      'Performance',
      'Schema Studio',
      'Integrations',
      'Workspace Settings',
    ]);
    for (const name of names.map((n) => n.trim())) {
      await sidebar.getByRole('link', { name, exact: true }).click();
      await page.getByRole('main').getByRole('heading', { level: 1 }).first().waitFor();
      expect({ name, errorBoundary: await page.getByTestId('error-boundary').count() }).toEqual({
        name,
        errorBoundary: 0,
      });
    }
    expect(problems).toEqual([]);
  });

  it('moves the focus to the toast area with F8', async () => {
    await page.keyboard.press('F8');
    const focused = await page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
    expect(focused).toBe('Notifications (F8)');
  });

  it('shows the not-found page at /nope', async () => {
    await page.goto(`${app.baseUrl}/nope`);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    expect(path()).toBe('/nope');
  });

  it('collapses the sidebar to icons, and turns it into a drawer on a small screen', async () => {
    await page.goto(`${app.baseUrl}/dashboard`);
    const sidebar = page.getByRole('navigation', { name: 'Main' });
    await page.getByRole('button', { name: 'Collapse sidebar' }).click();
    await sidebar.getByRole('link', { name: 'Sessions' }).waitFor();
    expect(await sidebar.getByText('Connections').count()).toBe(0);
    await page.getByRole('button', { name: 'Expand sidebar' }).click();
    await sidebar.getByText('Connections').waitFor();

    await page.setViewportSize({ width: 390, height: 844 });
    await sidebar.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Open navigation' }).click();
    await sidebar.getByRole('link', { name: 'Sessions' }).click();
    await page.waitForURL((url) => url.pathname === '/sessions');
    await sidebar.waitFor({ state: 'hidden' });
    await page.setViewportSize({ width: 1366, height: 900 });
    expect(problems).toEqual([]);
  });

  it('signs out from the avatar menu', async () => {
    await page.goto(`${app.baseUrl}/dashboard`);
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    const tokens = await page.evaluate(() => [
      localStorage.getItem('access_token'),
      localStorage.getItem('refresh_token'),
    ]);
    expect(tokens).toEqual([null, null]);
    // Signed out for real: a protected page sends us back to sign in.
    await page.goto(`${app.baseUrl}/sessions`);
    await page.waitForURL((url) => url.pathname === '/login');
    expect(problems).toEqual([]);
  });
});
