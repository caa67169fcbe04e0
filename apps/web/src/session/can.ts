import { isAllowedByMap, type PermissionKey } from '@loggerhead/contract/permissions.ts';
import { getPermissionMap } from '../api/session-storage.ts';

/** Whether the signed-in user's permission keys allow `key` (buttons it does not allow are hidden). */
export function can(key: PermissionKey): boolean {
  return isAllowedByMap(getPermissionMap(), key);
}
