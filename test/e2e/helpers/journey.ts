import type { BrowserContext, Page } from 'playwright-core';
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

/** Closes what a journey's beforeAll opened, as far as it got: the browser, then the app. */
export async function closeBrowserAndApp(context: BrowserContext | undefined, chromium: RunningBrowser | undefined, app: BuiltApp | undefined): Promise<void> {
  await context?.close().catch(() => undefined);
  await chromium?.stop();
  await app?.stop();
}
