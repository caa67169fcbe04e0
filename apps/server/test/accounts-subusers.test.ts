import { randomUUID } from 'node:crypto';
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

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, auth: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: { authorization: auth }, ...(payload === undefined ? {} : { payload: payload as object }) });
const users = () => `/v1/tenant/tenants/${mgr.tenantId}/users`;

/** A device of the tenant when the devices migration is present (null otherwise). */
async function thingOf(tenantId: string): Promise<string | null> {
  const has = await t.database.raw.query<{ ok: boolean }>(`select to_regclass('things') is not null as ok`);
  if (!has.rows[0].ok) return null;
  const hex = randomUUID().replaceAll('-', '').slice(0, 20).toUpperCase();
  try {
    const { rows } = await t.database.raw.query<{ id: string }>(
      `insert into things (tenant_id, third_things_id, name, info_model_id, things_key)
       values ($1, $2, 'Truck 1', (select id from device_types where tenant_id is null order by name limit 1), 'k') returning id`,
      [tenantId, hex],
    );
    return rows[0].id;
  } catch {
    return null;
  }
}

describe('sub-users', () => {
  it('creates one from username and mobile only: no permissions, password = last 8 digits, logs in as name@tenant', async () => {
    const m = mobile();
    const res = await call('POST', users(), mgr.auth, { username: 'driver_01', mobile: m });
    expect(res.statusCode).toBe(201);
    const u = res.json();
    expect(u).toMatchObject({
      username: 'driver_01',
      login_name: `driver_01@${mgr.username}`,
      mobile: m,
      grants: [],
      menus: [],
      devices: [],
    });

    const login = await loginAs(t.app, `driver_01@${mgr.username}`, m.slice(-8));
    expect(login.statusCode).toBe(200);
    const sub = `Bearer ${login.json().token}`;
    const self = (await call('GET', '/v1/tenant/users/self', sub)).json();
    expect(self).toMatchObject({ id: u.id, isManager: false, login_name: `driver_01@${mgr.username}` });
    const priv = (await call('GET', '/v1/control/privileges/self', sub)).json();
    expect(priv).toEqual({ tenant_manager: false, system_manager: false, apis: [], menus: [] });
    // the sub-user cannot manage sub-users, nor open a tenant-manager session
    expect((await call('GET', users(), sub)).statusCode).toBe(403);
    const tm = await t.app.inject({
      method: 'POST',
      url: '/v1/control/sessions/tenant-manager',
      payload: { username: `driver_01@${mgr.username}`, password: m.slice(-8), type: 1 },
    });
    expect(tm.statusCode).toBe(401);
    // a sub-user may not change the tenant's company fields
    const put = await call('PUT', '/v1/tenant/users/self', sub, { organization_name: 'Hijack Ltd' });
    expect(put.statusCode).toBe(403);
  });

  it('stores grants, menus and device access; refuses manager-only keys and menus', async () => {
    const thing = await thingOf(mgr.tenantId);
    const devices = thing ? [{ things_id: thing, access: 'write' }] : [];
    const res = await call('POST', users(), mgr.auth, {
      username: 'analyst',
      mobile: mobile(),
      email: 'analyst@example.com',
      description: 'reads data',
      grants: ['things:things:query', 'car:car:query'],
      menus: ['home', 'car'],
      devices,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ grants: ['car:car:query', 'things:things:query'], menus: ['car', 'home'], devices });

    const badKey = await call('POST', users(), mgr.auth, { username: 'bad1', mobile: mobile(), grants: ['tenant:user:create'] });
    expect(badKey.statusCode).toBe(400);
    expect(badKey.json().field).toBe('grants');
    const sysKey = await call('POST', users(), mgr.auth, { username: 'bad2', mobile: mobile(), grants: ['tenant:tenant:audit'] });
    expect(sysKey.json().field).toBe('grants');
    const badMenu = await call('POST', users(), mgr.auth, { username: 'bad3', mobile: mobile(), menus: ['subuser'] });
    expect(badMenu.json().field).toBe('menus');
    const unknownMenu = await call('POST', users(), mgr.auth, { username: 'bad4', mobile: mobile(), menus: ['nope'] });
    expect(unknownMenu.statusCode).toBe(400);
    if (thing) {
      const other = await activeTenant(t);
      const foreign = await thingOf(other.tenantId);
      const res2 = await call('POST', users(), mgr.auth, {
        username: 'bad5',
        mobile: mobile(),
        devices: [{ things_id: foreign, access: 'read' }],
      });
      expect(res2.statusCode).toBe(400);
      expect(res2.json().field).toBe('devices');
    }
  });

  it('checks the fields: username rule, duplicate, mobile, e-mail, password', async () => {
    const bad = await call('POST', users(), mgr.auth, { username: 'ab', mobile: '123', email: 'x', password: 'abc' });
    expect(bad.statusCode).toBe(400);
    expect(Object.fromEntries(bad.json().map((e: { field: string; code: string }) => [e.field, e.code]))).toEqual({
      username: '008',
      mobile: '004',
      email: '015',
      password: '005',
    });
    const m = mobile();
    expect((await call('POST', users(), mgr.auth, { username: 'twin_user', mobile: m })).statusCode).toBe(201);
    const dup = await call('POST', users(), mgr.auth, { username: 'twin_user', mobile: mobile() });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().code).toBe('009');
  });

  it('ends the sub-user sessions when its grants change, and the new grants apply', async () => {
    const m = mobile();
    const u = (await call('POST', users(), mgr.auth, { username: 'operator', mobile: m })).json();
    const sub = `Bearer ${(await loginAs(t.app, `operator@${mgr.username}`, m.slice(-8))).json().token}`;
    expect((await call('GET', '/v1/tenant/users/self', sub)).statusCode).toBe(200);
    // a description change keeps the session
    expect((await call('PUT', `${users()}/${u.id}`, mgr.auth, { description: 'night shift' })).statusCode).toBe(200);
    expect((await call('GET', '/v1/tenant/users/self', sub)).statusCode).toBe(200);

    const upd = await call('PUT', `${users()}/${u.id}`, mgr.auth, { grants: ['data-mgmt:op-log:query'], menus: ['oplog'] });
    expect(upd.statusCode).toBe(200);
    expect(upd.json()).toMatchObject({ grants: ['data-mgmt:op-log:query'], menus: ['oplog'], description: 'night shift' });
    expect((await call('GET', '/v1/tenant/users/self', sub)).statusCode).toBe(401);

    const again = `Bearer ${(await loginAs(t.app, `operator@${mgr.username}`, m.slice(-8))).json().token}`;
    expect((await call('GET', `/v1/data-mgmt/tenants/${mgr.tenantId}/op-logs`, again)).statusCode).toBe(200);
    const priv = (await call('GET', '/v1/control/privileges/self', again)).json();
    expect(priv.apis).toEqual([{ name: 'data-mgmt:op-log:query' }]);
    expect(priv.menus).toEqual(['oplog']);

    // disabling ends the session too and refuses login
    expect((await call('PUT', `${users()}/${u.id}`, mgr.auth, { status: 3 })).statusCode).toBe(200);
    expect((await call('GET', '/v1/tenant/users/self', again)).statusCode).toBe(401);
    expect((await loginAs(t.app, `operator@${mgr.username}`, m.slice(-8))).statusCode).toBe(403);
  });

  it('resets the password back to the mobile digits, or to a given one, ending sessions', async () => {
    const m = mobile();
    const u = (await call('POST', users(), mgr.auth, { username: 'resetme', mobile: m, password: 'Start-Pass1' })).json();
    expect((await loginAs(t.app, `resetme@${mgr.username}`, m.slice(-8))).statusCode).toBe(401);
    const sub = `Bearer ${(await loginAs(t.app, `resetme@${mgr.username}`, 'Start-Pass1')).json().token}`;
    expect((await call('POST', `${users()}/${u.id}/reset-password`, mgr.auth, {})).statusCode).toBe(204);
    expect((await call('GET', '/v1/tenant/users/self', sub)).statusCode).toBe(401);
    expect((await loginAs(t.app, `resetme@${mgr.username}`, m.slice(-8))).statusCode).toBe(200);
    expect((await call('POST', `${users()}/${u.id}/reset-password`, mgr.auth, { password: 'weak' })).json().code).toBe('005');
    expect((await call('POST', `${users()}/${u.id}/reset-password`, mgr.auth, { password: 'Given-Pass2' })).statusCode).toBe(204);
    expect((await loginAs(t.app, `resetme@${mgr.username}`, 'Given-Pass2')).statusCode).toBe(200);
  });

  it('lists with paging and filters, shows one, deletes one', async () => {
    const list = await call('GET', `${users()}?page_size=2`, mgr.auth);
    expect(list.statusCode).toBe(200);
    const body = list.json();
    expect(body.page_size).toBe(2);
    expect(body.list).toHaveLength(2);
    expect(body.total).toBeGreaterThanOrEqual(4);
    // the manager itself is not a sub-user
    const all = (await call('GET', `${users()}?page_size=100`, mgr.auth)).json();
    expect(all.list.map((u: { id: string }) => u.id)).not.toContain(mgr.userId);
    const filtered = (await call('GET', `${users()}?username=analy`, mgr.auth)).json();
    expect(filtered.list.map((u: { username: string }) => u.username)).toEqual(['analyst']);

    const id = filtered.list[0].id;
    expect((await call('GET', `${users()}/${id}`, mgr.auth)).json().email).toBe('analyst@example.com');
    expect((await call('DELETE', `${users()}/${id}`, mgr.auth)).statusCode).toBe(204);
    expect((await call('GET', `${users()}/${id}`, mgr.auth)).statusCode).toBe(404);
    expect((await call('DELETE', `${users()}/${id}`, mgr.auth)).statusCode).toBe(404);
    // the manager cannot be reached through the sub-user paths
    expect((await call('DELETE', `${users()}/${mgr.userId}`, mgr.auth)).statusCode).toBe(404);
  });

  it('stops at 100 sub-users per tenant (quota.limit-reached)', async () => {
    const other = await activeTenant(t);
    const hash = (await t.database.raw.query<{ password_hash: string }>('select password_hash from users where id = $1', [other.userId]))
      .rows[0].password_hash;
    // 99 made directly (hashing 100 passwords through the API would only slow the test), the 100th through the API
    await t.database.raw.query(
      `insert into users (tenant_id, parent_user_id, username, name, password_hash)
       select $1, $2, 'bulk_' || g, 'bulk_' || g, $3 from generate_series(1, 99) g`,
      [other.tenantId, other.userId, hash],
    );
    const url = `/v1/tenant/tenants/${other.tenantId}/users`;
    expect((await call('POST', url, other.auth, { username: 'number_100', mobile: mobile() })).statusCode).toBe(201);
    const over = await call('POST', url, other.auth, { username: 'number_101', mobile: mobile() });
    expect(over.statusCode).toBe(403);
    expect(over.json().code).toBe('quota.limit-reached');
  });
});
