import type { Page } from '@playwright/test';
import { seedSubUser } from '../support/accounts.ts';
import { seedDevice } from '../support/devices.ts';
import { button, dialogOpened, expect, loginThroughForm, pickOption, signIn, test } from '../support/test.ts';

/**
 * Issue "Platform administration and organisation", projects: the manager makes a project in the
 * console, puts one of two devices and a sub-user in it, and the sub-user then sees that device only.
 */

const deviceRows = (page: Page) => page.getByTestId('device-table').locator('tbody tr.ant-table-row');

test('a sub-user put in a project sees only the devices of the project', async ({ page, browser, admin, adminApi }) => {
  const { tenant_id: tenant } = await adminApi.get<{ tenant_id: string }>('/tenant/users/self');
  const suffix = Math.random().toString(36).slice(2, 6);
  const inside = await seedDevice(adminApi, tenant, `Site crane ${suffix}`);
  const outside = await seedDevice(adminApi, tenant, `Depot crane ${suffix}`);
  const driver = await seedSubUser(adminApi, ['home'], `site_${suffix}`);
  const driverName = driver.username.split('@')[0];
  // Before the project the sub-user has both devices granted one by one, and the keys of the device list.
  const users = await adminApi.get<{ list: { id: string; username: string }[] }>(`/tenant/tenants/${tenant}/users?username=${driverName}`);
  const driverId = users.list.find((u) => u.username === driverName)?.id as string;
  await adminApi.put(`/tenant/tenants/${tenant}/users/${driverId}`, {
    grants: ['things:things:page', 'things:things:query', 'things:things:queryone', 'things:info-model:query'],
    devices: [inside, outside].map((d) => ({ things_id: d.id, access: 'read' })),
  });

  await signIn(page, admin, '/Container/ProjectManager');
  await expect(page).toHaveTitle(/^项目管理 - /);
  await page.getByTestId('add-project').click();
  const form = page.getByRole('dialog', { name: '添加项目' });
  await dialogOpened(form);
  await form.getByTestId('project-name').fill(`Site ${suffix}`);
  await form.getByRole('button', { name: button('确定') }).click();
  const row = page
    .getByTestId('project-table')
    .locator('tbody tr.ant-table-row')
    .filter({ hasText: `Site ${suffix}` });
  await expect(row).toBeVisible();

  await row.getByTestId('project-members-open').click();
  await pickOption(page, 'project-things-pick', `${inside.name} (${inside.third_things_id})`);
  await page.getByTestId('project-things-add').click();
  await expect(page.getByTestId('project-things')).toContainText(inside.name);
  await page.getByRole('tab', { name: '子用户' }).click();
  await pickOption(page, 'project-users-pick', driverName);
  await page.getByTestId('project-users-add').click();
  await expect(page.getByTestId('project-users')).toContainText(driverName);
  await expect(page.getByTestId('project-users')).toContainText('只读');
  if (process.env.SHOT) await page.screenshot({ path: process.env.SHOT });
  await page.keyboard.press('Escape');
  await expect(row).toContainText('1');

  // The sub-user, in its own browser: one device, the project's.
  const other = await browser.newPage();
  await loginThroughForm(other, driver);
  await other.goto('/Container/HomePage');
  await other.getByTestId('device-search').locator('input').fill(suffix);
  await other.getByTestId('device-search').locator('input').press('Enter');
  await expect(deviceRows(other)).toHaveCount(1);
  await expect(deviceRows(other)).toContainText(inside.name);
  await other.close();
});
