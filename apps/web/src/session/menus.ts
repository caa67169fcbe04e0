import { MANAGER_ONLY_MENUS, MENU_KEYS, type MenuKey } from '@loggerhead/contract/menus.ts';
import type { Privileges, SelfUser } from '@loggerhead/contract/schemas/session.ts';

export const TOP_MENU: readonly MenuKey[] = ['home', 'dashboard', 'car', 'dbc', 'test', 'ecu', 'fence'];
export const USER_MENU: readonly MenuKey[] = [
  'device-type',
  'label',
  'group',
  'project',
  'forward',
  'statistics',
  'data-usage',
  'plugin',
  'job',
  'hmi',
  'api-key',
  'fault-code',
  'subuser',
  'oplog',
  'system-config',
  'system-setting',
];

export const MENU_PATHS: Record<MenuKey, string> = {
  home: '/Container/HomePage',
  dashboard: '/Container/Dashboard',
  car: '/Container/CarManager',
  dbc: '/Container/DBCManager',
  test: '/Container/TestManager',
  ecu: '/Container/ECUManager',
  fence: '/Container/EFenceManager',
  workorder: '/Container/WorkOrderList',
  'device-type': '/Container/DeviceTypeList',
  label: '/Container/LabelManager',
  group: '/Container/GroupManager',
  project: '/Container/ProjectManager',
  forward: '/Container/ForwardManager',
  statistics: '/Container/StatisticsManager',
  'data-usage': '/Container/DataUsage',
  plugin: '/Container/PluginManager',
  job: '/Container/JobManager',
  hmi: '/Container/HmiManager',
  'api-key': '/Container/ApiKeyManager',
  'fault-code': '/Container/BreakdownCodeManager',
  subuser: '/Container/UserManager/SubuserManagement',
  oplog: '/Container/UserManager/Log',
  'system-config': '/Container/UserManager/SystemConfig',
  'system-setting': '/Container/SystemManager/SystemSetting',
};

export type Role = 'system-manager' | 'manager' | 'sub-user' | 'unknown';

/** Who is signed in, from whatever the accounts API told us (unknown while it is unavailable). */
export function roleOf(self: SelfUser | null | undefined, privileges: Privileges | null | undefined): Role {
  if (self?.systemManager || privileges?.system_manager) return 'system-manager';
  if (self?.isManager || privileges?.tenant_manager) return 'manager';
  if (self || privileges) return 'sub-user';
  return 'unknown';
}

/**
 * The menu entries a user sees (spec §2): sub-users only those bound to them and never
 * a manager-only entry; everyone else the global menu configuration for the top menu.
 * SystemSetting is only for system managers.
 */
export function visibleMenus(opts: {
  role: Role;
  globalMenu: readonly string[] | null | undefined;
  boundMenus: readonly string[] | null | undefined;
}): Set<MenuKey> {
  const { role, globalMenu, boundMenus } = opts;
  let keys: MenuKey[] = [...MENU_KEYS];
  if (role === 'sub-user') {
    const bound = new Set(boundMenus ?? []);
    keys = keys.filter((k) => bound.has(k) && !MANAGER_ONLY_MENUS.includes(k));
  } else if (globalMenu && globalMenu.length > 0) {
    // The global menu configuration lists the visible top-menu entries; other entries are not governed by it.
    const shown = new Set(globalMenu);
    keys = keys.filter((k) => !TOP_MENU.includes(k) || shown.has(k));
  }
  if (role !== 'system-manager') keys = keys.filter((k) => k !== 'system-setting');
  if (role === 'sub-user') keys = keys.filter((k) => k !== 'subuser');
  return new Set(keys);
}

/** Every signed-in user's own page (their HMI screens): where a user with no menu entry lands. */
export const NO_MENU_LANDING = '/Container/MyHmi';

/**
 * Where a user lands after login: the home page when they have it, else their first menu entry in
 * the order the header shows them, else their own HMI screens (an operator given only screens).
 */
export function landingPath(menus: ReadonlySet<MenuKey>): string {
  const first = [...TOP_MENU, ...USER_MENU].find((k) => menus.has(k));
  return first ? MENU_PATHS[first] : NO_MENU_LANDING;
}

/** The top-menu entry a path belongs to (the header highlights it). */
export function menuOfPath(pathname: string): MenuKey | null {
  const p = pathname.toLowerCase();
  if (p.startsWith('/container/homepage')) return 'home';
  if (p.startsWith('/container/dashboard')) return 'dashboard';
  if (p.startsWith('/container/carmanager')) return 'car';
  if (p.startsWith('/container/dbcmanager') || p.startsWith('/container/dbcimportpage')) return 'dbc';
  if (p.startsWith('/container/testmanager')) return 'test';
  if (p.startsWith('/container/ecumanager')) return 'ecu';
  if (p.startsWith('/container/efencemanager')) return 'fence';
  return null;
}
