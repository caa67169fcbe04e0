import { MENU_GRANTS, type MenuKey } from '@loggerhead/contract/menus.ts';
import type { Page } from '@playwright/test';
import { CONTAINER_PAGE_ACCESS, type PageAccess } from '../../apps/web/src/app/page-access.ts';
import { seedSubUser } from '../support/accounts.ts';
import { expect, loginThroughForm, routePage, test } from '../support/test.ts';

/**
 * Every page of the console, opened by typing its address, taken from the table the router takes
 * each page's guard from (a new page is walked here without touching this test): a user gets a page
 * only through the menu entry or the key that gives it, or when it is their own account's.
 */
const ROUTES = Object.entries(CONTAINER_PAGE_ACCESS) as [string, PageAccess][];

/** Whether a sub-user bound to the menu entries `menus` (and so holding their keys) gets the page. */
function givenTo(menus: MenuKey[], access: PageAccess): boolean {
  if ('open' in access) return true;
  if ('permission' in access) return menus.some((m) => (MENU_GRANTS[m] ?? []).includes(access.permission));
  return menus.includes(access.menu) && !access.systemManagerOnly;
}

/** Opens `path` by its address and says whether the console answered with its 403 page. */
async function opensAs(page: Page, path: string): Promise<'page' | '403'> {
  await page.goto(path);
  const box = routePage(page, path);
  await expect(box).toBeVisible();
  const forbidden = box.getByTestId('forbidden');
  // The 403 page comes once the user's menus are known; a page that is given shows its own content.
  await expect(async () => {
    const closed = await forbidden.isVisible();
    const content = await box.locator(':scope > *:not(.ant-spin)').count();
    expect(closed || content > 0).toBe(true);
  }).toPass({ timeout: 20_000 });
  return (await forbidden.isVisible()) ? '403' : 'page';
}

test.describe('pages follow the menus', () => {
  test('a sub-user with one menu entry gets the 403 page on every page of the others', async ({ page, adminApi }) => {
    test.setTimeout(300_000);
    const driver = await seedSubUser(adminApi, ['car'], 'onemenu');
    await loginThroughForm(page, driver);

    // The table holds every kind of guard the test walks.
    expect(ROUTES.filter(([, a]) => 'permission' in a).length).toBeGreaterThan(0);
    for (const [route, access] of ROUTES) {
      const path = `/Container/${route}`;
      const given = givenTo(['car'], access);
      expect(await opensAs(page, path), path).toBe(given ? 'page' : '403');
      if (!given) {
        // Not a page with working buttons: only the 403 result, no button of the page.
        await expect(routePage(page, path).getByTestId('forbidden')).toContainText('无权访问');
        await expect(routePage(page, path).getByRole('button')).toHaveCount(0);
      }
    }
    // The menu shows only what the pages allow.
    await expect(page.getByTestId('top-menu').getByText('车辆管理', { exact: true })).toBeVisible();
    await expect(page.getByTestId('top-menu').getByText('DBC 管理', { exact: true })).toHaveCount(0);
  });

  test('the system manager opens every page', async ({ page, admin }) => {
    test.setTimeout(300_000);
    await loginThroughForm(page, admin);
    for (const [route] of ROUTES) {
      const path = `/Container/${route}`;
      expect(await opensAs(page, path), path).toBe('page');
    }
  });
});
