import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeTenant, loginAs, mobile } from './accounts.factory.ts';
import { createTestApp, type TestApp } from './helper.ts';

/** Tenant A's manager and sub-users aim every tenant-scoped account route at tenant B. */
let t: TestApp;
let A: Awaited<ReturnType<typeof activeTenant>>;
let B: Awaited<ReturnType<typeof activeTenant>>;
let bSub: { id: string; login: string; password: string };
let bSecret: string;

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, auth: string, payload?: object) =>
  t.app.inject({ method, url, headers: { authorization: auth }, ...(payload ? { payload } : {}) });

beforeAll(async () => {
  t = await createTestApp();
  A = await activeTenant(t);
  B = await activeTenant(t);
  const m = mobile();
  bSecret = `secret_${randomUUID().slice(0, 8)}`;
  const res = await call('POST', `/v1/tenant/tenants/${B.tenantId}/users`, B.auth, {
    username: 'shared_name',
    mobile: m,
    description: bSecret,
  });
  bSub = { id: res.json().id, login: `shared_name@${B.username}`, password: m.slice(-8) };
  await call('PUT', `/v1/tenant/tenants/${B.tenantId}/customization`, B.auth, { data: [{ key: 'systemName', value: bSecret }] });
  await call('PUT', '/v1/tenant/users/self/configs', B.auth, { key: 'cols', value: JSON.stringify([bSecret]) });
});
afterAll(async () => {
  await t?.close();
});

describe("another tenant's ids", () => {
  it('are refused on every path naming tenant B, and nothing of B leaks', async () => {
    const Bt = B.tenantId;
    const cases: [Method, string, object?][] = [
      ['GET', `/v1/tenant/tenants/${Bt}/users`],
      ['POST', `/v1/tenant/tenants/${Bt}/users`, { username: 'planted', mobile: mobile() }],
      ['GET', `/v1/tenant/tenants/${Bt}/users/${bSub.id}`],
      ['PUT', `/v1/tenant/tenants/${Bt}/users/${bSub.id}`, { grants: ['car:car:query'], password: 'Taken-Over1' }],
      ['POST', `/v1/tenant/tenants/${Bt}/users/${bSub.id}/reset-password`, { password: 'Taken-Over1' }],
      ['DELETE', `/v1/tenant/tenants/${Bt}/users/${bSub.id}`],
      ['GET', `/v1/tenant/tenants/${Bt}/customization`],
      ['PUT', `/v1/tenant/tenants/${Bt}/customization`, { data: [{ key: 'systemName', value: 'pwned' }] }],
      ['GET', `/v1/data-mgmt/tenants/${Bt}/op-logs`],
    ];
    for (const [method, url, payload] of cases) {
      const res = await call(method, url, A.auth, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json()).toEqual({ code: 'http.403', message: 'Not allowed to access' });
    }
  });

  it("are not found through A's own tenant path", async () => {
    const At = A.tenantId;
    const cases: [Method, string, object?][] = [
      ['GET', `/v1/tenant/tenants/${At}/users/${bSub.id}`],
      ['PUT', `/v1/tenant/tenants/${At}/users/${bSub.id}`, { grants: ['car:car:query'], password: 'Taken-Over1', status: 3 }],
      ['POST', `/v1/tenant/tenants/${At}/users/${bSub.id}/reset-password`, { password: 'Taken-Over1' }],
      ['DELETE', `/v1/tenant/tenants/${At}/users/${bSub.id}`],
      // B's manager is not A's sub-user either
      ['GET', `/v1/tenant/tenants/${At}/users/${B.userId}`],
    ];
    for (const [method, url, payload] of cases) {
      const res = await call(method, url, A.auth, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.body).not.toContain(bSecret);
      expect(res.body).not.toContain(B.username);
    }
  });

  it("left B's data as it was", async () => {
    const sub = await loginAs(t.app, bSub.login, bSub.password);
    expect(sub.statusCode).toBe(200);
    const subAuth = `Bearer ${sub.json().token}`;
    expect((await call('GET', '/v1/control/privileges/self', subAuth)).json().apis).toEqual([]);
    const users = (await call('GET', `/v1/tenant/tenants/${B.tenantId}/users`, B.auth)).json();
    expect(users.list.map((u: { username: string }) => u.username)).toEqual(['shared_name']);
    expect(users.list[0].description).toBe(bSecret);
    const cust = (await call('GET', `/v1/tenant/tenants/${B.tenantId}/customization`, B.auth)).json();
    expect(cust.data).toEqual([{ key: 'systemName', value: bSecret }]);
    // and A's lists hold nothing of B
    for (const url of [
      `/v1/tenant/tenants/${A.tenantId}/users?page_size=100`,
      `/v1/tenant/tenants/${A.tenantId}/customization`,
      `/v1/data-mgmt/tenants/${A.tenantId}/op-logs?page_size=100`,
      '/v1/tenant/users/self/configs',
      '/v1/tenant/users/self',
      '/v1/tenant/users/self/tenant',
    ]) {
      const res = await call('GET', url, A.auth);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).not.toContain(bSecret);
      expect(res.body, url).not.toContain(B.tenantId);
    }
  });

  it('keeps sub-user names per tenant: the same name in A and B are two accounts', async () => {
    const m = mobile();
    const res = await call('POST', `/v1/tenant/tenants/${A.tenantId}/users`, A.auth, { username: 'shared_name', mobile: m });
    expect(res.statusCode).toBe(201);
    const a = await loginAs(t.app, `shared_name@${A.username}`, m.slice(-8));
    expect(a.statusCode).toBe(200);
    const self = (await call('GET', '/v1/tenant/users/self', `Bearer ${a.json().token}`)).json();
    expect(self).toMatchObject({ tenant_id: A.tenantId, id: res.json().id });
    expect(self.id).not.toBe(bSub.id);
    // A's password does not open B's account of the same name
    expect((await loginAs(t.app, `shared_name@${B.username}`, m.slice(-8))).statusCode).toBe(401);
  });

  it("refuses B's devices in A's sub-user permissions", async () => {
    const has = await t.database.raw.query<{ ok: boolean }>(`select to_regclass('things') is not null as ok`);
    if (!has.rows[0].ok) return; // devices not installed: the device module validates on its side
    const hex = randomUUID().replaceAll('-', '').slice(0, 20).toUpperCase();
    const thing = await t.database.raw.query<{ id: string }>(
      `insert into things (tenant_id, third_things_id, name, info_model_id, things_key)
       values ($1, $2, 'B truck', (select id from device_types where tenant_id is null order by name limit 1), 'k') returning id`,
      [B.tenantId, hex],
    );
    const res = await call('POST', `/v1/tenant/tenants/${A.tenantId}/users`, A.auth, {
      username: 'spy_user',
      mobile: mobile(),
      devices: [{ things_id: thing.rows[0].id, access: 'write' }],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toBe('devices');
    const stored = await t.database.raw.query('select 1 from user_device_access where things_id = $1', [thing.rows[0].id]);
    expect(stored.rows).toHaveLength(0);
  });

  it('answers a malformed id with 400, not a database error', async () => {
    expect((await call('GET', '/v1/tenant/tenants/not-a-uuid/users', A.auth)).statusCode).toBe(400);
    expect((await call('GET', `/v1/tenant/tenants/${A.tenantId}/users/1%27%20or%201=1`, A.auth)).statusCode).toBe(400);
  });
});
