import type { QuotaResource } from '@loggerhead/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, loginAdmin, type TestApp } from './helper.ts';
import { adminIds, makeTenant, type TestTenant, USER_PASSWORD } from './message.fixtures.ts';

/** Spec §3 package defaults of the counted resources, written out by hand. */
const LIMITS: [QuotaResource, number][] = [
  ['info_model', 50],
  ['things_num', 2],
  ['sub_user_num', 100],
  ['label_num', 100],
  ['edge_computing', 10],
  ['push_rule', 50],
  ['alert_rule', 50],
  ['hmi', 10],
  ['data_analysis', 10],
  ['rule_capacity', 20],
  ['quick_delete_things_num', 0],
  ['max_batch_recall_size', 10],
];

describe('quotas', () => {
  let t: TestApp;
  let admin: string;
  let a: TestTenant;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await loginAdmin(t.app);
    a = await makeTenant(t.app, t.database);
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each(LIMITS)('enforces the default %s limit of %i: one below passes, at the limit it is refused', async (resource, limit) => {
    const quota = t.app.ctx.quota;
    if (limit > 0) await expect(quota.assertCanAdd(a.id, resource, limit - 1)).resolves.toBeUndefined();
    const err = await quota.assertCanAdd(a.id, resource, limit).catch((e) => e);
    expect(err).toMatchObject({ status: 403, body: { code: 'quota.limit-reached', details: { resource, limit, current: limit } } });
    expect(err.body.message).toMatch(/upgrade/i);
  });

  it('leaves the unlimited (null) resources open', async () => {
    await expect(t.app.ctx.quota.assertCanAdd(a.id, 'can_things_num', 1_000_000)).resolves.toBeUndefined();
    await expect(t.app.ctx.quota.assertCanAdd(a.id, 'ies_things_num', 1_000_000)).resolves.toBeUndefined();
    expect(await t.app.ctx.quota.limit(a.id, 'can_things_num')).toBeNull();
  });

  it('counts several added at once and accepts the caller instead of a tenant id', async () => {
    const auth = { tenantId: a.id } as Parameters<typeof t.app.ctx.quota.assertCanAdd>[0];
    await expect(t.app.ctx.quota.assertCanAdd(auth, 'things_num', 0, 2)).resolves.toBeUndefined();
    await expect(t.app.ctx.quota.assertCanAdd(auth, 'things_num', 0, 3)).rejects.toMatchObject({ status: 403 });
    expect(await t.app.ctx.quota.check(a.id, 'things_num', 1, 1)).toEqual({
      resource: 'things_num',
      limit: 2,
      current: 1,
      adding: 1,
      allowed: true,
    });
  });

  it('follows the package when a system manager changes it', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: `/v1/tenant/tenants/${a.id}/specification`,
      headers: { authorization: admin },
      payload: { things_num: 5, label_num: null },
    });
    expect(res.statusCode, res.body).toBe(200);
    await expect(t.app.ctx.quota.assertCanAdd(a.id, 'things_num', 4)).resolves.toBeUndefined();
    await expect(t.app.ctx.quota.assertCanAdd(a.id, 'things_num', 5)).rejects.toMatchObject({ body: { code: 'quota.limit-reached' } });
    await expect(t.app.ctx.quota.assertCanAdd(a.id, 'label_num', 1_000_000)).resolves.toBeUndefined();
  });

  it('treats the stored-documents default of 0 as no limit, and a number set as one', async () => {
    await expect(t.app.ctx.quota.assertCanAdd(a.id, 'maximum_total_number_documents_stored', 1_000_000)).resolves.toBeUndefined();
    await t.database.raw.query('update tenant_packages set maximum_total_number_documents_stored = 3 where tenant_id = $1', [a.id]);
    await expect(t.app.ctx.quota.assertCanAdd(a.id, 'maximum_total_number_documents_stored', 2)).resolves.toBeUndefined();
    await expect(t.app.ctx.quota.assertCanAdd(a.id, 'maximum_total_number_documents_stored', 3)).rejects.toMatchObject({
      body: { code: 'quota.limit-reached', details: { resource: 'maximum_total_number_documents_stored', limit: 3 } },
    });
    await t.database.raw.query('update tenant_packages set maximum_total_number_documents_stored = 0 where tenant_id = $1', [a.id]);
  });

  it('holds the platform tenant to its package until the system manager exempts it on the quota screen', async () => {
    const { tenantId } = await adminIds(t.database);
    const quotas = (body?: object) =>
      t.app.inject({
        method: body ? 'PUT' : 'GET',
        url: `/v1/tenant/tenants/${tenantId}/quotas`,
        headers: { authorization: admin },
        payload: body,
      });
    const off = await quotas({ quota_exempt: false });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toMatchObject({ tenant_id: tenantId, is_platform: true, quota_exempt: false });
    await expect(t.app.ctx.quota.assertCanAdd(tenantId, 'things_num', 1_000_000)).rejects.toMatchObject({
      body: { code: 'quota.limit-reached', details: { resource: 'things_num', limit: 2 } },
    });
    const on = await quotas({ quota_exempt: true });
    expect(on.json()).toMatchObject({ is_platform: true, quota_exempt: true });
    expect((await quotas()).json().quota_exempt).toBe(true);
    await expect(t.app.ctx.quota.assertCanAdd(tenantId, 'things_num', 1_000_000)).resolves.toBeUndefined();
    // a customer tenant can be exempted the same way, and is not by default
    expect(
      (await t.app.inject({ method: 'GET', url: `/v1/tenant/tenants/${a.id}/quotas`, headers: { authorization: admin } })).json(),
    ).toMatchObject({
      is_platform: false,
      quota_exempt: false,
    });
    // only a system manager sets the flag
    const byTenant = await t.app.inject({
      method: 'PUT',
      url: `/v1/tenant/tenants/${a.id}/quotas`,
      headers: { authorization: a.manager.auth },
      payload: { quota_exempt: true },
    });
    expect(byTenant.statusCode).toBe(403);
  });

  it('refuses an unknown tenant', async () => {
    await expect(t.app.ctx.quota.assertCanAdd('00000000-0000-4000-8000-000000000000', 'things_num', 0)).rejects.toMatchObject({
      status: 404,
    });
  });

  it('refuses the sub-user past the package limit on the sub-user creation route', async () => {
    const c = await makeTenant(t.app, t.database); // one sub-user already
    const { rows } = await t.database.raw.query<{ password_hash: string }>('select password_hash from users where id = $1', [c.sub.id]);
    // 98 more made directly: 99 sub-users, one below the default limit of 100
    await t.database.raw.query(
      `insert into users (tenant_id, username, name, password_hash, parent_user_id)
       select $1, 'bulk' || g, 'bulk' || g, $2, $3 from generate_series(1, 98) g`,
      [c.id, rows[0].password_hash, c.manager.id],
    );
    const add = (username: string, mobile: string) =>
      t.app.inject({
        method: 'POST',
        url: `/v1/tenant/tenants/${c.id}/users`,
        headers: { authorization: c.manager.auth },
        payload: { username, mobile, password: USER_PASSWORD },
      });
    const hundredth = await add('hundredth', '13900000100');
    expect(hundredth.statusCode, hundredth.body).toBe(201);
    const over = await add('onetoomany', '13900000101');
    expect(over.statusCode).toBe(403);
    expect(over.json().code).toBe('quota.limit-reached');
  });

  it('refuses a sub-user past the users_quota the system manager set', async () => {
    const c = await makeTenant(t.app, t.database); // one sub-user already
    const set = await t.app.inject({
      method: 'PUT',
      url: `/v1/tenant/tenants/${c.id}/quotas`,
      headers: { authorization: admin },
      payload: { users_quota: 2 },
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().quotas.find((q: { quota: string }) => q.quota === 'users_quota')).toMatchObject({ limit: 2, usage: 1 });
    const add = (username: string, mobile: string) =>
      t.app.inject({
        method: 'POST',
        url: `/v1/tenant/tenants/${c.id}/users`,
        headers: { authorization: c.manager.auth },
        payload: { username, mobile, password: USER_PASSWORD },
      });
    expect((await add('second', '13900000201')).statusCode).toBe(201);
    const over = await add('third', '13900000202');
    expect(over.statusCode).toBe(403);
    expect(over.json()).toMatchObject({ code: 'quota.limit-reached', details: { resource: 'sub_user_num', limit: 2, current: 2 } });
    const count = await t.database.raw.query<{ n: number }>(
      'select count(*)::int as n from users where tenant_id = $1 and parent_user_id is not null',
      [c.id],
    );
    expect(count.rows[0].n).toBe(2);
  });
});
