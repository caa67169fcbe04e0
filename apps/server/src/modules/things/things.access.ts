import type { DeviceAccess } from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';
import type { Auth } from '../../lib/auth.ts';
import { forbidden, notFound } from '../../lib/errors.ts';

/**
 * Routes carry `{tenant_id}` (spec §7). A caller works in its own tenant; a system manager may
 * address any tenant. Returns the auth whose `tenantId` every repository query is scoped by.
 */
export function inTenant(auth: Auth, tenantId: string): Auth {
  if (tenantId === auth.tenantId) return auth;
  if (auth.systemManager) return { ...auth, tenantId };
  throw forbidden();
}

/** Sub-users see only devices granted to them (spec §6); managers see all of their tenant. */
export function restrictedUser(auth: Auth): string | null {
  return auth.isManager || auth.systemManager ? null : auth.userId;
}

/**
 * The caller's access to one device of its tenant, or 404 when the device does not exist
 * or the sub-user has no grant on it (a sub-user cannot probe for devices it cannot see).
 */
export async function deviceAccess(raw: RawSql, auth: Auth, thingsId: string): Promise<DeviceAccess> {
  if (!/^[0-9a-f-]{36}$/i.test(thingsId)) throw notFound('Device not found');
  const user = restrictedUser(auth);
  const { rows } = await raw.query<{ access: DeviceAccess | null }>(
    `select case when $3::uuid is null then 'write' else a.access end as access
       from things t
       left join user_device_access a on a.things_id = t.id and a.user_id = $3::uuid
      where t.id = $1 and t.tenant_id = $2`,
    [thingsId, auth.tenantId, user],
  );
  const access = rows[0]?.access;
  if (!access) throw notFound('Device not found');
  // The read-only experience account can change nothing, whatever its role.
  return auth.readOnly ? 'read' : access;
}

/** 404 unless readable; 403 when only readable and `write` is needed. */
export async function requireDevice(raw: RawSql, auth: Auth, thingsId: string, need: DeviceAccess): Promise<DeviceAccess> {
  const access = await deviceAccess(raw, auth, thingsId);
  if (need === 'write' && access !== 'write') throw forbidden('Read-only access to this device');
  return access;
}
