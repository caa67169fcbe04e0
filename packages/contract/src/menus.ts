/**
 * Header and user-dropdown menu entries (spec §2). Sub-users see only the
 * entries bound to them; SystemSetting is never shown to sub-users.
 */
export const MENU_KEYS = [
  'home',
  'dashboard',
  'car',
  'dbc',
  'test',
  'ecu',
  'fence',
  'workorder',
  'device-type',
  'fault-code',
  'subuser',
  'oplog',
  'system-config',
  'system-setting',
] as const;

export type MenuKey = (typeof MENU_KEYS)[number];

/** Menu entries a sub-user can never be bound to. */
export const MANAGER_ONLY_MENUS: readonly MenuKey[] = ['subuser', 'system-setting'];
