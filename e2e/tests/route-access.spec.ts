import type { Page } from '@playwright/test';
import { seedSubUser } from '../support/accounts.ts';
import { expect, loginThroughForm, routePage, test } from '../support/test.ts';

/**
 * Every page of the console (spec §2's routes), opened by typing its address: a user gets a page
 * only through the menu entry that leads to it. Each route with the menu entry it belongs to
 * (null: the user centre and the user's own HMI screens, which every signed-in user has).
 */
const ROUTES: [path: string, menu: string | null][] = [
  ['HomePage', 'home'],
  ['HomePage/DeviceDetails', 'home'],
  ['EditTriggerRule', 'home'],
  ['Dashboard', 'dashboard'],
  ['CarManager', 'car'],
  ['CarManager/CarDetails', 'car'],
  ['DBCManager', 'dbc'],
  ['DBCImportPage', 'dbc'],
  ['TestManager', 'test'],
  ['ECUManager', 'ecu'],
  ['BreakdownCodeManager', 'fault-code'],
  ['EFenceManager', 'fence'],
  ['EFenceManager/EFenceEditor', 'fence'],
  ['WorkOrderList', 'workorder'],
  ['HandleWorkOrder', 'workorder'],
  ['WorkOrderDetail', 'workorder'],
  ['DeviceTypeList', 'device-type'],
  ['DeviceTypeDetails', 'device-type'],
  ['LabelManager', 'label'],
  ['GroupManager', 'group'],
  ['ForwardManager', 'forward'],
  ['StatisticsManager', 'statistics'],
  ['DataUsage', 'data-usage'],
  ['PluginManager', 'plugin'],
  ['JobManager', 'job'],
  ['ApiKeyManager', 'api-key'],
  ['ProjectManager', 'project'],
  ['HmiManager', 'hmi'],
  ['HmiManager/HmiEditor', 'hmi'],
  ['MyHmi', null],
  ['UserManager/SubuserManagement', 'subuser'],
  ['UserManager/Log', 'oplog'],
  ['UserManager/SystemConfig', 'system-config'],
  ['SystemManager/SystemSetting', 'system-setting'],
  ['UserManager/UserCenter', null],
];

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

    for (const [route, menu] of ROUTES) {
      const path = `/Container/${route}`;
      const given = menu === null || menu === 'car';
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
