import { RemoteDevice } from '@loggerhead/simulator/remote-device.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brokerUrl } from './command.helpers.ts';
import { createTestApp, type TestApp } from './helper.ts';
import { connectDevice } from './ingest.helpers.ts';
import { poll } from './poll.ts';
import { makeDevice, makeSubUser, makeTenant, type TenantFixture } from './things.fixtures.ts';

/**
 * A plain device of an info model (decisions 0123, 0124): JSON telemetry becomes its twin's reported
 * state and its model events; desired values go down as a delta, the simulated device applies them
 * and reports them back; twin rules fire on reported changes.
 */
describe.skipIf(!!process.env.TEST_MQTT_URL)('digital twins', () => {
  let t: TestApp;
  let a: TenantFixture;
  let b: TenantFixture;
  let modelId: string;
  let blocks: unknown[];
  beforeAll(async () => {
    t = await createTestApp();
    a = await makeTenant(t);
    b = await makeTenant(t);
    const blk = await req('POST', `/mapping-mgmt/tenants/${a.tenantId}/function-blocks`, a.auth, {
      name: 'env',
      display_name: 'Environment',
      json_schema: {
        status: [
          { identifier: 'temperature', name: 'Temperature', data_type: 1, read_only: true, default_value: 21 },
          { identifier: 'target', name: 'Target', data_type: 1, default_value: 20 },
          { identifier: 'fan', name: 'Fan', data_type: 7 },
        ],
        events: [{ identifier: 'overheat', name: 'Overheat', type: 'log' }],
        operations: [
          { identifier: 'reboot', name: 'Reboot', params: [{ identifier: 'delay', name: 'Delay', data_type: 1, required: true }] },
        ],
      },
    });
    const model = await req('POST', `/mapping-mgmt/tenants/${a.tenantId}/info-models`, a.auth, {
      name: 'Thermostat',
      info_model_fn_blocks: [blk.json().id],
    });
    modelId = model.json().id;
    blocks = (await req('GET', `/mapping-mgmt/tenants/${a.tenantId}/info-models/${modelId}/function-blocks`, a.auth)).json();
  });
  afterAll(async () => {
    await t?.close();
  });

  function req(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, auth: string, payload?: object) {
    return t.app.inject({ method, url: `/v1${url}`, headers: { authorization: auth }, ...(payload ? { payload } : {}) });
  }
  const twinUrl = (tenant: TenantFixture, id: string, rest = '') => `/things/tenants/${tenant.tenantId}/things/${id}/digital-twin${rest}`;

  it('stores model-shaped and free-form telemetry as reported state and events; drops what the model lacks', async () => {
    const d = await makeDevice(t, a, { info_model_id: modelId, thing_type: 1 });
    const c = await connectDevice(brokerUrl(t), d.third_things_id, d.things_key);
    try {
      const topic = `lh/v1/${d.third_things_id}/up/telemetry`;
      await c.publishAsync(
        topic,
        JSON.stringify({
          ts: 1_767_225_600_000,
          properties: { env: { temperature: 22.5, fan: 'on', humidity: 3 } },
          events: [
            { block: 'env', event: 'overheat', data: { temperature: 22.5 } },
            { block: 'env', event: 'nope' },
          ],
        }),
        { qos: 1 },
      );
      const twin = await poll(
        async () => (await req('GET', twinUrl(a, d.id), a.auth)).json(),
        (tw) => tw.reported?.['env.temperature'] !== undefined,
        { ms: 10_000 },
      );
      expect(twin.reported).toEqual({ 'env.temperature': { value: 22.5, ts: 1_767_225_600_000 } });
      expect(twin.properties.map((p: { path: string }) => p.path)).toEqual(['env.temperature', 'env.target', 'env.fan']);
      const events = (await req('GET', `/things/tenants/${a.tenantId}/things/${d.id}/model-events`, a.auth)).json();
      expect(events.page_size).toBe(20);
      expect(events.list).toEqual([
        expect.objectContaining({ block: 'env', event: 'overheat', event_type: 'log', data: { temperature: 22.5 }, ts: 1_767_225_600_000 }),
      ]);

      // The free form: keys are identifiers of the model.
      await c.publishAsync(topic, JSON.stringify({ fan: true, target: 18 }), { qos: 1 });
      const t2 = await poll(
        async () => (await req('GET', twinUrl(a, d.id), a.auth)).json(),
        (tw) => tw.reported?.['env.fan'] !== undefined,
        { ms: 10_000 },
      );
      expect(t2.reported['env.fan'].value).toBe(true);
      expect(t2.reported['env.target'].value).toBe(18);
      expect(t2.reported['env.temperature'].value).toBe(22.5);
      // The dropped keys were counted on the device.
      await poll(
        async () =>
          (await t.database.raw.query<{ n: number }>('select malformed_count::int as n from things where id = $1', [d.id])).rows[0].n,
        (n) => n >= 1,
        { ms: 10_000 },
      );
    } finally {
      c.end(true);
    }
  });

  it('keeps each reported value of a property as its history, read by time range, for the tenant only', async () => {
    const d = await makeDevice(t, a, { info_model_id: modelId, thing_type: 1 });
    const c = await connectDevice(brokerUrl(t), d.third_things_id, d.things_key);
    const T0 = 1_767_225_600_000;
    try {
      const topic = `lh/v1/${d.third_things_id}/up/telemetry`;
      // Three readings a minute apart, then one without a temperature.
      for (const [i, v] of [21.5, 22, 23.25].entries())
        await c.publishAsync(topic, JSON.stringify({ ts: T0 + i * 60_000, properties: { env: { temperature: v } } }), { qos: 1 });
      await c.publishAsync(topic, JSON.stringify({ ts: T0 + 240_000, properties: { env: { target: 19 } } }), { qos: 1 });
      const url = (q: string) => `${twinUrl(a, d.id, '/history')}?${q}`;
      const h = await poll(
        async () => (await req('GET', url(`property=env.temperature&start_time=${T0 - 1}&end_time=${T0 + 600_000}`), a.auth)).json(),
        (x) => x.list?.length === 3,
        { ms: 10_000 },
      );
      expect(h).toEqual({
        property: 'env.temperature',
        truncated: false,
        list: [
          { ts: T0, value: 21.5 },
          { ts: T0 + 60_000, value: 22 },
          { ts: T0 + 120_000, value: 23.25 },
        ],
      });
      // The newest `limit` of a range, oldest first, marked as cut.
      const last2 = (await req('GET', url(`property=env.temperature&start_time=${T0}&end_time=${T0 + 600_000}&limit=2`), a.auth)).json();
      expect(last2).toMatchObject({ truncated: true, list: [{ value: 22 }, { value: 23.25 }] });
      // A range holds only its own values; the default range is the 24 hours before now.
      const middle = (await req('GET', url(`property=env.temperature&start_time=${T0 + 30_000}&end_time=${T0 + 90_000}`), a.auth)).json();
      expect(middle.list).toEqual([{ ts: T0 + 60_000, value: 22 }]);
      expect((await req('GET', url('property=env.temperature'), a.auth)).json().list).toEqual([]);
      const target = (await req('GET', url(`property=env.target&start_time=${T0}&end_time=${T0 + 600_000}`), a.auth)).json();
      expect(target.list).toEqual([{ ts: T0 + 240_000, value: 19 }]);
      // A range backwards is refused; another tenant does not reach the device.
      expect((await req('GET', url(`property=env.temperature&start_time=${T0 + 1}&end_time=${T0}`), a.auth)).json()).toMatchObject({
        code: 'data.bad-range',
      });
      expect((await req('GET', `${twinUrl(a, d.id, '/history')}?property=env.temperature`, b.auth)).statusCode).toBe(403);
      expect((await req('GET', `${twinUrl(b, d.id, '/history')}?property=env.temperature`, b.auth)).statusCode).toBe(404);
    } finally {
      c.end(true);
    }
  });

  it('checks desired values against the model and the caller; the simulated device applies and reports them back', async () => {
    const d = await makeDevice(t, a, { info_model_id: modelId, thing_type: 1 });
    const sim = new RemoteDevice({ broker: brokerUrl(t), deviceId: d.third_things_id, key: d.things_key, model: blocks as never });
    await sim.connect();
    try {
      await sim.model?.report();
      await poll(
        async () => (await req('GET', twinUrl(a, d.id), a.auth)).json(),
        (tw) => tw.reported?.['env.target']?.value === 20,
        { ms: 10_000 },
      );

      const put = (auth: string, desired: object, tenant = a) => req('PUT', twinUrl(tenant, d.id, '/desired'), auth, { desired });
      expect((await put(a.auth, { 'env.humidity': 1 })).json()).toMatchObject({
        code: 'twin.unknown-property',
        details: { properties: ['env.humidity'] },
      });
      expect((await put(a.auth, { 'env.temperature': 1 })).json()).toMatchObject({ code: 'twin.read-only' });
      expect((await put(a.auth, { 'env.target': 'hot' })).json()).toMatchObject({ code: 'twin.bad-value' });
      // Another tenant, and a sub-user with read access only, cannot set it.
      expect((await put(b.auth, { 'env.target': 25 }, b)).statusCode).toBe(404);
      const reader = await makeSubUser(
        t,
        a,
        ['things:digital-twin:query', 'things:digital-twin:update'],
        [{ thingsId: d.id, access: 'read' }],
      );
      expect((await req('GET', twinUrl(a, d.id), reader.auth)).statusCode).toBe(200);
      expect((await put(reader.auth, { 'env.target': 25 })).statusCode).toBe(403);

      const set = await put(a.auth, { 'env.target': 25, 'env.fan': true });
      expect(set.statusCode).toBe(200);
      expect(set.json()).toMatchObject({ desired: { 'env.target': 25, 'env.fan': true }, desired_version: 1 });
      expect(set.json().delta).toEqual({ 'env.target': 25, 'env.fan': true });

      const back = await poll(
        async () => (await req('GET', twinUrl(a, d.id), a.auth)).json(),
        (tw) => tw.acked_version === 1 && tw.reported['env.target']?.value === 25,
        { ms: 10_000 },
      );
      expect(back).toMatchObject({ acked_version: 1, ack_code: 0, delta: {} });
      expect(back.reported['env.fan'].value).toBe(true);
      expect(sim.model?.state.env.target).toBe(25);
      expect(sim.model?.applied).toEqual([1]);

      // Taking a desired value away.
      const cleared = (await put(a.auth, { 'env.fan': null })).json();
      expect(cleared.desired).toEqual({ 'env.target': 25 });
      expect(cleared.desired_version).toBe(2);

      // The model's operation is a command the simulated device answers.
      const cmd = await req('POST', `/things/tenants/${a.tenantId}/things/${d.id}/messages`, a.auth, {
        operation_name: 'env.reboot',
        operation_params: { delay: 5 },
      });
      expect(cmd.statusCode).toBe(200);
    } finally {
      await sim.close();
    }
  });

  it('twin rules fire when their conditions become true on a reported change, and run their actions', async () => {
    const d = await makeDevice(t, a, { info_model_id: modelId, thing_type: 1 });
    const other = await makeDevice(t, a, { info_model_id: modelId, thing_type: 1 });
    const rules = `/alert-mgmt/tenants/${a.tenantId}/twins-rules`;
    const rule = await req('POST', rules, a.auth, {
      name: 'Too hot',
      trigger_condition: [
        { field: 'env.temperature', op: '>', value: '30', value_type: 1 },
        { field: 'env.fan', op: '=', value: 'false', value_type: 7, join: 'and' },
      ],
      trigger_filter: { things_ids: [d.id] },
      actions: [
        { type: 'desired', values: { 'env.fan': true } },
        { type: 'event', message: 'cooling' },
      ],
    });
    expect(rule.statusCode).toBe(200);
    expect(rule.json()).toMatchObject({ status: 1, shadow_type: 'reported', fires: 0 });
    expect(rule.json().actions.map((x: { id: string }) => x.id)).toEqual(['a1', 'a2']);
    expect((await req('POST', rules, a.auth, { name: 'Too hot', trigger_condition: rule.json().trigger_condition })).statusCode).toBe(409);
    expect((await req('GET', rules, b.auth)).statusCode).toBe(403);
    expect((await req('GET', `/alert-mgmt/tenants/${b.tenantId}/twins-rules/${rule.json().id}`, b.auth)).statusCode).toBe(404);

    const c = await connectDevice(brokerUrl(t), d.third_things_id, d.things_key);
    const c2 = await connectDevice(brokerUrl(t), other.third_things_id, other.things_key);
    const send = (cl: typeof c, id: string, env: object) =>
      cl.publishAsync(`lh/v1/${id}/up/telemetry`, JSON.stringify({ properties: { env } }), { qos: 1 });
    const fires = async () => (await req('GET', `${rules}/fires?rule_id=${rule.json().id}`, a.auth)).json();
    try {
      await send(c, d.third_things_id, { temperature: 25, fan: false });
      await send(c2, other.third_things_id, { temperature: 35, fan: false }); // not a device of the rule
      await send(c, d.third_things_id, { temperature: 35 }); // becomes true: fires
      const f = await poll(fires, (p) => p.total >= 1, { ms: 10_000 });
      expect(f.total).toBe(1);
      expect(f.list[0]).toMatchObject({ things_id: d.id, rule_name: 'Too hot', values: { 'env.temperature': 35, 'env.fan': false } });
      // Its actions: the fan is desired on, and an event is in the device's log.
      const twin = (await req('GET', twinUrl(a, d.id), a.auth)).json();
      expect(twin.desired).toEqual({ 'env.fan': true });
      const events = (await req('GET', `/things/tenants/${a.tenantId}/things/${d.id}/model-events`, a.auth)).json();
      expect(events.list[0]).toMatchObject({ block: 'rules', event: 'twin_rule', data: { name: 'Too hot', message: 'cooling' } });
      // Still true: no second fire; disabled: none either.
      await send(c, d.third_things_id, { temperature: 36 });
      await send(c, d.third_things_id, { temperature: 20 });
      expect((await req('PUT', `${rules}/${rule.json().id}/status`, a.auth, { status: 0 })).json().status).toBe(0);
      await send(c, d.third_things_id, { temperature: 40 });
      await new Promise((r) => setTimeout(r, 500));
      expect((await fires()).total).toBe(1);
      expect((await req('GET', `/things/tenants/${a.tenantId}/things/${other.id}/digital-twin`, a.auth)).json().desired).toEqual({});
    } finally {
      c.end(true);
      c2.end(true);
    }

    // Tree save: updates the rule and adds an action, then updates that action by its id.
    const tree = await req('POST', `${rules}/tree`, a.auth, {
      id: rule.json().id,
      rule: { name: 'Too hot!', trigger_condition: rule.json().trigger_condition, trigger_filter: { things_ids: [d.id] } },
      action: { type: 'event', message: 'again' },
    });
    expect(tree.json().name).toBe('Too hot!');
    expect(tree.json().actions).toHaveLength(3);
    const added = tree.json().actions[2];
    const tree2 = await req('POST', `${rules}/tree`, a.auth, {
      id: rule.json().id,
      rule: { name: 'Too hot!', trigger_condition: rule.json().trigger_condition },
      action: { id: added.id, type: 'event', message: 'changed' },
    });
    expect(tree2.json().actions).toHaveLength(3);
    expect(tree2.json().actions[2]).toMatchObject({ id: added.id, message: 'changed' });
    // Without an id it makes a new rule.
    const fresh = await req('POST', `${rules}/tree`, a.auth, { rule: { name: 'New', trigger_condition: rule.json().trigger_condition } });
    expect(fresh.json()).toMatchObject({ name: 'New', actions: [] });
    expect((await req('GET', rules, a.auth)).json().total).toBe(2);
  });
});
