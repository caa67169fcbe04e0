import type { Page } from '@playwright/test';
import { seedDevice } from '../support/devices.ts';
import { expect, loginThroughForm, routePage, test } from '../support/test.ts';

/**
 * Spec §2's button directive: a button that calls a route shows only when the user holds the
 * route's permission key. A sub-user bound to every menu it may have holds only the keys those menus
 * give (reading), yet has write access to a device: every page and every tab of that device must
 * show no button that changes something. The tenant manager, on the same pages, sees them.
 */

/** Words of the console's (zh) buttons that add, change, delete, send or start something. */
const CHANGING =
  /添加|新增|新建|创建|编辑|删除|导入|导出|上传|替换|绑定|解绑|发送|写入|从设备读取|升级|回传|重新生成|处理|开始|暂停|启动|停止|标签/;

const MENUS = [
  'home',
  'dashboard',
  'car',
  'dbc',
  'test',
  'ecu',
  'fence',
  'workorder',
  'device-type',
  'label',
  'group',
  'fault-code',
  'oplog',
];

const PAGES = [
  'HomePage',
  'Dashboard',
  'CarManager',
  'DBCManager',
  'DBCImportPage',
  'TestManager',
  'ECUManager',
  'BreakdownCodeManager',
  'EFenceManager',
  'WorkOrderList',
  'DeviceTypeList',
  'LabelManager',
  'GroupManager',
  'UserManager/Log',
];

const DEVICE_TABS = ['management', 'data', 'dbc', 'trigger', 'uds', 'ecu', 'gps'];

/** The names of the visible, enabled buttons of the page at `path` once its content has come. */
async function buttonsOf(page: Page, path: string, url = path): Promise<string[]> {
  await page.goto(url);
  const box = routePage(page, path);
  await expect(box).toBeVisible();
  await expect(box.locator('.ant-spin-spinning')).toHaveCount(0, { timeout: 20_000 });
  // Lists and tabs read their data after the frame: wait until the page's requests are answered.
  await page.waitForLoadState('networkidle');
  const names: string[] = [];
  for (const b of await box.getByRole('button').all()) {
    if (!(await b.isVisible()) || !(await b.isEnabled())) continue;
    names.push(((await b.getAttribute('aria-label')) ?? (await b.innerText())).trim());
  }
  return names;
}

test.describe('buttons follow the permission keys', () => {
  test('a sub-user with reading keys sees no changing button on any page, while the manager does', async ({ page, admin, adminApi }) => {
    test.setTimeout(400_000);
    const self = await adminApi.get<{ tenant_id: string }>('/tenant/users/self');
    const tenant = await adminApi.get<{ name: string }>('/tenant/users/self/tenant');
    const device = await seedDevice(adminApi, self.tenant_id, `keys-${Date.now()}`);
    await adminApi.post(`/things/tenants/${self.tenant_id}/vehicles`, { name: `keys-car-${Date.now()}`, channels: [] });
    const username = `reader_${Date.now().toString(36)}`;
    const password = 'Reader-1234abcd';
    await adminApi.post(`/tenant/tenants/${self.tenant_id}/users`, {
      username,
      password,
      mobile: `138${String(Date.now()).slice(-8)}`,
      menus: MENUS,
      devices: [{ things_id: device.id, access: 'write' }],
    });

    const visits: [path: string, url: string][] = [
      ...PAGES.map((p): [string, string] => [`/Container/${p}`, `/Container/${p}`]),
      ...DEVICE_TABS.map((tab): [string, string] => [
        '/Container/HomePage/DeviceDetails',
        `/Container/HomePage/DeviceDetails?id=${device.id}&tab=${tab}`,
      ]),
    ];

    await loginThroughForm(page, { username: `${username}@${tenant.name}`, password });
    const seen: string[] = [];
    for (const [path, url] of visits) {
      const names = await buttonsOf(page, path, url);
      seen.push(...names);
      expect(
        names.filter((n) => CHANGING.test(n)),
        url,
      ).toEqual([]);
    }
    // The pages did open with their own buttons (queries, details, refreshing), not empty.
    expect(seen.length).toBeGreaterThan(10);

    // The same pages as the tenant manager: the changing buttons are there, so the words above are the right ones.
    await page.context().clearCookies();
    await page.evaluate(() => localStorage.clear());
    await loginThroughForm(page, admin);
    const managerSees: string[] = [];
    for (const [path, url] of visits) managerSees.push(...(await buttonsOf(page, path, url)).filter((n) => CHANGING.test(n)));
    expect(managerSees.length).toBeGreaterThan(20);
  });
});
