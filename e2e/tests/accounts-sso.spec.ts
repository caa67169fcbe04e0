import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { Api } from '../support/api.ts';
import { freePort, startProvider, type TestProvider } from '../support/oidc-provider.ts';
import { screenshots } from '../support/screenshots.ts';
import { type RunningServer, startServer } from '../support/server.ts';
import { test as base, expect, loginThroughForm } from '../support/test.ts';

/**
 * Third-party login through an OpenID Connect provider started here, and the tenant's theme
 * colour, on a server of their own (it needs the OIDC_* settings at start).
 */
const test = base.extend<object, { sso: { server: RunningServer; provider: TestProvider } }>({
  sso: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads fixture dependencies from this pattern.
    async ({}, use) => {
      const provider = await startProvider();
      const port = await freePort();
      const server = await startServer({
        env: {
          PORT: String(port),
          PUBLIC_URL: `http://127.0.0.1:${port}`,
          OIDC_ISSUER: provider.issuer,
          OIDC_CLIENT_ID: provider.clientId,
          OIDC_CLIENT_SECRET: provider.clientSecret,
          OIDC_NAME: 'Corp SSO',
        },
      });
      await use({ server, provider });
      await server.stop();
      await provider.close();
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  baseURL: async ({ sso }, use) => use(`http://127.0.0.1:${sso.server.port}`),
  admin: async ({ sso }, use) => use(sso.server.admin),
  adminApi: async ({ sso }, use) => {
    const api = new Api(`http://127.0.0.1:${sso.server.port}`);
    await api.login(sso.server.admin);
    await use(api);
  },
});

const snap = screenshots('accounts', '', { fullPage: false });

/** A registered and approved tenant; its manager's credentials and an API client logged in as it. */
async function newTenant(adminApi: Api, baseURL: string) {
  const api = new Api(baseURL);
  const mobile = `136${String(Date.now()).slice(-8)}`;
  const username = `sso_${randomBytes(3).toString('hex')}`;
  const password = `Pw-${randomBytes(4).toString('hex')}`;
  await api.post('/tenant/verification-codes', { type: 1, destination: mobile, area_code: '86', purpose: 'register' });
  let code: string | undefined;
  await expect
    .poll(async () => {
      const logs = await adminApi.get<{ list: { text: string }[] }>(`/notification/push-logs?destination=${mobile}`);
      code = /\b(\d{6})\b/.exec(logs.list[0]?.text ?? '')?.[1];
      return code;
    })
    .toBeTruthy();
  const created = await api.post<{ tenant_id: string }>('/tenant/user-tenants', {
    mobile,
    area_code: '86',
    mobile_verification_code: code,
    username,
    password,
    confirmPassword: password,
  });
  await adminApi.put(`/tenant/tenants/${created.tenant_id}/audit/1`, { notify: false });
  await api.login({ username, password });
  return { api, tenantId: created.tenant_id, creds: { username, password } };
}

async function logout(page: Page) {
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: /退出登录|Log out/ }).click();
  await expect(page).toHaveURL(/\/Login$/);
}

test.describe('third-party login and tenant theme', () => {
  test('an identity is refused until linked in the user centre, then signs its account in', async ({ page, adminApi, baseURL, sso }) => {
    test.setTimeout(120_000);
    const { creds } = await newTenant(adminApi, baseURL as string);
    sso.provider.subject = `e2e-${randomBytes(3).toString('hex')}`;
    const icon = page.getByRole('link', { name: '第三方登录' });

    await page.goto('/Login');
    await expect(icon).toBeVisible();
    await snap(page, '30-login-third-party-icon');
    await icon.click();
    await expect(page).toHaveURL(/\/Login\?oidcError=oidc\.not-linked$/);
    await expect(page.getByRole('alert')).toContainText('该第三方账号未绑定任何账号');
    await snap(page, '31-login-third-party-not-linked');

    await loginThroughForm(page, creds);
    await page.goto('/Container/UserManager/UserCenter?tab=security');
    await expect(page.getByText('未绑定，绑定后可在登录页用第三方账号登录')).toBeVisible();
    await page.getByTestId('security-oidc-link').click();
    await expect(page.locator('.ant-message').getByText('第三方账号已绑定', { exact: true })).toBeVisible();
    await expect(page.getByText(`已绑定（${sso.provider.subject}）`)).toBeVisible();
    await expect(page).toHaveURL(/\/Container\/UserManager\/UserCenter\?tab=security$/);
    await snap(page, '32-user-centre-third-party-linked');
    await logout(page);

    await icon.click();
    await expect(page.getByTestId('app-header')).toBeVisible();
    await expect(page).toHaveURL(/\/Container\/HomePage$/);
    const token = await page.evaluate(() => localStorage.getItem('token'));
    expect(token).toBeTruthy();
    await page.getByTestId('user-menu').click();
    await expect(page.getByRole('menuitem', { name: '退出登录' })).toBeVisible();
    await page.keyboard.press('Escape');
    await snap(page, '33-third-party-signed-in');

    // Logging out ends that session on the server too.
    await logout(page);
    const res = await fetch(`${baseURL}/v1/tenant/users/self`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(401);
  });

  test('the tenant’s theme colour is the console’s primary colour, and a new one applies on save', async ({ page, adminApi, baseURL }) => {
    const { api, tenantId, creds } = await newTenant(adminApi, baseURL as string);
    await api.put(`/tenant/tenants/${tenantId}/customization`, { data: [{ key: 'systemTheme', value: '#722ed1' }] });

    await loginThroughForm(page, creds);
    await page.goto('/Container/UserManager/SystemConfig');
    const save = page.getByTestId('system-config-save');
    await expect(save).toHaveCSS('background-color', 'rgb(114, 46, 209)');
    await expect(page.locator('.lh-logo').first()).toHaveCSS('background-color', 'rgb(114, 46, 209)');
    await snap(page, '34-theme-purple');

    await page.locator('.ant-color-picker-trigger').click();
    await page.locator('.ant-color-picker-presets-color').nth(2).click();
    await page.keyboard.press('Escape');
    await save.click();
    await expect(page.getByText('已保存')).toBeVisible();
    // Away from the button: a hovered button shows a lighter shade.
    await page.mouse.move(0, 0);
    await expect(save).toHaveCSS('background-color', 'rgb(82, 196, 26)');
    await snap(page, '35-theme-green');

    // The next visit starts in the tenant's colour.
    await page.reload();
    await expect(page.getByTestId('system-config-save')).toHaveCSS('background-color', 'rgb(82, 196, 26)');
  });
});
