import { downTopic } from '@loggerhead/can/protocol/topics.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandIn, remoteDevice } from './command.helpers.ts';
import { createTestApp, type TestApp } from './helper.ts';
import { makeSubUser, makeTenant, type TenantFixture } from './things.fixtures.ts';

describe.skipIf(!!process.env.TEST_MQTT_URL)('device configuration', () => {
  let t: TestApp;
  let tenant: TenantFixture;
  beforeAll(async () => {
    t = await createTestApp();
    tenant = await makeTenant(t);
  });
  afterAll(async () => {
    await t?.close();
  });
  const url = (id: string, rest = '') => `/v1/things/tenants/${tenant.tenantId}/things/${id}/config${rest}`;

  it('writes a config to the logger and reads it back from the device', async () => {
    const { d, sim } = await remoteDevice(t, tenant);
    await sim.connect();
    try {
      const change = {
        timer_period_ms: 86_400_000,
        record_file_size_mb: 512,
        storage_allocation_pct: 0,
        local_port: 0,
        remote_port: 8883,
        gps_record_period_s: 1800,
        time_filters: Array.from({ length: 64 }, () => ({ begin: '08:00', end: '18:30', enabled: true })),
        id_filters: [{ channel: 0, ext: true, id_from: 0x18fef100, id_to: 0x18fef1ff, action: 'accept' }],
      };
      const w = await t.app.inject({ method: 'PUT', url: url(d.id), headers: { authorization: tenant.auth }, payload: change });
      expect(w.statusCode).toBe(200);
      expect(w.json().command.state).toBe('answered');
      // The device holds it now (its own store, not the server's copy).
      expect(sim.config.config).toMatchObject(change);
      const r = await t.app.inject({ method: 'GET', url: url(d.id, '/device'), headers: { authorization: tenant.auth } });
      expect(r.statusCode).toBe(200);
      expect(r.json().config).toMatchObject(change);
      expect(r.json().command.operation_name).toBe('common_fn.get_config');
      const last = await t.app.inject({ method: 'GET', url: url(d.id), headers: { authorization: tenant.auth } });
      expect(last.json()).toMatchObject({ source: 'read', config: change });
      // Export, then import the same file into another logger.
      const exp = await t.app.inject({ method: 'GET', url: url(d.id, '/export'), headers: { authorization: tenant.auth } });
      expect(exp.headers['content-disposition']).toMatch(/config\.json/);
      const other = await remoteDevice(t, tenant);
      await other.sim.connect();
      try {
        const imp = await t.app.inject({
          method: 'POST',
          url: url(other.d.id, '/import'),
          headers: { authorization: tenant.auth, 'content-type': 'application/json' },
          payload: exp.body,
        });
        expect(imp.statusCode).toBe(200);
        expect(other.sim.config.config).toMatchObject(change);
      } finally {
        await other.sim.close();
      }
    } finally {
      await sim.close();
    }
  });

  it('refuses every out-of-range value before anything is sent', async () => {
    const { d } = await remoteDevice(t, tenant);
    const cases: [Record<string, unknown>, string][] = [
      [{ timer_period_ms: 9 }, 'timer_period_ms'],
      [{ timer_period_ms: 86_400_001 }, 'timer_period_ms'],
      [{ record_time: 0 }, 'record_time'],
      [{ record_time: 8_640_001 }, 'record_time'],
      [{ pretrigger_frames: 9 }, 'pretrigger_frames'],
      [{ pretrigger_frames: 100_001 }, 'pretrigger_frames'],
      [{ record_file_size_mb: 513 }, 'record_file_size_mb'],
      [{ storage_allocation_pct: 101 }, 'storage_allocation_pct'],
      [{ timeout_ms: 499 }, 'timeout_ms'],
      [{ timeout_ms: 60_001 }, 'timeout_ms'],
      [{ resumable_cache: 0 }, 'resumable_cache'],
      [{ resumable_cache: 101 }, 'resumable_cache'],
      [{ remote_port: 0 }, 'remote_port'],
      [{ local_port: 65_536 }, 'local_port'],
      [{ gps_record_period_s: 1801 }, 'gps_record_period_s'],
      [{ time_filters: Array.from({ length: 65 }, () => ({ begin: '00:00', end: '01:00' })) }, 'time_filters'],
      [{ id_filters: Array.from({ length: 9 }, () => ({ channel: 0, id_from: 1, id_to: 2 })) }, 'id_filters'],
    ];
    for (const [body, field] of cases) {
      const r = await t.app.inject({ method: 'PUT', url: url(d.id), headers: { authorization: tenant.auth }, payload: body });
      expect(r.statusCode, field).toBe(400);
      expect(r.body).toContain(field);
    }
    const { rows } = await t.database.raw.query<{ n: number }>('select count(*)::int as n from device_commands where things_id = $1', [
      d.id,
    ]);
    expect(rows[0].n).toBe(0);
    // A raw set_config command is checked the same way.
    const raw = await t.app.inject({
      method: 'POST',
      url: `/v1/things/tenants/${tenant.tenantId}/things/${d.id}/messages`,
      headers: { authorization: tenant.auth },
      payload: { operation_name: 'common_fn.set_config', operation_params: { config: { remote_port: 70000 } } },
    });
    expect(raw.statusCode).toBe(400);
  });

  it('the logger refuses out-of-range values itself and keeps its config', async () => {
    const { d, sim } = await remoteDevice(t, tenant);
    await sim.connect();
    try {
      const before = structuredClone(sim.config.config);
      // Straight onto the downlink, bypassing the API's checks, as a faulty cloud would.
      const corr = 'raw-bad-config-1';
      await t.database.raw.query(
        `insert into device_commands (tenant_id, things_id, correlation_id, operation_name, envelope, state, timeout_ms, deadline_at, sent_at)
         values ($1,$2,$3,'common_fn.set_config','{}','sent',10000, now() + interval '10 seconds', now())`,
        [tenant.tenantId, d.id, corr],
      );
      await t.app.ctx.broker.publish(
        downTopic(d.third_things_id, 'cmd'),
        Buffer.from(
          JSON.stringify({
            correlation_id: corr,
            message_type: 0,
            payload: { operation_name: 'common_fn.set_config', operation_params: { config: { record_file_size_mb: 1024 } } },
          }),
        ),
      );
      const c = await commandIn(t.app, tenant, d.id, corr, ['failed']);
      expect(c.message).toMatch(/record_file_size_mb must be 1-512/);
      expect(sim.config.config).toEqual(before);
    } finally {
      await sim.close();
    }
  });

  it('import: at most 10 MB, valid JSON, valid values; offline devices get the config queued', async () => {
    const { d } = await remoteDevice(t, tenant);
    const post = (payload: string) =>
      t.app.inject({
        method: 'POST',
        url: url(d.id, '/import'),
        headers: { authorization: tenant.auth, 'content-type': 'application/json' },
        payload,
      });
    expect((await post('{"config": {"timeout_ms": 10}}')).statusCode).toBe(400);
    const big = JSON.stringify({ config: { remote_host: 'h' }, pad: 'x'.repeat(10 * 1024 * 1024) });
    expect((await post(big)).statusCode).toBe(413);
    const queued = await post('{"config": {"timeout_ms": 1000}}');
    expect(queued.statusCode).toBe(202);
    expect(queued.json().command.state).toBe('queued');
  });

  it('a read-only sub-user cannot write the config', async () => {
    const { d } = await remoteDevice(t, tenant);
    const reader = await makeSubUser(t, tenant, ['things:things:command', 'things:things:queryone'], [{ thingsId: d.id, access: 'read' }]);
    const r = await t.app.inject({ method: 'PUT', url: url(d.id), headers: { authorization: reader.auth }, payload: { timeout_ms: 1000 } });
    expect(r.statusCode).toBe(403);
  });
});
