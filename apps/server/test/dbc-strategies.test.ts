import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helper.ts';
import { bind, multipart, TEST_DBC, testDbc } from './signals.fixtures.ts';
import { makeDevice, makeTenant, type TenantFixture } from './things.fixtures.ts';

describe('signal strategies and channel bindings', () => {
  let t: TestApp;
  let tenant: TenantFixture;
  let dbcId: string;
  const url = (rest = '') => `/v1/mapping-mgmt/tenants/${tenant.tenantId}/signal-strategies${rest}`;
  const post = (payload: object) => t.app.inject({ method: 'POST', url: url(), headers: { authorization: tenant.auth }, payload });

  beforeAll(async () => {
    t = await createTestApp();
    tenant = await makeTenant(t);
    dbcId = await testDbc(t, tenant);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('creates a strategy with a DBCSIG_ name by default and lists it', async () => {
    const res = await post({ dbc_id: dbcId, signals: [{ message: 'RAMP', signal: 'Value' }], nickname: 'Speed only' });
    expect(res.statusCode).toBe(200);
    expect(res.json().name).toMatch(/^DBCSIG_[A-Z0-9]+$/);
    expect(res.json()).toMatchObject({ signal_count: 1, dbc_id: dbcId, nickname: 'Speed only', bound_channels: 0 });
    const list = await t.app.inject({ method: 'GET', url: url(`?dbc_id=${dbcId}`), headers: { authorization: tenant.auth } });
    expect(list.json().list.map((s: { id: string }) => s.id)).toContain(res.json().id);
  });

  it('holds the name rules: letters, digits, underscore, no leading digit, unique', async () => {
    const one = [{ message: 'RAMP', signal: 'Value' }];
    for (const name of ['1abc', 'has space', 'dash-ed', 'ünï'])
      expect((await post({ name, dbc_id: dbcId, signals: one })).statusCode, name).toBe(400);
    expect((await post({ name: '_ok_1', dbc_id: dbcId, signals: one })).statusCode).toBe(200);
    const dup = await post({ name: '_ok_1', dbc_id: dbcId, signals: one });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().code).toBe('mapping.strategy-name-used');
  });

  it('takes 1 to 100 signals that exist in the DBC, each once', async () => {
    expect((await post({ dbc_id: dbcId, signals: [] })).statusCode).toBe(400);
    // 100 distinct references: the DBC has 3 signals, so build a file with 101.
    const sigs = Array.from({ length: 101 }, (_, i) => ` SG_ S${i} : ${(i % 8) * 8}|8@1+ (1,0) [0|255] "" ECU`);
    const big = `VERSION ""\n\nBU_: ECU\n\n${Array.from({ length: 13 }, (_, m) => `BO_ ${m + 1} M${m}: 8 ECU\n${sigs.slice(m * 8, m * 8 + 8).join('\n')}`).join('\n\n')}\n`;
    const body = multipart({}, { name: 'many.dbc', content: big });
    const up = await t.app.inject({
      method: 'POST',
      url: `/v1/mapping-mgmt/tenants/${tenant.tenantId}/dbc-files`,
      headers: { authorization: tenant.auth, ...body.headers },
      payload: body.payload,
    });
    expect(up.json().signal_count).toBe(101);
    const refs = Array.from({ length: 101 }, (_, i) => ({ message: `M${Math.floor(i / 8)}`, signal: `S${i}` }));
    expect((await post({ dbc_id: up.json().id, signals: refs.slice(0, 100) })).statusCode).toBe(200);
    expect((await post({ dbc_id: up.json().id, signals: refs })).statusCode).toBe(400);

    const unknown = await post({ dbc_id: dbcId, signals: [{ message: 'RAMP', signal: 'Nope' }] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ code: 'mapping.unknown-signal', details: { missing: ['RAMP.Nope'] } });
    const twice = await post({
      dbc_id: dbcId,
      signals: [
        { message: 'RAMP', signal: 'Value' },
        { message: 'RAMP', signal: 'Value' },
      ],
    });
    expect(twice.statusCode).toBe(400);
  });

  it('updates, refuses deletion while bound, deletes once unbound', async () => {
    const s = (await post({ name: 'DBCSIG_upd', dbc_id: dbcId, signals: [{ message: 'RAMP', signal: 'Value' }] })).json();
    const up = await t.app.inject({
      method: 'PUT',
      url: url(`/${s.id}`),
      headers: { authorization: tenant.auth },
      payload: {
        signals: [
          { message: 'RAMP', signal: 'Value' },
          { message: 'WAVE', signal: 'Level' },
        ],
        remark: 'two',
      },
    });
    expect(up.json()).toMatchObject({ name: 'DBCSIG_upd', signal_count: 2, remark: 'two' });

    const dev = await makeDevice(t, tenant);
    const b = await bind(t, tenant, dev.id, 0, { strategy_id: s.id });
    expect(b.json()).toMatchObject({ channel: 0, dbc_id: dbcId, strategy_id: s.id, strategy_name: 'DBCSIG_upd', state: 'started' });
    const refused = await t.app.inject({ method: 'DELETE', url: url(`/${s.id}`), headers: { authorization: tenant.auth } });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('mapping.strategy-in-use');
    // The DBC behind a bound strategy is in use too.
    const dbcDel = await t.app.inject({
      method: 'DELETE',
      url: `/v1/mapping-mgmt/tenants/${tenant.tenantId}/dbc-files/${dbcId}`,
      headers: { authorization: tenant.auth },
    });
    expect(dbcDel.json().code).toBe('mapping.dbc-in-use');
    // Replacing the file with one that lacks a strategy's signal is refused.
    const lacking = multipart({}, { name: 'lacking.dbc', content: TEST_DBC.replace(/BO_ 512 WAVE[\s\S]*$/, '') });
    const rep = await t.app.inject({
      method: 'PUT',
      url: `/v1/mapping-mgmt/tenants/${tenant.tenantId}/dbc-files/${dbcId}`,
      headers: { authorization: tenant.auth, ...lacking.headers },
      payload: lacking.payload,
    });
    expect(rep.statusCode).toBe(409);
    expect(rep.json().message).toContain('WAVE.Level');

    await t.app.inject({
      method: 'DELETE',
      url: `/v1/mapping-mgmt/tenants/${tenant.tenantId}/things/${dev.id}/channels/0/dbc-binding`,
      headers: { authorization: tenant.auth },
    });
    expect((await t.app.inject({ method: 'DELETE', url: url(`/${s.id}`), headers: { authorization: tenant.auth } })).statusCode).toBe(204);
  });

  it('binds only existing channels of the device, and changes state', async () => {
    const dev = await makeDevice(t, tenant); // CANDTU-200: channels 0 and 1
    const bad = await bind(t, tenant, dev.id, 2, { dbc_id: dbcId });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('things.bad-channel');
    expect((await bind(t, tenant, dev.id, 1, {})).statusCode).toBe(400);
    expect((await bind(t, tenant, dev.id, 1, { dbc_id: dbcId, state: 'paused' })).json().state).toBe('paused');
    const base = `/v1/mapping-mgmt/tenants/${tenant.tenantId}/things/${dev.id}`;
    const st = await t.app.inject({
      method: 'PUT',
      url: `${base}/channels/1/dbc-binding/state`,
      headers: { authorization: tenant.auth },
      payload: { state: 'started' },
    });
    expect(st.json().state).toBe('started');
    const list = await t.app.inject({ method: 'GET', url: `${base}/dbc-bindings`, headers: { authorization: tenant.auth } });
    expect(list.json()).toMatchObject([{ channel: 1, state: 'started', strategy_id: null }]);
    const none = await t.app.inject({
      method: 'PUT',
      url: `${base}/channels/0/dbc-binding/state`,
      headers: { authorization: tenant.auth },
      payload: { state: 'started' },
    });
    expect(none.statusCode).toBe(404);
    expect(none.json().code).toBe('mapping.not-bound');
  });
});
