import { matchRoutes, type RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { MENU_PATHS } from '../session/menus.ts';
import { isPublicPath } from './guard.ts';
import { CONTAINER_PAGE_ACCESS } from './page-access.ts';
import { buildRoutes, forbidden, guarded, type RouteHandle } from './routes.ts';

const Dummy = () => null;
const routes = buildRoutes({ Root: Dummy, Fallback: Dummy, ErrorBoundary: Dummy });

function leaf(path: string): RouteObject | undefined {
  const m = matchRoutes(routes, path);
  return m?.[m.length - 1]?.route;
}

/** Spec §2, copied from its route list. */
const CONTAINER = [
  'HomePage',
  'HomePage/DeviceDetails',
  'CarManager',
  'CarManager/CarDetails',
  'DBCManager',
  'DBCImportPage',
  'ECUManager',
  'BreakdownCodeManager',
  'EditTriggerRule',
  'WorkOrderList',
  'HandleWorkOrder',
  'WorkOrderDetail',
  'UserManager/SubuserManagement',
  'UserManager/Log',
  'UserManager/SystemConfig',
  'UserManager/UserCenter',
  'SystemManager/SystemSetting',
  'DeviceTypeList',
  'DeviceTypeDetails',
  'TestManager',
  'EFenceManager',
  'EFenceManager/EFenceEditor',
];
/** Pages the spec names but does not place (its detailed screens are not shown). */
const ADDED = ['Dashboard', 'UserManager/Orders'];

describe('routes of spec §2', () => {
  it.each([...[...CONTAINER, ...ADDED].map((p) => `/Container/${p}`), '/Login', '/Register', '/ForgetPassword', '/doc', '/Watch'])(
    '%s is a lazily loaded page of its own',
    (path) => {
      const route = leaf(path);
      expect(route?.path).not.toBe('*');
      expect(typeof route?.lazy).toBe('function');
    },
  );

  it('keeps only HomePage and CarManager alive', () => {
    const alive = CONTAINER.filter((p) => (leaf(`/Container/${p}`)?.handle as RouteHandle | undefined)?.keepAlive);
    expect(alive).toEqual(['HomePage', 'CarManager']);
  });

  it('marks SystemSetting as system managers only', () => {
    expect((leaf('/Container/SystemManager/SystemSetting')?.handle as RouteHandle | undefined)?.systemManagerOnly).toBe(true);
  });

  it('gives each page to the menu entry that leads to it, but the user centre, which everyone has', () => {
    const handle = (p: string) => leaf(p)?.handle as RouteHandle | undefined;
    for (const [menu, path] of Object.entries(MENU_PATHS)) expect(handle(path)?.menu, path).toBe(menu);
    // Pages reached from a page of the menu belong to its entry.
    expect(handle('/Container/HomePage/DeviceDetails')?.menu).toBe('home');
    expect(handle('/Container/EditTriggerRule')?.menu).toBe('home');
    expect(handle('/Container/CarManager/CarDetails')?.menu).toBe('car');
    expect(handle('/Container/DBCImportPage')?.menu).toBe('dbc');
    expect(handle('/Container/HandleWorkOrder')?.menu).toBe('workorder');
    expect(handle('/Container/WorkOrderDetail')?.menu).toBe('workorder');
    expect(handle('/Container/DeviceTypeDetails')?.menu).toBe('device-type');
    expect(handle('/Container/EFenceManager/EFenceEditor')?.menu).toBe('fence');
    const open = CONTAINER.filter((p) => handle(`/Container/${p}`)?.menu === undefined);
    expect(open).toEqual(['UserManager/UserCenter']);
  });

  it('closes a page whose menu entry the user lacks, and System setting to all but system managers', () => {
    const handle = (p: string) => leaf(p)?.handle as RouteHandle | undefined;
    const car = new Set(['car'] as const);
    const any = () => true;
    expect(forbidden(handle('/Container/CarManager/CarDetails'), 'sub-user', car, any)).toBe(false);
    expect(forbidden(handle('/Container/UserManager/UserCenter'), 'sub-user', car, any)).toBe(false);
    expect(forbidden(handle('/Container/HomePage'), 'sub-user', car, any)).toBe(true);
    expect(forbidden(handle('/Container/DBCImportPage'), 'sub-user', car, any)).toBe(true);
    const all = new Set(Object.keys(MENU_PATHS) as (keyof typeof MENU_PATHS)[]);
    expect(forbidden(handle('/Container/SystemManager/SystemSetting'), 'manager', all, any)).toBe(true);
    expect(forbidden(handle('/Container/SystemManager/SystemSetting'), 'system-manager', all, any)).toBe(false);
  });

  it('closes the orders page to a user without the orders key, whatever menus it has', () => {
    const orders = leaf('/Container/UserManager/Orders')?.handle as RouteHandle | undefined;
    const all = new Set(Object.keys(MENU_PATHS) as (keyof typeof MENU_PATHS)[]);
    const keys = (held: string[]) => (key: string) => held.includes(key);
    expect(forbidden(orders, 'sub-user', all, keys(['car:car:query']))).toBe(true);
    expect(forbidden(orders, 'manager', new Set(), keys(['billing:order:query']))).toBe(false);
  });

  /** Every route of the tree that renders a page, with its full path. */
  function pages(list: RouteObject[], prefix = ''): { path: string; route: RouteObject }[] {
    return list.flatMap((r) => {
      const path = r.path ? `${prefix}/${r.path}` : prefix;
      const here = r.lazy && !r.children && r.path !== '*' ? [{ path, route: r }] : [];
      return [...here, ...pages(r.children ?? [], path)];
    });
  }

  it('guards every page of the router: a menu entry, a key, the system manager, or open on purpose', () => {
    const all = pages(routes);
    expect(all.length).toBeGreaterThan(40);
    const unguarded = all.filter(({ route }) => {
      const h = route.handle as RouteHandle | undefined;
      return !guarded(h) && h?.open === undefined;
    });
    expect(unguarded.map((p) => p.path)).toEqual([]);
    // The console's pages take their guard from the one table, and only they are in it.
    const inConsole = all.filter((p) => p.path.startsWith('/Container/')).map((p) => p.path.slice('/Container/'.length));
    expect(inConsole.sort()).toEqual(Object.keys(CONTAINER_PAGE_ACCESS).sort());
    // Open on purpose: the sign-in pages and documentation to visitors, the user's own account's pages.
    const open = (kind: string) => all.filter((p) => (p.route.handle as RouteHandle | undefined)?.open === kind).map((p) => p.path);
    expect(open('public').sort()).toEqual(['/ForgetPassword', '/Login', '/Register', '/doc']);
    expect(open('own-account').sort()).toEqual(['/Container/MyHmi', '/Container/UserManager/UserCenter', '/HmiView', '/Watch']);
    // A page outside the console shell has no 403 page: a guard there would not be enforced.
    expect(all.filter((p) => !p.path.startsWith('/Container/') && guarded(p.route.handle as RouteHandle)).map((p) => p.path)).toEqual([]);
  });

  it.each([
    ['/Container/Home/HomePage?x=1', '/Container/HomePage?x=1'],
    ['/Container/Device/DeviceList', '/Container/HomePage'],
    ['/Container/Data/RealTimeData?id=7', '/Container/HomePage/DeviceDetails?id=7'],
    ['/Container/Data/HistoricalData', '/Container/HomePage/DeviceDetails'],
    ['/Container/User/UserCenter', '/Container/UserManager/UserCenter'],
  ])('old path %s forwards to %s', async (from, to) => {
    const route = leaf(from.split('?')[0]);
    const loader = route?.loader as (args: { request: Request }) => Response;
    const res = loader({ request: new Request(`http://localhost${from}`) });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(to);
  });

  it('sends / to the home page', () => {
    const m = matchRoutes(routes, '/');
    const loader = m?.[m.length - 1]?.route.loader as () => Response;
    expect(loader().headers.get('location')).toBe('/Container/HomePage');
  });

  it('lets only Login, Register, ForgetPassword and doc through without a token', () => {
    for (const p of ['/Login', '/Register', '/ForgetPassword', '/doc', '/login']) expect(isPublicPath(p), p).toBe(true);
    for (const p of ['/', '/Watch', '/Container/HomePage', '/Loginx', '/docs']) expect(isPublicPath(p), p).toBe(false);
  });
});
