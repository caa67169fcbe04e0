import { randomBytes } from 'node:crypto';
import { seedSubUser } from '../support/accounts.ts';
import { expect, routePage, signIn, test } from '../support/test.ts';

interface SelfUser {
  id: string;
  tenant_id: string;
}

test.describe('session and shell', () => {
  test('a sub-user sees only the menus bound to them and never the system setting', async ({ page, adminApi }) => {
    const viewer = await seedSubUser(adminApi, ['home', 'car', 'oplog']);
    await signIn(page, viewer);

    const menu = page.getByTestId('top-menu');
    await expect(menu.getByText('首页', { exact: true })).toBeVisible();
    await expect(menu.getByText('车辆管理', { exact: true })).toBeVisible();
    await expect(menu.getByText('DBC 管理', { exact: true })).toHaveCount(0);
    await expect(menu.getByText('围栏管理', { exact: true })).toHaveCount(0);

    await page.getByTestId('user-menu').click();
    await expect(page.getByRole('menuitem', { name: '操作日志' })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: '子用户管理' })).toHaveCount(0);
    await expect(page.getByRole('menuitem', { name: '系统设置' })).toHaveCount(0);
    await page.keyboard.press('Escape');

    await page.goto('/Container/SystemManager/SystemSetting');
    await expect(page.getByTestId('forbidden')).toContainText('无权访问');
  });

  test('the system manager finds the system setting in the user menu', async ({ page, admin }) => {
    await signIn(page, admin);
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: '系统设置' }).click();
    await expect(page).toHaveURL(/\/Container\/SystemManager\/SystemSetting$/);
    await expect(routePage(page, '/Container/SystemManager/SystemSetting')).toBeVisible();
    await expect(page.getByTestId('forbidden')).toHaveCount(0);
  });

  test('title and footer follow the tenant customisation', async ({ page, admin, adminApi }) => {
    const self = await adminApi.get<SelfUser>('/tenant/users/self');
    const path = `/tenant/tenants/${self.tenant_id}/customization`;
    const put = (pairs: Record<string, string>) =>
      adminApi.put(path, { data: Object.entries(pairs).map(([key, value]) => ({ key, value })) });
    await put({ systemName: 'Fleet Console', systemWebBottomCompany: 'ACME Trucks', systemWebBottomPhone: '+86 10 1234 5678' });
    try {
      await signIn(page, admin);
      // The tab names the page, then the tenant's system name.
      await expect(page).toHaveTitle(/^\S.* - Fleet Console$/);
      await expect(page.getByTestId('app-footer')).toContainText('ACME Trucks');
      await expect(page.getByTestId('app-footer')).toContainText('+86 10 1234 5678');
    } finally {
      await put({ systemName: '', systemWebBottomCompany: '', systemWebBottomPhone: '' });
    }
  });

  test('an announcement adds its bar under the header and can be closed', async ({ page, admin, adminApi }) => {
    const notice = await adminApi.post<{ id: string }>('/out-web/notice', {
      kind: 'notice',
      title: 'Maintenance on Sunday',
      content: 'The console is read-only 02:00-03:00.',
      startTime: Date.now() - 60_000,
      endTime: Date.now() + 3_600_000,
    });
    try {
      await signIn(page, admin);
      const header = page.getByTestId('app-header');
      await expect(page.getByRole('status').filter({ hasText: 'Maintenance on Sunday' })).toBeVisible();
      // The header grows by the bar once it is laid out, and shrinks back once it is gone.
      await expect.poll(async () => (await header.boundingBox())?.height).toBe(74);
      await page.getByRole('button', { name: '关闭' }).click();
      await expect(page.getByText('Maintenance on Sunday')).toHaveCount(0);
      await expect.poll(async () => (await header.boundingBox())?.height).toBe(50);
    } finally {
      await adminApi.delete(`/out-web/notice/${notice.id}`);
    }
  });

  test('a 401 clears the stored token and returns to the login page', async ({ page }) => {
    await page.goto('/Login');
    await page.evaluate(() => localStorage.setItem('token', 'not-a-valid-token'));
    await page.goto('/Container/CarManager');
    await expect(page).toHaveURL(/\/Login$/);
    await expect.poll(() => page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  });

  test('an account still under review gets the review dialog instead of the console', async ({ page, api, adminApi }) => {
    const mobile = `137${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
    await api.post('/tenant/verification-codes', { type: 1, destination: mobile, area_code: '86', purpose: 'register' });
    // No SMS provider in tests: the code waits in the push log, which the system manager can read.
    const logs = await adminApi.get<{ list: { destination: string; text: string }[] }>('/notification/push-logs?page_size=100');
    const code = /\b(\d{6})\b/.exec(logs.list.find((l) => l.destination.includes(mobile))?.text ?? '')?.[1];
    expect(code, 'code in the push log').toBeTruthy();
    const username = `fleet_${randomBytes(3).toString('hex')}`;
    const password = `Fleet-${randomBytes(4).toString('hex')}`;
    await api.post('/tenant/user-tenants', {
      mobile,
      area_code: '86',
      mobile_verification_code: code,
      username,
      name: username,
      password,
      confirmPassword: password,
    });

    await page.goto('/Login');
    await page.locator('#password-login_username').fill(username);
    await page.locator('#password-login_password').fill(password);
    await page.locator('form#password-login button[type=submit]').click();
    await expect(page.getByRole('dialog')).toContainText('账号待审核');
    await expect(page).toHaveURL(/\/Login$/);
  });

  test('the experience account opens the console without credentials', async ({ page }) => {
    await page.goto('/Login');
    await page.getByRole('button', { name: '体验账号登录' }).click();
    await expect(page).toHaveURL(/\/Container\/HomePage$/);
    await expect(page.getByTestId('top-menu')).toBeVisible();
  });

  test('the cloud-disk icon opens the tenant usage', async ({ page, admin, adminApi }) => {
    const self = await adminApi.get<SelfUser>('/tenant/users/self');
    const usage = await adminApi.get<{ total_disk_usage: number; over: boolean }>(`/data-mgmt/tenants/${self.tenant_id}/usage`);
    await signIn(page, admin);
    const button = page.getByTestId('capacity-button');
    await expect(button).toHaveAttribute('data-over', String(usage.over));
    await button.click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('云盘容量');
    await expect(dialog).toContainText('已使用');
    // The default package has 2 GB of storage (spec §3): total = storage × 1024 MB.
    await expect(dialog).toContainText('总容量');
    await expect(dialog).toContainText('2.00 GB');
  });

  test('the bell lists new messages, opens one as read, and clears them all', async ({ page, admin, adminApi }) => {
    const self = await adminApi.get<SelfUser>('/tenant/users/self');
    // A new work order tells the system managers: that is the message we expect.
    const order = await adminApi.post<{ identifier: string }>(`/workorder/tenants/${self.tenant_id}/work-orders`, {
      name: 'Logger offline',
      feedback_type: 'fault',
      phone: '13800000000',
      description: 'The logger in truck 7 stopped reporting.',
    });
    await signIn(page, admin);
    const bell = page.getByTestId('message-bell');
    await expect(page.locator('.ant-badge').filter({ has: bell }).locator('.ant-badge-count')).toBeVisible();
    await bell.click();
    const list = page.getByTestId('message-list');
    // In the console's language (Chinese here).
    const item = list.getByText(`新工单 ${order.identifier}`);
    await expect(item).toBeVisible();
    await item.click();
    await expect(page.getByRole('dialog')).toContainText('Logger offline');
    await page.getByRole('dialog').locator('.ant-modal-footer').getByRole('button').click();
    await expect(page.getByRole('dialog')).toBeHidden();

    await bell.click();
    await list.getByRole('button', { name: /全部删除/ }).click();
    await page.getByRole('button', { name: /^确\s?定$/ }).click();
    await expect(list.getByText(`新工单 ${order.identifier}`)).toHaveCount(0);
    await expect(list.getByText('暂无消息')).toBeVisible();
    await expect(page.locator('.ant-badge').filter({ has: bell }).locator('.ant-badge-count')).toHaveCount(0);
  });
});
