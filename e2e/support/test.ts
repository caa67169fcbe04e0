import { test as base, expect, type Locator, type Page } from '@playwright/test';
import { Api } from './api.ts';
import { adminCredentials, serverURL } from './env.ts';
import type { Credentials } from './server.ts';

export { expect };

interface Fixtures {
  /** The system manager `admin` of the started server. */
  admin: Credentials;
  /** An API client already logged in as admin, for seeding. */
  adminApi: Api;
  /** A fresh API client without a session. */
  api: Api;
  /** Logs in through the login form and waits for the console layout. */
  loginAs: (creds: Credentials) => Promise<void>;
}

export const test = base.extend<Fixtures>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads fixture dependencies from this pattern.
  baseURL: async ({}, use) => {
    await use(serverURL());
  },
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads fixture dependencies from this pattern.
  admin: async ({}, use) => {
    await use(adminCredentials());
  },
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads fixture dependencies from this pattern.
  api: async ({}, use) => {
    await use(new Api(serverURL()));
  },
  adminApi: async ({ admin }, use) => {
    const api = new Api(serverURL());
    await api.login(admin);
    await use(api);
  },
  loginAs: async ({ page }, use) => {
    await use((creds) => loginThroughForm(page, creds));
  },
});

/** Fills the password tab of /Login and waits for the header of the console. */
export async function loginThroughForm(page: Page, creds: Credentials): Promise<void> {
  await page.goto('/Login');
  const form = page.locator('form#password-login');
  await form.locator('#password-login_username').fill(creds.username);
  await form.locator('#password-login_password').fill(creds.password);
  await form.locator('button[type=submit]').click();
  await expect(page.getByTestId('app-header')).toBeVisible();
}

/**
 * Opens `path` (the home page unless told) signed in as `creds`, without the login form: a session
 * made through the API, as the form makes it, and its token put where the console keeps it
 * (localStorage), before the first page of the console loads. Each call is a session of its own.
 * For tests that are not about logging in: it spares them the login page and the landing page,
 * two loads of the console. The form itself stays tested through `loginThroughForm`.
 */
export async function signIn(page: Page, creds: Credentials, path = '/Container/HomePage'): Promise<void> {
  // A same-origin address that is not the console, to reach the origin's storage cheaply.
  await page.goto('/favicon.svg');
  const origin = new URL(page.url()).origin;
  const session = await new Api(origin).login(creds);
  await page.evaluate(
    (s) => {
      localStorage.setItem('token', s.token);
      localStorage.setItem('ujwt', s.ujwt);
      localStorage.setItem('session_id', s.session_id);
      localStorage.setItem('username', s.username);
    },
    { token: session.token, ujwt: session.ujwt, session_id: session.session_id, username: creds.username },
  );
  await page.goto(path);
  await expect(page.getByTestId('app-header')).toBeVisible();
}

/**
 * The box the console renders a route's page in (whatever the page itself shows), e.g.
 * `routePage(page, '/Container/HomePage')`. Kept-alive pages stay in the DOM, hidden.
 */
export function routePage(page: Page, path: string): Locator {
  return page.locator(`[data-testid="page"][data-route="${path}"]`);
}

/**
 * A button's accessible name as a pattern. Ant Design puts a space between two CJK characters
 * ("确 定"), and after a request the fading spinner's "loading" label can linger in the name for a
 * moment after the button is usable again.
 */
export const button = (label: string) => new RegExp(`^(loading\\s+)?${[...label].join('\\s*')}$`);

/**
 * Picks `option` in the select `testId` whose options load from the server: opens it and clicks
 * the option in the open drop-down, again until the select shows it (a click before the options
 * arrived, or while the drop-down was still opening, is not taken). Closes the drop-down after.
 */
export async function pickOption(page: Page, testId: string, option: string): Promise<void> {
  const select = page.getByTestId(testId);
  await expect(async () => {
    if (!(await select.textContent())?.includes(option)) {
      await select.click();
      await page.locator('.ant-select-dropdown:visible').getByTitle(option, { exact: true }).click({ timeout: 3_000 });
    }
    await expect(select).toContainText(option, { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await page.keyboard.press('Escape');
}

/**
 * Waits until an Ant Design dialog has finished zooming open: on a busy machine a click during
 * the motion can miss its target (a button that does nothing, a radio that stays unchecked).
 */
export async function dialogOpened(dialog: Locator): Promise<void> {
  await expect(dialog).toBeVisible();
  await expect(dialog).not.toHaveClass(/\bant-zoom-(appear|enter)\b/);
}
