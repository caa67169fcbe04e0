import { expect, loginThroughForm, routePage, signIn, test } from '../support/test.ts';

test.describe('console foundation', () => {
  test('a visitor without a session is sent to the login page', async ({ page }) => {
    await page.goto('/Container/HomePage');
    await expect(page).toHaveURL(/\/Login$/);
    await expect(page.getByRole('heading', { name: '欢迎登录' })).toBeVisible();
  });

  test('the language switch turns the login page to English and back, and the choice survives a reload', async ({ page }) => {
    await page.goto('/Login');
    await expect(page.getByRole('tab', { name: '密码登录' })).toBeVisible();

    await page.getByTestId('language-switch').click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await expect(page.getByRole('heading', { name: 'Welcome' })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Password' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');

    await page.reload();
    await expect(page.getByRole('heading', { name: 'Welcome' })).toBeVisible();

    await page.getByTestId('language-switch').click();
    await page.getByRole('menuitem', { name: '中文' }).click();
    await expect(page.getByRole('heading', { name: '欢迎登录' })).toBeVisible();
    // Ant Design spaces out two-character CJK button labels.
    await expect(page.getByRole('button', { name: /^登\s?录$/ })).toBeVisible();
  });

  test('a wrong password is refused with the translated message', async ({ page, admin }) => {
    await page.goto('/Login');
    await page.locator('#password-login_username').fill(admin.username);
    await page.locator('#password-login_password').fill(`${admin.password}-wrong`);
    await page.locator('form#password-login button[type=submit]').click();
    await expect(page.getByRole('alert')).toHaveText('用户名或密码错误');
    await expect(page).toHaveURL(/\/Login$/);
  });

  test('admin logs in through the form and sees the console layout', async ({ page, admin }) => {
    await loginThroughForm(page, admin);
    await expect(page).toHaveURL(/\/Container\/HomePage$/);
    const menu = page.getByTestId('top-menu');
    for (const entry of ['首页', '车辆管理', 'DBC 管理', '测试管理', 'ECU 管理', '围栏管理']) {
      await expect(menu.getByText(entry, { exact: true })).toBeVisible();
    }
    // The header menu is set to home after login (spec §2).
    await expect(menu.locator('.ant-menu-item-selected')).toHaveText('首页');
    await expect(routePage(page, '/Container/HomePage')).toBeVisible();
    await expect(page.getByTestId('app-footer')).toContainText('Loggerhead');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();
  });

  test('a reload on a deep route serves that page', async ({ page, admin }) => {
    await signIn(page, admin, '/Container/DBCManager');
    await expect(routePage(page, '/Container/DBCManager')).toBeVisible();
    await page.reload();
    await expect(page).toHaveURL(/\/Container\/DBCManager$/);
    await expect(routePage(page, '/Container/DBCManager')).toBeVisible();
    await expect(page.getByTestId('top-menu').locator('.ant-menu-item-selected')).toHaveText('DBC 管理');

    await page.goto('/doc?type=help');
    await expect(page.getByRole('heading', { name: '使用帮助', level: 2 })).toBeVisible();
  });

  test('the help page is public', async ({ page }) => {
    await page.goto('/doc?type=quickDelete');
    await expect(page.getByRole('heading', { name: '快速删除', level: 2 })).toBeVisible();
    await expect(page).toHaveURL(/\/doc\?type=quickDelete$/);
  });

  test('old side-list paths lead to their new pages', async ({ page, admin }) => {
    await signIn(page, admin, '/Container/Home/HomePage');
    await expect(page).toHaveURL(/\/Container\/HomePage$/);
    await page.goto('/Container/User/UserCenter');
    await expect(page).toHaveURL(/\/Container\/UserManager\/UserCenter$/);
    await expect(routePage(page, '/Container/UserManager/UserCenter')).toBeVisible();
  });

  test('the home page is kept alive while the user visits another page', async ({ page, admin }) => {
    await loginThroughForm(page, admin);
    const home = routePage(page, '/Container/HomePage');
    await expect(home).toBeVisible();
    // Something only this mount of the page carries: it survives only if the page is not re-mounted.
    await home.evaluate((el) => el.setAttribute('data-mark', 'first-mount'));
    await page.getByTestId('top-menu').getByText('DBC 管理', { exact: true }).click();
    await expect(routePage(page, '/Container/DBCManager')).toBeVisible();
    await expect(home).toHaveCount(1);
    await expect(home).toBeHidden();
    await page.getByTestId('top-menu').getByText('首页', { exact: true }).click();
    await expect(home).toBeVisible();
    await expect(home).toHaveAttribute('data-mark', 'first-mount');
  });

  test('pages that are not kept alive are unmounted on leaving', async ({ page, admin }) => {
    await signIn(page, admin);
    await page.getByTestId('top-menu').getByText('DBC 管理', { exact: true }).click();
    await expect(routePage(page, '/Container/DBCManager')).toBeVisible();
    await page.getByTestId('top-menu').getByText('测试管理', { exact: true }).click();
    await expect(routePage(page, '/Container/TestManager')).toBeVisible();
    await expect(routePage(page, '/Container/DBCManager')).toHaveCount(0);
  });

  test('logout ends the session and returns to the login page', async ({ page, admin, api }) => {
    await signIn(page, admin);
    const token = await page.evaluate(() => localStorage.getItem('token'));
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: '退出登录' }).click();
    await expect(page).toHaveURL(/\/Login$/);
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    // The session is gone on the server too: the old token no longer opens anything.
    api.token = token;
    expect(await api.status('DELETE', '/control/sessions/any')).toBe(401);
    await page.goto('/Container/CarManager');
    await expect(page).toHaveURL(/\/Login$/);
  });

  test('the monitor screen opens from its link with token and locale in the query', async ({ page, adminApi }) => {
    const token = adminApi.token ?? '';
    await page.goto(`/Watch?token=${encodeURIComponent(token)}&locale=en&tenantId=t&userId=u`);
    // The locale came along (the page may be anything; the document language tells).
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    // The token is taken out of the address; the window holds a monitor session for itself, apart
    // from the console's session (which this browser did not have, and still has not).
    await expect(page).toHaveURL(/\/Watch\?locale=en&tenantId=t&userId=u$/);
    expect(await page.evaluate(() => sessionStorage.getItem('token'))).toBeTruthy();
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  });

  test('the monitor screen without a session goes to the login page', async ({ page }) => {
    await page.goto('/Watch');
    await expect(page).toHaveURL(/\/Login$/);
  });
});
