import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { CONTAINER_PAGE_ACCESS } from '../../apps/web/src/app/page-access.ts';
import { Api } from '../support/api.ts';
import { registerTenant } from '../support/fixtures.ts';
import { ROOT } from '../support/server.ts';
import { expect, loginThroughForm, test } from '../support/test.ts';

/**
 * The console runs under its Content-Security-Policy (docs/security.md): every route of its router,
 * opened by each kind of account, and the API documentation, load without one violation — no
 * blocked script, style, image, font or connection.
 */

/**
 * The router's paths: the console's pages from their guard table (apps/web/src/app/page-access.ts,
 * which every console page must have an entry in), the pages outside the console read from the
 * router's tree (apps/web/src/app/routes.ts). A new page is covered here at once.
 */
function consoleRoutes(): { top: string[]; container: string[]; declared: number } {
  const src = fs.readFileSync(path.join(ROOT, 'apps/web/src/app/routes.ts'), 'utf8');
  const [containerPart, treePart] = src.split('export function buildRoutes');
  const paths = (s: string) => [...s.matchAll(/\{\s*path: '([^']+)'/g)].map((m) => m[1]).filter((p) => p !== '*' && p !== 'Container');
  return {
    container: Object.keys(CONTAINER_PAGE_ACCESS).map((p) => `/Container/${p}`),
    top: paths(treePart).map((p) => `/${p}`),
    declared: [...containerPart.matchAll(/consolePage\('/g)].length,
  };
}

/** The device page's tabs, from its table (apps/web/src/app/device-details/device-details.page.tsx). */
function deviceTabs(): string[] {
  const src = fs.readFileSync(path.join(ROOT, 'apps/web/src/app/device-details/device-details.page.tsx'), 'utf8');
  return [...src.matchAll(/\{ key: '(\w+)', label: 'device\.tab\./g)].map((m) => m[1]);
}

const ROUTES = consoleRoutes();
const PUBLIC = [
  '/Login',
  '/Register',
  '/ForgetPassword',
  '/doc?type=help',
  '/doc?type=protocol',
  '/doc?type=quickDelete',
  '/doc?type=updateLog',
];

/**
 * Records every Content-Security-Policy violation of the page: the documents' own
 * `securitypolicyviolation` events and the browser's "Refused to …" console messages.
 */
async function watchPolicy(page: Page): Promise<{ take: () => Promise<string[]> }> {
  const logged: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) logged.push(m.text());
  });
  await page.addInitScript(() => {
    const w = window as unknown as { __cspViolations: string[] };
    w.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      w.__cspViolations.push(`${e.violatedDirective} blocked ${e.blockedURI || '(inline)'} at ${e.sourceFile}:${e.lineNumber} ${e.sample}`);
    });
  });
  return {
    take: async () => {
      const events = await page.evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? []);
      const all = [...logged.splice(0), ...events];
      await page.evaluate(() => {
        (window as unknown as { __cspViolations: string[] }).__cspViolations = [];
      });
      return all;
    },
  };
}

/** Opens a route, lets it load what it loads, and returns the violations seen. */
async function visit(page: Page, watch: { take: () => Promise<string[]> }, url: string): Promise<string[]> {
  const res = await page.goto(url);
  expect(res?.status(), url).toBe(200);
  await page.waitForLoadState('networkidle');
  return (await watch.take()).map((v) => `${url}: ${v}`);
}

async function visitAll(page: Page, urls: string[]): Promise<void> {
  const watch = await watchPolicy(page);
  const violations: string[] = [];
  for (const url of urls) violations.push(...(await visit(page, watch, url)));
  expect(violations).toEqual([]);
}

test.describe('Content-Security-Policy', () => {
  test('reads the whole route table (sanity of the walk below)', () => {
    expect(ROUTES.container.length).toBeGreaterThan(20);
    // Every page the router declares is in the walk.
    expect(ROUTES.container.length).toBe(ROUTES.declared);
    expect(ROUTES.container).toContain('/Container/HomePage');
    expect(ROUTES.container).toContain('/Container/SystemManager/SystemSetting');
    expect(ROUTES.top).toEqual(expect.arrayContaining(['/Login', '/Register', '/ForgetPassword', '/doc', '/Watch']));
    expect(deviceTabs()).toEqual(expect.arrayContaining(['management', 'data', 'dbc', 'gps']));
  });

  test('is in force, and a violation would be seen', async ({ page }) => {
    const watch = await watchPolicy(page);
    const res = await page.goto('/Login');
    expect(res?.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.waitForLoadState('networkidle');
    expect(await watch.take()).toEqual([]);
    // An inline script is what the policy exists to stop: it is refused, and reported.
    await page.evaluate(() => {
      const s = document.createElement('script');
      s.textContent = 'window.__ran = true';
      document.body.append(s);
    });
    expect(await page.evaluate(() => (window as unknown as { __ran?: boolean }).__ran)).toBeUndefined();
    await expect.poll(async () => (await watch.take()).join('\n')).toContain('script-src');
  });

  test('pages before login', async ({ page }) => {
    await visitAll(page, [...PUBLIC, '/no-such-page']);
  });

  test('every route as the system manager', async ({ page, admin }) => {
    test.setTimeout(300_000);
    await loginThroughForm(page, admin);
    await visitAll(page, [...ROUTES.container, ...ROUTES.top.filter((p) => !['/Login', '/Register', '/ForgetPassword'].includes(p))]);
  });

  test('every route as a tenant manager', async ({ page, adminApi }) => {
    test.setTimeout(300_000);
    const tenant = await registerTenant(adminApi, 'csp');
    await loginThroughForm(page, tenant);
    await visitAll(page, [...ROUTES.container, '/Watch?screen=monitor', '/Watch?screen=operation']);
  });

  test('the experience account, with its demo devices, maps and curves', async ({ page, baseURL }) => {
    test.setTimeout(300_000);
    // The demo devices, to open their pages with data.
    const api = new Api(baseURL as string);
    const session = await api.post<{ token: string }>('/control/sessions/experience');
    api.token = session.token;
    const self = await api.get<{ tenant_id: string }>('/tenant/users/self');
    const things = await api.get<{ list: { id: string }[] }>(`/things/tenants/${self.tenant_id}/things?current_page=1&page_size=20`);
    expect(things.list.length).toBeGreaterThan(0);
    const id = things.list[0].id;

    await page.goto('/Login');
    await page.getByRole('button', { name: '体验账号登录' }).click();
    await expect(page).toHaveURL(/\/Container\/HomePage$/);
    await visitAll(page, [
      ...ROUTES.container,
      ...deviceTabs().map((tab) => `/Container/HomePage/DeviceDetails?id=${id}&tab=${tab}`),
      '/Watch?screen=monitor',
    ]);
  });

  test('the API documentation under its own policy', async ({ page }) => {
    const watch = await watchPolicy(page);
    const res = await page.goto('/v1/docs/');
    expect(res?.headers()['content-security-policy']).toContain("script-src 'self'");
    await expect(page.locator('.swagger-ui .info .title')).toContainText('Loggerhead API');
    // Open one operation: its schema and example render too.
    await page.locator('.opblock-summary').first().click();
    await expect(page.locator('.opblock-body').first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(await watch.take()).toEqual([]);
  });
});
