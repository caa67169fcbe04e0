import type { PermissionMap } from '@loggerhead/contract/permissions.ts';
import type { Privileges } from '@loggerhead/contract/schemas/session.ts';

/**
 * Spec §4/§6: managers have no map; everyone else keeps the API names they may call. A read-only
 * session (the experience account, a manager of its demo tenant) keeps its map of read keys, so that
 * buttons of keys it lacks are hidden and their calls refused here.
 */
export function permissionMapOf(p: Privileges): PermissionMap | null {
  if ((p.tenant_manager || p.system_manager) && !p.read_only) return null;
  return Object.fromEntries(p.apis.map((a) => [a.name, true as const]));
}
