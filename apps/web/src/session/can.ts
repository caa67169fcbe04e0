import { isAllowedByMap, type PermissionKey } from '@loggerhead/contract/permissions.ts';
import { getPermissionMap } from '../api/session-storage.ts';

/** Whether the signed-in user's permission keys allow `key` (buttons it does not allow are hidden). */
export function can(key: PermissionKey): boolean {
  return isAllowedByMap(getPermissionMap(), key);
}

/**
 * Whether the user may call `route` of the contract's table: the key the server enforces for it, or
 * none for a route open to every signed-in user. A button that calls a route shows only when this
 * holds (spec §2's button directive).
 */
export function mayCall(route: { readonly permission?: PermissionKey }): boolean {
  return route.permission === undefined || can(route.permission);
}
