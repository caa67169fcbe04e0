import fs from 'node:fs';
import { GRANTABLE_KEYS, PERMISSIONS } from '@loggerhead/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type LoggerheadApp } from '../src/app.ts';
import { isReadAction } from '../src/lib/auth.ts';
import { activeTenant, loginAs, mobile } from './accounts.factory.ts';
import { loginAdmin, openTestDatabase, type TestApp, testConfig } from './helper.ts';

/**
 * The permission matrix: every key of the contract, checked through the real
 * central check (the app's onRequest hook) on a probe route guarded by that key,
 * for the system manager, a tenant manager, sub-users with and without the key,
 * and the read-only experience account. Then the real account routes.
 */
let t: TestApp;
let drop: () => Promise<void>;
const probe = (i: number) => `/v1/__probe/${i}`;

beforeAll(async () => {
  const db = await openTestDatabase();
  drop = db.drop;
  const config = testConfig({ experience: true });
  const app: LoggerheadApp = await buildApp(config, { database: db.database, logger: false });
  PERMISSIONS.forEach((def, i) => {
    app.get(probe(i), { config: { permission: def.key } }, async () => ({ ok: true }));
  });
  await app.ready();
  t = {
    app,
    config,
    database: db.database,
    close: async () => {
      await app.close();
      await drop();
      fs.rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
});
afterAll(async () => {
  await t?.close();
});

const get = (url: string, auth: string) => t.app.inject({ method: 'GET', url, headers: { authorization: auth } });

async function subUser(mgr: { tenantId: string; auth: string; username: string }, name: string, grants: readonly string[]) {
  const m = mobile();
  const res = await t.app.inject({
    method: 'POST',
    url: `/v1/tenant/tenants/${mgr.tenantId}/users`,
    headers: { authorization: mgr.auth },
    payload: { username: name, mobile: m, grants },
  });
  if (res.statusCode !== 201) throw new Error(res.body);
  const login = await loginAs(t.app, `${name}@${mgr.username}`, m.slice(-8));
  return { id: res.json().id as string, auth: `Bearer ${login.json().token}`, login: `${name}@${mgr.username}`, password: m.slice(-8) };
}

describe('permission matrix over every key', () => {
  let admin: string;
  let mgr: Awaited<ReturnType<typeof activeTenant>>;
  let none: { auth: string };
  let all: { auth: string };
  let half: { auth: string };
  let halfKeys: Set<string>;
  let forged: { auth: string };
  let demo: string;

  beforeAll(async () => {
    admin = await loginAdmin(t.app);
    mgr = await activeTenant(t);
    none = await subUser(mgr, 'sub_none', []);
    all = await subUser(mgr, 'sub_all', GRANTABLE_KEYS);
    halfKeys = new Set(GRANTABLE_KEYS.filter((_, i) => i % 2 === 0));
    half = await subUser(mgr, 'sub_half', [...halfKeys]);
    // keys the API never grants, written straight into the grant table: the check must still refuse them
    const f = await subUser(mgr, 'sub_forged', []);
    await t.database.raw.query(`insert into user_grants (user_id, key) select $1, k from unnest($2::text[]) k`, [
      f.id,
      PERMISSIONS.filter((p) => p.scope === 'system' || p.scope === 'manager').map((p) => p.key),
    ]);
    forged = await loginAs(t.app, f.login, f.password).then((r) => ({ auth: `Bearer ${r.json().token}` }));
    demo = `Bearer ${(await t.app.inject({ method: 'POST', url: '/v1/control/sessions/experience' })).json().token}`;
  });

  it('covers a non-trivial key table', () => {
    expect(PERMISSIONS.length).toBeGreaterThan(50);
    expect(new Set(PERMISSIONS.map((p) => p.key)).size).toBe(PERMISSIONS.length);
    for (const p of PERMISSIONS) expect(p.key).toMatch(/^[a-z-]+:[a-z-]+:[A-Za-z-]+$/);
  });

  it.each(PERMISSIONS.map((def, i) => [def.key, def.scope, i] as const))('%s (%s)', async (key, scope, i) => {
    const url = probe(i);
    const refused = async (auth: string, who: string) => {
      const res = await get(url, auth);
      expect(res.statusCode, `${who} on ${key}`).toBe(403);
      expect(res.json().code).toBe('http.403');
    };
    const allowed = async (auth: string, who: string) => expect((await get(url, auth)).statusCode, `${who} on ${key}`).toBe(200);

    await refused(none.auth, 'sub-user without grants');
    if (scope === 'system') {
      await allowed(admin, 'system manager');
      await refused(mgr.auth, 'tenant manager');
      await refused(all.auth, 'sub-user with all grants');
      await refused(forged.auth, 'sub-user with a forged grant');
      await refused(demo, 'experience');
      return;
    }
    await allowed(mgr.auth, 'tenant manager');
    if (scope === 'manager') {
      await refused(all.auth, 'sub-user with all grants');
      await refused(forged.auth, 'sub-user with a forged grant');
      return;
    }
    await allowed(all.auth, 'sub-user with all grants');
    if (halfKeys.has(key)) await allowed(half.auth, 'sub-user with this key');
    else await refused(half.auth, 'sub-user without this key');
    if (isReadAction(key)) await allowed(demo, 'experience');
    else await refused(demo, 'experience');
  });

  it('refuses without a token before any permission check', async () => {
    expect((await t.app.inject({ method: 'GET', url: probe(0) })).statusCode).toBe(401);
  });
});

describe('real account routes under their keys', () => {
  it('guards sub-user management (manager), customisation and op-log (grantable), tenant admin and push log (system)', async () => {
    const admin = await loginAdmin(t.app);
    const mgr = await activeTenant(t);
    const target = await subUser(mgr, 'target_1', []);
    const none = await subUser(mgr, 'plain_1', []);
    const granted = await subUser(mgr, 'granted_1', ['tenant:customization:update', 'data-mgmt:op-log:query']);
    const T = mgr.tenantId;
    const routes: { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string; scope: 'manager' | 'tenant' | 'system'; payload?: object }[] = [
      { method: 'GET', url: `/v1/tenant/tenants/${T}/users`, scope: 'manager' },
      { method: 'POST', url: `/v1/tenant/tenants/${T}/users`, scope: 'manager', payload: { username: 'made_by_x', mobile: mobile() } },
      { method: 'GET', url: `/v1/tenant/tenants/${T}/users/${target.id}`, scope: 'manager' },
      { method: 'PUT', url: `/v1/tenant/tenants/${T}/users/${target.id}`, scope: 'manager', payload: { description: 'x' } },
      { method: 'POST', url: `/v1/tenant/tenants/${T}/users/${target.id}/reset-password`, scope: 'manager', payload: {} },
      {
        method: 'PUT',
        url: `/v1/tenant/tenants/${T}/customization`,
        scope: 'tenant',
        payload: { data: [{ key: 'systemTheme', value: 'blue' }] },
      },
      { method: 'GET', url: `/v1/data-mgmt/tenants/${T}/op-logs`, scope: 'tenant' },
      { method: 'GET', url: '/v1/tenant/tenants', scope: 'system' },
      { method: 'GET', url: '/v1/tenant/tenant-audits', scope: 'system' },
      { method: 'GET', url: '/v1/tenant/tenant-audit-statistic', scope: 'system' },
      { method: 'GET', url: '/v1/tenant/tenants-csv-file', scope: 'system' },
      { method: 'PUT', url: `/v1/tenant/tenants/${T}`, scope: 'system', payload: { priority: 1 } },
      { method: 'PUT', url: `/v1/tenant/tenants/${T}/audit/1`, scope: 'system', payload: {} },
      { method: 'GET', url: '/v1/notification/push-logs', scope: 'system' },
      { method: 'DELETE', url: `/v1/tenant/tenants/${T}/users/${target.id}`, scope: 'manager' },
    ];
    const call = (r: (typeof routes)[number], auth: string) =>
      t.app.inject({ method: r.method, url: r.url, headers: { authorization: auth }, ...(r.payload ? { payload: r.payload } : {}) });
    for (const r of routes) {
      const label = `${r.method} ${r.url}`;
      expect((await call(r, none.auth)).statusCode, `plain sub-user: ${label}`).toBe(403);
      if (r.scope === 'system') {
        expect((await call(r, mgr.auth)).statusCode, `manager: ${label}`).toBe(403);
        expect((await call(r, admin)).statusCode, `admin: ${label}`).toBeLessThan(300);
      } else {
        if (r.scope === 'tenant') expect((await call(r, granted.auth)).statusCode, `granted: ${label}`).toBeLessThan(300);
        else expect((await call(r, granted.auth)).statusCode, `granted: ${label}`).toBe(403);
        expect((await call(r, mgr.auth)).statusCode, `manager: ${label}`).toBeLessThan(300);
      }
    }
  });
});
