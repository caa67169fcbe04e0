import type { MenuKey } from '@loggerhead/contract/menus.ts';
import type { PermissionKey } from '@loggerhead/contract/permissions.ts';

/**
 * Who may open a console page (a route under `/Container/`). Every page names its guard here, and
 * the route table takes a page's guard from this table by its path, so a page cannot be added
 * without one (it would not compile):
 * - `menu`: the menu entry that gives it (a page opened from another one belongs to that one's
 *   entry); `systemManagerOnly` on top for the system manager's pages;
 * - `permission`: a page reached from no menu entry, given by the key its list is read with;
 * - `open: 'own-account'`: the signed-in user's own account (the user centre, the HMI screens given
 *   to them), which every user has.
 * A user without it who types the address gets the 403 page, never the page.
 */
export type PageAccess =
  | { readonly menu: MenuKey; readonly systemManagerOnly?: true }
  | { readonly permission: PermissionKey }
  | { readonly open: 'own-account' };

export const CONTAINER_PAGE_ACCESS = {
  HomePage: { menu: 'home' },
  'HomePage/DeviceDetails': { menu: 'home' },
  EditTriggerRule: { menu: 'home' },
  Dashboard: { menu: 'dashboard' },
  CarManager: { menu: 'car' },
  'CarManager/CarDetails': { menu: 'car' },
  DBCManager: { menu: 'dbc' },
  DBCImportPage: { menu: 'dbc' },
  ECUManager: { menu: 'ecu' },
  BreakdownCodeManager: { menu: 'fault-code' },
  WorkOrderList: { menu: 'workorder' },
  HandleWorkOrder: { menu: 'workorder' },
  WorkOrderDetail: { menu: 'workorder' },
  'UserManager/SubuserManagement': { menu: 'subuser' },
  'UserManager/Log': { menu: 'oplog' },
  'UserManager/SystemConfig': { menu: 'system-config' },
  'UserManager/UserCenter': { open: 'own-account' },
  // Buying packages: the tenant manager's (the orders' keys are manager-only).
  'UserManager/Orders': { permission: 'billing:order:query' },
  JobManager: { menu: 'job' },
  HmiManager: { menu: 'hmi' },
  'HmiManager/HmiEditor': { menu: 'hmi' },
  // The screens given to the signed-in user (the server lists only theirs).
  MyHmi: { open: 'own-account' },
  'SystemManager/SystemSetting': { menu: 'system-setting', systemManagerOnly: true },
  DeviceTypeList: { menu: 'device-type' },
  DeviceTypeDetails: { menu: 'device-type' },
  LabelManager: { menu: 'label' },
  GroupManager: { menu: 'group' },
  ProjectManager: { menu: 'project' },
  ForwardManager: { menu: 'forward' },
  StatisticsManager: { menu: 'statistics' },
  DataUsage: { menu: 'data-usage' },
  PluginManager: { menu: 'plugin' },
  ApiKeyManager: { menu: 'api-key' },
  TestManager: { menu: 'test' },
  EFenceManager: { menu: 'fence' },
  'EFenceManager/EFenceEditor': { menu: 'fence' },
} as const satisfies Record<string, PageAccess>;

/** A console page's path under `/Container/`. */
export type ContainerPage = keyof typeof CONTAINER_PAGE_ACCESS;
