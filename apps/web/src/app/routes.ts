import type { MenuKey } from '@loggerhead/contract/menus.ts';
import type { ComponentType } from 'react';
import { type LoaderFunctionArgs, type RouteObject, redirect } from 'react-router';
import type { Role } from '../session/menus.ts';
import { guardLoader } from './guard.ts';

export interface RouteHandle {
  /** Kept mounted (hidden) when the user navigates away (spec §2: HomePage and CarManager). */
  keepAlive?: boolean;
  /** Only platform system managers may open it (spec §2: SystemSetting). */
  systemManagerOnly?: boolean;
  /**
   * The menu entry that gives the page: a user without it (a sub-user not bound to it) who types
   * the address gets the 403 page, as for a menu entry they do not see.
   */
  menu?: MenuKey;
}

/** Whether a route's page is closed to this user: a system manager's page, or a menu entry they do not have. */
export function forbidden(handle: RouteHandle | undefined, role: Role, menus: ReadonlySet<MenuKey>): boolean {
  if (handle?.systemManagerOnly && role !== 'system-manager') return true;
  return handle?.menu !== undefined && !menus.has(handle.menu);
}

type PageModule = { default: ComponentType };

/** Every page is its own chunk, loaded on first visit. */
function page(load: () => Promise<PageModule>, handle?: RouteHandle) {
  return { lazy: async () => ({ Component: (await load()).default }), handle };
}

/** Old paths keep working: they forward to their new place with the same query. */
function moved(to: string) {
  return { loader: ({ request }: LoaderFunctionArgs) => redirect(to + new URL(request.url).search) };
}

export const CONTAINER_ROUTES: RouteObject[] = [
  { index: true, loader: () => redirect('/Container/HomePage') },
  { path: 'HomePage', ...page(() => import('../features/home/pages/home.page.tsx'), { keepAlive: true, menu: 'home' }) },
  { path: 'HomePage/DeviceDetails', ...page(() => import('./device-details/device-details.page.tsx'), { menu: 'home' }) },
  { path: 'Dashboard', ...page(() => import('../features/dashboard/pages/dashboard.page.tsx'), { menu: 'dashboard' }) },
  { path: 'CarManager', ...page(() => import('../features/car/pages/car-manager.page.tsx'), { keepAlive: true, menu: 'car' }) },
  { path: 'CarManager/CarDetails', ...page(() => import('../features/car/pages/car-details.page.tsx'), { menu: 'car' }) },
  { path: 'DBCManager', ...page(() => import('../features/dbc/pages/dbc-manager.page.tsx'), { menu: 'dbc' }) },
  { path: 'DBCImportPage', ...page(() => import('../features/dbc/pages/dbc-import.page.tsx'), { menu: 'dbc' }) },
  { path: 'ECUManager', ...page(() => import('../features/ecu/pages/ecu-manager.page.tsx'), { menu: 'ecu' }) },
  { path: 'BreakdownCodeManager', ...page(() => import('../features/ecu/pages/breakdown-code-manager.page.tsx'), { menu: 'fault-code' }) },
  { path: 'EditTriggerRule', ...page(() => import('../features/trigger/pages/edit-trigger-rule.page.tsx'), { menu: 'home' }) },
  { path: 'WorkOrderList', ...page(() => import('../features/workorder/pages/work-order-list.page.tsx'), { menu: 'workorder' }) },
  { path: 'HandleWorkOrder', ...page(() => import('../features/workorder/pages/handle-work-order.page.tsx'), { menu: 'workorder' }) },
  { path: 'WorkOrderDetail', ...page(() => import('../features/workorder/pages/work-order-detail.page.tsx'), { menu: 'workorder' }) },
  {
    path: 'UserManager/SubuserManagement',
    ...page(() => import('../features/user/pages/subuser-management.page.tsx'), { menu: 'subuser' }),
  },
  { path: 'UserManager/Log', ...page(() => import('../features/user/pages/operation-log.page.tsx'), { menu: 'oplog' }) },
  { path: 'UserManager/SystemConfig', ...page(() => import('../features/user/pages/system-config.page.tsx'), { menu: 'system-config' }) },
  { path: 'UserManager/UserCenter', ...page(() => import('../features/user/pages/user-center.page.tsx')) },
  { path: 'JobManager', ...page(() => import('../features/job/pages/job-manager.page.tsx'), { menu: 'job' }) },
  { path: 'HmiManager', ...page(() => import('../features/hmi/pages/hmi-manager.page.tsx'), { menu: 'hmi' }) },
  { path: 'HmiManager/HmiEditor', ...page(() => import('../features/hmi/pages/hmi-editor.page.tsx'), { menu: 'hmi' }) },
  // The screens given to the signed-in user: open to every user (the server lists only theirs).
  { path: 'MyHmi', ...page(() => import('../features/hmi/pages/my-hmi.page.tsx')) },
  { path: 'UserManager/Orders', ...page(() => import('../features/billing/pages/orders.page.tsx')) },
  {
    path: 'SystemManager/SystemSetting',
    ...page(() => import('../features/system/pages/system-setting.page.tsx'), { systemManagerOnly: true, menu: 'system-setting' }),
  },
  { path: 'DeviceTypeList', ...page(() => import('../features/device-type/pages/device-type-list.page.tsx'), { menu: 'device-type' }) },
  { path: 'LabelManager', ...page(() => import('../features/label/pages/label-manager.page.tsx'), { menu: 'label' }) },
  { path: 'ForwardManager', ...page(() => import('../features/forward/pages/forward-manager.page.tsx'), { menu: 'forward' }) },
  {
    path: 'StatisticsManager',
    ...page(() => import('../features/statistics/pages/statistics-manager.page.tsx'), { menu: 'statistics' }),
  },
  { path: 'DataUsage', ...page(() => import('../features/data-usage/pages/data-usage.page.tsx'), { menu: 'data-usage' }) },
  { path: 'PluginManager', ...page(() => import('../features/plugin/pages/plugin-manager.page.tsx'), { menu: 'plugin' }) },
  { path: 'ApiKeyManager', ...page(() => import('../features/api-key/pages/api-key-manager.page.tsx'), { menu: 'api-key' }) },
  { path: 'GroupManager', ...page(() => import('../features/group/pages/group-manager.page.tsx'), { menu: 'group' }) },
  { path: 'ProjectManager', ...page(() => import('../features/project/pages/project-manager.page.tsx'), { menu: 'project' }) },
  {
    path: 'DeviceTypeDetails',
    ...page(() => import('../features/device-type/pages/device-type-details.page.tsx'), { menu: 'device-type' }),
  },
  { path: 'TestManager', ...page(() => import('../features/test/pages/test-manager.page.tsx'), { menu: 'test' }) },
  { path: 'EFenceManager', ...page(() => import('../features/efence/pages/efence-manager.page.tsx'), { menu: 'fence' }) },
  { path: 'EFenceManager/EFenceEditor', ...page(() => import('../features/efence/pages/efence-editor.page.tsx'), { menu: 'fence' }) },
  // The older side-list entries (spec §2).
  { path: 'Home/HomePage', ...moved('/Container/HomePage') },
  { path: 'Device/DeviceList', ...moved('/Container/HomePage') },
  { path: 'Data/RealTimeData', ...moved('/Container/HomePage/DeviceDetails') },
  { path: 'Data/HistoricalData', ...moved('/Container/HomePage/DeviceDetails') },
  { path: 'User/UserCenter', ...moved('/Container/UserManager/UserCenter') },
  { path: '*', lazy: async () => ({ Component: (await import('./layout/not-found.tsx')).NotFound }) },
];

/** The whole route tree; components come from `router.tsx` so this table stays importable in tests. */
export function buildRoutes(shell: { Root: ComponentType; Fallback: ComponentType; ErrorBoundary: ComponentType }): RouteObject[] {
  return [
    {
      id: 'root',
      loader: guardLoader,
      // The guard runs on every navigation, not only when the root's params change.
      shouldRevalidate: () => true,
      Component: shell.Root,
      HydrateFallback: shell.Fallback,
      ErrorBoundary: shell.ErrorBoundary,
      children: [
        { index: true, loader: () => redirect('/Container/HomePage') },
        { path: 'Login', ...page(() => import('../features/auth/pages/login.page.tsx')) },
        { path: 'Register', ...page(() => import('../features/auth/pages/register.page.tsx')) },
        { path: 'ForgetPassword', ...page(() => import('../features/auth/pages/forget-password.page.tsx')) },
        { path: 'doc', ...page(() => import('../features/doc/pages/doc.page.tsx')) },
        { path: 'Watch', ...page(() => import('../features/watch/pages/watch.page.tsx')) },
        // An HMI screen full-screen (a tablet on the machine): no header, no menus.
        { path: 'HmiView', ...page(() => import('../features/hmi/pages/hmi-view.page.tsx')) },
        {
          path: 'Container',
          lazy: async () => ({ Component: (await import('./layout/app-layout.tsx')).AppLayout }),
          children: CONTAINER_ROUTES,
        },
        { path: '*', lazy: async () => ({ Component: (await import('./layout/not-found.tsx')).NotFound }) },
      ],
    },
  ];
}
