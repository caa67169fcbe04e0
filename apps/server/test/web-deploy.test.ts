import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, createTestApp, loginAdmin, type TestApp } from './helper.ts';
import { makeTenant, type TestTenant } from './message.fixtures.ts';
import { multipart, tarGz } from './web-bundle.fixtures.ts';

const PASSWORD = 'Deploy-Pass-42';

describe('web deployment (/out-web): configuration and web-deploy users', () => {
  let t: TestApp;
  let admin: string;
  let tenant: TestTenant;
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, auth?: string, payload?: object) =>
    t.app.inject({ method, url: `/v1${url}`, headers: auth ? { authorization: auth } : {}, ...(payload ? { payload } : {}) });
  const login = async (username: string, password = PASSWORD) => call('POST', '/out-web/user/login', undefined, { username, password });
  const bearer = async (username: string, password = PASSWORD) => {
    const res = await login(username, password);
    expect(res.statusCode, res.body).toBe(200);
    return `Bearer ${res.json().token}`;
  };
  const logs = async () =>
    (await call('GET', '/out-web/log/list', admin)).json() as { action: string; version: string; username: string; role: string }[];

  beforeAll(async () => {
    t = await createTestApp();
    admin = await loginAdmin(t.app);
    tenant = await makeTenant(t.app, t.database);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('saves the deploy configuration that deploy/config/info and the global config then answer with', async () => {
    expect((await call('GET', '/out-web/deploy/config/info')).json()).toEqual({ resourcePath: '/can', isDebug: 0 });
    expect((await call('GET', '/out-web/deploy/config/info?path=/debug/x')).json()).toEqual({ resourcePath: '/can', isDebug: 1 });
    const saved = await call('POST', '/out-web/deploy/config/save', admin, { resourcePath: '/console', isDebug: 1 });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({ resourcePath: '/console', isDebug: 1 });
    expect((await call('GET', '/out-web/deploy/config/info?path=/home')).json()).toEqual({ resourcePath: '/console', isDebug: 1 });
    expect((await call('GET', '/control/global-config')).json()).toMatchObject({ resourcePath: '/console', isDebug: 1 });
    expect((await call('POST', '/out-web/deploy/config/save', admin, { resourcePath: 'no-slash', isDebug: 0 })).statusCode).toBe(400);
    expect((await call('POST', '/out-web/deploy/config/save', tenant.manager.auth, { resourcePath: '/x', isDebug: 0 })).statusCode).toBe(
      403,
    );
    await call('POST', '/out-web/deploy/config/save', admin, { resourcePath: '/can', isDebug: 0 });
    expect((await call('GET', '/out-web/deploy/config/info')).json()).toEqual({ resourcePath: '/can', isDebug: 0 });
    expect((await logs()).find((l) => l.action === 'config-save')).toMatchObject({ username: 'admin', role: 'manager' });
  });

  it('keeps the server configuration a system manager puts', async () => {
    expect((await call('GET', '/out-web/server/config', admin)).json()).toEqual({});
    const put = await call('PUT', '/out-web/server/config', admin, { apiBase: 'https://iot.example.com/api', region: 'cn-east' });
    expect(put.statusCode, put.body).toBe(200);
    expect((await call('GET', '/out-web/server/config', admin)).json()).toEqual({
      apiBase: 'https://iot.example.com/api',
      region: 'cn-east',
    });
    // The whole configuration is replaced.
    await call('PUT', '/out-web/server/config', admin, { region: 'cn-north' });
    expect((await call('GET', '/out-web/server/config', admin)).json()).toEqual({ region: 'cn-north' });
    expect((await call('PUT', '/out-web/server/config', admin, { 'bad key!': 'x' })).statusCode).toBe(400);
    expect((await call('GET', '/out-web/server/config', tenant.manager.auth)).statusCode).toBe(403);
  });

  it('lets a system manager create, list and delete web-deploy users; nobody else', async () => {
    const weak = await call('POST', '/out-web/user/create', admin, { username: 'weak', password: 'password' });
    expect(weak.statusCode).toBe(400);
    const created = await call('POST', '/out-web/user/create', admin, { username: 'deployer', password: PASSWORD });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ username: 'deployer', last_login_at: null });
    expect(created.json()).not.toHaveProperty('password_hash');
    expect((await call('POST', '/out-web/user/create', admin, { username: 'deployer', password: PASSWORD })).json().code).toBe(
      'web.user-exists',
    );
    expect((await call('POST', '/out-web/user/create', tenant.manager.auth, { username: 'x-user', password: PASSWORD })).statusCode).toBe(
      403,
    );
    const list = (await call('GET', '/out-web/user/list', admin)).json();
    expect(list.map((u: { username: string }) => u.username)).toEqual(['deployer']);

    const other = (await call('POST', '/out-web/user/create', admin, { username: 'temp-deployer', password: PASSWORD })).json();
    const temp = await bearer('temp-deployer');
    const del = await call('DELETE', `/out-web/user/delete?id=${other.id}`, admin);
    expect(del.statusCode).toBe(204);
    // Its sessions end with it.
    expect((await call('GET', '/out-web/deploy/web/list', temp)).statusCode).toBe(401);
    expect((await call('DELETE', `/out-web/user/delete?id=${other.id}`, admin)).json().code).toBe('web.user-not-found');
    expect((await logs()).filter((l) => l.action.startsWith('user-')).map((l) => [l.action, l.version])).toEqual(
      expect.arrayContaining([
        ['user-create', 'deployer'],
        ['user-delete', 'temp-deployer'],
      ]),
    );
  });

  it('gives a web-deploy user a session that reaches the web deployment only', async () => {
    const auth = await bearer('deployer');
    expect((await call('GET', '/out-web/deploy/web/list', auth)).statusCode).toBe(200);
    expect((await call('GET', '/out-web/server/config', auth)).statusCode).toBe(200);
    // It uploads (stages) a version, and the deploy log names it; a system manager releases it
    // (decision 0206).
    const m = multipart(tarGz({ 'index.html': '<html>by deployer</html>' }));
    const up = await t.app.inject({
      method: 'POST',
      url: '/v1/out-web/deploy/web/save?version=d-1',
      payload: m.payload,
      headers: { ...m.headers, authorization: auth },
    });
    expect(up.statusCode, up.body).toBe(201);
    expect((await logs()).find((l) => l.action === 'upload')).toMatchObject({ version: 'd-1', username: 'deployer', role: 'web-deploy' });
    const own = await call('POST', '/out-web/deploy/web/release', auth, { id: up.json().id, password: PASSWORD });
    expect(own.statusCode).toBe(403);
    expect(own.json().code).toBe('web.manager-only');
    expect((await call('GET', '/out-web/deploy/web/info', auth)).json()).toBeNull();
    const released = await call('POST', '/out-web/deploy/web/release', admin, { id: up.json().id, password: ADMIN_PASSWORD });
    expect(released.statusCode, released.body).toBe(200);
    expect((await call('GET', '/out-web/deploy/web/info', auth)).json()).toMatchObject({ version: 'd-1', released: true });
    expect((await t.app.inject({ method: 'GET', url: '/' })).body).toContain('by deployer');
    expect((await logs()).find((l) => l.action === 'release')).toMatchObject({ version: 'd-1', username: 'admin', role: 'manager' });

    // Nothing outside /out-web, whatever the route asks for.
    for (const url of ['/tenant/users/self', '/control/global-config/menus', `/things/tenants/${tenant.id}/things`, '/billing/packages']) {
      const res = await call('GET', url, auth);
      expect([403, 404], url).toContain(res.statusCode);
      if (res.statusCode === 403) expect(res.json().code, url).toBe('web.deploy-only');
    }
    expect((await call('GET', '/tenant/users/self', auth)).json().code).toBe('web.deploy-only');
    // Within /out-web: not the notices, not the users.
    expect((await call('GET', '/out-web/notice', auth)).statusCode).toBe(403);
    expect((await call('GET', '/out-web/user/list', auth)).statusCode).toBe(403);
    expect((await call('POST', '/out-web/user/create', auth, { username: 'another', password: PASSWORD })).statusCode).toBe(403);
    // A person's session token is no web-deploy token, and a made-up one is refused.
    expect((await call('POST', '/out-web/user/logout', admin)).statusCode).toBe(403);
    expect((await call('GET', '/out-web/deploy/web/list', 'Bearer lhw_made-up')).statusCode).toBe(401);
  });

  it('changes passwords: the user its own with the old one, a system manager any; other sessions end', async () => {
    const first = await bearer('deployer');
    const second = await bearer('deployer');
    const NEW = 'Deploy-Pass-43';
    expect((await call('PUT', '/out-web/user/password/update', first, { old_password: 'wrong', password: NEW })).json().code).toBe(
      'web.wrong-password',
    );
    expect((await call('PUT', '/out-web/user/password/update', first, { old_password: PASSWORD, password: NEW })).statusCode).toBe(204);
    expect((await call('GET', '/out-web/deploy/web/list', first)).statusCode).toBe(200);
    expect((await call('GET', '/out-web/deploy/web/list', second)).statusCode).toBe(401);
    expect((await login('deployer', PASSWORD)).statusCode).toBe(401);
    expect((await login('deployer', NEW)).statusCode).toBe(200);

    const id = (await call('GET', '/out-web/user/list', admin)).json()[0].id;
    expect((await call('PUT', '/out-web/user/password/update', tenant.manager.auth, { id, password: PASSWORD })).statusCode).toBe(403);
    expect((await call('PUT', '/out-web/user/password/update', admin, { id, password: PASSWORD })).statusCode).toBe(204);
    expect((await call('GET', '/out-web/deploy/web/list', first)).statusCode).toBe(401);
    expect((await login('deployer', PASSWORD)).statusCode).toBe(200);
  });

  it('logs a web-deploy user out, and locks its name after five wrong passwords', async () => {
    const auth = await bearer('deployer');
    expect((await call('POST', '/out-web/user/logout', auth)).statusCode).toBe(204);
    expect((await call('GET', '/out-web/deploy/web/list', auth)).statusCode).toBe(401);

    await call('POST', '/out-web/user/create', admin, { username: 'guessed', password: PASSWORD });
    for (let i = 0; i < 5; i++) expect((await login('guessed', `Wrong-Pass-${i}`)).json().code).toBe('web.login-failed');
    const locked = await login('guessed');
    expect(locked.statusCode).toBe(423);
    expect(locked.json().code).toBe('web.user-locked');
    expect((await login('nobody')).json().code).toBe('web.login-failed');

    const entries = await logs();
    expect(entries.filter((l) => l.action === 'login-failed' && l.username === 'guessed')).toHaveLength(5);
    expect(entries.find((l) => l.action === 'login-locked')).toMatchObject({ username: 'guessed', role: 'web-deploy' });
    expect(entries.find((l) => l.action === 'logout')).toMatchObject({ username: 'deployer', role: 'web-deploy' });
    // The platform's operation log has the web-deploy user's changes too.
    const ops = await t.database.raw.query<{ username: string; path: string }>(
      `select username, path from op_logs where username = 'deployer' and path = '/v1/out-web/deploy/web/save'`,
    );
    expect(ops.rows.length).toBeGreaterThan(0);
  });
});
