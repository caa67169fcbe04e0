import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { safePath } from '../src/modules/web-config/web-bundle.ts';
import { createTestApp, loginAdmin, type TestApp } from './helper.ts';
import { makeTenant, type TestTenant } from './message.fixtures.ts';
import { multipart, tarGz } from './web-bundle.fixtures.ts';

describe('console versions (/out-web deploy/web)', () => {
  let t: TestApp;
  let admin: string;
  let tenant: TestTenant;
  const upload = (version: string, bundle: Buffer, auth = admin) => {
    const m = multipart(bundle);
    return t.app.inject({
      method: 'POST',
      url: `/v1/out-web/deploy/web/save?version=${encodeURIComponent(version)}`,
      payload: m.payload,
      headers: { ...m.headers, authorization: auth },
    });
  };
  const post = (url: string, payload?: object, auth = admin) =>
    t.app.inject({ method: 'POST', url: `/v1${url}`, headers: { authorization: auth }, ...(payload ? { payload } : {}) });
  const page = async (url = '/') => t.app.inject({ method: 'GET', url });

  beforeAll(async () => {
    t = await createTestApp();
    admin = await loginAdmin(t.app);
    tenant = await makeTenant(t.app, t.database);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('checks a bundle’s paths: nothing leaves the bundle', () => {
    expect(safePath('assets/app-1.js')).toBe('assets/app-1.js');
    expect(safePath('./index.html')).toBe('index.html');
    for (const bad of ['../x', 'a/../../x', '/etc/passwd', 'a\\b', 'C:/x', 'a//b', 'a/./b']) expect(() => safePath(bad), bad).toThrow();
  });

  it('refuses bundles that are no console, that escape their folder, or come from anyone but a system manager', async () => {
    expect((await upload('bad1', Buffer.from('not a gzip'))).json().code).toBe('web.bad-bundle');
    expect((await upload('bad2', tarGz({ 'readme.txt': 'x' }))).json().code).toBe('web.bad-bundle');
    const leaving = await upload('bad3', tarGz({ 'index.html': 'ok', '../../evil.js': 'x' }));
    expect(leaving.statusCode).toBe(400);
    expect(leaving.json().code).toBe('web.bad-bundle');
    expect((await upload('v0', tarGz({ 'index.html': 'x' }), tenant.manager.auth)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/v1/out-web/deploy/web/list', headers: { authorization: admin } })).json()).toEqual(
      [],
    );
  });

  it('serves a released version at once, and a rollback serves the one before again', async () => {
    const before = await page('/');
    const a = await upload(
      '1.0.0',
      tarGz({ 'dist/index.html': '<title>Console A</title>', 'dist/assets/app-aaaaaaaa.js': 'console.log("A")' }),
    );
    expect(a.statusCode, a.body).toBe(201);
    expect(a.json()).toMatchObject({ version: '1.0.0', file_count: 2, released: false });
    // uploaded, not released: nothing changes
    expect((await page('/')).body).toBe(before.body);
    expect((await upload('1.0.0', tarGz({ 'index.html': 'again' }))).json().code).toBe('web.version-exists');

    const released = await post('/out-web/deploy/web/release', { id: a.json().id });
    expect(released.json()).toMatchObject({ version: '1.0.0', released: true });
    const home = await page('/');
    expect(home.body).toBe('<title>Console A</title>');
    expect(home.headers['content-type']).toMatch(/text\/html/);
    // a page address of the single-page console is its index; its files are served as they are
    expect((await page('/Container/HomePage')).body).toBe('<title>Console A</title>');
    const js = await page('/assets/app-aaaaaaaa.js');
    expect(js.body).toBe('console.log("A")');
    expect(js.headers['cache-control']).toContain('immutable');
    expect((await page('/assets/missing-00000000.js')).statusCode).toBe(404);
    // dot segments never leave the console: the address resolves inside it (a page: the index)
    expect((await page('/%2e%2e/%2e%2e/etc/passwd')).body).toBe('<title>Console A</title>');
    expect((await page('/assets/%2e%2e/%2e%2e/package.json')).statusCode).toBe(404);
    // the API is not the console's
    expect((await t.app.inject({ method: 'GET', url: '/v1/health' })).statusCode).not.toBe(404);

    const b = await upload('1.1.0', tarGz({ 'index.html': '<title>Console B</title>' }));
    await post('/out-web/deploy/web/release', { id: b.json().id });
    expect((await page('/')).body).toBe('<title>Console B</title>');
    expect((await post('/out-web/deploy/web/remove', undefined)).statusCode).toBe(404);
    const removeReleased = await t.app.inject({
      method: 'DELETE',
      url: `/v1/out-web/deploy/web/remove?id=${b.json().id}`,
      headers: { authorization: admin },
    });
    expect(removeReleased.json().code).toBe('web.version-released');

    const back = await post('/out-web/deploy/web/rollback');
    expect(back.json()).toMatchObject({ version: '1.0.0', released: true });
    expect((await page('/')).body).toBe('<title>Console A</title>');
    expect((await post('/out-web/deploy/web/rollback')).json().code).toBe('web.no-previous');

    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/v1/out-web/deploy/web/remove?id=${b.json().id}`,
      headers: { authorization: admin },
    });
    expect(removed.statusCode).toBe(204);
    const list = (await t.app.inject({ method: 'GET', url: '/v1/out-web/deploy/web/list', headers: { authorization: admin } })).json();
    expect(list.map((v: { version: string; released: boolean }) => [v.version, v.released])).toEqual([['1.0.0', true]]);
    const logs = (await t.app.inject({ method: 'GET', url: '/v1/out-web/log/list', headers: { authorization: admin } })).json();
    expect(logs.map((l: { action: string; version: string }) => `${l.action} ${l.version}`).sort()).toEqual(
      ['upload 1.0.0', 'release 1.0.0', 'upload 1.1.0', 'release 1.1.0', 'rollback 1.0.0', 'remove 1.1.0'].sort(),
    );
    expect(logs.every((l: { username: string }) => l.username === 'admin')).toBe(true);
  });
});
