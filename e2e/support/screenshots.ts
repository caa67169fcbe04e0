import path from 'node:path';
import type { Page } from '@playwright/test';

/**
 * A picture-taker for the steps of a test: with `SCREENSHOTS` set, `shot(page, name)` lets dialogs
 * and messages finish their animation and saves `e2e/artifacts/<dir>/<prefix><name>.png`; without
 * it, it does nothing. `const shot = screenshots('screens', 'alarms-');`
 */
export function screenshots(dir: string, prefix = '', opts: { fullPage?: boolean } = {}) {
  const base = path.resolve(import.meta.dirname, '../artifacts', dir);
  return async (page: Page, name: string): Promise<void> => {
    if (!process.env.SCREENSHOTS) return;
    await page.waitForTimeout(400);
    await page.screenshot({ path: path.join(base, `${prefix}${name}.png`), fullPage: opts.fullPage ?? true });
  };
}
