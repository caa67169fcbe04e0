import type { Page } from '@playwright/test';
import { Api } from '../support/api.ts';
import { registerTenant } from '../support/fixtures.ts';
import { expect, signIn, test } from '../support/test.ts';

/**
 * No address replaces the session a browser has (docs/decisions/0207-links-never-replace-a-session.md):
 * a link from anywhere — the monitor screen's `/Watch?token=…`, the old third-party return
 * `/Login?token=…&prePath=…`, a third-party return this browser did not start — leaves the console
 * signed in as it was, in the tab that opened it and in every other one.
 */

const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as Record<string, unknown>;

/** Who the console's session in this browser (localStorage, shared by its tabs) belongs to, asked of the server. */
async function sharedSessionUser(page: Page, baseURL: string): Promise<string> {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  expect(token).toBeTruthy();
  const res = await fetch(`${baseURL}/v1/tenant/users/self`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { id: string }).id;
}

test.describe('links and sessions', () => {
  test("signed in as A, every address with B's token leaves A signed in everywhere", async ({
    page,
    context,
    admin,
    adminApi,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const url = baseURL as string;
    const b = await registerTenant(adminApi, 'linkb');
    const bApi = new Api(url);
    const bSession = await bApi.login(b);
    const bUser = (await bApi.get<{ id: string }>('/tenant/users/self')).id;

    await signIn(page, admin);
    const aToken = await page.evaluate(() => localStorage.getItem('token'));
    const aUser = await sharedSessionUser(page, url);
    expect(aUser).not.toBe(bUser);

    // 1. The monitor screen with B's console token: the address is cleaned, the tab holds a monitor
    //    session of B's for itself (read-only, never B's console token), the shared session is A's.
    const watch = await context.newPage();
    await watch.goto(`/Watch?token=${encodeURIComponent(bSession.token)}&locale=zh&tenantId=${b.tenantId}&userId=${bUser}`);
    await expect(watch.getByTestId('watch')).toBeVisible();
    await expect(watch).toHaveURL(new RegExp(`/Watch\\?locale=zh&tenantId=${b.tenantId}&userId=${bUser}$`));
    const held = await watch.evaluate(() => sessionStorage.getItem('token'));
    expect(held).toBeTruthy();
    expect(held).not.toBe(bSession.token);
    expect(claimsOf(held as string)).toMatchObject({ mon: true, tid: b.tenantId, sub: bUser });
    expect(await watch.evaluate(() => localStorage.getItem('token'))).toBe(aToken);
    // What the tab holds reads, and changes nothing.
    const write = await fetch(`${url}/v1/tenant/users/self`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${held}`, 'content-type': 'application/json' },
      body: JSON.stringify({ nick_name: 'taken' }),
    });
    expect(write.status).toBe(403);
    expect(((await write.json()) as { code: string }).code).toBe('session.monitor-read-only');

    // 2. The old third-party return, a session in the address: nothing is taken from it.
    const oldReturn = await context.newPage();
    const q = new URLSearchParams({ token: bSession.token, ujwt: bSession.ujwt, prePath: '/Container/CarManager', preQuery: '' });
    await oldReturn.goto(`/Login?${q}`);
    await oldReturn.waitForLoadState('networkidle');
    expect(await oldReturn.evaluate(() => localStorage.getItem('token'))).toBe(aToken);
    expect(await oldReturn.evaluate(() => sessionStorage.getItem('token'))).toBeNull();

    // 3. A third-party return this browser did not start: refused, the code leaves the address.
    const forged = await context.newPage();
    await forged.goto('/Login?oidcCode=someone-elses-code');
    await expect(forged).toHaveURL(/\/Login\?oidcError=oidc\.bad-state$/);
    await expect(forged.getByRole('alert')).toContainText('该第三方登录不是从本浏览器发起的');
    expect(await forged.evaluate(() => localStorage.getItem('token'))).toBe(aToken);

    // A is still signed in everywhere: the first tab after a reload, a new tab, the shared store.
    await page.reload();
    await expect(page.getByTestId('app-header')).toBeVisible();
    expect(await sharedSessionUser(page, url)).toBe(aUser);
    const fresh = await context.newPage();
    await fresh.goto('/Container/HomePage');
    await expect(fresh.getByTestId('app-header')).toBeVisible();
    expect(await sharedSessionUser(fresh, url)).toBe(aUser);
    // The monitor tab still shows B's screen from its own session, after a reload too.
    await watch.reload();
    await expect(watch.getByTestId('watch')).toBeVisible();
    expect(await watch.evaluate(() => sessionStorage.getItem('token'))).toBe(held);
  });

  test('the screen menu opens the monitor window with a monitor session of its own', async ({ page, context, admin, baseURL }) => {
    await signIn(page, admin);
    const aToken = await page.evaluate(() => localStorage.getItem('token'));
    const opened = context.waitForEvent('page');
    await page.getByTestId('screen-dropdown').click();
    await page.getByRole('menuitem', { name: '监控大屏' }).click();
    const watch = await opened;
    await expect(watch.getByTestId('watch')).toBeVisible();
    await expect(watch).not.toHaveURL(/token=/);
    const held = (await watch.evaluate(() => sessionStorage.getItem('token'))) as string;
    expect(held).not.toBe(aToken);
    expect(claimsOf(held)).toMatchObject({ mon: true, sub: claimsOf(aToken as string).sub });
    expect(await watch.evaluate(() => localStorage.getItem('token'))).toBe(aToken);
    expect(await sharedSessionUser(page, baseURL as string)).toBe(claimsOf(aToken as string).sub);
  });
});
