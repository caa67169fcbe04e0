import type { DeviceAccess } from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';
import type { Auth } from '../../lib/auth.ts';
import { forbidden, notFound } from '../../lib/errors.ts';
import { accessRepository } from './access.repository.ts';

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
  const access = await accessRepository(raw).accessOf(auth.tenantId, thingsId, user);
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

/**
 * A tenant-wide object linked to devices — a DBC file or signal strategy bound to their channels,
 * an e-fence, a vehicle — changes what those devices do or show: changing it needs write access
 * to every one of them (spec §6). 403 otherwise, also for a linked device the caller cannot see.
 */
export async function requireDevicesWritable(raw: RawSql, auth: Auth, thingsIds: Iterable<string>): Promise<void> {
  const ids = [...new Set(thingsIds)];
  if (!ids.length) return;
  if (auth.readOnly) throw forbidden('Read-only access to this device');
  const access = accessRepository(raw);
  // Devices of another tenant (or none) are not found, for managers too.
  if ((await access.notInTenant(auth.tenantId, ids)) > 0) throw notFound('Device not found');
  const user = restrictedUser(auth);
  if (!user) return;
  if ((await access.notWritable(ids, user)) > 0) throw forbidden('Read-only access to a device this is linked to');
}
