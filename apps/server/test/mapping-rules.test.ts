import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brokerUrl } from './command.helpers.ts';
import { createTestApp, type TestApp } from './helper.ts';
import { connectDevice } from './ingest.helpers.ts';
import { poll } from './poll.ts';
import { makeDevice, makeSubUser, makeTenant, type TenantFixture } from './things.fixtures.ts';

/**
 * Mapping rules (spec §7 /mapping-mgmt mapping-rule-infos): a device's raw uplink keys, or its decoded
 * CAN signal names, land on its model's properties, renamed, scaled and offset, in the twin's reported state.
 */
describe.skipIf(!!process.env.TEST_MQTT_URL)('mapping rules', () => {
  let t: TestApp;
  let a: TenantFixture;
  let b: TenantFixture;
  let modelId: string;
  beforeAll(async () => {
    t = await createTestApp();
    a = await makeTenant(t);
    b = await makeTenant(t);
    const blk = await req('POST', `/mapping-mgmt/tenants/${a.tenantId}/function-blocks`, a.auth, {
      name: 'env',
      display_name: 'Environment',
      json_schema: {
        status: [
          { identifier: 'temperature', name: 'Temperature', data_type: 1, read_only: true },
          { identifier: 'speed', name: 'Speed', data_type: 1, read_only: true },
          { identifier: 'mode', name: 'Mode', data_type: 2 },
        ],
      },
    });
    modelId = (
      await req('POST', `/mapping-mgmt/tenants/${a.tenantId}/info-models`, a.auth, { name: 'Meter', info_model_fn_blocks: [blk.json().id] })
    ).json().id;
  });
  afterAll(async () => {
    await t?.close();
  });

  function req(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, auth: string, payload?: object) {
    return t.app.inject({ method, url: `/v1${url}`, headers: { authorization: auth }, ...(payload ? { payload } : {}) });
  }
  const url = (tenant: TenantFixture, rest = '') => `/mapping-mgmt/tenants/${tenant.tenantId}/mapping-rule-infos${rest}`;
  const twin = async (id: string) => (await req('GET', `/things/tenants/${a.tenantId}/things/${id}/digital-twin`, a.auth)).json();

  it('keeps rules per tenant and checks each target against the model', async () => {
    const make = (body: object, tenant = a) =>
      req('POST', url(tenant), tenant.auth, {
        name: 'Probe v1',
        info_model_id: modelId,
        mappings: [{ source_key: 't_raw', target: 'env.temperature', scale: 0.1, offset: -40, unit: '0.1 °C' }],
        ...body,
      });
    const r = await make({});
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({
      source: 'json',
      status: 1,
      mappings: [{ source_key: 't_raw', target: 'env.temperature', scale: 0.1, offset: -40 }],
    });
    expect((await make({})).json()).toMatchObject({ code: 'mapping-rule.duplicate' });
    expect((await make({ name: 'x', mappings: [{ source_key: 'h', target: 'env.humidity' }] })).json()).toMatchObject({
      code: 'mapping-rule.bad-target',
      details: { targets: ['env.humidity'] },
    });
    // A string property can be renamed onto, not scaled.
    expect((await make({ name: 'x', mappings: [{ source_key: 'm', target: 'env.mode', scale: 2 }] })).json()).toMatchObject({
      code: 'mapping-rule.bad-target',
    });
    expect((await make({ name: 'x', mappings: [{ source_key: 'm', target: 'env.mode' }] })).statusCode).toBe(200);
    expect(
      (
        await make({
          name: 'y',
          mappings: [
            { source_key: 'k', target: 'env.speed' },
            { source_key: 'k', target: 'env.temperature' },
          ],
        })
      ).json(),
    ).toMatchObject({ code: 'mapping-rule.duplicate-key' });
    // Tenant B sees none of A's rules and cannot use A's model.
    expect((await req('GET', url(b, `/${r.json().id}`), b.auth)).json()).toMatchObject({ code: 'mapping-rule.not-found' });
    expect((await make({}, b)).json()).toMatchObject({ code: 'info-model.not-found' });
    expect((await req('GET', url(a), b.auth)).statusCode).toBe(403);
    const page = (await req('GET', `${url(a)}?info_model_id=${modelId}`, a.auth)).json();
    expect(page.page_size).toBe(20);
    expect(page.list.map((x: { name: string }) => x.name).sort()).toEqual(['Probe v1', 'x']);
    // A sub-user needs the keys.
    const sub = await makeSubUser(t, a, []);
    expect((await req('GET', url(a), sub.auth)).statusCode).toBe(403);
    const reader = await makeSubUser(t, a, ['mapping:mapping-rule:query']);
    expect((await req('GET', url(a), reader.auth)).statusCode).toBe(200);
    expect((await make({ name: 'z' }, { ...a, auth: reader.auth })).statusCode).toBe(403);
    for (const x of page.list) expect((await req('DELETE', url(a, `/${x.id}`), a.auth)).json()).toEqual({ ok: true });
  });

  it('a raw JSON key lands on the model property, scaled and offset; a disabled rule is not applied', async () => {
    const rule = (
      await req('POST', url(a), a.auth, {
        name: 'Raw probe',
        info_model_id: modelId,
        mappings: [
          { source_key: 't_raw', target: 'env.temperature', scale: 0.1, offset: -40, unit: '0.1 °C' },
          { source_key: 'gps.v', target: 'env.speed', scale: 3.6, unit: 'm/s' },
          { source_key: 'op', target: 'env.mode' },
        ],
      })
    ).json();
    const d = await makeDevice(t, a, { info_model_id: modelId, thing_type: 1 });
    const c = await connectDevice(brokerUrl(t), d.third_things_id, d.things_key);
    try {
      const topic = `lh/v1/${d.third_things_id}/up/telemetry`;
      await c.publishAsync(topic, JSON.stringify({ ts: 1_767_225_600_000, t_raw: 615, gps: { v: 10 }, op: 'eco' }), { qos: 1 });
      const tw = await poll(
        () => twin(d.id),
        (x) => x.reported['env.temperature'] !== undefined,
        { ms: 10_000 },
      );
      expect(tw.reported).toEqual({
        'env.temperature': { value: 21.5, ts: 1_767_225_600_000 },
        'env.speed': { value: 36, ts: 1_767_225_600_000 },
        'env.mode': { value: 'eco', ts: 1_767_225_600_000 },
      });

      // Disabled: the raw key is no identifier of the model, so it is dropped; the model's own keys still count.
      await req('PUT', url(a, `/${rule.id}`), a.auth, { ...rule, status: 0 });
      await c.publishAsync(topic, JSON.stringify({ t_raw: 700, speed: 5 }), { qos: 1 });
      const after = await poll(
        () => twin(d.id),
        (x) => x.reported['env.speed']?.value === 5,
        { ms: 10_000 },
      );
      expect(after.reported['env.temperature'].value).toBe(21.5);
    } finally {
      c.end(true);
    }
  });

  it('entities list the raw keys of an uplink (100 to a page); a rule naming one may map only its keys', async () => {
    const e = await req('POST', `/mapping-mgmt/tenants/${a.tenantId}/entities`, a.auth, {
      name: 'Probe firmware 2',
      source: 'json',
      fields: [
        { key: 't_raw', name: 'Probe', data_type: 1, unit: '0.1 °C' },
        { key: 'gps.v', name: 'Speed', unit: 'm/s' },
      ],
    });
    expect(e.statusCode).toBe(200);
    expect(e.json()).toMatchObject({
      source: 'json',
      rules_count: 0,
      fields: [
        { key: 't_raw', data_type: 1 },
        { key: 'gps.v', data_type: 1 },
      ],
    });
    const entityId = e.json().id;
    expect(
      (
        await req('POST', `/mapping-mgmt/tenants/${a.tenantId}/entities`, a.auth, {
          name: 'Twice',
          fields: [{ key: 'x' }, { key: 'x' }],
        })
      ).json(),
    ).toMatchObject({ code: 'entity.duplicate-key' });
    const page = (await req('GET', `/mapping-mgmt/tenants/${a.tenantId}/entities`, a.auth)).json();
    expect(page.page_size).toBe(100);
    expect((await req('GET', `/mapping-mgmt/tenants/${b.tenantId}/entities/${entityId}`, b.auth)).json()).toMatchObject({
      code: 'entity.not-found',
    });

    const rule = (body: object) =>
      req('POST', url(a), a.auth, {
        name: 'From entity',
        info_model_id: modelId,
        entity_id: entityId,
        mappings: [{ source_key: 't_raw', target: 'env.temperature' }],
        ...body,
      });
    expect((await rule({ mappings: [{ source_key: 'nope', target: 'env.temperature' }] })).json()).toMatchObject({
      code: 'mapping-rule.unknown-key',
      details: { source_keys: ['nope'] },
    });
    // An entity of another source gives no keys to a CAN rule.
    expect((await rule({ source: 'can' })).json()).toMatchObject({ code: 'mapping-rule.unknown-key' });
    const ok = await rule({});
    expect(ok.json()).toMatchObject({ entity_id: entityId });
    expect((await req('GET', `/mapping-mgmt/tenants/${a.tenantId}/entities/${entityId}`, a.auth)).json().rules_count).toBe(1);
    // The entity goes; the rule keeps its keys.
    expect((await req('DELETE', `/mapping-mgmt/tenants/${a.tenantId}/entities/${entityId}`, a.auth)).json()).toEqual({ ok: true });
    expect((await req('GET', url(a, `/${ok.json().id}`), a.auth)).json()).toMatchObject({
      entity_id: null,
      mappings: [{ source_key: 't_raw' }],
    });
    await req('DELETE', url(a, `/${ok.json().id}`), a.auth);
  });

  it('decoded CAN signals named by a rule land on their properties (the last value of the batch)', async () => {
    await req('POST', url(a), a.auth, {
      name: 'Bus',
      info_model_id: modelId,
      source: 'can',
      mappings: [{ source_key: 'VehSpd', target: 'env.speed', scale: 0.5, offset: 1 }],
    });
    const d = await makeDevice(t, a, { info_model_id: modelId, thing_type: 1 });
    t.app.ctx.events.emit('signals.decoded', {
      tenantId: a.tenantId,
      thingsId: d.id,
      series: [
        {
          channel: 0,
          message: 'Drive',
          signal: 'VehSpd',
          unit: 'km/h',
          ts: new Float64Array([1e12, 2e12]),
          values: new Float64Array([80, 100]),
        },
        { channel: 0, message: 'Drive', signal: 'Other', unit: '', ts: new Float64Array([2e12]), values: new Float64Array([3]) },
      ],
    });
    const tw = await poll(
      () => twin(d.id),
      (x) => x.reported['env.speed'] !== undefined,
      { ms: 10_000 },
    );
    expect(tw.reported).toEqual({ 'env.speed': { value: 51, ts: 2e9 } });
  });
});
