import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, loginAdmin, type TestApp } from './helper.ts';
import { makeTenant, type TenantFixture } from './things.fixtures.ts';

/**
 * Super-session (spec §7 control super-session): a system manager opens a tenant's console as that
 * tenant, read-only unless asked otherwise. Every write of a read-only one is refused with its own
 * code and nothing changes; every use is written to the tenant's operation log and the platform's.
 */

let t: TestApp;
let a: TenantFixture;
let admin: string;
let platformId: string;

beforeAll(async () => {
  t = await createTestApp();
  a = await makeTenant(t);
  admin = await loginAdmin(t.app);
  platformId = (await t.database.raw.query<{ id: string }>('select id from tenants where is_system')).rows[0].id;
});
afterAll(async () => {
  await t?.close();
});

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, auth: string | undefined, payload?: unknown) =>
  t.app.inject({ method, url, headers: auth ? { authorization: auth } : {}, payload: payload as never });
const vehicles = `/v1/things/tenants/{t}/vehicles`;
const logOf = async (tenantId: string) =>
  (
    await t.database.raw.query<{ username: string; method: string; path: string; status: number; super_session: boolean }>(
      'select username, method, path, status, super_session from op_logs where tenant_id = $1 order by id',
      [tenantId],
    )
  ).rows;

describe('super-session', () => {
  it('is read-only by default: reads work, every write is refused with its code, nothing changes, both logs record it', async () => {
    const opened = await call('POST', '/v1/control/super-session', admin, { tenant_id: a.tenantId });
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json()).toMatchObject({ tenant_name: a.name, read_only: true });
    const as = `Bearer ${opened.json().token}`;

    // It is the tenant's console: its privileges say who opened it.
    const priv = (await call('GET', '/v1/control/privileges/self', as)).json();
    expect(priv).toMatchObject({ tenant_manager: true, super_session: { by: 'admin', tenant_name: a.name, read_only: true } });
    expect((await call('GET', vehicles.replace('{t}', a.tenantId), as)).statusCode).toBe(200);

    // Writes of every kind are refused with the super-session's code.
    const add = await call('POST', vehicles.replace('{t}', a.tenantId), as, { name: 'van' });
    expect(add.statusCode).toBe(403);
    expect(add.json()).toMatchObject({ code: 'super-session.read-only' });
    const self = await call('PUT', '/v1/tenant/users/self', as, { nick_name: 'changed' });
    expect(self.json()).toMatchObject({ code: 'super-session.read-only' });
    const role = await call('POST', `/v1/control/tenants/${a.tenantId}/roles`, as, { name: 'r' });
    expect(role.json()).toMatchObject({ code: 'super-session.read-only' });
    expect((await call('GET', vehicles.replace('{t}', a.tenantId), a.auth)).json().total ?? 0).toBe(0);
    expect((await t.database.raw.query('select 1 from tenant_roles where tenant_id = $1', [a.tenantId])).rows).toHaveLength(0);

    // Both logs: the opening and each refused try, under the system manager's name, marked.
    for (const tenantId of [a.tenantId, platformId]) {
      const rows = (await logOf(tenantId)).filter((r) => r.super_session);
      expect(rows.map((r) => [r.username, r.method, r.path, r.status])).toEqual([
        ['admin', 'POST', '/v1/control/super-session', 200],
        ['admin', 'POST', '/v1/things/tenants/:tenant_id/vehicles', 403],
        ['admin', 'PUT', '/v1/tenant/users/self', 403],
        ['admin', 'POST', '/v1/control/tenants/:tenant_id/roles', 403],
      ]);
    }
    // The tenant's own log shows it through its op-log route too.
    const listed = (await call('GET', `/v1/data-mgmt/tenants/${a.tenantId}/op-logs?current_page=1&page_size=20`, a.auth)).json();
    expect(listed.list.filter((r: { super_session?: boolean }) => r.super_session)).toHaveLength(4);

    // The way out: its logout passes, and is logged in both; the token is dead after.
    const out = await call('DELETE', `/v1/control/sessions/${opened.json().session_id}`, as);
    expect(out.statusCode).toBe(204);
    expect((await call('GET', '/v1/control/privileges/self', as)).statusCode).toBe(401);
    for (const tenantId of [a.tenantId, platformId]) {
      expect((await logOf(tenantId)).at(-1)).toMatchObject({ method: 'DELETE', status: 204, super_session: true });
    }
  });

  it('may be opened for changes on request, which are made and logged in both', async () => {
    const opened = (await call('POST', '/v1/control/super-session', admin, { tenant_id: a.tenantId, read_only: false })).json();
    expect(opened.read_only).toBe(false);
    const as = `Bearer ${opened.token}`;
    const add = await call('POST', vehicles.replace('{t}', a.tenantId), as, { name: 'fixed by support' });
    expect(add.statusCode, add.body).toBe(200);
    for (const tenantId of [a.tenantId, platformId]) {
      expect((await logOf(tenantId)).at(-1)).toMatchObject({ username: 'admin', method: 'POST', status: 200, super_session: true });
    }
  });

  it('is only for system managers, and not for the platform tenant', async () => {
    const b = await makeTenant(t);
    const refused = await call('POST', '/v1/control/super-session', b.auth, { tenant_id: a.tenantId });
    expect(refused.statusCode).toBe(403);
    const own = await call('POST', '/v1/control/super-session', admin, { tenant_id: platformId });
    expect(own.statusCode).toBe(400);
    expect(own.json()).toMatchObject({ code: 'super-session.bad-tenant' });
    const unknown = await call('POST', '/v1/control/super-session', admin, { tenant_id: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.statusCode).toBe(404);
  });
});
