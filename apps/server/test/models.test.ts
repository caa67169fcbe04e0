import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, loginAdmin, type TestApp } from './helper.ts';
import { makeDevice, makeSubUser, makeTenant, type TenantFixture } from './things.fixtures.ts';

/** Function blocks, categories and info models (spec §7 /mapping-mgmt; decision 0123). */
describe('function blocks and info models', () => {
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

  const req = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, auth: string, payload?: object) =>
    t.app.inject({ method, url: `/v1${url}`, headers: { authorization: auth }, ...(payload ? { payload } : {}) });
  const fb = (tenant: TenantFixture, rest = '') => `/mapping-mgmt/tenants/${tenant.tenantId}/function-blocks${rest}`;
  const im = (tenant: TenantFixture, rest = '') => `/mapping-mgmt/tenants/${tenant.tenantId}/info-models${rest}`;

  const envBlock = (name = 'env') => ({
    name,
    display_name: 'Environment',
    description: 'Temperature and fan',
    json_schema: {
      status: [
        { identifier: 'temperature', name: 'Temperature', data_type: 1, read_only: true, i18n: { en_US: 'Temperature', zh_CN: '温度' } },
        { identifier: 'fan', name: 'Fan', data_type: 7, default_value: false },
      ],
      events: [
        { identifier: 'overheat', name: 'Overheat', type: 'log', properties: [{ identifier: 'temperature', name: 'T', data_type: 1 }] },
      ],
      operations: [
        { identifier: 'reboot', name: 'Reboot', params: [{ identifier: 'delay', name: 'Delay', data_type: 1, required: true }] },
      ],
    },
  });

  it('creates, validates, reads, updates and lists function blocks of its own tenant (20 a page)', async () => {
    const init = await req('GET', '/mapping-mgmt/function-blocks/json-schema/init', a.auth);
    expect(init.json()).toEqual({ events: [], status: [], operations: [], configuration: [] });

    const created = await req('POST', fb(a), a.auth, envBlock());
    expect(created.statusCode).toBe(200);
    const blk = created.json();
    expect(blk).toMatchObject({ name: 'env', public: false, tenant_id: a.tenantId, models_count: 0 });
    expect(blk.json_schema.status.map((p: { identifier: string }) => p.identifier)).toEqual(['temperature', 'fan']);
    expect(blk.json_schema.status[0].i18n).toEqual({ en_US: 'Temperature', zh_CN: '温度' });
    expect(blk.json_schema.configuration).toEqual([]);

    // Value type codes of §3 only; a default of the wrong type; an identifier twice; a name taken.
    const badType = envBlock('x1');
    badType.json_schema.status[0].data_type = 3;
    expect((await req('POST', fb(a), a.auth, badType)).statusCode).toBe(400);
    const badDefault = envBlock('x2');
    (badDefault.json_schema.status[1] as { default_value: unknown }).default_value = 'yes';
    expect((await req('POST', fb(a), a.auth, badDefault)).statusCode).toBe(400);
    const twice = envBlock('x3');
    twice.json_schema.status[1].identifier = 'temperature';
    expect((await req('POST', fb(a), a.auth, twice)).statusCode).toBe(400);
    expect((await req('POST', fb(a), a.auth, envBlock())).json()).toMatchObject({ code: 'function-block.duplicate', field: 'name' });
    // Another tenant may use the name.
    expect((await req('POST', fb(b), b.auth, envBlock())).statusCode).toBe(200);

    const edited = envBlock();
    edited.json_schema.status.push({ identifier: 'humidity', name: 'Humidity', data_type: 1 } as (typeof edited.json_schema.status)[0]);
    const upd = await req('PUT', fb(a, `/${blk.id}`), a.auth, edited);
    expect(upd.json().json_schema.status).toHaveLength(3);

    for (let i = 0; i < 21; i++) await req('POST', fb(a), a.auth, { name: `blk_${i}`, display_name: `Block ${i}` });
    const page = (await req('GET', fb(a), a.auth)).json();
    expect(page.page_size).toBe(20);
    expect(page.list).toHaveLength(20);
    expect(page.total).toBe(22);
    expect((await req('GET', fb(a, '?keyword=ENV'), a.auth)).json().list.map((x: { id: string }) => x.id)).toEqual([blk.id]);

    // B sees none of A's blocks, through either tenant.
    expect((await req('GET', fb(a), b.auth)).statusCode).toBe(403);
    expect((await req('GET', fb(b, `/${blk.id}`), b.auth)).json()).toMatchObject({ code: 'function-block.not-found' });
    expect((await req('PUT', fb(b, `/${blk.id}`), b.auth, envBlock('z'))).statusCode).toBe(404);
    expect((await req('DELETE', fb(b, `/${blk.id}`), b.auth)).statusCode).toBe(404);
    expect((await req('GET', fb(b), b.auth)).json().total).toBe(1);
  });

  it('public blocks are written by system managers, read by every tenant, 10 a page', async () => {
    const denied = await req('POST', '/mapping-mgmt/function-blocks/public', a.auth, envBlock('pub_env'));
    expect(denied.statusCode).toBe(403);
    const pub = await req('POST', '/mapping-mgmt/function-blocks/public', admin, envBlock('pub_env'));
    expect(pub.statusCode).toBe(200);
    expect(pub.json()).toMatchObject({ public: true, tenant_id: null });
    for (let i = 0; i < 10; i++)
      await req('POST', '/mapping-mgmt/function-blocks/public', admin, { name: `pub_${i}`, display_name: `P${i}` });
    const page = (await req('GET', '/mapping-mgmt/function-blocks/public', a.auth)).json();
    expect(page.page_size).toBe(10);
    expect(page.list).toHaveLength(10);
    expect(page.total).toBeGreaterThanOrEqual(11);
    // A tenant reads a public block but cannot change or delete it through its own routes.
    expect((await req('GET', fb(a, `/${pub.json().id}`), a.auth)).json().public).toBe(true);
    expect((await req('PUT', fb(a, `/${pub.json().id}`), a.auth, envBlock('pub_env'))).statusCode).toBe(404);
    expect((await req('DELETE', fb(a, `/${pub.json().id}`), a.auth)).statusCode).toBe(404);
  });

  it('sub-users need the function-block keys', async () => {
    const reader = await makeSubUser(t, a, ['mapping:function-block:query']);
    expect((await req('GET', fb(a), reader.auth)).statusCode).toBe(200);
    expect((await req('POST', fb(a), reader.auth, envBlock('sub_blk'))).statusCode).toBe(403);
    const none = await makeSubUser(t, a, []);
    expect((await req('GET', fb(a), none.auth)).statusCode).toBe(403);
    expect((await req('GET', im(a), none.auth)).statusCode).toBe(403);
  });

  it('info models: blocks, categories with templates, batch, public-to-tenant copy, quota, delete with force', async () => {
    const blk = (await req('POST', fb(a), a.auth, envBlock('meter'))).json();
    const foreign = (await req('POST', fb(b), b.auth, envBlock('meter'))).json();

    // The existing device types are info models under their old ids.
    const pubModels = (await req('GET', '/mapping-mgmt/info-models/public', a.auth)).json();
    expect(pubModels.page_size).toBe(100);
    const names = pubModels.list.map((m: { name: string }) => m.name);
    expect(names).toEqual(expect.arrayContaining(['CANDTU-100', 'CANDTU-200', 'CANDTU-400', 'CANDTU-800', 'IOT-DEVICE']));
    const cats = (await req('GET', `/mapping-mgmt/tenants/${a.tenantId}/categories`, a.auth)).json();
    // The platform's category, in the reader's language (zh by default; decision 0178).
    const iotCat = cats.find((c: { name: string }) => c.name === '物联网设备');
    expect(pubModels.list.find((m: { name: string }) => m.name === 'IOT-DEVICE').category_id).toBe(iotCat.id);
    const oldType = (await req('GET', `/things/tenants/${a.tenantId}/device-types`, a.auth))
      .json()
      .find((d: { name: string }) => d.name === 'IOT-DEVICE');
    expect((await req('GET', im(a, `/${oldType.id}`), a.auth)).json()).toMatchObject({ name: 'IOT-DEVICE', public: true });

    // A category's template gives a new model its blocks.
    const cat = await req('POST', `/mapping-mgmt/tenants/${a.tenantId}/categories`, a.auth, {
      name: 'Meters',
      template: { fn_block_ids: [blk.id] },
    });
    expect(cat.json().template.fn_block_ids).toEqual([blk.id]);
    expect(
      (
        await req('POST', `/mapping-mgmt/tenants/${a.tenantId}/categories`, a.auth, { name: 'X', template: { fn_block_ids: [foreign.id] } })
      ).json(),
    ).toMatchObject({ code: 'info-model.unknown-block' });

    const m = await req('POST', im(a), a.auth, { name: 'Meter-1', display_name: 'Meter', category_id: cat.json().id });
    expect(m.statusCode).toBe(200);
    const model = m.json();
    expect(model).toMatchObject({ name: 'Meter-1', thing_type: 1, things_number: 0, public: false, category_id: cat.json().id });
    expect(model.info_model_fn_blocks).toEqual([{ fn_block_id: blk.id, name: 'meter', display_name: 'Environment', public: false }]);
    expect((await req('GET', fb(a, `/${blk.id}`), a.auth)).json().models_count).toBe(1);
    const full = (await req('GET', im(a, `/${model.id}/function-blocks`), a.auth)).json();
    expect(full[0].json_schema.operations[0].identifier).toBe('reboot');

    // Another tenant's block is refused; a name is unique in the tenant.
    const bad = await req('POST', im(a), a.auth, { name: 'Meter-2', info_model_fn_blocks: [foreign.id] });
    expect(bad.json()).toMatchObject({ code: 'info-model.unknown-block', details: { fn_block_ids: [foreign.id] } });
    expect((await req('POST', im(a), a.auth, { name: 'Meter-1' })).json()).toMatchObject({ code: 'info-model.duplicate' });

    // A block in use cannot be deleted.
    expect((await req('DELETE', fb(a, `/${blk.id}`), a.auth)).json()).toMatchObject({ code: 'function-block.in-use' });

    // Listing, batch by ids and names.
    const mine = (await req('GET', im(a), a.auth)).json();
    expect(mine.list.map((x: { id: string }) => x.id)).toEqual([model.id]);
    const batch = (await req('GET', im(a, `/batch?names=Meter-1,CANDTU-200`), a.auth)).json();
    expect(batch.map((x: { name: string }) => x.name).sort()).toEqual(['CANDTU-200', 'Meter-1']);
    expect((await req('GET', im(b, `/batch?ids=${model.id}`), b.auth)).json()).toEqual([]);
    expect((await req('GET', im(b, `/${model.id}`), b.auth)).statusCode).toBe(404);

    // A device of the model: counted, and the model cannot go while it is there.
    const dev = await makeDevice(t, a, { info_model_id: model.id, thing_type: 1 });
    expect((await req('GET', im(a, `/${model.id}`), a.auth)).json().things_number).toBe(1);
    const inUse = await req('DELETE', im(a, `/${model.id}?force=true`), a.auth);
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json()).toMatchObject({ code: 'info-model.in-use', details: { things_number: 1 } });
    expect((await req('DELETE', `/things/tenants/${a.tenantId}/things/${dev.id}`, a.auth)).statusCode).toBeLessThan(300);
    // Without force, its blocks keep it; with force it goes and its block is free again.
    expect((await req('DELETE', im(a, `/${model.id}`), a.auth)).json()).toMatchObject({
      code: 'info-model.not-empty',
      details: { blocks: 1 },
    });
    expect((await req('DELETE', im(a, `/${model.id}?force=true`), a.auth)).json()).toEqual({ deleted: 1 });
    expect((await req('GET', im(a, `/${model.id}`), a.auth)).statusCode).toBe(404);
    expect((await req('DELETE', fb(a, `/${blk.id}`), a.auth)).json()).toEqual({ deleted: 1 });

    // A public model copied into the tenant; a public model cannot be deleted through the tenant.
    const pubBlk = (await req('POST', '/mapping-mgmt/function-blocks/public', admin, envBlock('pub_meter'))).json();
    const pubModel = await req('POST', '/mapping-mgmt/info-models/public', admin, { name: 'PUB-METER', info_model_fn_blocks: [pubBlk.id] });
    expect(pubModel.json()).toMatchObject({ public: true });
    expect(
      (await req('POST', '/mapping-mgmt/info-models/public', admin, { name: 'PUB-BAD', info_model_fn_blocks: [foreign.id] })).statusCode,
    ).toBe(400);
    const copy = await req('POST', im(a, '/public-to-tenant'), a.auth, { info_model_id: pubModel.json().id, name: 'My meter' });
    expect(copy.json()).toMatchObject({ name: 'My meter', public: false, tenant_id: a.tenantId });
    expect(copy.json().info_model_fn_blocks.map((x: { fn_block_id: string }) => x.fn_block_id)).toEqual([pubBlk.id]);
    expect((await req('DELETE', im(a, `/${pubModel.json().id}`), a.auth)).statusCode).toBe(404);

    // Quota `info_model` of the package.
    await t.database.raw.query('update tenant_packages set info_model = 1 where tenant_id = $1', [a.tenantId]);
    const over = await req('POST', im(a), a.auth, { name: 'Meter-3' });
    expect(over.statusCode).toBe(403);
    expect(over.json()).toMatchObject({ code: 'quota.limit-reached', details: { resource: 'info_model' } });
  });
});
