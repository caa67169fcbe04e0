import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { Api } from '../support/api.ts';
import { screenshots } from '../support/screenshots.ts';
import { expect, loginThroughForm, test } from '../support/test.ts';

/**
 * The accounts issue end to end: a tenant registers through the four steps, is told it
 * waits for review, the system manager approves it, its manager creates a sub-user with
 * some menus, and the sub-user sees only those. `SCREENSHOTS=1` keeps a picture of each
 * step in e2e/artifacts/accounts.
 */
const snap = screenshots('accounts');

const digits = (n: number) => String(Math.floor(Math.random() * 10 ** n)).padStart(n, '0');

/** No SMS provider in tests: the code waits in the push log, which the system manager reads (newest first). */
async function codeSentTo(adminApi: Api, destination: string): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(async () => {
      const logs = await adminApi.get<{ list: { text: string }[] }>(
        `/notification/push-logs?destination=${encodeURIComponent(destination)}`,
      );
      code = /\b(\d{6})\b/.exec(logs.list[0]?.text ?? '')?.[1];
      return code;
    })
    .toBeTruthy();
  return code as string;
}

async function typeCode(page: Page, code: string) {
  await page.getByTestId('code-box-0').first().click();
  await page.keyboard.type(code);
}

async function logout(page: Page) {
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: /退出登录|Log out/ }).click();
  await expect(page).toHaveURL(/\/Login$/);
}

test.describe('accounts, tenants and permissions', () => {
  test('register, wait for review, get approved, create a sub-user who sees only its menus', async ({ page, admin, adminApi, baseURL }) => {
    test.setTimeout(180_000);
    const mobile = `139${digits(8)}`;
    const tenant = `fleet_${randomBytes(3).toString('hex')}`;
    const password = `Fleet-${randomBytes(3).toString('hex')}`;

    // --- Registration, first in English: every rule of step 1 answers with its text.
    await page.goto('/Register');
    await page.getByTestId('language-switch').click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await expect(page.getByRole('heading', { name: 'Register' })).toBeVisible();
    await snap(page, '01-register-en');
    await page.getByTestId('register-next').click();
    await expect(page.getByText('Please enter the mobile number')).toBeVisible();
    await expect(page.getByText('Please enter the username')).toBeVisible();
    await expect(page.getByText('Please read and accept the user agreement')).toBeVisible();
    await page.locator('#register_password').fill('short');
    await page.locator('#register_confirmPassword').fill('other');
    await page.locator('#register_mobile').fill('1381234');
    await page.locator('#register_username').fill('9lives');
    await expect(page.getByText('Password must be 8-16 characters')).toBeVisible();
    await expect(page.getByText('The two passwords differ')).toBeVisible();
    await expect(page.getByText('Wrong number of mobile digits')).toBeVisible();
    await expect(page.getByText('Username must be 2-20 letters')).toBeVisible();
    await snap(page, '02-register-en-errors');

    // Merchant registration is closed; an owner needs a merchant ID.
    await page.getByTestId('tenant-type').click();
    await page.getByTitle('Merchant (device maker)').click();
    await expect(page.getByTestId('merchant-closed')).toContainText('Merchant registration is closed');
    await expect(page.getByTestId('register-next')).toBeDisabled();

    // --- Back to Chinese (the default) for the real registration.
    await page.getByTestId('language-switch').click();
    await page.getByRole('menuitem', { name: '中文' }).click();
    await page.reload();
    await expect(page.getByRole('heading', { name: '注册账号' })).toBeVisible();
    await snap(page, '03-register-zh');

    await page.locator('#register_mobile').fill(mobile);
    await page.getByTestId('sms-code-button').click();
    await expect(page.getByTestId('sms-code-button')).toContainText(/\d+ 秒后重发/);
    const code = await codeSentTo(adminApi, mobile);
    // A wrong code first: the server refuses it at the end and the form goes back to step 1 with 018.
    // It differs only in its last digit, so typing the right one over it retypes five equal digits.
    const wrong = `${code.slice(0, 5)}${(Number(code[5]) + 1) % 10}`;
    await typeCode(page, wrong);
    await page.locator('#register_username').fill(tenant);
    await page.locator('#register_password').fill(password);
    await page.locator('#register_confirmPassword').fill(password);
    await page.locator('#register_agreement').check();
    await snap(page, '04-register-step1-filled');
    await page.getByTestId('register-next').click();

    await expect(page.locator('.ant-steps-item-process')).toContainText('绑定邮箱');
    await snap(page, '05-register-step2-email');
    await page.getByTestId('register-skip').click();
    await expect(page.locator('.ant-steps-item-process')).toContainText('个人信息');
    await snap(page, '06-register-step3-profile');
    await page.getByTestId('register-skip').click();

    await expect(page.locator('.ant-steps-item-process')).toContainText('账号信息');
    await expect(page.getByText('手机验证码无效或已过期，请重新获取')).toBeVisible();
    await snap(page, '07-register-back-to-step1-018');

    // The right code; this time with personal information.
    await typeCode(page, code);
    await page.getByTestId('register-next').click();
    await page.getByTestId('register-skip').click();
    await page.locator('#register_job').fill('Fleet engineer');
    await page.locator('#register_organization_name').fill('ACME Trucks');
    await page.locator('#register_industry').fill('Logistics');
    await page.locator('#register_address').fill('1 Harbour Road');
    await page.getByTestId('register-next').click();
    await expect(page.locator('.ant-result-title')).toHaveText('注册成功');
    await expect(page.getByText(`账号 ${tenant} 已提交审核`)).toBeVisible();
    await snap(page, '08-register-done');

    // --- Logging in before the review: the unchecked-account dialog, no console.
    await page.getByTestId('back-to-login').click();
    await page.locator('#password-login_username').fill(tenant);
    await page.locator('#password-login_password').fill(password);
    await page.locator('form#password-login button[type=submit]').click();
    await expect(page.getByRole('dialog')).toContainText('账号待审核');
    await expect(page).toHaveURL(/\/Login$/);
    await snap(page, '09-login-pending-review');
    await page.getByRole('dialog').getByRole('button').click();

    // --- The system manager approves it in System setting.
    await loginThroughForm(page, admin);
    await page.goto('/Container/SystemManager/SystemSetting');
    await expect(page.getByTestId('audit-statistic')).toBeVisible();
    const row = page.getByTestId('audit-table').getByRole('row').filter({ hasText: tenant });
    await expect(row).toContainText(mobile);
    await snap(page, '10-system-audit-list');
    await row.getByTestId(`approve-${tenant}`).click();
    await expect(page.getByRole('dialog')).toContainText(tenant);
    await snap(page, '11-system-audit-dialog');
    await page.getByTestId('audit-confirm').click();
    await expect(page.getByText('已通过审核')).toBeVisible();
    await expect(page.getByTestId('audit-table').getByRole('row').filter({ hasText: tenant })).toHaveCount(0);

    await page.getByRole('tab', { name: '租户列表' }).click();
    await page.locator('#tenant-filter_name').fill(tenant);
    await page.locator('form#tenant-filter button[type=submit]').click();
    await expect(page.getByTestId('tenant-table').getByRole('row').filter({ hasText: tenant })).toContainText('正常');
    await snap(page, '12-system-tenant-list');

    await page.getByRole('tab', { name: '推送日志' }).click();
    await page.getByTestId('push-log-search').locator('input').fill(mobile);
    await page.getByTestId('push-log-search').locator('input').press('Enter');
    // Newest first: the approval notice, then the registration code.
    const logRows = page.getByTestId('push-log-table').locator('tbody tr.ant-table-row');
    await expect(logRows).toHaveCount(2);
    await expect(logRows.first()).toContainText(/approved|已通过审核/);
    await snap(page, '13-system-push-log');
    await logout(page);

    // --- The new manager has two devices (seeded through its API) and creates a sub-user bound to
    // home, vehicles and the operation log, with read-write access to one device only.
    const managerApi = new Api(baseURL as string);
    await managerApi.login({ username: tenant, password });
    const tenantId = (await managerApi.get<{ tenant_id: string }>('/tenant/users/self')).tenant_id;
    const types = await managerApi.get<{ id: string }[]>(`/things/tenants/${tenantId}/device-types`);
    const hexId = () => randomBytes(10).toString('hex').toUpperCase();
    const granted = { name: `Truck ${randomBytes(2).toString('hex')}`, id: hexId() };
    const hidden = { name: `Van ${randomBytes(2).toString('hex')}`, id: hexId() };
    for (const d of [granted, hidden]) {
      await managerApi.post(`/things/tenants/${tenantId}/things`, { third_things_id: d.id, name: d.name, info_model_id: types[0].id });
    }

    // The approval may also arrive as an in-app message that pops up once: close it whenever it shows.
    const approvedMessage = page.getByRole('dialog').filter({ hasText: /account approved|账号已通过审核/ });
    await page.addLocatorHandler(approvedMessage, async () => {
      await approvedMessage.locator('.ant-modal-footer button').last().click();
    });
    // Its first login in the console creates the manager's default dashboard (spec §4).
    const dashboards = () =>
      managerApi.get<{ list: { owner_id: string; name: string }[] }>(
        `/data-mgmt/tenants/${tenantId}/dashboards?business_type=candtu_dashboard_default`,
      );
    expect((await dashboards()).list).toEqual([]);
    await loginThroughForm(page, { username: tenant, password });
    const managerId = (await managerApi.get<{ id: string }>('/tenant/users/self')).id;
    await expect
      .poll(async () => (await dashboards()).list)
      .toEqual([expect.objectContaining({ owner_id: managerId, name: `${managerId}candtu_dashboard_default` })]);
    await page.goto('/Container/UserManager/SubuserManagement');
    await page.getByTestId('subuser-add').click();
    const dialog = page.getByRole('dialog');
    const sub = `driver_${randomBytes(2).toString('hex')}`;
    const subMobile = `138${digits(8)}`;
    await dialog.locator('#subuser_username').fill(sub);
    await dialog.locator('#subuser_mobile').fill(subMobile);
    await expect(dialog).toContainText(`手机号后 8 位（${subMobile.slice(-8)}）`);
    await snap(page, '14-subuser-create-basic');
    await dialog.getByRole('tab', { name: '菜单绑定' }).click();
    await dialog.getByRole('checkbox', { name: '车辆管理' }).check();
    await dialog.getByRole('checkbox', { name: '操作日志' }).check();
    await expect(dialog.getByRole('checkbox', { name: '首页' })).toBeChecked();
    await expect(dialog.getByRole('checkbox', { name: '子用户管理' })).toHaveCount(0);
    await snap(page, '15-subuser-create-menus');
    await dialog.getByRole('tab', { name: '设备权限' }).click();
    const picker = page.getByTestId('device-picker');
    await picker.getByRole('listitem', { name: new RegExp(granted.name) }).click();
    await picker.getByRole('button', { name: /授\s?权/ }).click();
    // Chosen: it moves to the right-hand list and gets a row with its access level.
    await expect(picker.getByRole('listitem', { name: new RegExp(granted.name) })).toHaveCount(1);
    await dialog.getByRole('row').filter({ hasText: granted.name }).getByText('可读写').click();
    await snap(page, '16-subuser-create-devices');
    await page.getByTestId('subuser-save').click();
    const subRow = page.getByTestId('subuser-table').getByRole('row').filter({ hasText: sub });
    await expect(subRow).toContainText(`${sub}@${tenant}`);
    await expect(subRow).toContainText('车辆管理');
    const created = await managerApi.get<{ list: { username: string; devices: { things_id: string; access: string }[] }[] }>(
      `/tenant/tenants/${tenantId}/users?username=${sub}`,
    );
    expect(created.list[0].devices).toEqual([{ things_id: expect.any(String), access: 'write' }]);
    await snap(page, '17-subuser-list');
    await logout(page);

    // --- The sub-user logs in as name@tenant with the last 8 digits of its mobile and sees only its menus.
    await loginThroughForm(page, { username: `${sub}@${tenant}`, password: subMobile.slice(-8) });
    const menu = page.getByTestId('top-menu');
    await expect(menu.getByText('首页', { exact: true })).toBeVisible();
    await expect(menu.getByText('车辆管理', { exact: true })).toBeVisible();
    await expect(menu.getByText('DBC 管理', { exact: true })).toHaveCount(0);
    await expect(menu.getByText('ECU 管理', { exact: true })).toHaveCount(0);
    await page.getByTestId('user-menu').click();
    await expect(page.getByRole('menuitem', { name: '操作日志' })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: '子用户管理' })).toHaveCount(0);
    await expect(page.getByRole('menuitem', { name: '系统设置' })).toHaveCount(0);
    await expect(page.getByRole('menuitem', { name: '系统配置' })).toHaveCount(0);
    await snap(page, '18-subuser-menus');
    await page.keyboard.press('Escape');
    // Only the granted device is on its home page, and no call was refused on the way.
    await expect(page.getByText(granted.name)).toBeVisible();
    await expect(page.getByText(hidden.name)).toHaveCount(0);
    await expect(page.getByText('无权访问')).toHaveCount(0);

    // Its operation log opens: binding the menu granted what the page needs.
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: '操作日志' }).click();
    await expect(page.getByRole('heading', { name: '操作日志' })).toBeVisible();
    await expect(page.getByTestId('oplog-table').locator('.ant-table-tbody')).toBeVisible();
    await expect(page.getByText('无权访问')).toHaveCount(0);
    await snap(page, '19-subuser-oplog');
  });

  test('forgot password: the code button waits out the resend time, then a code resets the password', async ({ page, api, adminApi }) => {
    test.setTimeout(150_000);
    const mobile = `137${digits(8)}`;
    const username = `reset_${randomBytes(3).toString('hex')}`;
    const oldPassword = `Old-${randomBytes(3).toString('hex')}`;
    await api.post('/tenant/verification-codes', { type: 1, destination: mobile, area_code: '86', purpose: 'register' });
    const regCode = await codeSentTo(adminApi, mobile);
    const created = await api.post<{ tenant_id: string }>('/tenant/user-tenants', {
      mobile,
      area_code: '86',
      mobile_verification_code: regCode,
      username,
      password: oldPassword,
      confirmPassword: oldPassword,
    });
    await adminApi.put(`/tenant/tenants/${created.tenant_id}/audit/1`, { notify: false });

    await page.goto('/ForgetPassword');
    await page.locator('#forgot_mobile').fill(mobile);
    const newPassword = `New-${randomBytes(3).toString('hex')}`;
    await page.locator('#forgot_new_password').fill(newPassword);
    await page.locator('#forgot_confirmPassword').fill(`${newPassword}x`);
    await expect(page.getByText('两次输入的密码不一致')).toBeVisible();
    await page.locator('#forgot_confirmPassword').fill(newPassword);

    // The registration code went to this number moments ago: the server refuses another
    // within 60 s and the button counts down what is left.
    const button = page.getByTestId('code-button');
    await button.click();
    await expect(page.locator('.ant-alert-error')).toContainText('60 秒');
    await expect(button).toBeDisabled();
    await expect(button).toContainText(/\d+ 秒后重发/);
    await snap(page, '20-forgot-password-wait');
    await expect(button).toBeEnabled({ timeout: 70_000 });
    await button.click();
    await expect(button).toBeDisabled();
    const code = await codeSentTo(adminApi, mobile);
    expect(code).not.toBe(regCode);
    await typeCode(page, code);
    await snap(page, '21-forgot-password-filled');
    await page.getByRole('button', { name: '重置密码' }).click();
    await expect(page.getByText('密码已重置')).toBeVisible();
    await loginThroughForm(page, { username, password: newPassword });
  });

  test('user centre, system configuration and operation log', async ({ page, admin, adminApi }) => {
    const self = await adminApi.get<{ tenant_id: string }>('/tenant/users/self');
    const customization = `/tenant/tenants/${self.tenant_id}/customization`;
    try {
      await loginThroughForm(page, admin);
      await page.goto('/Container/UserManager/UserCenter');
      await expect(page.getByText('admin').first()).toBeVisible();
      await snap(page, '22-user-centre-profile');
      await page.getByRole('tab', { name: '账号安全' }).click();
      await page.getByTestId('security-password').click();
      await page.locator('#security-password_password').fill('short');
      await expect(page.getByRole('dialog')).toContainText('密码须为 8-16 位');
      await snap(page, '23-user-centre-password');
      await page
        .getByRole('dialog')
        .getByRole('button', { name: /取\s?消/ })
        .click();

      // A dangerous action asks for the password again; a wrong one is refused and nothing happens.
      await page.goto('/Container/SystemManager/SystemSetting?tab=tenants');
      const active = page.getByTestId('tenant-table').getByRole('row').filter({ hasText: '正常' }).first();
      await active.getByRole('button', { name: /停\s?用/ }).click();
      const reauth = page.getByRole('dialog').filter({ hasText: '确认密码' });
      await reauth.locator('#reauth_password').fill('not-my-password');
      await reauth.getByRole('button', { name: /确\s?定/ }).click();
      await expect(reauth).toContainText('密码错误');
      await snap(page, '26-reauth-wrong-password');
      await reauth.getByRole('button', { name: /取\s?消/ }).click();
      await expect(active).toContainText('正常');

      // The tenant's name and footer, saved here, are what the console shows.
      await page.goto('/Container/UserManager/SystemConfig');
      await page.locator('#system-config_systemName').fill('Harbour Fleet');
      await page.locator('#system-config_systemWebBottomCompany').fill('Harbour Logistics Ltd');
      await page.getByTestId('system-config-save').click();
      await expect(page.getByText('已保存')).toBeVisible();
      // The tab names the page, then the tenant's system name.
      await expect(page).toHaveTitle('系统配置 - Harbour Fleet');
      await expect(page.getByTestId('app-footer')).toContainText('Harbour Logistics Ltd');
      await snap(page, '24-system-config');

      // That change is in the operation log: who, what, when, from where.
      await page.goto('/Container/UserManager/Log');
      const row = page.getByTestId('oplog-table').getByRole('row').filter({ hasText: '/customization' }).first();
      await expect(row).toContainText('admin');
      await expect(row).toContainText('修改');
      await expect(row).toContainText('127.0.0.1');
      await snap(page, '25-operation-log');
      await page.locator('#oplog-filter_method').click();
      await page.getByTitle('删除').click();
      await page.locator('form#oplog-filter button[type=submit]').click();
      await expect(page.getByTestId('oplog-table').getByRole('row').filter({ hasText: '/customization' })).toHaveCount(0);
    } finally {
      await adminApi.put(customization, {
        data: [
          { key: 'systemName', value: '' },
          { key: 'systemWebBottomCompany', value: '' },
        ],
      });
    }
  });
});
