import type { MenuKey } from '@loggerhead/contract/menus.ts';
import type { PermissionKey } from '@loggerhead/contract/permissions.ts';
import type { ComponentType } from 'react';
import { type LoaderFunctionArgs, type RouteObject, redirect } from 'react-router';
import type { Role } from '../session/menus.ts';
import { guardLoader } from './guard.ts';
import { CONTAINER_PAGE_ACCESS, type ContainerPage } from './page-access.ts';

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
  /** The permission key that gives a page reached from no menu entry (page-access.ts). */
  permission?: PermissionKey;
  /**
   * Open on purpose: `public` to visitors (the sign-in pages, the documentation), `own-account` to
   * every signed-in user (their own account's pages and screens; the server shows only theirs).
   */
  open?: 'public' | 'own-account';
}

/** Whether a page is guarded (a menu entry, a key, or the system manager): closed until the user is known. */
export function guarded(handle: RouteHandle | undefined): boolean {
  return Boolean(handle?.systemManagerOnly || handle?.menu !== undefined || handle?.permission !== undefined);
}

/**
 * Whether a route's page is closed to this user: a system manager's page, a menu entry they do not
 * have, or a key they do not hold (`may`: the user's permission keys allow it).
 */
export function forbidden(
  handle: RouteHandle | undefined,
  role: Role,
  menus: ReadonlySet<MenuKey>,
  may: (key: PermissionKey) => boolean,
): boolean {
  if (handle?.systemManagerOnly && role !== 'system-manager') return true;
  if (handle?.permission !== undefined && !may(handle.permission)) return true;
  return handle?.menu !== undefined && !menus.has(handle.menu);
}

type PageModule = { default: ComponentType };

/** Every page is its own chunk, loaded on first visit. */
function page(load: () => Promise<PageModule>, handle?: RouteHandle) {
  return { lazy: async () => ({ Component: (await load()).default }), handle };
}

/** A console page: its guard is its entry in CONTAINER_PAGE_ACCESS (a page without one does not compile). */
function consolePage(path: ContainerPage, load: () => Promise<PageModule>, extra?: Pick<RouteHandle, 'keepAlive'>) {
  return { path, ...page(load, { ...CONTAINER_PAGE_ACCESS[path], ...extra }) };
}

/** Old paths keep working: they forward to their new place with the same query. */
function moved(to: string) {
  return { loader: ({ request }: LoaderFunctionArgs) => redirect(to + new URL(request.url).search) };
}

export const CONTAINER_ROUTES: RouteObject[] = [
  { index: true, loader: () => redirect('/Container/HomePage') },
  consolePage('HomePage', () => import('../features/home/pages/home.page.tsx'), { keepAlive: true }),
  consolePage('HomePage/DeviceDetails', () => import('./device-details/device-details.page.tsx')),
  consolePage('Dashboard', () => import('../features/dashboard/pages/dashboard.page.tsx')),
  consolePage('CarManager', () => import('../features/car/pages/car-manager.page.tsx'), { keepAlive: true }),
  consolePage('CarManager/CarDetails', () => import('../features/car/pages/car-details.page.tsx')),
  consolePage('DBCManager', () => import('../features/dbc/pages/dbc-manager.page.tsx')),
  consolePage('DBCImportPage', () => import('../features/dbc/pages/dbc-import.page.tsx')),
  consolePage('ECUManager', () => import('../features/ecu/pages/ecu-manager.page.tsx')),
  consolePage('BreakdownCodeManager', () => import('../features/ecu/pages/breakdown-code-manager.page.tsx')),
  consolePage('EditTriggerRule', () => import('../features/trigger/pages/edit-trigger-rule.page.tsx')),
  consolePage('WorkOrderList', () => import('../features/workorder/pages/work-order-list.page.tsx')),
  consolePage('HandleWorkOrder', () => import('../features/workorder/pages/handle-work-order.page.tsx')),
  consolePage('WorkOrderDetail', () => import('../features/workorder/pages/work-order-detail.page.tsx')),
  consolePage('UserManager/SubuserManagement', () => import('../features/user/pages/subuser-management.page.tsx')),
  consolePage('UserManager/Log', () => import('../features/user/pages/operation-log.page.tsx')),
  consolePage('UserManager/SystemConfig', () => import('../features/user/pages/system-config.page.tsx')),
  consolePage('UserManager/UserCenter', () => import('../features/user/pages/user-center.page.tsx')),
  consolePage('JobManager', () => import('../features/job/pages/job-manager.page.tsx')),
  consolePage('HmiManager', () => import('../features/hmi/pages/hmi-manager.page.tsx')),
  consolePage('HmiManager/HmiEditor', () => import('../features/hmi/pages/hmi-editor.page.tsx')),
  consolePage('MyHmi', () => import('../features/hmi/pages/my-hmi.page.tsx')),
  consolePage('UserManager/Orders', () => import('../features/billing/pages/orders.page.tsx')),
  consolePage('SystemManager/SystemSetting', () => import('../features/system/pages/system-setting.page.tsx')),
  consolePage('DeviceTypeList', () => import('../features/device-type/pages/device-type-list.page.tsx')),
  consolePage('LabelManager', () => import('../features/label/pages/label-manager.page.tsx')),
  consolePage('ForwardManager', () => import('../features/forward/pages/forward-manager.page.tsx')),
  consolePage('StatisticsManager', () => import('../features/statistics/pages/statistics-manager.page.tsx')),
  consolePage('DataUsage', () => import('../features/data-usage/pages/data-usage.page.tsx')),
  consolePage('PluginManager', () => import('../features/plugin/pages/plugin-manager.page.tsx')),
  consolePage('ApiKeyManager', () => import('../features/api-key/pages/api-key-manager.page.tsx')),
  consolePage('GroupManager', () => import('../features/group/pages/group-manager.page.tsx')),
  consolePage('ProjectManager', () => import('../features/project/pages/project-manager.page.tsx')),
  consolePage('DeviceTypeDetails', () => import('../features/device-type/pages/device-type-details.page.tsx')),
  consolePage('TestManager', () => import('../features/test/pages/test-manager.page.tsx')),
  consolePage('EFenceManager', () => import('../features/efence/pages/efence-manager.page.tsx')),
  consolePage('EFenceManager/EFenceEditor', () => import('../features/efence/pages/efence-editor.page.tsx')),
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
        { path: 'Login', ...page(() => import('../features/auth/pages/login.page.tsx'), { open: 'public' }) },
        {
          // Every other page renders in the console shell (Ant Design's providers), loaded with the
          // first of them: /Login is plain markup and does without it.
          id: 'console',
          lazy: async () => ({ Component: (await import('./console-shell.tsx')).ConsoleShell }),
          children: [
            { path: 'Register', ...page(() => import('../features/auth/pages/register.page.tsx'), { open: 'public' }) },
            { path: 'ForgetPassword', ...page(() => import('../features/auth/pages/forget-password.page.tsx'), { open: 'public' }) },
            { path: 'doc', ...page(() => import('../features/doc/pages/doc.page.tsx'), { open: 'public' }) },
            { path: 'Watch', ...page(() => import('../features/watch/pages/watch.page.tsx'), { open: 'own-account' }) },
            // An HMI screen full-screen (a tablet on the machine): no header, no menus.
            { path: 'HmiView', ...page(() => import('../features/hmi/pages/hmi-view.page.tsx'), { open: 'own-account' }) },
            {
              path: 'Container',
              lazy: async () => ({ Component: (await import('./layout/app-layout.tsx')).AppLayout }),
              children: CONTAINER_ROUTES,
            },
            { path: '*', lazy: async () => ({ Component: (await import('./layout/not-found.tsx')).NotFound }) },
          ],
        },
      ],
    },
  ];
}
