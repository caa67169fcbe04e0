import { seedSubUser } from '../support/accounts.ts';
import { Api } from '../support/api.ts';
import { registerTenant } from '../support/fixtures.ts';
import { expect, loginThroughForm, routePage, test } from '../support/test.ts';

/**
 * Roles (spec §6 control roles): the tenant manager bundles one menu in a role on the sub-user screen
 * and gives the role to a sub-user; that sub-user then sees only the role's menu, gets the 403 page on
 * the other pages, and the API refuses keys the role lacks.
 */
test('a role with one menu gives a sub-user that menu and nothing else', async ({ page, adminApi, browser }) => {
  test.setTimeout(180_000);
  const owner = await registerTenant(adminApi, 'roleowner');
  const ownerApi = new Api(adminApi.baseURL);
  await ownerApi.login(owner);
  // A sub-user with no menu and no key of its own.
  const sub = await seedSubUser(ownerApi, [], 'roleholder');
  const subName = sub.username.split('@')[0];

  await loginThroughForm(page, owner);
  await page.goto('/Container/UserManager/SubuserManagement?tab=roles');
  const rolesPage = routePage(page, '/Container/UserManager/SubuserManagement');
  await rolesPage.getByTestId('role-add').click();
  const dialog = page.getByRole('dialog', { name: '新增角色' });
  await dialog.getByTestId('role-name').fill('车队查看');
  await dialog.getByTestId('role-menus').getByText('车辆管理', { exact: true }).click();
  // Ticking the menu brings the keys its page needs.
  await expect(dialog.locator('.ant-tree-treenode-checkbox-checked', { hasText: 'things:things:page' })).toHaveCount(1);
  await dialog.getByRole('button', { name: /确\s*定/ }).click();
  await expect(dialog).toBeHidden();
  const row = rolesPage.getByTestId('roles-table').getByRole('row', { name: /车队查看/ });
  await expect(row).toContainText('车辆管理');

  // Give it to the sub-user from its row.
  await rolesPage.getByRole('tab', { name: '子用户' }).click();
  const subRow = rolesPage.getByTestId('subuser-table').getByRole('row', { name: new RegExp(subName) });
  await subRow.getByRole('button', { name: '角色' }).click();
  const assign = page.getByRole('dialog', { name: `分配角色：${subName}` });
  await assign.getByTestId('user-roles-select').getByRole('checkbox', { name: '车队查看' }).check();
  await assign.getByTestId('user-roles-save').click();
  await expect(assign).toBeHidden();

  // The server follows the role: the car list answers, the DBC list is refused.
  const subApi = new Api(adminApi.baseURL);
  await subApi.login(sub);
  expect(await subApi.status('GET', `/things/tenants/${owner.tenantId}/vehicles`)).toBe(200);
  expect(await subApi.status('GET', `/mapping-mgmt/tenants/${owner.tenantId}/dbc-files`)).toBe(403);

  // The sub-user's console: one menu entry, its page opens, the others answer with the 403 page.
  const context = await browser.newContext();
  const subPage = await context.newPage();
  try {
    await loginThroughForm(subPage, sub);
    const menu = subPage.getByTestId('top-menu');
    await expect(menu.getByText('车辆管理', { exact: true })).toBeVisible();
    await expect(menu.getByRole('menuitem')).toHaveCount(1);
    await subPage.goto('/Container/CarManager');
    await expect(routePage(subPage, '/Container/CarManager')).toBeVisible();
    await expect(routePage(subPage, '/Container/CarManager').getByTestId('forbidden')).toHaveCount(0);
    for (const path of ['/Container/DBCManager', '/Container/HomePage', '/Container/UserManager/Log']) {
      await subPage.goto(path);
      await expect(routePage(subPage, path).getByTestId('forbidden')).toContainText('无权访问');
      await expect(routePage(subPage, path).getByRole('button')).toHaveCount(0);
    }
  } finally {
    await context.close();
  }
});
