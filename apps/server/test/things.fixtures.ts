import type { Database } from '../src/db/client.ts';
import { hashPassword } from '../src/lib/passwords.ts';
import { login, type TestApp } from './helper.ts';

export const PASSWORD = 'Tenant-Pass-123';
let seq = 0;

export interface TenantFixture {
  tenantId: string;
  managerId: string;
  name: string;
  auth: string;
}

/** A tenant with its manager, logged in. */
export async function makeTenant(t: TestApp, name = `tenant${++seq}x${Math.random().toString(36).slice(2, 6)}`): Promise<TenantFixture> {
  const hash = await hashPassword(PASSWORD);
  const { rows } = await t.database.raw.query<{ id: string }>('insert into tenants (name) values ($1) returning id', [name]);
  const tenantId = rows[0].id;
  const u = await t.database.raw.query<{ id: string }>(
    `insert into users (tenant_id, username, name, password_hash, is_manager) values ($1,$2,$2,$3,true) returning id`,
    [tenantId, name, hash],
  );
  // Room for many devices (the default package allows 2).
  await t.database.raw.query(
    'insert into tenant_packages (tenant_id, things_num, can_things_num) values ($1, 1000, null) on conflict (tenant_id) do update set things_num = 1000, can_things_num = null',
    [tenantId],
  );
  return { tenantId, managerId: u.rows[0].id, name, auth: await login(t.app, name, PASSWORD) };
}

/** A sub-user with permission keys and per-device access, logged in as name@tenant. */
export async function makeSubUser(
  t: TestApp,
  tenant: TenantFixture,
  grants: string[],
  devices: { thingsId: string; access: 'read' | 'write' }[] = [],
): Promise<{ userId: string; auth: string }> {
  const username = `sub${++seq}`;
  const hash = await hashPassword(PASSWORD);
  const { rows } = await t.database.raw.query<{ id: string }>(
    `insert into users (tenant_id, username, name, password_hash, parent_user_id) values ($1,$2,$2,$3,$4) returning id`,
    [tenant.tenantId, username, hash, tenant.managerId],
  );
  const userId = rows[0].id;
  for (const key of grants) await t.database.raw.query('insert into user_grants (user_id, key) values ($1,$2)', [userId, key]);
  for (const d of devices) await grantDevice(t.database, tenant.tenantId, userId, d.thingsId, d.access);
  return { userId, auth: await login(t.app, `${username}@${tenant.name}`, PASSWORD) };
}

export async function grantDevice(db: Database, tenantId: string, userId: string, thingsId: string, access: 'read' | 'write') {
  await db.raw.query('insert into user_device_grants (user_id, tenant_id, things_id, access) values ($1,$2,$3,$4)', [
    userId,
    tenantId,
    thingsId,
    access,
  ]);
}

/** A random valid device ID. */
export function deviceId(): string {
  let s = '';
  for (let i = 0; i < 20; i++) s += '0123456789ABCDEF'[Math.floor(Math.random() * 16)];
  return s;
}

export async function publicType(t: TestApp, name = 'CANDTU-200'): Promise<string> {
  const { rows } = await t.database.raw.query<{ id: string }>('select id from device_types where tenant_id is null and name = $1', [name]);
  return rows[0].id;
}

/** Creates a device through the API and returns its body (id, things_key, …). */
export async function makeDevice(
  t: TestApp,
  tenant: TenantFixture,
  extra: Record<string, unknown> = {},
): Promise<{ id: string; third_things_id: string; things_key: string }> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/v1/things/tenants/${tenant.tenantId}/things`,
    headers: { authorization: tenant.auth },
    payload: { third_things_id: deviceId(), name: 'Truck', info_model_id: await publicType(t), ...extra },
  });
  if (res.statusCode !== 200) throw new Error(`device create failed: ${res.statusCode} ${res.body}`);
  return res.json();
}
