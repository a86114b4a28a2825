import type { BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import type { AppAccount } from './appApi';
import type { BuiltApp } from './builtApp';
import { chromiumAvailability, type RunningBrowser } from './chromium';

/**
 * `describe` when Chromium is installed; otherwise `describe.skip`, after saying why (in CI a
 * missing Chromium fails the suite instead: see chromiumAvailability).
 */
export function describeWhenChromium(): jest.Describe {
  const availability = chromiumAvailability();
  if (!availability.available) console.warn(`Browser journeys not run: ${availability.reason}`);
  return availability.available ? describe : describe.skip;
}

/**
 * Adds to `problems` every uncaught error of the page and, with `consoleErrors`, every
 * console.error it logs; a journey ends by expecting the list to be empty.
 */
export function recordPageProblems(page: Page, problems: string[], { consoleErrors = false } = {}): void {
  if (consoleErrors) {
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console error on ${page.url()}: ${message.text()}`);
    });
  }
  page.on('pageerror', (error) => problems.push(`uncaught error on ${page.url()}: ${error.message}`));
}

/**
 * A browser context whose pages start signed in as `account`, in its workspace: the tokens are
 * where the app keeps them, before any of its scripts runs.
 */
export async function signedInContext(
  chromium: RunningBrowser,
  account: AppAccount,
  options: BrowserContextOptions,
): Promise<BrowserContext> {
  const context = await chromium.browser.newContext(options);
  await context.addInitScript(
    ({ accessToken, refreshToken, workspaceId }) => {
      localStorage.setItem('access_token', accessToken);
      localStorage.setItem('refresh_token', refreshToken);
      localStorage.setItem('toolscope.current_workspace_id', workspaceId);
    },
    { accessToken: account.accessToken, refreshToken: account.refreshToken, workspaceId: account.workspaceId },
  );
  return context;
}

/** Closes what a journey's beforeAll opened, as far as it got: the browser, then the app. */
export async function closeBrowserAndApp(
  context: BrowserContext | undefined,
  chromium: RunningBrowser | undefined,
  app: BuiltApp | undefined,
): Promise<void> {
  await context?.close().catch(() => undefined);
  await chromium?.stop();
  await app?.stop();
}

/**
 * Signs a new person up through the register form, skips the onboarding dialog, and returns the
 * id of their personal workspace (read with the page's own token).
 */
export async function signUpInBrowser(
  page: Page,
  baseUrl: string,
  person: { firstName: string; lastName: string; emailName: string; password: string },
): Promise<string> {
  await page.goto(`${baseUrl}/register`);
  await page.getByLabel('First name').fill(person.firstName);
  await page.getByLabel('Last name').fill(person.lastName);
  await page.getByLabel('Email').fill(`${person.emailName}+${Date.now()}@example.com`);
  await page.getByLabel('Password', { exact: false }).first().fill(person.password);
  await page.getByLabel('Confirm password').fill(person.password);
  await page.getByRole('button', { name: 'Create account' }).click();
  const onboarding = page.getByRole('dialog').filter({ hasText: 'Welcome to Toolscope' });
  await onboarding.getByRole('button', { name: 'Skip setup' }).click();
  await onboarding.waitFor({ state: 'detached' });
  return page.evaluate(async () => {
    const res = await fetch('/api/v1/workspaces', {
      headers: { authorization: `Bearer ${localStorage.getItem('access_token')}` },
    });
    return ((await res.json()) as { workspaces: { id: string }[] }).workspaces[0].id;
  });
}
