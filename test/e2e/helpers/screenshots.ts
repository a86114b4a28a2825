import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';

// Journeys take screenshots only when asked, so `npm test` never rewrites tracked files:
// `TOOLSCOPE_E2E_SCREENSHOTS=docs/screenshots npm test` refreshes the ones in docs/.
const dir = process.env.TOOLSCOPE_E2E_SCREENSHOTS ? path.resolve(process.env.TOOLSCOPE_E2E_SCREENSHOTS) : undefined;

export async function screenshotIfAsked(page: Page, name: string): Promise<void> {
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`) });
}
