import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeTenant, loginAs, mobile } from './accounts.factory.ts';
import { createTestApp, type TestApp } from './helper.ts';

let t: TestApp;
let mgr: Awaited<ReturnType<typeof activeTenant>>;
beforeAll(async () => {
  t = await createTestApp();
  mgr = await activeTenant(t);
});
afterAll(async () => {
  await t?.close();
});

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, auth: string, payload?: object) =>
  t.app.inject({ method, url, headers: { authorization: auth }, ...(payload ? { payload } : {}) });

describe('tenant customisation', () => {
  it('stores the key/value list, removes a key set to empty, validates values', async () => {
    const url = `/v1/tenant/tenants/${mgr.tenantId}/customization`;
    expect((await call('GET', url, mgr.auth)).json()).toEqual({ tenant_id: mgr.tenantId, data: [] });
    const put = await call('PUT', url, mgr.auth, {
      data: [
        { key: 'systemName', value: 'Acme Fleet Cloud' },
        { key: 'systemLanguage', value: 'en' },
        { key: 'systemWebBottomPhone', value: '+86 21 5555 0000' },
        { key: 'systemLogo', value: 'data:image/png;base64,iVBORw0KGgo=' },
      ],
    });
    expect(put.statusCode).toBe(200);
    expect(put.json().data).toEqual([
      { key: 'systemLanguage', value: 'en' },
      { key: 'systemLogo', value: 'data:image/png;base64,iVBORw0KGgo=' },
      { key: 'systemName', value: 'Acme Fleet Cloud' },
      { key: 'systemWebBottomPhone', value: '+86 21 5555 0000' },
    ]);
    const cleared = await call('PUT', url, mgr.auth, {
      data: [
        { key: 'systemWebBottomPhone', value: '' },
        { key: 'systemName', value: 'Acme 2' },
      ],
    });
    expect(cleared.json().data.map((d: { key: string }) => d.key)).toEqual(['systemLanguage', 'systemLogo', 'systemName']);
    expect((await call('PUT', url, mgr.auth, { data: [{ key: 'systemLanguage', value: 'fr' }] })).statusCode).toBe(400);
    expect((await call('PUT', url, mgr.auth, { data: [{ key: 'evil', value: 'x' }] })).statusCode).toBe(400);
    expect((await call('PUT', url, mgr.auth, { data: [{ key: 'systemLogo', value: 'javascript:alert(1)' }] })).statusCode).toBe(400);
  });

  it('lets a sub-user read it, and change it only with the grant', async () => {
    const url = `/v1/tenant/tenants/${mgr.tenantId}/customization`;
    const m = mobile();
    const u = (await call('POST', `/v1/tenant/tenants/${mgr.tenantId}/users`, mgr.auth, { username: 'cust_user', mobile: m })).json();
    let sub = `Bearer ${(await loginAs(t.app, `cust_user@${mgr.username}`, m.slice(-8))).json().token}`;
    expect((await call('GET', url, sub)).json().data.find((d: { key: string }) => d.key === 'systemName').value).toBe('Acme 2');
    expect((await call('PUT', url, sub, { data: [{ key: 'systemName', value: 'x' }] })).statusCode).toBe(403);
    await call('PUT', `/v1/tenant/tenants/${mgr.tenantId}/users/${u.id}`, mgr.auth, { grants: ['tenant:customization:update'] });
    sub = `Bearer ${(await loginAs(t.app, `cust_user@${mgr.username}`, m.slice(-8))).json().token}`;
    expect((await call('PUT', url, sub, { data: [{ key: 'systemTheme', value: 'dark' }] })).statusCode).toBe(200);
  });
});

describe('per-user config (column choices)', () => {
  it('saves a JSON list of props per key, returns the asked keys in order, refuses over 30 with saveMax', async () => {
    const cols = JSON.stringify(['name', 'vin', 'status']);
    const put = await call('PUT', '/v1/tenant/users/self/configs', mgr.auth, { key: 'carList', value: cols });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toEqual({ key: 'carList', value: cols });
    await call('PUT', '/v1/tenant/users/self/configs', mgr.auth, { key: 'deviceList', value: '["id"]' });
    await call('PUT', '/v1/tenant/users/self/configs', mgr.auth, { key: 'carList', value: '["name"]' });
    const got = await call('GET', '/v1/tenant/users/self/configs?keys=deviceList,missing,carList', mgr.auth);
    expect(got.json()).toEqual([
      { key: 'deviceList', value: '["id"]' },
      { key: 'carList', value: '["name"]' },
    ]);
    const tooMany = JSON.stringify(Array.from({ length: 31 }, (_, i) => `c${i}`));
    const max = await call('PUT', '/v1/tenant/users/self/configs', mgr.auth, { key: 'carList', value: tooMany });
    expect(max.statusCode).toBe(400);
    expect(max.json().code).toBe('saveMax');
    const thirty = JSON.stringify(Array.from({ length: 30 }, (_, i) => `c${i}`));
    expect((await call('PUT', '/v1/tenant/users/self/configs', mgr.auth, { key: 'carList', value: thirty })).statusCode).toBe(200);
    expect((await call('PUT', '/v1/tenant/users/self/configs', mgr.auth, { key: 'bad:key', value: '[]' })).statusCode).toBe(400);
    expect((await call('PUT', '/v1/tenant/users/self/configs', mgr.auth, { key: 'k', value: 'not json' })).statusCode).toBe(400);
    // another user's settings are its own
    const other = await activeTenant(t);
    expect((await call('GET', '/v1/tenant/users/self/configs?keys=carList', other.auth)).json()).toEqual([]);
  });
});

describe('operation log', () => {
  it('records changes with who, method, path, status; filters by user, method and time; pages', async () => {
    const r = await activeTenant(t);
    const start = Date.now() - 1000;
    await call('PUT', '/v1/tenant/users/self', r.auth, { nick_name: 'Op Tester' });
    const m = mobile();
    const u = (await call('POST', `/v1/tenant/tenants/${r.tenantId}/users`, r.auth, { username: 'logged_user', mobile: m })).json();
    await call('DELETE', `/v1/tenant/tenants/${r.tenantId}/users/${u.id}`, r.auth);
    const url = `/v1/data-mgmt/tenants/${r.tenantId}/op-logs`;
    const all = (await call('GET', `${url}?page_size=50`, r.auth)).json();
    const paths = all.list.map((e: { method: string; path: string }) => `${e.method} ${e.path}`);
    // only this tenant's changes: the admin's approval and other tenants' calls are not listed
    expect(paths).toEqual([
      'DELETE /v1/tenant/tenants/:tenant_id/users/:user_id',
      'POST /v1/tenant/tenants/:tenant_id/users',
      'PUT /v1/tenant/users/self',
    ]);
    expect(all.list[0]).toMatchObject({ user_id: r.userId, username: r.username, status: 204 });
    // reads (GET) and logins are not recorded
    expect(paths.some((p: string) => p.startsWith('GET') || p.includes('sessions'))).toBe(false);

    expect((await call('GET', `${url}?method=DELETE`, r.auth)).json().total).toBe(1);
    expect((await call('GET', `${url}?user_id=${r.userId}`, r.auth)).json().total).toBe(3);
    expect((await call('GET', `${url}?start_time=${Date.now() + 60_000}`, r.auth)).json().total).toBe(0);
    expect((await call('GET', `${url}?start_time=${start}&end_time=${Date.now() + 1000}`, r.auth)).json().total).toBe(3);
    const page = (await call('GET', `${url}?page_size=2&current_page=2`, r.auth)).json();
    expect(page.list).toHaveLength(1);
    expect(page.total).toBe(3);
    expect((await call('GET', `${url}?start_time=5&end_time=4`, r.auth)).statusCode).toBe(400);
    // spec §9: paging past 10000 rows asks for a more precise query
    const deep = await call('GET', `${url}?current_page=101&page_size=100`, r.auth);
    expect(deep.statusCode).toBe(400);
    expect(deep.json().code).toBe('data.over-10000');
  });
});
