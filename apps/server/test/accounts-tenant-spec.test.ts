import { MAX_RESERVES_DAYS, PACKAGE_DEFAULTS } from '@loggerhead/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeTenant, loginAs, mobile } from './accounts.factory.ts';
import { createTestApp, type TestApp } from './helper.ts';

/** PUT /tenant/users/self/tenant-spec (spec §7): reclaim_policy and max_reserves_duration. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const put = (auth: string, payload: unknown) =>
  t.app.inject({ method: 'PUT', url: '/v1/tenant/users/self/tenant-spec', headers: { authorization: auth }, payload: payload as object });
const tenant = async (auth: string) =>
  (await t.app.inject({ method: 'GET', url: '/v1/tenant/users/self/tenant', headers: { authorization: auth } })).json();

describe('tenant spec', () => {
  it('starts as the package allows, takes a shorter keeping time, and goes back', async () => {
    const mgr = await activeTenant(t);
    expect(await tenant(mgr.auth)).toMatchObject({ reclaim_policy: 0, max_reserves_duration: null });

    const early = await put(mgr.auth, { reclaim_policy: 1, max_reserves_duration: 30 });
    expect(early.statusCode).toBe(200);
    expect(early.json()).toMatchObject({ id: mgr.tenantId, reclaim_policy: 1, max_reserves_duration: 30 });
    expect(await tenant(mgr.auth)).toMatchObject({ reclaim_policy: 1, max_reserves_duration: 30 });

    const back = await put(mgr.auth, { reclaim_policy: 0 });
    expect(back.statusCode).toBe(200);
    expect(await tenant(mgr.auth)).toMatchObject({ reclaim_policy: 0, max_reserves_duration: null });
  });

  it('refuses values outside the rules, naming the field, and changes nothing', async () => {
    const mgr = await activeTenant(t);
    const limit = PACKAGE_DEFAULTS.maximum_data_retention_days as number;
    const cases: [unknown, string][] = [
      [{ reclaim_policy: 2 }, 'reclaim_policy'],
      [{ reclaim_policy: -1 }, 'reclaim_policy'],
      [{ reclaim_policy: 1 }, 'max_reserves_duration'],
      [{ reclaim_policy: 1, max_reserves_duration: 0 }, 'max_reserves_duration'],
      [{ reclaim_policy: 1, max_reserves_duration: limit + 1 }, 'max_reserves_duration'],
      [{ reclaim_policy: 0, max_reserves_duration: 10 }, 'max_reserves_duration'],
      [{ reclaim_policy: 1, max_reserves_duration: 1.5 }, 'max_reserves_duration'],
      [{ reclaim_policy: '1', max_reserves_duration: 10 }, 'reclaim_policy'],
      [{}, 'reclaim_policy'],
    ];
    for (const [body, field] of cases) {
      const r = await put(mgr.auth, body);
      expect(r.statusCode, JSON.stringify(body)).toBe(400);
      const err = r.json();
      expect(err.code).toBe('http.400');
      expect(err.field, JSON.stringify(body)).toBe(field);
    }
    const over = await put(mgr.auth, { reclaim_policy: 1, max_reserves_duration: limit + 1 });
    expect(over.json().details).toEqual({ max: limit });
    // The package's own keeping time is the longest allowed.
    expect((await put(mgr.auth, { reclaim_policy: 1, max_reserves_duration: limit })).statusCode).toBe(200);
    await put(mgr.auth, { reclaim_policy: 0 });
    expect(await tenant(mgr.auth)).toMatchObject({ reclaim_policy: 0, max_reserves_duration: null });
  });

  it('follows the package: a package keeping data for ever allows up to the overall bound', async () => {
    const mgr = await activeTenant(t);
    // With the default package, 1000 days is too long.
    expect((await put(mgr.auth, { reclaim_policy: 1, max_reserves_duration: 1000 })).statusCode).toBe(400);
    await t.database.raw.query('update tenant_packages set maximum_data_retention_days = null where tenant_id = $1', [mgr.tenantId]);
    expect((await put(mgr.auth, { reclaim_policy: 1, max_reserves_duration: 1000 })).statusCode).toBe(200);
    expect((await put(mgr.auth, { reclaim_policy: 1, max_reserves_duration: MAX_RESERVES_DAYS + 1 })).statusCode).toBe(400);
  });

  it('is the manager’s: a sub-user is refused', async () => {
    const mgr = await activeTenant(t);
    const m = mobile();
    const created = await t.app.inject({
      method: 'POST',
      url: `/v1/tenant/tenants/${mgr.tenantId}/users`,
      headers: { authorization: mgr.auth },
      payload: { username: 'spec_sub', mobile: m },
    });
    expect(created.statusCode).toBe(201);
    const sub = `Bearer ${(await loginAs(t.app, `spec_sub@${mgr.username}`, m.slice(-8))).json().token}`;
    const r = await put(sub, { reclaim_policy: 1, max_reserves_duration: 7 });
    expect(r.statusCode).toBe(403);
    expect(r.json().code).toBe('http.403');
    expect(await tenant(mgr.auth)).toMatchObject({ reclaim_policy: 0, max_reserves_duration: null });
  });
});
