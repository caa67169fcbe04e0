import { MANAGER_ONLY_MENUS, MENU_GRANTS, MENU_KEYS, type MenuKey } from '@loggerhead/contract/menus.ts';
import { GRANTABLE_KEYS, PERMISSIONS, type PermissionKey, type PermissionScope } from '@loggerhead/contract/permissions.ts';

/** Menu entries a sub-user can be bound to (spec §2: never sub-user management or system setting). */
export const SUB_USER_MENUS: readonly MenuKey[] = MENU_KEYS.filter((k) => !MANAGER_ONLY_MENUS.includes(k));

/** Grantable permission keys by who may hold them (spec §6 readable / read-write, and tenant features). */
export const GRANT_GROUPS: { scope: PermissionScope; keys: PermissionKey[] }[] = (['device-read', 'device-write', 'tenant'] as const).map(
  (scope) => ({ scope, keys: PERMISSIONS.filter((p) => p.scope === scope && GRANTABLE_KEYS.includes(p.key)).map((p) => p.key) }),
);

const groupKeys = (scope: PermissionScope) => GRANT_GROUPS.find((g) => g.scope === scope)?.keys ?? [];

/** Spec §6 "readable": view devices, data, curves, triggers, GPS, DBC, ECU and fault-code files. */
export const READ_PRESET: readonly PermissionKey[] = groupKeys('device-read');
/** Spec §6 "read-write": all of readable plus changing devices, data, rules, files, UDS and upgrades. */
export const WRITE_PRESET: readonly PermissionKey[] = [...READ_PRESET, ...groupKeys('device-write')];

/** The grants plus what newly bound menus need, each key once. */
export function grantsForMenus(grants: readonly string[], added: readonly string[]): string[] {
  const extra = added.flatMap((m) => MENU_GRANTS[m as MenuKey] ?? []).filter((k) => GRANTABLE_KEYS.includes(k));
  return [...new Set([...grants, ...extra])];
}
