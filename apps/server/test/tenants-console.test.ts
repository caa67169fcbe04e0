import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeTenant, loginAs } from './accounts.factory.ts';
import { createTestApp, loginAdmin, type TestApp } from './helper.ts';
import { deviceId, makeDevice, makeTenant, publicType } from './things.fixtures.ts';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await loginAdmin(t.app);
});
afterAll(async () => {
  await t?.close();
});

type Method = 'GET' | 'PUT' | 'POST';
const call = (method: Method, url: string, auth: string, payload?: object) =>
  t.app.inject({ method, url: `/v1${url}`, headers: { authorization: auth }, ...(payload ? { payload } : {}) });
const GIB = 1024 * 1024 * 1024;

describe("the system manager's tenant console", () => {
  it('shows one tenant, its users with their last login, and resets a user password', async () => {
    const a = await activeTenant(t);
    const one = await call('GET', `/tenant/tenants/${a.tenantId}`, admin);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ id: a.tenantId, name: a.username, status: 1, audited: true, manager_username: a.username });

    // The manager has logged in once (activeTenant): its last login is recorded.
    const users = await call('GET', `/tenant/tenants/${a.tenantId}/accounts`, admin);
    expect(users.statusCode).toBe(200);
    const body = users.json();
    expect(body.total).toBe(1);
    expect(body.list[0]).toMatchObject({ id: a.userId, name: a.username, type: 1, mobile: a.mobile });
    expect(body.list[0].last_login_ip).toBeTruthy();
    expect(body.list[0].last_login_time).toBeGreaterThan(Date.now() - 60_000);

    const reset = await call('POST', `/tenant/tenants/${a.tenantId}/accounts/${a.userId}/reset-password`, admin, {
      password: 'N3w-Passw0rd',
    });
    expect(reset.statusCode).toBe(204);
    expect((await loginAs(t.app, a.username, a.password)).statusCode).not.toBe(200);
    expect((await loginAs(t.app, a.username, 'N3w-Passw0rd')).statusCode).toBe(200);
    // The old session ended with the reset.
    expect((await call('GET', '/tenant/users/self', a.auth)).statusCode).toBe(401);

    const weak = await call('POST', `/tenant/tenants/${a.tenantId}/accounts/${a.userId}/reset-password`, admin, { password: 'short' });
    expect(weak.statusCode).toBe(400);
    expect([weak.json()].flat()[0]).toMatchObject({ code: '005', field: 'password' });
    const other = await activeTenant(t);
    const wrongTenant = await call('POST', `/tenant/tenants/${a.tenantId}/accounts/${other.userId}/reset-password`, admin, {});
    expect(wrongTenant.statusCode).toBe(404);
  });

  it('edits the tenant fields the spec names and filters the list', async () => {
    const a = await activeTenant(t);
    const visit = Date.UTC(2027, 0, 15, 9, 0);
    const put = await call('PUT', `/tenant/tenants/${a.tenantId}`, admin, {
      organization_name: 'Acme Logistics',
      address: '1 Harbour Road',
      industry: 'transport',
      platform: 1,
      belong_platform: 'east',
      priority: 7,
      return_visit_time: visit,
    });
    expect(put.statusCode).toBe(200);
    const got = (await call('GET', `/tenant/tenants/${a.tenantId}`, admin)).json();
    expect(got).toMatchObject({
      organization_name: 'Acme Logistics',
      industry: 'transport',
      platform: 1,
      belong_platform: 'east',
      priority: 7,
    });
    expect(got.return_visit_time).toBe(visit);
    const list = (await call('GET', `/tenant/tenants?name=${encodeURIComponent('Acme Logistics')}&status=1`, admin)).json();
    expect(list.page_size).toBe(20);
    expect(list.list.map((x: { id: string }) => x.id)).toContain(a.tenantId);
    const bad = await call('PUT', `/tenant/tenants/${a.tenantId}`, admin, { priority: 1000 });
    expect(bad.statusCode).toBe(400);
    // The review mark is the system manager's to set by hand too, either way.
    expect(got.audited).toBe(true);
    expect((await call('PUT', `/tenant/tenants/${a.tenantId}`, admin, { audited: false })).json().audited).toBe(false);
    expect((await call('GET', `/tenant/tenants/${a.tenantId}`, admin)).json().audited).toBe(false);
    expect((await call('PUT', `/tenant/tenants/${a.tenantId}`, admin, { audited: true })).json().audited).toBe(true);
    expect((await call('PUT', `/tenant/tenants/${a.tenantId}`, admin, { audited: 'yes' })).statusCode).toBe(400);
  });

  it('keeps the console to system managers: a tenant manager gets 403', async () => {
    const a = await activeTenant(t);
    for (const [method, url, body] of [
      ['GET', `/tenant/tenants/${a.tenantId}`],
      ['GET', `/tenant/tenants/${a.tenantId}/accounts`],
      ['POST', `/tenant/tenants/${a.tenantId}/accounts/${a.userId}/reset-password`, {}],
      ['GET', `/tenant/tenants/${a.tenantId}/quotas`],
      ['PUT', `/tenant/tenants/${a.tenantId}/quotas`, { things_quota: 1000 }],
    ] as [Method, string, object?][]) {
      const res = await call(method, url, a.auth, body);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    expect(
      (await call('GET', `/tenant/tenants/${a.tenantId}/quotas`, admin))
        .json()
        .quotas.find((q: { quota: string }) => q.quota === 'things_quota').limit,
    ).not.toBe(1000);
  });
});

describe('tenant quotas', () => {
  it('shows each quota with its usage, sets it in the package, and the tenant then hits it', async () => {
    const c = await makeTenant(t);
    await makeDevice(t, c);
    await makeDevice(t, c);
    const before = await call('GET', `/tenant/tenants/${c.tenantId}/quotas`, admin);
    expect(before.statusCode).toBe(200);
    const byName = (b: { quotas: { quota: string; limit: number | null; usage: number }[] }) =>
      Object.fromEntries(b.quotas.map((q) => [q.quota, q]));
    const q0 = byName(before.json());
    expect(Object.keys(q0).sort()).toEqual(
      ['bytes_quota', 'documents_download_quota', 'labels_quota', 'rules_quota', 'things_quota', 'users_quota'].sort(),
    );
    expect(q0.things_quota).toMatchObject({ limit: 1000, usage: 2 });
    expect(q0.users_quota.usage).toBe(0);

    const put = await call('PUT', `/tenant/tenants/${c.tenantId}/quotas`, admin, {
      things_quota: 3,
      labels_quota: 5,
      bytes_quota: 4 * GIB,
      reclaim_policy: 1,
      max_reserves_duration: 30,
    });
    expect(put.statusCode).toBe(200);
    const q1 = byName(put.json());
    expect(q1.things_quota).toMatchObject({ limit: 3, usage: 2 });
    expect(q1.labels_quota.limit).toBe(5);
    expect(q1.bytes_quota.limit).toBe(4 * GIB);
    expect(put.json()).toMatchObject({ reclaim_policy: 1, max_reserves_duration: 30 });

    // One store: the package the tenant reads is the one the quotas changed.
    const pkg = (await call('GET', `/tenant/tenants/${c.tenantId}/specification`, c.auth)).json();
    expect(pkg).toMatchObject({ things_num: 3, label_num: 5, database_storage_space: 4 });

    await makeDevice(t, c);
    const over = await call('POST', `/things/tenants/${c.tenantId}/things`, c.auth, {
      third_things_id: deviceId(),
      name: 'fourth',
      info_model_id: await publicType(t),
    });
    expect(over.statusCode).toBe(403);
    expect(over.json().code).toBe('quota.limit-reached');
    expect(byName((await call('GET', `/tenant/tenants/${c.tenantId}/quotas`, admin)).json()).things_quota.usage).toBe(3);

    // null lifts a limit
    const lifted = await call('PUT', `/tenant/tenants/${c.tenantId}/quotas`, admin, { things_quota: null });
    expect(byName(lifted.json()).things_quota.limit).toBeNull();
  });

  it('refuses bad quota values with clear codes', async () => {
    const c = await makeTenant(t);
    const cases: [object, number, string | undefined][] = [
      [{ bytes_quota: GIB + 1 }, 400, 'quota.bytes-not-whole-gb'],
      [{ things_quota: 2 ** 31 }, 400, 'quota.too-large'],
      [{ reclaim_policy: 1, max_reserves_duration: 100_000 }, 400, 'quota.reserves-out-of-range'],
      [{ reclaim_policy: 1 }, 400, 'quota.reserves-out-of-range'],
      [{ things_quota: -1 }, 400, undefined],
      [{ things_quota: 1.5 }, 400, undefined],
      [{ unknown_quota: 1 }, 400, undefined],
    ];
    for (const [body, status, code] of cases) {
      const res = await call('PUT', `/tenant/tenants/${c.tenantId}/quotas`, admin, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      const err = [res.json()].flat()[0];
      expect(err.code).toBeTruthy();
      if (code) expect(err.code).toBe(code);
    }
    const missing = await call('GET', '/tenant/tenants/00000000-0000-4000-8000-000000000000/quotas', admin);
    expect(missing.statusCode).toBe(404);
  });
});
