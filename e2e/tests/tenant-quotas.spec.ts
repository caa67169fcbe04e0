import { randomBytes } from 'node:crypto';
import { Api } from '../support/api.ts';
import { seedDevice } from '../support/devices.ts';
import { registerTenant } from '../support/fixtures.ts';
import { button, dialogOpened, expect, loginThroughForm, signIn, test } from '../support/test.ts';

/**
 * The system manager opens a tenant from the tenant list, sees its device count beside the device
 * quota, lowers the quota to what the tenant has, and the tenant's next device is refused.
 */
test('a system manager sets a tenant’s device quota and the tenant then hits it', async ({ page, browser, admin, adminApi }) => {
  test.setTimeout(180_000);
  const tenant = await registerTenant(adminApi, 'quota');
  const tenantApi = new Api(adminApi.baseURL);
  await tenantApi.login(tenant);
  await seedDevice(tenantApi, tenant.tenantId, 'First truck');

  await signIn(page, admin, '/Container/SystemManager/SystemSetting?tab=tenants');
  const filter = page.locator('form#tenant-filter');
  await filter.getByLabel('租户名称').fill(tenant.username);
  await filter.getByRole('button', { name: button('查询') }).click();
  await page.getByTestId(`tenant-detail-${tenant.username}`).click();
  const drawer = page.locator('.ant-drawer');
  await expect(drawer.getByText('租户详情')).toBeVisible();
  await drawer.getByRole('tab', { name: '配额' }).click();

  const things = drawer.getByTestId('tenant-quotas').getByRole('row').filter({ hasText: '设备数' });
  await expect(things.getByRole('cell').nth(1)).toHaveText('1');
  const input = things.locator('input');
  await expect(input).toHaveValue('2'); // the package default
  await input.fill('1');
  await drawer.getByTestId('quota-save').click();
  await expect(page.getByText('已保存')).toBeVisible();
  await expect
    .poll(async () => (await tenantApi.get<{ things_num: number }>(`/tenant/tenants/${tenant.tenantId}/specification`)).things_num)
    .toBe(1);

  // The tenant adds a second device and is told the limit is reached.
  const ctx = await browser.newContext();
  const tp = await ctx.newPage();
  try {
    await loginThroughForm(tp, tenant);
    await tp.goto('/Container/HomePage');
    await expect(tp.getByTestId('device-table')).toBeVisible();
    await tp.getByTestId('add-device').click();
    const add = tp.getByRole('dialog', { name: '添加设备' });
    await dialogOpened(add);
    await add.getByLabel('设备 ID').fill(randomBytes(10).toString('hex').toUpperCase());
    await add.getByLabel('设备名称').fill('Second truck');
    await add.locator('#add-device_info_model_id').click();
    await tp.getByTitle('CANDTU-200').click();
    await add.getByRole('button', { name: button('确定') }).click();
    await expect(tp.getByText('已达上限，请前往用户中心升级')).toBeVisible();
  } finally {
    await ctx.close();
  }
  const list = await tenantApi.get<{ total: number }>(`/things/tenants/${tenant.tenantId}/things`);
  expect(list.total).toBe(1);
});
