import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, loginAdmin, type TestApp } from './helper.ts';
import { makeDevice, makeTenant, type TenantFixture } from './things.fixtures.ts';

/** documents_download_quota (the package's maximum_total_number_documents_stored) bounds a tenant's kept exports. */
describe('the export documents quota', () => {
  let t: TestApp;
  let admin: string;
  let a: TenantFixture;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await loginAdmin(t.app);
    a = await makeTenant(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  const setQuota = async (tenantId: string, documents_download_quota: number | null) => {
    const res = await t.app.inject({
      method: 'PUT',
      url: `/v1/tenant/tenants/${tenantId}/quotas`,
      headers: { authorization: admin },
      payload: { documents_download_quota },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().quotas.find((q: { quota: string }) => q.quota === 'documents_download_quota') as {
      limit: number | null;
      usage: number;
    };
  };

  it('refuses an export past the quota, counts only kept documents, and lets one through once one is cancelled', async () => {
    const dev = await makeDevice(t, a);
    const base = `/v1/data-mgmt/tenants/${a.tenantId}/things/${dev.id}/downloads`;
    const start = () =>
      t.app.inject({
        method: 'POST',
        url: base,
        headers: { authorization: a.auth },
        payload: { begin_time: 0, end_time: 1000, format: 'csv' },
      });

    // the package default (0) does not limit
    const free = await start();
    expect(free.statusCode, free.body).toBe(200);

    expect(await setQuota(a.tenantId, 2)).toMatchObject({ limit: 2, usage: 1 });
    const second = await start();
    expect(second.statusCode, second.body).toBe(200);
    const over = await start();
    expect(over.statusCode).toBe(403);
    expect(over.json()).toMatchObject({
      code: 'quota.limit-reached',
      details: { resource: 'maximum_total_number_documents_stored', limit: 2, current: 2 },
    });
    const kept = await t.database.raw.query<{ n: number }>('select count(*)::int as n from download_tasks where tenant_id = $1', [
      a.tenantId,
    ]);
    expect(kept.rows[0].n).toBe(2);

    // a cancelled (deleted) document no longer counts
    expect(
      (await t.app.inject({ method: 'DELETE', url: `${base}/${free.json().id}`, headers: { authorization: a.auth } })).statusCode,
    ).toBe(204);
    expect((await setQuota(a.tenantId, 2)).usage).toBe(1);
    expect((await start()).statusCode).toBe(200);

    // lifted (null): no limit
    await setQuota(a.tenantId, null);
    expect((await start()).statusCode).toBe(200);
  });
});
