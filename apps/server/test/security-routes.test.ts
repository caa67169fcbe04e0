import fs from 'node:fs';
import { isPermissionKey, permissionDef, type RouteDef, Routes } from '@loggerhead/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type LoggerheadApp, type RouteEntry } from '../src/app.ts';
import { openTestDatabase, type TestApp, testConfig } from './helper.ts';
import { makeSubUser, makeTenant } from './things.fixtures.ts';

/**
 * Authentication and permissions are decided by the route the router matched, for every route the
 * router has (its own table, not a hand list): no spelling of a path reaches a handler without a
 * token, and a token without the route's key gets 403 before the handler runs.
 */

/** The routes anybody may call, and why. Adding a public route means adding it here, on purpose. */
const PUBLIC_ROUTES: Record<string, string> = {
  'GET /v1/health': 'health check for load balancers',
  'GET /v1/docs': 'API documentation (Swagger UI)',
  'HEAD /v1/docs/': 'API documentation',
  'GET /v1/docs/static/index.html': 'API documentation',
  'GET /v1/docs/static/swagger-initializer.js': 'API documentation',
  'GET /v1/docs/json': 'OpenAPI document',
  'GET /v1/docs/yaml': 'OpenAPI document',
  'GET /v1/docs/static/*': 'API documentation assets',
  'POST /v1/control/sessions': 'login',
  'POST /v1/control/sessions/tenant-manager': 'login of a tenant manager',
  'POST /v1/control/sessions/experience': 'login as the read-only experience account',
  'GET /v1/control/oidc/authorize': 'third-party login: redirect to the provider',
  'GET /v1/control/oidc/callback': 'third-party login: answer of the provider',
  'POST /v1/control/oidc/session': 'third-party login: the browser that started it exchanges its one-time code with its state',
  'GET /v1/control/global-config': 'console configuration shown before login',
  'GET /v1/out-web/deploy/config/info': 'console branding shown before login',
  'POST /v1/out-web/user/login': 'login of a web-deploy user (a locked-out name waits 15 minutes)',
  'GET /v1/tenant/avatars/:file': 'avatar images (random 128-bit names)',
  'GET /v1/tenant/is-manager': 'login page: which login form a name needs',
  'POST /v1/tenant/verification-codes': 'verification codes (rate-limited)',
  'GET /v1/tenant/user-tenant-validate': 'registration: is a name or mobile free',
  'POST /v1/tenant/user-tenants': 'registration',
  'POST /v1/tenant/reset-password': 'password reset with a verification code',
  'PUT /v1/filemanager/recall-upload/:token': 'a device uploads a recalled file (one-time token)',
  'POST /v1/filemanager/recall-upload/:token': 'a device uploads a recalled file (one-time token)',
  'GET /v1/filemanager/recall-upload/:token': 'a device asks how much of a recalled file arrived (one-time token)',
  'GET /v1/out-firmware-mgmt/download/:token': 'a device downloads its firmware (one-time token)',
  'POST /v1/broker/auth': 'an external broker asks whether a device may connect (shared secret; 404 when unset)',
  'POST /v1/broker/acl': 'an external broker asks whether a device may publish or subscribe (shared secret; 404 when unset)',
};

/**
 * The routes any signed-in user may call without a permission key, and why: each acts on the caller's
 * own account, session or tenant record (and checks that itself). A new route either names a key of
 * the contract or is added here, on purpose.
 */
const SIGNED_IN_ROUTES: Record<string, string> = {
  'DELETE /v1/control/sessions/:id': 'logout',
  'POST /v1/control/sessions/monitor': 'a read-only, short-lived session of the own account for the monitor screen',
  'POST /v1/out-wrapper/user-behaviours': 'the caller’s own header clicks, recorded under its session’s tenant and user',
  'POST /v1/out-web/user/logout': 'logout of a web-deploy user',
  'PUT /v1/out-web/user/password/update': 'a web-deploy user’s own password, or a system manager setting one (checked by the service)',
  'GET /v1/control/oidc/link': 'own third-party login link',
  'POST /v1/control/oidc/link': 'own third-party login link',
  'DELETE /v1/control/oidc/link': 'own third-party login link',
  'POST /v1/control/oidc/link/complete': 'own third-party login link (the account and browser that started it)',
  'GET /v1/tenant/users/self': 'own account',
  'PUT /v1/tenant/users/self': 'own account',
  'PUT /v1/tenant/users/self/password': 'own password',
  'PUT /v1/tenant/users/self/mobile': 'own mobile',
  'PUT /v1/tenant/users/self/email': 'own e-mail',
  'PUT /v1/tenant/users/self/avatar': 'own avatar',
  'GET /v1/tenant/users/self/tenant': 'own tenant',
  'GET /v1/tenant/tenant-detail': 'own tenant',
  'PUT /v1/tenant/users/self/tenant': 'own tenant (the manager checks in the service)',
  'PUT /v1/tenant/users/self/tenant-spec': 'own tenant specification request',
  'GET /v1/tenant/tenants/:tenant_id/customization': 'console branding of the own tenant',
  'GET /v1/control/privileges/self': 'own permission map',
  'POST /v1/control/reauth': 're-entering the own password',
  'GET /v1/tenant/users/self/configs': 'own console settings',
  'PUT /v1/tenant/users/self/configs': 'own console settings',
  'GET /v1/tenant/tenants/:tenant_id/users/:user_id/message': 'own in-app messages',
  'GET /v1/tenant/tenants/:tenant_id/users/:user_id/message/unread-count': 'own in-app messages',
  'PUT /v1/tenant/tenants/:tenant_id/users/:user_id/message': 'own in-app messages',
  'PUT /v1/out-web/notice/:noticeId/user/:userId': 'own notices read mark',
  'GET /v1/out-web/notice/user/:userId': 'own notices',
  'GET /v1/tenant/tenants/:id/specification': 'own tenant specification',
  'GET /v1/billing/tenants/:tenant_id/package': 'own tenant package',
  'GET /v1/data-mgmt/tenants/:tenant_id/usage': 'own tenant usage',
  'GET /v1/data-mgmt/tenants/:tenant_id/usage/things': 'own tenant usage by device',
  'POST /v1/billing/tools/assess-tps': 'a calculator, no data',
  'GET /v1/billing/packages': 'the packages on sale, the same for everyone (the buy screen)',
  'GET /v1/billing/content-items': 'prices of package contents, the same for everyone (the capacity order)',
  'GET /v1/billing/stage-discounts': 'discounts by months, the same for everyone (the buy screen)',
  'GET /v1/data-mgmt/tenants/:tenant_id/dashboards': 'dashboards of the devices the caller may read',
  'GET /v1/test-mgmt/runtime': 'whether the Groovy runtime is installed (no tenant data)',
  'GET /v1/out-hmi/tenants/:tenant_id/my-screens': 'the HMI screens given to the caller (or, for a manager, every published one)',
  'GET /v1/out-hmi/tenants/:tenant_id/my-screens/:id':
    'an HMI screen given to the caller, or one the caller may edit (checks out-hmi:screen:query)',
  'POST /v1/out-hmi/tenants/:tenant_id/my-screens/:id/press':
    "a button of an HMI screen given to the caller (else the action's own key and device access)",
};

/** WebSockets that check the session token of their query themselves. */
const SOCKET_ROUTES = ['GET /v1/live'];

let t: TestApp;
let handlerRuns: string[] = [];

beforeAll(async () => {
  const db = await openTestDatabase();
  const config = testConfig();
  const app: LoggerheadApp = await buildApp(config, { database: db.database, logger: false });
  // Whatever the route, this runs right before its handler would.
  app.addHook('preHandler', async (req) => {
    // (the 404 handler runs hooks too; it matched no route)
    if (req.routeOptions.url) handlerRuns.push(`${req.method} ${req.routeOptions.url} ${req.url}`);
  });
  await app.ready();
  t = {
    app,
    config,
    database: db.database,
    close: async () => {
      await app.close();
      await db.drop();
      fs.rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
});
afterAll(async () => {
  await t?.close();
});

const key = (r: RouteEntry) => `${r.method} ${r.url}`;
/** Every route of the contract's table. */
const TABLE: RouteDef[] = Object.values(Routes).flatMap((m) => Object.values(m));
const isHeadOfGet = (r: RouteEntry, all: readonly RouteEntry[]) =>
  r.method === 'HEAD' && all.some((o) => o.method === 'GET' && o.url === r.url);

/** A concrete path for a route pattern: ids as UUIDs, other parameters as plain words. */
function concrete(url: string): string {
  return url
    .replace(/:([a-z_]*id)\b/gi, '3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b')
    .replace(/:[a-z_]+/gi, 'x1')
    .replace(/\*$/, 'x1');
}

/** Other spellings of a path that a router or proxy may read as the same route. */
function spellings(path: string): string[] {
  const out = new Set<string>([path]);
  for (let i = 1; i < path.length; i++) {
    const hex = path.charCodeAt(i).toString(16).padStart(2, '0');
    out.add(`${path.slice(0, i)}%${hex.toUpperCase()}${path.slice(i + 1)}`);
    if (/[a-f]/.test(hex)) out.add(`${path.slice(0, i)}%${hex}${path.slice(i + 1)}`);
  }
  out.add(`/${path}`);
  out.add(path.replace('/v1/', '/v1//'));
  out.add(path.replace(/^\/v1\//, '/api/'));
  out.add(`/api/${path.replace(/^\/v1\//, '').replace(/^([a-z])/, (c) => `%${c.charCodeAt(0).toString(16)}`)}`);
  out.add(`${path}/`);
  out.add(`${path}?`);
  out.add(`${path}#x`);
  out.add(path.toUpperCase());
  out.add(path.replace('/v1/', '/V1/'));
  out.add(path.replace(/\/([a-z])/g, (_m, c: string) => `/${c.toUpperCase()}`));
  out.add(path.replace('/v1/', '/v1/./'));
  out.add(path.replace('/v1/', '/x/../v1/'));
  out.add(path.replace('/v1/', '/v1;/'));
  return [...out];
}

async function tableCounts(): Promise<Record<string, number>> {
  const { rows } = await t.database.raw.query<{ tablename: string }>(
    `select tablename from pg_tables where schemaname = current_schema() order by tablename`,
  );
  const out: Record<string, number> = {};
  for (const { tablename } of rows) {
    // The server's own periodic tasks take their time slots there while the walk runs (no request writes it).
    if (tablename === 'periodic_slots') continue;
    const r = await t.database.raw.query<{ n: string }>(`select count(*)::text as n from "${tablename}"`);
    out[tablename] = Number(r.rows[0].n);
  }
  return out;
}

describe('the route table', () => {
  it('has every module of the console (sanity: the walk below covers real routes)', () => {
    expect(t.app.routeTable.length).toBeGreaterThan(200);
    expect(t.app.routeTable.map(key)).toContain('GET /v1/notification/push-logs');
  });

  it('is public only where the list above says so', () => {
    const open = t.app.routeTable
      .filter((r) => r.config.public && !isHeadOfGet(r, t.app.routeTable))
      .map(key)
      .sort();
    expect(open).toEqual(Object.keys(PUBLIC_ROUTES).sort());
  });

  it('lets only the WebSockets check their own token', () => {
    const sockets = t.app.routeTable.filter((r) => r.config.auth === 'socket' && !isHeadOfGet(r, t.app.routeTable));
    expect(sockets.map(key).sort()).toEqual([...SOCKET_ROUTES].sort());
    for (const r of sockets) expect(r.websocket).toBe(true);
  });

  it('gives every route its way in: public with a reason, a socket, a permission key of the contract, or a signed-in reason', () => {
    // A HEAD route the router adds for a GET shares its config; it is listed under its GET.
    const reasonIn = (list: Record<string, string>, r: RouteEntry) =>
      list[key(r)] ?? (isHeadOfGet(r, t.app.routeTable) ? list[`GET ${r.url}`] : undefined);
    const without = t.app.routeTable
      .filter((r) => {
        if (r.config.public === true) return !reasonIn(PUBLIC_ROUTES, r);
        if (r.config.auth === 'socket') return false;
        if (r.config.permission) return !isPermissionKey(r.config.permission);
        return !reasonIn(SIGNED_IN_ROUTES, r);
      })
      .map(key);
    expect(without).toEqual([]);
    // …and the signed-in list names only routes that exist and carry no key.
    const keyless = t.app.routeTable.filter((r) => !r.config.public && !r.config.auth && !r.config.permission).map(key);
    expect(Object.keys(SIGNED_IN_ROUTES).filter((k) => !keyless.includes(k))).toEqual([]);
  });

  it('registers every route of the contract’s table with its method, URL and way in', () => {
    const registered = new Map(t.app.routeTable.map((r) => [key(r), r]));
    expect(TABLE.length).toBeGreaterThan(0);
    const wrong = TABLE.filter((d) => {
      const r = registered.get(`${d.method} /v1${d.path}`);
      if (!r) return true;
      // A socket checks its token and key itself: the central hook only lets the upgrade through.
      if (d.socket) return !r.websocket || r.config.auth !== 'socket' || r.config.permission !== undefined || r.config.public;
      return r.websocket || r.config.permission !== d.permission || Boolean(r.config.public) !== Boolean(d.public);
    }).map((d) => `${d.method} ${d.path}`);
    expect(wrong).toEqual([]);
  });

  it('registers each route of the table once, from its entry, and none of its method and URL directly beside it', () => {
    const entries = new Set<RouteDef>(TABLE);
    const fromTable = t.app.routeTable.filter((r) => r.config.route && !isHeadOfGet(r, t.app.routeTable));
    // Registered through route() or socketRoute() from an entry of the table (not a definition made up
    // beside it), with that entry's method and URL.
    const mismatched = fromTable
      .filter((r) => {
        const d = r.config.route as RouteDef;
        return !entries.has(d) || key(r) !== `${d.method} /v1${d.path}`;
      })
      .map(key);
    expect(mismatched).toEqual([]);
    expect(new Set(fromTable.map((r) => r.config.route)).size).toBe(fromTable.length);
    expect(fromTable.length).toBe(TABLE.length);
    // A method and URL the table has is not also registered by hand (which would shadow or duplicate it).
    const tableKeys = new Set(TABLE.map((d) => `${d.method} /v1${d.path}`));
    const direct = t.app.routeTable.filter((r) => !r.config.route && tableKeys.has(key(r))).map(key);
    expect(direct).toEqual([]);
  });

  it('registers no API route by hand: every route but a plugin’s (API docs, the console’s files) comes from the table', () => {
    const plugins = t.app.routeTable.filter((r) => r.config.plugin);
    // Sanity: the docs are there, and the plugins’ routes are theirs (public, under the docs prefix here).
    expect(plugins.map(key)).toContain('GET /v1/docs/json');
    expect(plugins.filter((r) => !r.config.public || (!r.url.startsWith('/v1/docs') && r.url.startsWith('/v1/'))).map(key)).toEqual([]);
    const byHand = t.app.routeTable.filter((r) => !r.config.route && !r.config.plugin).map(key);
    expect(byHand).toEqual([]);
  });

  it('names only permission keys the contract knows', () => {
    const unknown = t.app.routeTable.filter((r) => r.config.permission && !permissionDef(r.config.permission)).map(key);
    expect(unknown).toEqual([]);
  });
});

describe('without a token', () => {
  it('no spelling of any non-public route reaches its handler, and nothing is written', async () => {
    const before = await tableCounts();
    handlerRuns = [];
    const reached: string[] = [];
    let calls = 0;
    for (const r of t.app.routeTable) {
      if (r.config.public) continue;
      for (const url of spellings(concrete(r.url))) {
        const res = await t.app.inject({
          method: r.method as 'GET',
          url,
          ...(r.method === 'GET' || r.method === 'HEAD' ? {} : { payload: {} }),
        });
        calls++;
        if (res.statusCode < 400) reached.push(`${r.method} ${url} → ${res.statusCode}`);
      }
    }
    expect(calls).toBeGreaterThan(5000);
    expect(reached).toEqual([]);
    // WebSockets are let through to their handler, which closes an unauthenticated socket at once
    // (test/socket-*.test.ts); every other handler must not have run.
    const sockets = new Set(SOCKET_ROUTES.map((s) => s.split(' ')[1]));
    expect(handlerRuns.filter((h) => !sockets.has(h.split(' ')[1]))).toEqual([]);
    expect(await tableCounts()).toEqual(before);
  });

  it('the push log is closed under every spelling (the review’s finding)', async () => {
    for (const url of ['/%761/notification/push-logs', '/v1/notification/push%2dlogs', '/api/notification/push-logs']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('http.401');
    }
  });
});

describe('with a token that lacks the route’s key', () => {
  it('every guarded route answers 403 before its handler runs, and nothing is written', async () => {
    const tenant = await makeTenant(t);
    const sub = await makeSubUser(t, tenant, []);
    const before = await tableCounts();
    handlerRuns = [];
    const wrong: string[] = [];
    let checked = 0;
    for (const r of t.app.routeTable) {
      const perm = r.config.permission;
      if (!perm || r.config.public) continue;
      const def = permissionDef(perm);
      // A system key is refused to a tenant manager; a manager or grantable key to a sub-user without grants.
      const auth = def?.scope === 'system' ? tenant.auth : sub.auth;
      const path = concrete(r.url);
      for (const url of [path, `${path.slice(0, 1)}%${path.charCodeAt(1).toString(16)}${path.slice(2)}`]) {
        const res = await t.app.inject({
          method: r.method as 'GET',
          url,
          headers: { authorization: auth },
          ...(r.method === 'GET' || r.method === 'HEAD' ? {} : { payload: {} }),
        });
        checked++;
        if (res.statusCode !== 403) wrong.push(`${r.method} ${url} (${perm}) → ${res.statusCode}`);
      }
    }
    expect(checked).toBeGreaterThan(200);
    expect(wrong).toEqual([]);
    expect(handlerRuns).toEqual([]);
    // The walk writes nothing but the audit trail of its refused attempts (the operation log).
    const { op_logs: logged, ...after } = await tableCounts();
    const { op_logs: loggedBefore, ...rest } = before;
    expect(after).toEqual(rest);
    const { rows } = await t.database.raw.query<{ status: number }>('select distinct status from op_logs');
    expect(logged).toBeGreaterThan(loggedBefore);
    expect(rows.map((r) => r.status)).toEqual([403]);
  });

  it('the push log refuses a tenant manager', async () => {
    const tenant = await makeTenant(t);
    const res = await t.app.inject({ method: 'GET', url: '/v1/notification/push-logs', headers: { authorization: tenant.auth } });
    expect(res.statusCode).toBe(403);
  });
});
