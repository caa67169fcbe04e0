import { matchRoutes, type RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { isPublicPath } from './guard.ts';
import { buildRoutes, type RouteHandle } from './routes.ts';

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
const ADDED = ['Dashboard'];

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
