import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, loginAdmin, type TestApp } from './helper.ts';
import { makeTenant, type TestTenant } from './message.fixtures.ts';

const GRANTS = ['workorder:workorder:create', 'workorder:workorder:query'];

describe('capacity requests', () => {
  let t: TestApp;
  let admin: string;
  let a: TestTenant;
  let b: TestTenant;
  const req = (method: 'GET' | 'PUT' | 'POST', url: string, auth: string, payload?: object) =>
    t.app.inject({ method, url, headers: { authorization: auth }, payload });
  const ask = (tenant: TestTenant, auth: string, payload: object) =>
    req('POST', `/v1/billing/tenants/${tenant.id}/capacity-requests`, auth, payload);
  const handle = (id: string, to: string, payload: object = {}) =>
    req('PUT', `/v1/workorder/work-orders/${id}/status/${to}`, admin, payload);
  const pkg = async (tenant: TestTenant) => (await req('GET', `/v1/tenant/tenants/${tenant.id}/specification`, tenant.manager.auth)).json();

  beforeAll(async () => {
    t = await createTestApp();
    admin = await loginAdmin(t.app);
    a = await makeTenant(t.app, t.database, GRANTS);
    b = await makeTenant(t.app, t.database, GRANTS);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('validates the form: integers, not below the current package, at most 100000, batch recall at most 50', async () => {
    const below = await ask(a, a.manager.auth, { things_num: 1, database_storage_space: 1 });
    expect(below.statusCode).toBe(400);
    expect(below.json()).toEqual([
      expect.objectContaining({ code: 'capacity.below-current', field: 'things_num', details: { current: 2 } }),
      expect.objectContaining({ code: 'capacity.below-current', field: 'database_storage_space', details: { current: 2 } }),
    ]);
    expect((await ask(a, a.manager.auth, { things_num: 100_001 })).statusCode).toBe(400);
    expect((await ask(a, a.manager.auth, { things_num: 100_000 })).statusCode).toBe(201);
    expect((await ask(a, a.manager.auth, { max_batch_recall_size: 51 })).statusCode).toBe(400);
    expect((await ask(a, a.manager.auth, { max_batch_recall_size: 50 })).statusCode).toBe(201);
    expect((await ask(a, a.manager.auth, { things_num: 2.5 })).statusCode).toBe(400);
    expect((await ask(a, a.manager.auth, { things_num: 2 })).json().code).toBe('capacity.unchanged');
    expect((await ask(a, a.manager.auth, { alert_sms: 5000 })).statusCode).toBe(400);
  });

  it('is the tenant manager’s to ask, for its own tenant', async () => {
    expect((await ask(a, a.sub.auth, { things_num: 10 })).statusCode).toBe(403);
    expect((await ask(a, b.manager.auth, { things_num: 10 })).statusCode).toBe(403);
  });

  it('becomes a capacity work order that the handler applies to the package', async () => {
    const res = await ask(b, b.manager.auth, {
      things_num: 10,
      database_storage_space: 4,
      maximum_data_retention_days: 180,
      phone: '13800138000',
    });
    expect(res.statusCode, res.body).toBe(201);
    const order = res.json();
    expect(order).toMatchObject({
      feedback_type: 'capacity',
      status: 'pending',
      phone: '13800138000',
      capacity_request: { things_num: 10, database_storage_space: 4, maximum_data_retention_days: 180 },
      applied: false,
    });
    expect(order.description).toContain('things_num: 2 → 10');
    // nothing changes until it is applied
    expect((await pkg(b)).things_num).toBe(2);
    expect((await handle(order.id, 'process')).statusCode).toBe(200);
    // a system manager raised the space meanwhile: applying never lowers it
    await req('PUT', `/v1/tenant/tenants/${b.id}/specification`, admin, { database_storage_space: 8 });
    const done = await handle(order.id, 'done', { apply: true, remark: 'Upgraded' });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ status: 'done', applied: true });
    expect(await pkg(b)).toMatchObject({ things_num: 10, database_storage_space: 8, maximum_data_retention_days: 180, special_storage: 1 });
    await expect(t.app.ctx.quota.assertCanAdd(b.id, 'things_num', 9)).resolves.toBeUndefined();
    const inbox = (await req('GET', `/v1/tenant/tenants/${b.id}/users/${b.manager.id}/message`, b.manager.auth)).json();
    expect(inbox.list[0]).toMatchObject({ messageType: 'workorder', messageTitle: `Work order ${order.identifier} is done` });
  });

  it('applies once, on wait or done, and only by the handler', async () => {
    const order = (await ask(b, b.manager.auth, { things_num: 20 })).json();
    expect(order.capacity_request).toEqual({ things_num: 20 });
    await handle(order.id, 'process');
    const applied = await handle(order.id, 'wait', { apply: true });
    expect(applied.json()).toMatchObject({ status: 'wait', applied: true });
    expect((await pkg(b)).things_num).toBe(20);
    const reopen = await req('PUT', `/v1/workorder/tenants/${b.id}/work-orders/${order.id}/status/process`, b.manager.auth, {
      apply: true,
    });
    expect(reopen.statusCode).toBe(400);
    await req('PUT', `/v1/workorder/tenants/${b.id}/work-orders/${order.id}/status/process`, b.manager.auth, {});
    const twice = await handle(order.id, 'done', { apply: true });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().code).toBe('workorder.already-applied');
    expect((await handle(order.id, 'refuse', { apply: true })).statusCode).toBe(400);
    expect((await handle(order.id, 'done')).json()).toMatchObject({ status: 'done', applied: true });
  });

  it('carries a quick-delete device list within the requested count', async () => {
    const list = [{ third_things_id: '0123456789ABCDEF0123', info_model_name: 'CANDTU', info_model_id: 'x' }];
    const tooMany = await ask(a, a.manager.auth, { quick_delete_things_list: list });
    expect(tooMany.json().code).toBe('package.quick-delete-list-too-long');
    const order = (await ask(a, a.manager.auth, { quick_delete_things_num: 1, quick_delete_things_list: list, special_storage: 2 })).json();
    await handle(order.id, 'process');
    await handle(order.id, 'done', { apply: true });
    expect(await pkg(a)).toMatchObject({ quick_delete_things_num: 1, quick_delete_things_list: list, special_storage: 2 });
  });
});

describe('TPS estimator route', () => {
  let t: TestApp;
  let auth: string;
  beforeAll(async () => {
    t = await createTestApp();
    auth = (await makeTenant(t.app, t.database)).sub.auth;
  });
  afterAll(async () => {
    await t?.close();
  });
  const assess = (payload: object) =>
    t.app.inject({ method: 'POST', url: '/v1/billing/tools/assess-tps', headers: { authorization: auth }, payload });

  it('answers minimum and recommend for any signed-in user', async () => {
    const res = await assess({ things_num: 1000, msg_interval: 10, msg_size: 100 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      minimum: { up_down_stream_connections: 1000, push_tps: 100, alert_tps: 100 },
      recommend: { up_down_stream_connections: 1200, push_tps: 150, alert_tps: 150 },
    });
    expect((await t.app.inject({ method: 'POST', url: '/v1/billing/tools/assess-tps', payload: {} })).statusCode).toBe(401);
  });

  it.each([
    [{ things_num: 1_000_001, msg_interval: 10, msg_size: 1 }, 'things_num'],
    [{ things_num: -1, msg_interval: 10, msg_size: 1 }, 'things_num'],
    [{ things_num: 10, msg_interval: 0, msg_size: 1 }, 'msg_interval'],
    [{ things_num: 10, msg_interval: 604_801, msg_size: 1 }, 'msg_interval'],
    [{ things_num: 10, msg_interval: 1.5, msg_size: 1 }, 'msg_interval'],
    [{ things_num: 10, msg_interval: 10 }, 'msg_size'],
  ])('refuses %j (%s)', async (payload, field) => {
    const res = await assess(payload);
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json())).toContain(field);
  });

  it('documents the routes of this part in the OpenAPI description', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/v1/docs/json' })).json();
    for (const path of [
      '/v1/billing/tools/assess-tps',
      '/v1/billing/tenants/{tenant_id}/capacity-requests',
      '/v1/tenant/tenants/{id}/specification',
      '/v1/data-mgmt/tenants/{tenant_id}/usage/things',
      '/v1/workorder/work-orders/{id}/status/{status}',
      '/v1/tenant/tenants/{tenant_id}/users/{user_id}/message',
      '/v1/out-web/notice/{noticeId}/user/{userId}',
    ]) {
      expect(doc.paths[path], path).toBeDefined();
    }
    expect(doc.paths['/v1/billing/tools/assess-tps'].post.requestBody).toBeDefined();
  });

  it('accepts the bounds', async () => {
    expect((await assess({ things_num: 1_000_000, msg_interval: 604_800, msg_size: 0 })).statusCode).toBe(200);
    expect((await assess({ things_num: 0, msg_interval: 1, msg_size: 0 })).statusCode).toBe(200);
  });
});
