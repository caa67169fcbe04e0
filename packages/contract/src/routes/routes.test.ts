import { describe, expect, it } from 'vitest';
import { isPermissionKey } from '../permissions.ts';
import { type RouteDef, routePath } from './define.ts';
import { Routes } from './index.ts';

describe('the route table', () => {
  const all = Object.entries(Routes).flatMap(([module, routes]) =>
    Object.entries(routes).map(([name, r]) => ({ id: `${module}.${name}`, r: r as RouteDef })),
  );

  it('names a permission key, or says it is public, open to any signed-in user or a socket, on every route (one of them)', () => {
    const ways = (r: RouteDef) => [r.public === true, r.signedIn === true, r.socket === true, Boolean(r.permission) && !r.socket];
    expect(all.filter(({ r }) => ways(r).filter(Boolean).length !== 1).map((x) => x.id)).toEqual([]);
  });

  it('names only permission keys the contract knows (a socket’s too)', () => {
    expect(all.filter(({ r }) => r.permission !== undefined && !isPermissionKey(r.permission)).map((x) => x.id)).toEqual([]);
  });

  it('has no two routes with the same method and path', () => {
    const seen = all.map(({ r }) => `${r.method} ${r.path}`);
    expect(seen.filter((k, i) => seen.indexOf(k) !== i)).toEqual([]);
  });

  it('declares a params schema exactly for the parameters of the path', () => {
    const wrong = all.filter(({ r }) => {
      const inPath = [...r.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]).sort();
      const shape = r.params && 'shape' in r.params ? Object.keys(r.params.shape as object).sort() : [];
      return inPath.join() !== shape.join();
    });
    expect(wrong.map((x) => x.id)).toEqual([]);
  });
});

describe('routePath', () => {
  it('fills and encodes the path parameters', () => {
    expect(routePath(Routes.things.get, { tenant_id: 't 1', things_id: 'a/b' })).toBe('/things/tenants/t%201/things/a%2Fb');
  });

  it('refuses a missing parameter instead of calling a wrong URL', () => {
    expect(() => routePath(Routes.things.get, { tenant_id: 't' } as never)).toThrow(/things_id/);
  });
});
