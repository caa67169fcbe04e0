import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { behaviourRepository } from '../src/modules/behaviour/behaviour.repository.ts';
import { BEHAVIOUR_KEEP_DAYS, behaviourService } from '../src/modules/behaviour/behaviour.service.ts';
import { createTestApp, loginAdmin, type TestApp } from './helper.ts';
import { makeSubUser, makeTenant, type TenantFixture } from './things.fixtures.ts';

/** User behaviour (spec §6 behaviour tracking, §7 /out-wrapper): header clicks stored and summarised. */
describe('user behaviour', () => {
  let t: TestApp;
  let a: TenantFixture;
  let b: TenantFixture;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp();
    a = await makeTenant(t);
    b = await makeTenant(t);
    admin = await loginAdmin(t.app);
  });
  afterAll(async () => {
    await t?.close();
  });

  const post = (auth: string | null, payload: unknown) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/out-wrapper/user-behaviours',
      headers: auth ? { authorization: auth } : {},
      payload: payload as object,
    });
  const summary = (auth: string, q: Record<string, string | number>) =>
    t.app.inject({
      method: 'GET',
      url: `/v1/out-wrapper/user-behaviours/summary?${new URLSearchParams(Object.entries(q).map(([k, v]): [string, string] => [k, String(v)]))}`,
      headers: { authorization: auth },
    });
  const click = (module: string, action = 'open') => ({ platform: 'web', module, action });

  it('stores a batch under the session’s tenant and user, whatever the body claims', async () => {
    const start = Date.now() - 1000;
    const sub = await makeSubUser(t, b, []);
    expect((await post(a.auth, { events: [click('car'), click('car'), click('dbc')] })).json()).toEqual({ accepted: 3 });
    // A tenant_id or user_id in the body is not taken: the clicks are B's sub-user's.
    const claimed = await post(sub.auth, { events: [{ ...click('car'), tenant_id: a.tenantId, user_id: a.managerId }] });
    expect(claimed.json()).toEqual({ accepted: 1 });
    expect((await post(b.auth, { events: [click('car')] })).statusCode).toBe(200);

    const s = (await summary(admin, { start_time: start, end_time: Date.now() + 1000 })).json();
    const rowsOf = (tenant: TenantFixture) =>
      s.rows
        .filter((r: { tenant_id: string }) => r.tenant_id === tenant.tenantId)
        .map((r: { module: string; action: string; count: number; users: number; tenant_name: string }) => [
          r.module,
          r.action,
          r.count,
          r.users,
          r.tenant_name,
        ]);
    expect(rowsOf(a)).toEqual([
      ['car', 'open', 2, 1, a.name],
      ['dbc', 'open', 1, 1, a.name],
    ]);
    expect(rowsOf(b)).toEqual([['car', 'open', 2, 2, b.name]]);
    expect(s.total).toBeGreaterThanOrEqual(5);

    // By tenant and module; a period before the clicks has none.
    const onlyA = (await summary(admin, { start_time: start, end_time: Date.now() + 1000, tenant_id: a.tenantId, module: 'dbc' })).json();
    expect(onlyA).toMatchObject({ total: 1, rows: [{ module: 'dbc', count: 1 }] });
    const before = (await summary(admin, { start_time: start - 86_400_000, end_time: start - 3_600_000, tenant_id: a.tenantId })).json();
    expect(before).toEqual({ total: 0, rows: [] });
  });

  it('is bounded: signed-in callers only, 50 events of short names a post, a small body', async () => {
    expect((await post(null, { events: [click('car')] })).statusCode).toBe(401);
    expect((await post(a.auth, { events: Array.from({ length: 51 }, () => click('car')) })).statusCode).toBe(400);
    expect((await post(a.auth, { events: [] })).statusCode).toBe(400);
    expect((await post(a.auth, { events: [click('x'.repeat(65))] })).statusCode).toBe(400);
    expect((await post(a.auth, { events: [click('<script>')] })).statusCode).toBe(400);
    const big = await post(a.auth, { events: [click('car')], padding: 'x'.repeat(40_000) });
    expect(big.statusCode).toBe(413);
  });

  it('shows the summary to system managers only, over a period of at most a year', async () => {
    const now = Date.now();
    expect((await summary(a.auth, { start_time: now - 1000, end_time: now })).statusCode).toBe(403);
    expect((await summary(admin, { start_time: now, end_time: now - 1000 })).statusCode).toBe(400);
    expect((await summary(admin, { start_time: now - 400 * 86_400_000, end_time: now })).statusCode).toBe(400);
  });

  it(`keeps clicks ${BEHAVIOUR_KEEP_DAYS} days: the hourly retention drops older ones, in batches, and keeps the rest`, async () => {
    const c = await makeTenant(t);
    expect((await post(c.auth, { events: Array.from({ length: 7 }, (_, i) => click('retention', `a${i}`)) })).json()).toEqual({
      accepted: 7,
    });
    const day = 86_400_000;
    const now = Date.now();
    const age = async (action: string, days: number) =>
      t.database.raw.query('update user_behaviours set at = $3 where tenant_id = $1 and action = $2', [
        c.tenantId,
        action,
        new Date(now - days * day),
      ]);
    // Four past the limit, two just inside it, one of today.
    for (const [action, days] of [
      ['a0', 1000],
      ['a1', 500],
      ['a2', BEHAVIOUR_KEEP_DAYS + 1],
      ['a3', BEHAVIOUR_KEEP_DAYS + 0.01],
      ['a4', BEHAVIOUR_KEEP_DAYS - 1],
      ['a5', 300],
    ] as const)
      await age(action, days);
    const kept = async () =>
      (
        await t.database.raw.query<{ action: string }>('select action from user_behaviours where tenant_id = $1 order by action', [
          c.tenantId,
        ])
      ).rows.map((r) => r.action);

    // Small batches: the sweep goes on until none is left.
    expect(await behaviourRepository(t.database.raw).purgeBefore(new Date(now - BEHAVIOUR_KEEP_DAYS * day), 3)).toBe(4);
    expect(await kept()).toEqual(['a4', 'a5', 'a6']);
    // The service's sweep keeps what is young enough: a summary over the last year still counts all it holds.
    expect(await behaviourService(behaviourRepository(t.database.raw)).purge(now)).toBe(0);
    const year = (await summary(admin, { start_time: now - 365 * day, end_time: now + 1000, tenant_id: c.tenantId })).json();
    expect(year.total).toBe(2);
    // A year and more later, all are gone.
    expect(await behaviourService(behaviourRepository(t.database.raw)).purge(now + 2 * BEHAVIOUR_KEEP_DAYS * day)).toBeGreaterThanOrEqual(
      3,
    );
    expect(await kept()).toEqual([]);
  });
});
