import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, loginAdmin, type TestApp } from './helper.ts';
import { makeTenant, type TestTenant } from './message.fixtures.ts';

const GB = 1024 ** 3;
const MB = 1024 ** 2;

describe('packages (specification)', () => {
  let t: TestApp;
  let admin: string;
  let a: TestTenant;
  let b: TestTenant;
  const spec = (id: string) => `/v1/tenant/tenants/${id}/specification`;
  const req = (method: 'GET' | 'PUT' | 'POST', url: string, auth: string, payload?: object) =>
    t.app.inject({ method, url, headers: { authorization: auth }, payload });

  beforeAll(async () => {
    t = await createTestApp();
    admin = await loginAdmin(t.app);
    a = await makeTenant(t.app, t.database);
    b = await makeTenant(t.app, t.database);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('starts a tenant on the spec §3 defaults', async () => {
    const res = await req('GET', spec(a.id), a.sub.auth);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      tenant_id: a.id,
      info_model: 50,
      things_num: 2,
      can_things_num: null,
      single_data_export: 0,
      maximum_total_number_documents_stored: 0,
      database_storage_space: 2,
      device_file_traffic_management: 0,
      alert_sms: 1000,
      alert_tps: 0,
      sub_user_num: 100,
      label_num: 100,
      maximum_data_retention_days: 180,
      number_simultaneous_connections: 0,
      up_down_stream_connections: 0,
      edge_computing: 10,
      push_rule: 50,
      push_tps: 0,
      alert_rule: 50,
      hmi: 10,
      data_analysis: 10,
      twins_rule_on: null,
      rule_capacity: 20,
      quick_delete_things_list: [],
      platform: 0,
      // 180 days of retention is beyond general storage's 3 months (spec §4)
      special_storage: 1,
    });
    const single = await req('GET', `/v1/billing/tenants/${a.id}/package`, a.manager.auth);
    expect(single.json().things_num).toBe(2);
  });

  it('shows a package to its tenant and to system managers only', async () => {
    expect((await req('GET', spec(a.id), b.manager.auth)).statusCode).toBe(403);
    expect((await req('GET', `/v1/billing/tenants/${a.id}/package`, b.sub.auth)).statusCode).toBe(403);
    expect((await req('GET', spec(a.id), admin)).statusCode).toBe(200);
    expect((await req('GET', spec('00000000-0000-4000-8000-000000000000'), admin)).statusCode).toBe(404);
    expect((await req('PUT', spec(a.id), a.manager.auth, { things_num: 1000 })).statusCode).toBe(403);
    expect((await req('GET', '/v1/tenant/tenants/all/specification', a.manager.auth)).statusCode).toBe(403);
  });

  it('lists every tenant package for system managers', async () => {
    const page = (await req('GET', `/v1/tenant/tenants/all/specification?name=${b.name}`, admin)).json();
    expect(page.total).toBe(1);
    expect(page.list[0]).toMatchObject({ tenant_id: b.id, tenant_name: b.name, things_num: 2 });
    expect((await req('GET', '/v1/tenant/tenants/all/specification?page_size=2', admin)).json().list).toHaveLength(2);
  });

  it('forces exclusive storage beyond 3 months of retention or 2 GB (spec §4)', async () => {
    const put = async (payload: object) => {
      const res = await req('PUT', spec(b.id), admin, payload);
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    expect(await put({ maximum_data_retention_days: 90, database_storage_space: 2, special_storage: 0 })).toMatchObject({
      special_storage: 0,
      maximum_data_retention_days: 90,
    });
    expect((await put({ maximum_data_retention_days: 91 })).special_storage).toBe(1);
    await put({ maximum_data_retention_days: 60, special_storage: 0 });
    expect((await put({ database_storage_space: 3 })).special_storage).toBe(1);
    expect((await put({ database_storage_space: 2, special_storage: 0 })).special_storage).toBe(0);
    expect((await put({ database_storage_space: null })).special_storage).toBe(1);
    // quick delete stays what it is
    expect((await put({ special_storage: 2 })).special_storage).toBe(2);
  });

  it('checks the quick-delete list against its count and refuses unknown fields', async () => {
    const list = [{ third_things_id: 'AAAAAAAAAAAAAAAAAAAA', info_model_name: 'CANDTU-200', info_model_id: 'm1' }];
    const tooLong = await req('PUT', spec(b.id), admin, { quick_delete_things_num: 0, quick_delete_things_list: list });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().code).toBe('package.quick-delete-list-too-long');
    const ok = await req('PUT', spec(b.id), admin, { quick_delete_things_num: 1, quick_delete_things_list: list });
    expect(ok.json().quick_delete_things_list).toEqual(list);
    expect((await req('PUT', spec(b.id), admin, { bogus: 1 })).statusCode).toBe(400);
    expect((await req('PUT', spec(b.id), admin, { things_num: -1 })).statusCode).toBe(400);
    expect((await req('PUT', spec(b.id), admin, { things_num: 1.5 })).statusCode).toBe(400);
  });
});

describe('capacity usage', () => {
  let t: TestApp;
  let admin: string;
  let a: TestTenant;
  let b: TestTenant;
  const devices = ['11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222', '33333333-3333-4333-8333-333333333333'];
  const get = (url: string, auth: string) => t.app.inject({ method: 'GET', url, headers: { authorization: auth } });

  beforeAll(async () => {
    t = await createTestApp();
    admin = await loginAdmin(t.app);
    a = await makeTenant(t.app, t.database);
    b = await makeTenant(t.app, t.database);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('starts empty: 0 MB of 2048 MB', async () => {
    const res = await get(`/v1/data-mgmt/tenants/${a.id}/usage`, a.sub.auth);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ tenant_id: a.id, total_disk_usage: 0, total_capacity: 2048, disk_usage_rate: 0, over: false });
  });

  it('adds what usage.add reports; the rate is in 1/100 percent and over from 10000', async () => {
    const { usage } = t.app.ctx;
    await usage.add(a.id, devices[0], 512 * MB);
    let u = (await get(`/v1/data-mgmt/tenants/${a.id}/usage`, a.manager.auth)).json();
    // 512 of 2048 MB = 25 %
    expect(u).toMatchObject({ total_disk_usage: 512, disk_usage_rate: 2500, over: false });
    await usage.add(a.id, devices[1], GB + 511 * MB);
    await usage.add(a.id, usage.TENANT_WIDE, MB / 2);
    u = await usage.of(a.id);
    // 2047.5 MB of 2048: 99.97 %, not over yet
    expect(u).toMatchObject({ total_disk_usage: 2047.5, disk_usage_rate: 9997, over: false });
    await usage.add(a.id, usage.TENANT_WIDE, MB / 2);
    u = await usage.of(a.id);
    expect(u).toMatchObject({ total_disk_usage: 2048, disk_usage_rate: 10000, over: true });
    expect(await usage.isOver(a.id)).toBe(true);
    // deletions lower it, never below zero
    await usage.add(a.id, devices[1], -10 * GB);
    u = await usage.of(a.id);
    expect(u).toMatchObject({ total_disk_usage: 513, disk_usage_rate: 2504, over: false });
  });

  it('counts the frame chunks the ingest accounts per day, with the device names', async () => {
    const { rows: types } = await t.database.raw.query<{ id: string }>(
      "insert into device_types (tenant_id, name) values ($1, 'usage-type') returning id",
      [a.id],
    );
    await t.database.raw.query(
      `insert into things (id, tenant_id, third_things_id, name, info_model_id, things_key)
       values ($1, $2, 'ABCDEF0123456789ABCD', 'Truck 7', $3, 'k')`,
      [devices[2], a.id, types[0].id],
    );
    await t.database.raw.query(
      "insert into storage_usage (tenant_id, things_id, day, bytes) values ($1, $2, '2024-05-01', $3), ($1, $2, '2024-05-02', $3)",
      [a.id, devices[2], 256 * MB],
    );
    const u = await t.app.ctx.usage.of(a.id);
    expect(u.total_disk_usage).toBe(513 + 512);
    const page = (await get(`/v1/data-mgmt/tenants/${a.id}/usage/things`, a.manager.auth)).json();
    expect(page).toMatchObject({ total: 3, page_size: 5, current_page: 1 });
    expect(page.list).toEqual([
      { things_id: devices[0], name: null, bytes: 512 * MB, usage: 512, rate: 2500 },
      { things_id: devices[2], name: 'Truck 7', bytes: 512 * MB, usage: 512, rate: 2500 },
      { things_id: devices[1], name: null, bytes: 0, usage: 0, rate: 0 },
    ]);
  });

  it('pages the capacity table 5 to 25 rows', async () => {
    expect((await get(`/v1/data-mgmt/tenants/${a.id}/usage/things?page_size=4`, a.manager.auth)).statusCode).toBe(400);
    expect((await get(`/v1/data-mgmt/tenants/${a.id}/usage/things?page_size=26`, a.manager.auth)).statusCode).toBe(400);
    const p2 = (await get(`/v1/data-mgmt/tenants/${a.id}/usage/things?page_size=5&current_page=2`, a.manager.auth)).json();
    expect(p2).toMatchObject({ total: 3, list: [] });
  });

  it('follows the package space and keeps tenants apart', async () => {
    await t.app.inject({
      method: 'PUT',
      url: `/v1/tenant/tenants/${a.id}/specification`,
      headers: { authorization: admin },
      payload: { database_storage_space: 4 },
    });
    expect(await t.app.ctx.usage.of(a.id)).toMatchObject({ total_capacity: 4096, disk_usage_rate: 2502 });
    expect((await get(`/v1/data-mgmt/tenants/${a.id}/usage`, b.manager.auth)).statusCode).toBe(403);
    expect((await get(`/v1/data-mgmt/tenants/${a.id}/usage/things`, b.manager.auth)).statusCode).toBe(403);
    expect((await t.app.ctx.usage.of(b.id)).total_disk_usage).toBe(0);
    expect((await get(`/v1/data-mgmt/tenants/${a.id}/usage`, admin)).json().total_disk_usage).toBe(1025);
    const all = (await get('/v1/tenant/tenants/all/usage-statistics?page_size=50', admin)).json();
    expect(all.list.find((x: { tenant_id: string }) => x.tenant_id === a.id)).toMatchObject({
      tenant_name: a.name,
      total_disk_usage: 1025,
    });
    expect((await get('/v1/tenant/tenants/all/usage-statistics', a.manager.auth)).statusCode).toBe(403);
  });

  it('forgets a deleted device', async () => {
    await t.app.ctx.usage.remove(a.id, devices[0]);
    expect((await t.app.ctx.usage.of(a.id)).total_disk_usage).toBe(513);
  });
});
