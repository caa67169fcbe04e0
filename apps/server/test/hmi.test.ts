import { HMI_MAX_IMAGE_CHARS, HMI_MAX_WIDGETS } from '@loggerhead/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { remoteDevice } from './command.helpers.ts';
import { createTestApp, type TestApp } from './helper.ts';
import { bind, testDbc } from './signals.fixtures.ts';
import { makeDevice, makeSubUser, makeTenant, type TenantFixture } from './things.fixtures.ts';

/** HMI screens (spec /out-hmi, quota `hmi`, keys out-hmi:screen:* and out-hmi:user:query/update). */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, auth: string, payload?: object) =>
  t.app.inject({ method, url, headers: { authorization: auth }, ...(payload ? { payload } : {}) });
const screens = (tn: TenantFixture) => `/v1/out-hmi/tenants/${tn.tenantId}/screens`;
const mine = (tn: TenantFixture) => `/v1/out-hmi/tenants/${tn.tenantId}/my-screens`;

/** A tenant with a device whose CAN0 is bound to the test DBC (RAMP.Value, RAMP.Counter, WAVE.Level). */
async function setup() {
  const tenant = await makeTenant(t);
  const dbcId = await testDbc(t, tenant);
  const dev = await makeDevice(t, tenant);
  expect((await bind(t, tenant, dev.id, 0, { dbc_id: dbcId })).statusCode).toBe(200);
  return { tenant, dev };
}

const gauge = (thingsId: string, over: Record<string, unknown> = {}) => ({
  id: 'g1',
  type: 'gauge',
  x: 0,
  y: 0,
  w: 6,
  h: 4,
  label: 'Speed',
  binding: { source: 'signal', things_id: thingsId, channel: 0, signal: 'RAMP.Value' },
  min: 0,
  max: 200,
  ...over,
});
const button = (thingsId: string, over: Record<string, unknown> = {}) => ({
  id: 'b1',
  type: 'button',
  x: 6,
  y: 0,
  w: 4,
  h: 2,
  label: 'Horn',
  action: {
    kind: 'command',
    things_id: thingsId,
    operation_name: 'common_fn.send_can',
    operation_params: { frames: [{ channel: 0, id: '0x123', data: '01' }] },
  },
  ...over,
});
const screen = (name: string, widgets: unknown[]) => ({ name, description: 'Line 1', canvas: { row_height: 40, widgets } });

describe('HMI screens', () => {
  it('are created with a bound gauge and a command button, listed, changed, published, unpublished and deleted', async () => {
    const { tenant, dev } = await setup();
    const made = await call('POST', screens(tenant), tenant.auth, screen('Press 1', [gauge(dev.id), button(dev.id)]));
    expect(made.statusCode, made.body).toBe(201);
    const s = made.json();
    expect(s).toMatchObject({ name: 'Press 1', description: 'Line 1', status: 0, widget_count: 2, user_count: 0, published_at: null });
    expect(s.canvas.widgets[0]).toMatchObject({ id: 'g1', type: 'gauge', min: 0, max: 200, binding: { signal: 'RAMP.Value' } });
    expect(s.canvas.widgets[1].action).toMatchObject({ kind: 'command', operation_name: 'common_fn.send_can' });

    const list = await call('GET', `${screens(tenant)}?keyword=press`, tenant.auth);
    expect(list.json()).toMatchObject({ total: 1, list: [{ id: s.id, name: 'Press 1', widget_count: 2 }] });
    expect((await call('GET', `${screens(tenant)}?keyword=nothing`, tenant.auth)).json().total).toBe(0);

    const lamp = { id: 'l1', type: 'lamp', x: 0, y: 4, w: 2, h: 2, binding: gauge(dev.id).binding, threshold: 50 };
    const logo = { id: 'i1', type: 'image', x: 20, y: 0, w: 4, h: 2, image_url: '/logo.png' };
    const changed = await call('PUT', `${screens(tenant)}/${s.id}`, tenant.auth, screen('Press 1b', [gauge(dev.id), lamp, logo]));
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ name: 'Press 1b', widget_count: 3 });
    expect((await call('GET', `${screens(tenant)}/${s.id}`, tenant.auth)).json().canvas.widgets[1]).toMatchObject({
      type: 'lamp',
      threshold: 50,
    });

    const pub = await call('POST', `${screens(tenant)}/${s.id}/publish`, tenant.auth);
    expect(pub.statusCode).toBe(200);
    expect(pub.json().status).toBe(1);
    expect(pub.json().published_at).toBeGreaterThan(0);
    expect((await call('GET', `${screens(tenant)}?status=1`, tenant.auth)).json().total).toBe(1);
    expect((await call('GET', mine(tenant), tenant.auth)).json().list.map((x: { id: string }) => x.id)).toEqual([s.id]);

    const unpub = await call('POST', `${screens(tenant)}/${s.id}/unpublish`, tenant.auth);
    expect(unpub.json()).toMatchObject({ status: 0, published_at: null });
    expect((await call('GET', mine(tenant), tenant.auth)).json().list).toEqual([]);

    expect((await call('DELETE', `${screens(tenant)}/${s.id}`, tenant.auth)).statusCode).toBe(204);
    expect((await call('GET', `${screens(tenant)}/${s.id}`, tenant.auth)).json()).toMatchObject({ code: 'hmi.not-found' });
    expect((await call('DELETE', `${screens(tenant)}/${s.id}`, tenant.auth)).statusCode).toBe(404);
  });

  it('refuses a canvas that is not valid with 400, and a name used twice with 409', async () => {
    const { tenant, dev } = await setup();
    const bad = async (widgets: unknown[], extra: Record<string, unknown> = {}) => {
      const r = await call('POST', screens(tenant), tenant.auth, { ...screen('Bad', widgets), ...extra });
      expect(r.statusCode, r.body.slice(0, 300)).toBe(400);
      return JSON.stringify(r.json());
    };
    await bad([{ ...gauge(dev.id), type: 'slider' }]);
    await bad([gauge(dev.id, { max: undefined })]);
    await bad([gauge(dev.id, { min: 10, max: 5 })]);
    await bad([gauge(dev.id, { binding: undefined })]);
    await bad([{ id: 'l', type: 'lamp', x: 0, y: 0, w: 1, h: 1, binding: gauge(dev.id).binding }]);
    await bad([button(dev.id, { action: undefined })]);
    await bad([gauge(dev.id), gauge(dev.id, { x: 10 })]);
    await bad([gauge(dev.id, { x: 20, w: 6 })]);
    for (const url of ['javascript:alert(1)', 'https://elsewhere.example/logo.png', '//elsewhere.example/logo.png'])
      await bad([{ id: 'i', type: 'image', x: 0, y: 0, w: 2, h: 2, image_url: url }]);
    await bad([{ id: 't', type: 'text', x: 0, y: 0, w: 2, h: 2, text: 'x'.repeat(2001) }]);
    await bad(Array.from({ length: HMI_MAX_WIDGETS + 1 }, (_, i) => ({ id: `t${i}`, type: 'text', x: 0, y: 0, w: 1, h: 1, text: 'a' })));
    // Bounded as a whole: three pictures inline, each within its own bound, are past the canvas limit.
    const picture = `data:image/png;base64,${'A'.repeat(HMI_MAX_IMAGE_CHARS - 100)}`;
    expect(
      await bad(Array.from({ length: 3 }, (_, i) => ({ id: `i${i}`, type: 'image', x: 0, y: i, w: 1, h: 1, image_url: picture }))),
    ).toMatch(/larger than/);
    expect(await bad([gauge(dev.id, { binding: { ...gauge(dev.id).binding, signal: 'RAMP.Nope' } })])).toContain('hmi.unknown-signal');
    // A channel with no DBC bound has no signals.
    expect(await bad([gauge(dev.id, { binding: { ...gauge(dev.id).binding, channel: 3 } })])).toContain('hmi.unknown-signal');
    await bad([], { name: '' });

    expect((await call('POST', screens(tenant), tenant.auth, screen('Once', []))).statusCode).toBe(201);
    const dup = await call('POST', screens(tenant), tenant.auth, screen('once', []));
    expect(dup.statusCode).toBe(409);
    expect(dup.json().code).toBe('hmi.duplicate');
  });

  it('counts screens against the package quota hmi', async () => {
    const { tenant } = await setup();
    await t.database.raw.query('update tenant_packages set hmi = 2 where tenant_id = $1', [tenant.tenantId]);
    for (const n of ['A', 'B']) expect((await call('POST', screens(tenant), tenant.auth, screen(n, []))).statusCode).toBe(201);
    const over = await call('POST', screens(tenant), tenant.auth, screen('C', []));
    expect(over.statusCode).toBe(403);
    expect(over.json()).toMatchObject({ code: 'quota.limit-reached', details: { resource: 'hmi', limit: 2, current: 2 } });
    const first = (await call('GET', screens(tenant), tenant.auth)).json().list[0].id;
    expect((await call('DELETE', `${screens(tenant)}/${first}`, tenant.auth)).statusCode).toBe(204);
    expect((await call('POST', screens(tenant), tenant.auth, screen('C', []))).statusCode).toBe(201);
  });

  it('holds sub-users to the out-hmi keys and to the access of the devices a screen links', async () => {
    const { tenant, dev } = await setup();
    const s = (await call('POST', screens(tenant), tenant.auth, screen('Keys', [gauge(dev.id)]))).json();
    const none = await makeSubUser(t, tenant, []);
    expect((await call('GET', screens(tenant), none.auth)).statusCode).toBe(403);
    expect((await call('GET', `${screens(tenant)}/${s.id}`, none.auth)).statusCode).toBe(403);

    const viewer = await makeSubUser(t, tenant, ['out-hmi:screen:query'], [{ thingsId: dev.id, access: 'read' }]);
    expect((await call('GET', screens(tenant), viewer.auth)).json().total).toBe(1);
    expect((await call('POST', screens(tenant), viewer.auth, screen('V', []))).statusCode).toBe(403);
    expect((await call('PUT', `${screens(tenant)}/${s.id}`, viewer.auth, screen('V', []))).statusCode).toBe(403);
    expect((await call('POST', `${screens(tenant)}/${s.id}/publish`, viewer.auth)).statusCode).toBe(403);
    expect((await call('DELETE', `${screens(tenant)}/${s.id}`, viewer.auth)).statusCode).toBe(403);

    // An editor reading the device may show it, but a button to it needs write access.
    const editor = await makeSubUser(t, tenant, ['out-hmi:screen:create', 'out-hmi:screen:update'], [{ thingsId: dev.id, access: 'read' }]);
    expect((await call('POST', screens(tenant), editor.auth, screen('E', [gauge(dev.id)]))).statusCode).toBe(201);
    expect((await call('POST', screens(tenant), editor.auth, screen('E2', [button(dev.id)]))).statusCode).toBe(403);
    // A device the editor cannot see is not found.
    const other = await makeDevice(t, tenant);
    expect((await call('POST', screens(tenant), editor.auth, screen('E3', [gauge(other.id)]))).statusCode).toBe(404);

    // Giving screens to HMI users is the manager's: never a sub-user's, even when granted.
    const granted = await makeSubUser(t, tenant, ['out-hmi:user:query', 'out-hmi:user:update']);
    expect((await call('GET', `/v1/out-hmi/tenants/${tenant.tenantId}/users`, granted.auth)).statusCode).toBe(403);
    expect(
      (await call('PUT', `/v1/out-hmi/tenants/${tenant.tenantId}/users/${none.userId}/screens`, granted.auth, { screen_ids: [s.id] }))
        .statusCode,
    ).toBe(403);
  });

  it('keeps every tenant to its own screens', async () => {
    const a = await setup();
    const b = await setup();
    const s = (await call('POST', screens(a.tenant), a.tenant.auth, screen('Mine', [gauge(a.dev.id)]))).json();
    await call('POST', `${screens(a.tenant)}/${s.id}/publish`, a.tenant.auth);
    // Another tenant's path is refused; its own path does not find the screen.
    expect((await call('GET', `${screens(a.tenant)}/${s.id}`, b.tenant.auth)).statusCode).toBe(403);
    expect((await call('GET', screens(a.tenant), b.tenant.auth)).statusCode).toBe(403);
    for (const [m, url] of [
      ['GET', `${screens(b.tenant)}/${s.id}`],
      ['PUT', `${screens(b.tenant)}/${s.id}`],
      ['DELETE', `${screens(b.tenant)}/${s.id}`],
      ['POST', `${screens(b.tenant)}/${s.id}/publish`],
      ['GET', `${mine(b.tenant)}/${s.id}`],
    ] as const) {
      const r = await call(m, url, b.tenant.auth, m === 'PUT' ? screen('X', []) : undefined);
      expect(r.statusCode, `${m} ${url}`).toBe(404);
    }
    expect((await call('GET', mine(b.tenant), b.tenant.auth)).json().list).toEqual([]);
    // A screen of tenant B cannot bind tenant A's device.
    expect((await call('POST', screens(b.tenant), b.tenant.auth, screen('Steal', [gauge(a.dev.id)]))).statusCode).toBe(404);
    // Nor be given to tenant A's screens.
    const sub = await makeSubUser(t, b.tenant, []);
    const give = await call('PUT', `/v1/out-hmi/tenants/${b.tenant.tenantId}/users/${sub.userId}/screens`, b.tenant.auth, {
      screen_ids: [s.id],
    });
    expect(give.statusCode).toBe(400);
    expect(give.json().code).toBe('hmi.unknown-screen');
    const aSub = await makeSubUser(t, a.tenant, []);
    const foreign = await call('PUT', `/v1/out-hmi/tenants/${b.tenant.tenantId}/users/${aSub.userId}/screens`, b.tenant.auth, {
      screen_ids: [],
    });
    expect(foreign.json().code).toBe('hmi.unknown-user');
  });

  it('rejects ids that are not UUIDs in the path with 400', async () => {
    const { tenant } = await setup();
    expect((await call('GET', `${screens(tenant)}/nope`, tenant.auth)).statusCode).toBe(400);
    expect(
      (await call('PUT', `/v1/out-hmi/tenants/${tenant.tenantId}/users/nope/screens`, tenant.auth, { screen_ids: [] })).statusCode,
    ).toBe(400);
  });
});

describe.skipIf(!!process.env.TEST_MQTT_URL)('HMI users', () => {
  it('see only the published screens given to them, and their buttons command the device', async () => {
    const tenant = await makeTenant(t);
    const { d, sim } = await remoteDevice(t, tenant);
    const dbcId = await testDbc(t, tenant);
    expect((await bind(t, tenant, d.id, 0, { dbc_id: dbcId })).statusCode).toBe(200);
    const given = (await call('POST', screens(tenant), tenant.auth, screen('Given', [gauge(d.id), button(d.id)]))).json();
    const draft = (await call('POST', screens(tenant), tenant.auth, screen('Draft', [button(d.id)]))).json();
    const notGiven = (await call('POST', screens(tenant), tenant.auth, screen('Other', [button(d.id)]))).json();
    for (const s of [given, notGiven]) await call('POST', `${screens(tenant)}/${s.id}/publish`, tenant.auth);

    // An HMI user: a sub-user with no keys and read-only access to the device.
    const op = await makeSubUser(t, tenant, [], [{ thingsId: d.id, access: 'read' }]);
    const users = `/v1/out-hmi/tenants/${tenant.tenantId}/users`;
    const set = await call('PUT', `${users}/${op.userId}/screens`, tenant.auth, { screen_ids: [given.id, draft.id, given.id] });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({ user_id: op.userId });
    expect([...set.json().screen_ids].sort()).toEqual([given.id, draft.id].sort());
    const listed = (await call('GET', users, tenant.auth)).json().list;
    expect(listed.find((u: { user_id: string }) => u.user_id === op.userId).screen_ids).toHaveLength(2);
    expect((await call('GET', `${screens(tenant)}/${given.id}`, tenant.auth)).json().user_count).toBe(1);

    // Published and given: listed and opened. Draft (though given) and not given: neither.
    expect((await call('GET', mine(tenant), op.auth)).json().list.map((s: { name: string }) => s.name)).toEqual(['Given']);
    const opened = await call('GET', `${mine(tenant)}/${given.id}`, op.auth);
    expect(opened.statusCode).toBe(200);
    expect(opened.json().canvas.widgets).toHaveLength(2);
    expect((await call('GET', `${mine(tenant)}/${draft.id}`, op.auth)).statusCode).toBe(404);
    expect((await call('GET', `${mine(tenant)}/${notGiven.id}`, op.auth)).statusCode).toBe(404);
    expect((await call('POST', `${mine(tenant)}/${notGiven.id}/press`, op.auth, { widget_id: 'b1' })).statusCode).toBe(404);
    // Not a way around the keys: the editor's routes stay closed to the HMI user.
    expect((await call('GET', `${screens(tenant)}/${given.id}`, op.auth)).statusCode).toBe(403);

    // A gauge is no button; an unknown widget is none either.
    expect((await call('POST', `${mine(tenant)}/${given.id}/press`, op.auth, { widget_id: 'g1' })).json().code).toBe('hmi.no-button');
    expect((await call('POST', `${mine(tenant)}/${given.id}/press`, op.auth, { widget_id: 'zz' })).statusCode).toBe(404);

    await sim.connect();
    try {
      const pressed = await call('POST', `${mine(tenant)}/${given.id}/press`, op.auth, { widget_id: 'b1' });
      expect(pressed.statusCode, pressed.body).toBe(200);
      expect(pressed.json()).toMatchObject({ kind: 'command', things_id: d.id, state: 'answered', code: 0 });
      // The simulated logger put the button's frame on its bus.
      expect(sim.bus.sent.map((f) => [f.channel, f.id, Buffer.from(f.data).toString('hex')])).toEqual([[0, 0x123, '01']]);
    } finally {
      await sim.close();
    }

    // Taken back: the screen is gone from the user's list at once.
    expect((await call('PUT', `${users}/${op.userId}/screens`, tenant.auth, { screen_ids: [] })).json().screen_ids).toEqual([]);
    expect((await call('GET', mine(tenant), op.auth)).json().list).toEqual([]);
    expect((await call('POST', `${mine(tenant)}/${given.id}/press`, op.auth, { widget_id: 'b1' })).statusCode).toBe(404);
  });

  it('lets an editor who is not given the screen press only what they may command themselves', async () => {
    const { tenant } = await setup();
    const { d } = await remoteDevice(t, tenant);
    const s = (await call('POST', screens(tenant), tenant.auth, screen('Edit', [button(d.id)]))).json();
    const reader = await makeSubUser(t, tenant, ['out-hmi:screen:query', 'things:things:command'], [{ thingsId: d.id, access: 'read' }]);
    // Previewing a draft is allowed for the editor.
    expect((await call('GET', `${mine(tenant)}/${s.id}`, reader.auth)).statusCode).toBe(200);
    const r = await call('POST', `${mine(tenant)}/${s.id}/press`, reader.auth, { widget_id: 'b1' });
    expect(r.statusCode).toBe(403);
    const noKey = await makeSubUser(t, tenant, ['out-hmi:screen:query'], [{ thingsId: d.id, access: 'write' }]);
    expect((await call('POST', `${mine(tenant)}/${s.id}/press`, noKey.auth, { widget_id: 'b1' })).statusCode).toBe(403);
  });
});

describe('HMI screens on a model device', () => {
  /** A tenant with a device of a model whose block `env` has a read-only temperature and a writable target. */
  async function modelDevice() {
    const tenant = await makeTenant(t);
    const blk = await call('POST', `/v1/mapping-mgmt/tenants/${tenant.tenantId}/function-blocks`, tenant.auth, {
      name: 'env',
      display_name: 'Environment',
      json_schema: {
        status: [
          { identifier: 'temperature', name: 'Temperature', data_type: 1, read_only: true, default_value: 21 },
          { identifier: 'target', name: 'Target', data_type: 1, default_value: 20 },
        ],
      },
    });
    expect(blk.statusCode, blk.body).toBe(200);
    const model = await call('POST', `/v1/mapping-mgmt/tenants/${tenant.tenantId}/info-models`, tenant.auth, {
      name: 'Thermostat',
      info_model_fn_blocks: [blk.json().id],
    });
    const dev = await makeDevice(t, tenant, { info_model_id: model.json().id, thing_type: 1 });
    return { tenant, dev };
  }
  const shows = (thingsId: string, property: string) => ({
    id: 'v1',
    type: 'value',
    x: 0,
    y: 0,
    w: 4,
    h: 2,
    binding: { source: 'property', things_id: thingsId, property },
  });
  const sets = (thingsId: string, desired: Record<string, unknown>) => ({
    id: 'b1',
    type: 'button',
    x: 4,
    y: 0,
    w: 4,
    h: 2,
    label: 'Warmer',
    action: { kind: 'twin', things_id: thingsId, desired },
  });

  it('bind model properties and set twin desired values from a button', async () => {
    const { tenant, dev } = await modelDevice();
    const unknown = await call('POST', screens(tenant), tenant.auth, screen('Bad', [shows(dev.id, 'env.humidity')]));
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().code).toBe('hmi.unknown-property');

    const s = (
      await call(
        'POST',
        screens(tenant),
        tenant.auth,
        screen('Climate', [shows(dev.id, 'env.temperature'), sets(dev.id, { 'env.target': 25 })]),
      )
    ).json();
    const readOnly = (await call('POST', screens(tenant), tenant.auth, screen('Forced', [sets(dev.id, { 'env.temperature': 30 })]))).json();
    for (const x of [s, readOnly]) expect((await call('POST', `${screens(tenant)}/${x.id}/publish`, tenant.auth)).statusCode).toBe(200);
    const op = await makeSubUser(t, tenant, [], [{ thingsId: dev.id, access: 'read' }]);
    await call('PUT', `/v1/out-hmi/tenants/${tenant.tenantId}/users/${op.userId}/screens`, tenant.auth, {
      screen_ids: [s.id, readOnly.id],
    });

    const pressed = await call('POST', `${mine(tenant)}/${s.id}/press`, op.auth, { widget_id: 'b1' });
    expect(pressed.statusCode, pressed.body).toBe(200);
    expect(pressed.json()).toMatchObject({ kind: 'twin', things_id: dev.id, state: 'set', desired_version: 1 });
    const twin = (await call('GET', `/v1/things/tenants/${tenant.tenantId}/things/${dev.id}/digital-twin`, tenant.auth)).json();
    expect(twin.desired).toEqual({ 'env.target': 25 });
    // The model still decides what may be set: a read-only property is refused, screen or not.
    const refused = await call('POST', `${mine(tenant)}/${readOnly.id}/press`, op.auth, { widget_id: 'b1' });
    expect(refused.statusCode).toBe(400);
    expect((await call('GET', `/v1/things/tenants/${tenant.tenantId}/things/${dev.id}/digital-twin`, tenant.auth)).json().desired).toEqual({
      'env.target': 25,
    });
  });
});
