import { DEFAULT_DASHBOARD_TYPE, defaultDashboardName, MAX_PANELS } from '@loggerhead/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helper.ts';
import { bind, ingestFrames, rampFrame, testDbc } from './signals.fixtures.ts';
import { makeDevice, makeSubUser, makeTenant, type TenantFixture } from './things.fixtures.ts';

/** Panels of the default dashboard (spec §3 Dashboard and Panel, §4 unbind clears dashboards, §6 keys). */
let t: TestApp;
let seq = 0;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, auth: string, payload?: object) =>
  t.app.inject({ method, url, headers: { authorization: auth }, ...(payload ? { payload } : {}) });

/** A tenant with its default dashboard, a device whose CAN0 is bound to the test DBC (parsing started). */
async function setup() {
  const tenant = await makeTenant(t);
  const made = await call('POST', `/v1/data-mgmt/tenants/${tenant.tenantId}/dashboards`, tenant.auth, {
    business_type: DEFAULT_DASHBOARD_TYPE,
    name: defaultDashboardName(tenant.managerId),
  });
  expect(made.statusCode).toBe(201);
  const dashboardId: string = made.json().id;
  const dbcId = await testDbc(t, tenant);
  const dev = await makeDevice(t, tenant);
  expect((await bind(t, tenant, dev.id, 0, { dbc_id: dbcId })).statusCode).toBe(200);
  const panels = (tn: TenantFixture = tenant, dash = dashboardId) => `/v1/data-mgmt/tenants/${tn.tenantId}/dashboards/${dash}/panels`;
  const body = (over: Record<string, unknown> = {}) => ({
    name: 'Speed',
    chart_type: 'number',
    things_id: dev.id,
    channel: 0,
    signals: [{ message: 'RAMP', signal: 'Value' }],
    ...over,
  });
  return { tenant, dashboardId, dev, dbcId, panels, body };
}

describe('dashboard panels', () => {
  it('are created, listed in panel_order, changed, reordered and deleted', async () => {
    const { tenant, panels, body, dev } = await setup();
    const a = await call('POST', panels(), tenant.auth, body({ name: '<b>Speed</b>', description: 'Vehicle speed' }));
    expect(a.statusCode).toBe(201);
    expect(a.json()).toMatchObject({
      name: '<b>Speed</b>',
      description: 'Vehicle speed',
      chart_type: 'number',
      x_axis_type: '1h',
      things_id: dev.id,
      things_name: 'Truck',
      channel: 0,
      signals: [{ message: 'RAMP', signal: 'Value' }],
    });
    const b = await call(
      'POST',
      panels(),
      tenant.auth,
      body({
        name: 'Ramp',
        chart_type: 'line',
        x_axis_type: '10m',
        signals: [
          { message: 'RAMP', signal: 'Value' },
          { message: 'RAMP', signal: 'Counter' },
        ],
      }),
    );
    expect(b.statusCode).toBe(201);
    const c = await call(
      'POST',
      panels(),
      tenant.auth,
      body({ name: 'Level', chart_type: 'gauge', signals: [{ message: 'WAVE', signal: 'Level' }] }),
    );
    expect(c.statusCode).toBe(201);
    const ids = [a, b, c].map((r) => r.json().id as string);

    const names = async () => ((await call('GET', panels(), tenant.auth)).json().list as { name: string }[]).map((p) => p.name);
    expect(await names()).toEqual(['<b>Speed</b>', 'Ramp', 'Level']);

    const changed = await call(
      'PUT',
      `${panels()}/${ids[1]}`,
      tenant.auth,
      body({ name: 'Ramp 2', chart_type: 'line', x_axis_type: '24h' }),
    );
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ name: 'Ramp 2', x_axis_type: '24h', signals: [{ message: 'RAMP', signal: 'Value' }] });
    expect((await call('GET', `${panels()}/${ids[1]}`, tenant.auth)).json().name).toBe('Ramp 2');

    // Move the last panel to the top.
    const moved = await call('PUT', `${panels()}/order`, tenant.auth, { ids: [ids[2], ids[0], ids[1]] });
    expect(moved.statusCode).toBe(200);
    expect(await names()).toEqual(['Level', '<b>Speed</b>', 'Ramp 2']);
    // Swapping two of them leaves the third where it is.
    expect((await call('PUT', `${panels()}/order`, tenant.auth, { ids: [ids[1], ids[0]] })).statusCode).toBe(200);
    expect(await names()).toEqual(['Level', 'Ramp 2', '<b>Speed</b>']);

    const gone = await call('DELETE', `${panels()}/${ids[0]}`, tenant.auth);
    expect(gone.statusCode).toBe(204);
    expect(await names()).toEqual(['Level', 'Ramp 2']);
    expect((await call('GET', `${panels()}/${ids[0]}`, tenant.auth)).statusCode).toBe(404);
    expect((await call('DELETE', `${panels()}/${ids[0]}`, tenant.auth)).statusCode).toBe(404);
  });

  it('refuses bad panels with their codes', async () => {
    const { tenant, panels, body, dev } = await setup();
    const refused = async (payload: object, status: number, code: string, field?: string) => {
      const res = await call('POST', panels(), tenant.auth, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      const err = Array.isArray(res.json()) ? res.json()[0] : res.json();
      expect(err.code).toBe(code);
      if (field) expect(err.field).toBe(field);
      return err as { message: string };
    };
    await refused(body({ name: '' }), 400, 'http.400', 'name');
    await refused(body({ name: 'x'.repeat(33) }), 400, 'http.400', 'name');
    await refused(body({ description: 'x'.repeat(201) }), 400, 'http.400', 'description');
    await refused(body({ chart_type: 'pie' }), 400, 'http.400', 'chart_type');
    await refused(body({ x_axis_type: '2h' }), 400, 'http.400', 'x_axis_type');
    await refused(body({ signals: [] }), 400, 'http.400', 'signals');
    await refused(
      body({ chart_type: 'line', signals: Array.from({ length: 11 }, () => ({ message: 'RAMP', signal: 'Value' })) }),
      400,
      'http.400',
      'signals',
    );
    const two = [
      { message: 'RAMP', signal: 'Value' },
      { message: 'RAMP', signal: 'Counter' },
    ];
    await refused(body({ chart_type: 'number', signals: two }), 400, 'dashboard.signal-count', 'signals');
    await refused(body({ chart_type: 'gauge', signals: two }), 400, 'dashboard.signal-count', 'signals');
    await refused(body({ chart_type: 'line', signals: [two[0], two[0]] }), 400, 'dashboard.duplicate-signal', 'signals');
    const unknown = await refused(body({ signals: [{ message: 'RAMP', signal: 'Nope' }] }), 400, 'dashboard.unknown-signal', 'signals');
    expect(unknown.message).toContain('RAMP.Nope');
    await refused(body({ channel: 1 }), 400, 'dashboard.not-bound', 'channel');
    // A device of no one's (or not a device at all) is not found.
    await refused(body({ things_id: '00000000-0000-4000-8000-000000000000' }), 404, 'http.404');
    expect(((await call('GET', panels(), tenant.auth)).json().list as unknown[]).length).toBe(0);

    // At most MAX_PANELS per dashboard.
    for (let i = 0; i < MAX_PANELS; i++) expect((await call('POST', panels(), tenant.auth, body({ name: `P${i}` }))).statusCode).toBe(201);
    await refused(body({ name: 'one too many' }), 409, 'dashboard.panel-limit');
    expect(((await call('GET', panels(), tenant.auth)).json().list as unknown[]).length).toBe(MAX_PANELS);

    // A reorder names panels of this dashboard, each once.
    const list = (await call('GET', panels(), tenant.auth)).json().list as { id: string }[];
    const twice = await call('PUT', `${panels()}/order`, tenant.auth, { ids: [list[0].id, list[0].id] });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().code).toBe('dashboard.bad-order');
    const stranger = await call('PUT', `${panels()}/order`, tenant.auth, { ids: [list[0].id, dev.id] });
    expect(stranger.json().code).toBe('dashboard.bad-order');
  });

  it('checks signals against a strategy bound to the channel', async () => {
    const { tenant, panels, body, dev, dbcId } = await setup();
    const s = await call('POST', `/v1/mapping-mgmt/tenants/${tenant.tenantId}/signal-strategies`, tenant.auth, {
      name: `ONLY_VALUE_${++seq}`,
      dbc_id: dbcId,
      signals: [{ message: 'RAMP', signal: 'Value' }],
    });
    expect(s.statusCode, s.body).toBe(200);
    expect((await bind(t, tenant, dev.id, 1, { strategy_id: s.json().id })).statusCode).toBe(200);
    expect((await call('POST', panels(), tenant.auth, body({ channel: 1 }))).statusCode).toBe(201);
    const res = await call('POST', panels(), tenant.auth, body({ channel: 1, signals: [{ message: 'RAMP', signal: 'Counter' }] }));
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('dashboard.unknown-signal');
  });

  it('keeps each tenant to its own dashboards and panels', async () => {
    const a = await setup();
    const b = await setup();
    const panel = (await call('POST', a.panels(), a.tenant.auth, a.body())).json();
    // B in its own tenant, addressing A's dashboard or A's panel: not found.
    const foreignDash = b.panels(b.tenant, a.dashboardId);
    for (const res of [
      await call('GET', foreignDash, b.tenant.auth),
      await call('POST', foreignDash, b.tenant.auth, b.body()),
      await call('GET', `${foreignDash}/${panel.id}`, b.tenant.auth),
      await call('PUT', `${foreignDash}/${panel.id}`, b.tenant.auth, b.body()),
      await call('DELETE', `${foreignDash}/${panel.id}`, b.tenant.auth),
      await call('GET', `${foreignDash}/${panel.id}/values`, b.tenant.auth),
      await call('GET', `${b.panels()}/${panel.id}`, b.tenant.auth),
      await call('DELETE', `${b.panels()}/${panel.id}`, b.tenant.auth),
      await call('PUT', `${b.panels()}/order`, b.tenant.auth, { ids: [panel.id] }),
    ]) {
      expect([404, 400]).toContain(res.statusCode);
      expect(res.body).not.toContain(a.dev.id);
    }
    expect((await call('GET', foreignDash, b.tenant.auth)).json().code).toBe('dashboard.not-found');
    // A panel of B's dashboard cannot use A's device.
    const borrowed = await call('POST', b.panels(), b.tenant.auth, a.body());
    expect(borrowed.statusCode).toBe(404);
    // B naming A's tenant in the path is refused outright.
    expect((await call('GET', a.panels(), b.tenant.auth)).statusCode).toBe(403);
    // A's panel is untouched.
    expect((await call('GET', `${a.panels()}/${panel.id}`, a.tenant.auth)).json().name).toBe('Speed');
  });

  it('needs the dashboard keys, and shows a sub-user only the panels of devices it may read', async () => {
    const { tenant, panels, body, dev, dbcId } = await setup();
    const other = await makeDevice(t, tenant);
    expect((await bind(t, tenant, other.id, 0, { dbc_id: dbcId })).statusCode).toBe(200);
    const mine = (await call('POST', panels(), tenant.auth, body())).json();
    const hidden = (await call('POST', panels(), tenant.auth, body({ name: 'Other', things_id: other.id }))).json();

    // No keys: every call is refused, reads included.
    const none = await makeSubUser(t, tenant, [], [{ thingsId: dev.id, access: 'write' }]);
    for (const [method, url, payload] of [
      ['GET', panels()],
      ['POST', panels(), body()],
      ['PUT', `${panels()}/${mine.id}`, body()],
      ['PUT', `${panels()}/order`, { ids: [mine.id] }],
      ['DELETE', `${panels()}/${mine.id}`],
      ['GET', `${panels()}/${mine.id}/values`],
    ] as [Method, string, object?][]) {
      const res = await call(method, url, none.auth, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().code).toBe('http.403');
    }

    // The query key with read access to one device: only its panel is listed; the other is not found.
    const reader = await makeSubUser(
      t,
      tenant,
      ['data-mgmt:dashboard:query', 'data-mgmt:dashboard:create'],
      [{ thingsId: dev.id, access: 'read' }],
    );
    const seen = (await call('GET', panels(), reader.auth)).json().list as { id: string }[];
    expect(seen.map((p) => p.id)).toEqual([mine.id]);
    expect((await call('GET', `${panels()}/${hidden.id}`, reader.auth)).statusCode).toBe(404);
    // The create key is not enough on a read-only device.
    expect((await call('POST', panels(), reader.auth, body({ name: 'Mine' }))).statusCode).toBe(403);

    // Write access and the keys: a sub-user adds, changes and deletes its device's panels.
    const writer = await makeSubUser(
      t,
      tenant,
      ['data-mgmt:dashboard:query', 'data-mgmt:dashboard:create', 'data-mgmt:dashboard:update', 'data-mgmt:dashboard:delete'],
      [{ thingsId: dev.id, access: 'write' }],
    );
    const added = await call('POST', panels(), writer.auth, body({ name: 'By writer' }));
    expect(added.statusCode).toBe(201);
    expect((await call('PUT', `${panels()}/${added.json().id}`, writer.auth, body({ name: 'Renamed' }))).statusCode).toBe(200);
    // It cannot move a panel onto a device it cannot see, nor touch the hidden panel.
    expect((await call('PUT', `${panels()}/${added.json().id}`, writer.auth, body({ things_id: other.id }))).statusCode).toBe(404);
    expect((await call('DELETE', `${panels()}/${hidden.id}`, writer.auth)).statusCode).toBe(404);
    // Reordering what it sees leaves the hidden panel where it was (second of three).
    const before = ((await call('GET', panels(), tenant.auth)).json().list as { id: string }[]).map((p) => p.id);
    expect(before).toEqual([mine.id, hidden.id, added.json().id]);
    expect((await call('PUT', `${panels()}/order`, writer.auth, { ids: [added.json().id, mine.id] })).statusCode).toBe(200);
    const after = ((await call('GET', panels(), tenant.auth)).json().list as { id: string }[]).map((p) => p.id);
    expect(after).toEqual([added.json().id, hidden.id, mine.id]);
    expect((await call('DELETE', `${panels()}/${added.json().id}`, writer.auth)).statusCode).toBe(204);
  });

  it('gives the latest value of each signal with its unit, time and the DBC range', async () => {
    const { tenant, panels, body, dev } = await setup();
    const p = (await call('POST', panels(), tenant.auth, body())).json();
    const empty = (await call('GET', `${panels()}/${p.id}/values`, tenant.auth)).json().list;
    expect(empty).toEqual([{ message: 'RAMP', signal: 'Value', unit: 'km/h', min: -10, max: 32757.5, time: null, value: null }]);

    // Raw 100…149 at 10 ms; the last frame carries raw 149 → 149 × 0.5 − 10 = 64.5 km/h.
    const t0 = Date.UTC(2026, 2, 1, 8, 0, 0) * 1000;
    const frames = Array.from({ length: 50 }, (_, i) => rampFrame(t0 + i * 10_000, 100 + i));
    await ingestFrames(t, tenant.tenantId, dev.id, frames, 1);
    const got = (await call('GET', `${panels()}/${p.id}/values`, tenant.auth)).json().list;
    expect(got).toEqual([
      { message: 'RAMP', signal: 'Value', unit: 'km/h', min: -10, max: 32757.5, time: (t0 + 49 * 10_000) / 1000, value: 64.5 },
    ]);
  });

  it('go when their channel is unbound, in the same change, and when their device is deleted', async () => {
    const { tenant, panels, body, dev, dbcId } = await setup();
    const other = await makeDevice(t, tenant);
    expect((await bind(t, tenant, other.id, 0, { dbc_id: dbcId })).statusCode).toBe(200);
    expect((await bind(t, tenant, dev.id, 1, { dbc_id: dbcId })).statusCode).toBe(200);
    await call('POST', panels(), tenant.auth, body({ name: 'CAN0' }));
    await call('POST', panels(), tenant.auth, body({ name: 'CAN1', channel: 1 }));
    await call('POST', panels(), tenant.auth, body({ name: 'Other device', things_id: other.id }));
    const names = async () => ((await call('GET', panels(), tenant.auth)).json().list as { name: string }[]).map((p) => p.name);
    expect(await names()).toEqual(['CAN0', 'CAN1', 'Other device']);

    const unbind = await call('DELETE', `/v1/mapping-mgmt/tenants/${tenant.tenantId}/things/${dev.id}/channels/0/dbc-binding`, tenant.auth);
    expect(unbind.statusCode).toBe(204);
    expect(await names()).toEqual(['CAN1', 'Other device']);
    // The channel is unbound now: a panel on it is refused.
    expect((await call('POST', panels(), tenant.auth, body({ name: 'again' }))).json().code).toBe('dashboard.not-bound');

    const removed = await call('DELETE', `/v1/things/tenants/${tenant.tenantId}/things/${other.id}`, tenant.auth);
    expect(removed.statusCode).toBe(204);
    expect(await names()).toEqual(['CAN1']);
  });
});
