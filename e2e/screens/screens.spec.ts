import path from 'node:path';
import { expect, loginThroughForm, routePage, test } from '../support/test.ts';

/**
 * Screenshots of the main screens for a look by eye, not assertions:
 * `npm run screens -w e2e` writes them to e2e/artifacts/screens (the other specs keep pictures of
 * their steps there too when run with SCREENSHOTS=1).
 */
const dir = path.resolve(import.meta.dirname, '../artifacts/screens');

test.describe('screens', () => {
  test('login page in both languages', async ({ page }) => {
    await page.goto('/Login');
    await expect(page.getByRole('heading', { name: '欢迎登录' })).toBeVisible();
    await page.screenshot({ path: path.join(dir, 'login-zh.png') });
    await page.getByTestId('language-switch').click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await expect(page.getByRole('heading', { name: 'Welcome' })).toBeVisible();
    await page.screenshot({ path: path.join(dir, 'login-en.png') });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: path.join(dir, 'login-en-narrow.png') });
  });

  test('console layout after login', async ({ page, admin }) => {
    await loginThroughForm(page, admin);
    await page.screenshot({ path: path.join(dir, 'layout-zh.png') });
    await page.getByTestId('user-menu').click();
    await expect(page.getByRole('menuitem', { name: '退出登录' })).toBeVisible();
    await page.waitForTimeout(300); // let the drop-down finish its animation
    await page.screenshot({ path: path.join(dir, 'layout-user-menu-zh.png') });
    await page.keyboard.press('Escape');
    await page.getByTestId('capacity-button').click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await page.waitForTimeout(400);
    await page.screenshot({ path: path.join(dir, 'capacity-zh.png') });
    await page.keyboard.press('Escape');
    await page.getByTestId('language-switch').click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await page.goto('/Container/CarManager');
    await expect(routePage(page, '/Container/CarManager')).toBeVisible();
    await page.screenshot({ path: path.join(dir, 'layout-en.png') });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.screenshot({ path: path.join(dir, 'layout-en-1280.png') });
    await page.goto('/doc?type=help');
    await expect(page.getByRole('heading', { name: 'Help' })).toBeVisible();
    await page.screenshot({ path: path.join(dir, 'help-en.png') });
  });

  test('announcement bar and upgrade notice', async ({ page, admin, adminApi }) => {
    const now = Date.now();
    const notice = await adminApi.post<{ id: string }>('/out-web/notice', {
      title: '周日 02:00-03:00 系统维护',
      content: '维护期间控制台只读。',
      startTime: now - 60_000,
      endTime: now + 3_600_000,
    });
    const upgrade = await adminApi.post<{ id: string }>('/out-web/notice', {
      kind: 'upgrade',
      title: '系统升级通知',
      version: 'v1.3.1',
      startTime: now + 86_400_000,
      endTime: now + 86_400_000 + 5 * 3_600_000,
      changes: ['新增 BLF 日志导入', '曲线加载速度提升'],
    });
    try {
      await loginThroughForm(page, admin);
      await expect(page.getByRole('dialog')).toBeVisible();
      await page.waitForTimeout(400);
      await page.screenshot({ path: path.join(dir, 'upgrade-dialog-zh.png') });
      await page.getByRole('button', { name: '知道了' }).click();
      await expect(page.getByRole('dialog')).toBeHidden();
      await page.screenshot({ path: path.join(dir, 'announcement-zh.png') });
    } finally {
      await adminApi.delete(`/out-web/notice/${notice.id}`);
      await adminApi.delete(`/out-web/notice/${upgrade.id}`);
    }
  });

  test('message bell', async ({ page, admin, adminApi }) => {
    const self = await adminApi.get<{ tenant_id: string }>('/tenant/users/self');
    for (const name of ['记录仪离线', '容量不足']) {
      await adminApi.post(`/workorder/tenants/${self.tenant_id}/work-orders`, {
        name,
        feedback_type: 'fault',
        phone: '13800000000',
        description: name,
      });
    }
    await loginThroughForm(page, admin);
    await page.getByTestId('message-bell').click();
    await expect(page.getByTestId('message-list')).toBeVisible();
    await page.waitForTimeout(500);
    await page.screenshot({ path: path.join(dir, 'messages-zh.png') });
  });
});
