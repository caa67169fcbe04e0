import { upTopic } from '@loggerhead/can/protocol/topics.ts';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { createTestApp, openTestDatabase, type TestApp, testConfig } from './helper.ts';
import { batch, closed, connectDevice, externalBroker } from './ingest.helpers.ts';
import { poll } from './poll.ts';
import { makeDevice, makeTenant, type TenantFixture } from './things.fixtures.ts';

// Two days ago on the hour: recent enough for the retention sweep to keep it.
const T0 = (Math.floor(Date.now() / 3_600_000) - 48) * 3_600_000_000;

describe('ingest through the embedded broker', () => {
  let t: TestApp;
  let tenant: TenantFixture;
  let url: string;
  const clients: MqttClient[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    tenant = await makeTenant(t);
    url = `mqtt://127.0.0.1:${t.app.ctx.broker.port()}`;
  });
  afterAll(async () => {
    for (const c of clients) c.end(true);
    await t?.close();
  });

  const connect = async (id: string, key: string, extra = {}) => {
    const c = await connectDevice(url, id, key, extra);
    clients.push(c);
    return c;
  };
  const chunks = async (thingsId: string) =>
    (
      await t.database.raw.query<{ seq: number; frame_count: number }>(
        'select seq::int as seq, frame_count from frame_chunks where things_id = $1 order by seq',
        [thingsId],
      )
    ).rows;

  it('refuses a wrong key, an unknown device and a client id of another device', async () => {
    const d = await makeDevice(t, tenant);
    await expect(connectDevice(url, d.third_things_id, 'wrong')).rejects.toThrow(/[Bb]ad username or password|Not authorized/);
    await expect(connectDevice(url, 'FFFFFFFFFFFFFFFFFFFF', d.things_key)).rejects.toThrow();
    await expect(connectDevice(url, d.third_things_id, d.things_key, { clientId: 'AAAAAAAAAAAAAAAAAAAA' })).rejects.toThrow();
    const ev = await poll(
      () => t.database.raw.query<{ kind: string }>('select kind from device_events where things_id = $1', [d.id]),
      (r) => r.rows.length > 0,
    );
    expect(ev.rows.map((r) => r.kind)).toContain('auth-failed');
  });

  it('stores a batch before acknowledging it, and marks the device online', async () => {
    const d = await makeDevice(t, tenant);
    const c = await connect(d.third_things_id, d.things_key, { protocolVersion: 5 });
    await c.publishAsync(upTopic(d.third_things_id, 'frames'), batch(1, T0), { qos: 1 });
    // No waiting: the PUBACK came after the commit.
    expect(await chunks(d.id)).toEqual([{ seq: 1, frame_count: 100 }]);
    const st = await t.app.inject({
      method: 'GET',
      url: `/v1/things/tenants/${tenant.tenantId}/things/${d.id}/status`,
      headers: { authorization: tenant.auth },
    });
    expect(st.json()).toMatchObject({ is_online: true, frames_stored: 100 });
  });

  it('stores a re-sent batch once', async () => {
    const d = await makeDevice(t, tenant);
    const c = await connect(d.third_things_id, d.things_key);
    const b = batch(7, T0);
    await c.publishAsync(upTopic(d.third_things_id, 'frames'), b, { qos: 1 });
    await c.publishAsync(upTopic(d.third_things_id, 'frames'), b, { qos: 1, dup: true });
    // and once more after a reconnect, as a logger does for an unacknowledged batch
    c.end(true);
    const c2 = await connect(d.third_things_id, d.things_key);
    await c2.publishAsync(upTopic(d.third_things_id, 'frames'), b, { qos: 1 });
    // two copies in the same group commit
    await Promise.all([
      c2.publishAsync(upTopic(d.third_things_id, 'frames'), batch(8, T0 + 1e6), { qos: 1 }),
      c2.publishAsync(upTopic(d.third_things_id, 'frames'), batch(8, T0 + 1e6), { qos: 1 }),
    ]);
    expect(await chunks(d.id)).toEqual([
      { seq: 7, frame_count: 100 },
      { seq: 8, frame_count: 100 },
    ]);
    const usage = await t.database.raw.query<{ frames: number }>(
      'select sum(frames)::int as frames from storage_usage where things_id = $1',
      [d.id],
    );
    expect(usage.rows[0].frames).toBe(200);
  });

  it('drops and counts a malformed batch, logs it, and stores the next good one on the same connection', async () => {
    const d = await makeDevice(t, tenant);
    const other = await makeDevice(t, tenant);
    const c = await connect(d.third_things_id, d.things_key);
    const o = await connect(other.third_things_id, other.things_key);
    const bad = batch(1, T0);
    bad[32 + 10 * 100] = 12; // a classic frame of 12 bytes
    await c.publishAsync(upTopic(d.third_things_id, 'frames'), bad, { qos: 1 });
    await c.publishAsync(upTopic(d.third_things_id, 'frames'), Buffer.from('not a batch'), { qos: 1 });
    await c.publishAsync(upTopic(d.third_things_id, 'frames'), batch(2, T0), { qos: 1 });
    await o.publishAsync(upTopic(other.third_things_id, 'frames'), batch(1, T0), { qos: 1 });
    expect(c.connected).toBe(true);
    expect(await chunks(d.id)).toEqual([{ seq: 2, frame_count: 100 }]);
    expect(await chunks(other.id)).toEqual([{ seq: 1, frame_count: 100 }]);
    const st = await poll(
      async () =>
        (
          await t.app.inject({
            method: 'GET',
            url: `/v1/things/tenants/${tenant.tenantId}/things/${d.id}/status`,
            headers: { authorization: tenant.auth },
          })
        ).json(),
      (s) => s.malformed_count === 2,
    );
    expect(st.malformed_count).toBe(2);
    const ev = await t.app.inject({
      method: 'GET',
      url: `/v1/things/tenants/${tenant.tenantId}/things/${d.id}/events?kind=malformed`,
      headers: { authorization: tenant.auth },
    });
    expect(ev.json().total).toBe(1);
    expect(JSON.stringify(ev.json().list[0].detail)).toMatch(/length 12/);
  });

  it("does not let a device publish as another device, nor subscribe to another device's downlinks", async () => {
    const a = await makeDevice(t, tenant);
    const b = await makeDevice(t, tenant);
    const c = await connect(a.third_things_id, a.things_key);
    await expect(c.subscribeAsync(`lh/v1/${b.third_things_id}/down/#`, { qos: 1 })).rejects.toThrow(/[Ss]ubscribe error/);
    const own = await c.subscribeAsync(`lh/v1/${a.third_things_id}/down/#`, { qos: 1 });
    expect(own[0].qos).toBe(1);
    const wasClosed = closed(c);
    c.publish(upTopic(b.third_things_id, 'frames'), batch(1, T0), { qos: 1 });
    expect(await wasClosed).toBe(true);
    expect(await chunks(b.id)).toEqual([]);
  });

  it('closes a connection that sends a packet over 1 MiB', async () => {
    const d = await makeDevice(t, tenant);
    const c = await connect(d.third_things_id, d.things_key);
    const wasClosed = closed(c);
    c.publish(upTopic(d.third_things_id, 'telemetry'), Buffer.alloc(1024 * 1024 + 10, 32), { qos: 1 });
    expect(await wasClosed).toBe(true);
  });

  it('applies status uplinks and logs connect and disconnect', async () => {
    const d = await makeDevice(t, tenant);
    const c = await connect(d.third_things_id, d.things_key);
    await c.publishAsync(
      upTopic(d.third_things_id, 'status'),
      JSON.stringify({ online: true, firmware: '4.02.01', sd: { state: 'full' }, channel_enable: 2 }),
      { qos: 1 },
    );
    const st = (
      await t.app.inject({
        method: 'GET',
        url: `/v1/things/tenants/${tenant.tenantId}/things/${d.id}/status`,
        headers: { authorization: tenant.auth },
      })
    ).json();
    expect(st).toMatchObject({ firmware: '4.02.01', sd_card_status: 'full', channel_enable: 2 });
    expect(st.channels).toEqual([
      { index: 0, name: 'CAN0', enabled: false },
      { index: 1, name: 'CAN1', enabled: true },
    ]);
    c.end();
    const ev = await poll(
      async () =>
        (
          await t.app.inject({
            method: 'GET',
            url: `/v1/things/tenants/${tenant.tenantId}/things/${d.id}/events`,
            headers: { authorization: tenant.auth },
          })
        ).json(),
      (e) => e.list.some((x: { kind: string }) => x.kind === 'disconnect'),
    );
    expect(ev.list.map((x: { kind: string }) => x.kind).sort()).toEqual(['connect', 'disconnect']);
  });

  it('disconnects a device whose key is re-generated', async () => {
    const d = await makeDevice(t, tenant);
    const c = await connect(d.third_things_id, d.things_key);
    const wasClosed = closed(c);
    await t.app.inject({
      method: 'POST',
      url: `/v1/things/tenants/${tenant.tenantId}/things/${d.id}/key`,
      headers: { authorization: tenant.auth },
    });
    expect(await wasClosed).toBe(true);
    await expect(connectDevice(url, d.third_things_id, d.things_key)).rejects.toThrow();
  });
});

describe('embedded broker persistence', () => {
  it('keeps a queued downlink for an offline device across a server restart', async () => {
    const { database, drop } = await openTestDatabase();
    const config = testConfig();
    let app = await buildApp(config, { database, logger: false });
    await app.ready();
    const tt: TestApp = { app, config, database, close: async () => {} };
    const tenant = await makeTenant(tt);
    const d = await makeDevice(tt, tenant);
    let url = `mqtt://127.0.0.1:${app.ctx.broker.port()}`;
    const c = await connectDevice(url, d.third_things_id, d.things_key, { clean: false });
    await c.subscribeAsync(`lh/v1/${d.third_things_id}/down/#`, { qos: 1 });
    c.end(true);
    await new Promise((r) => setTimeout(r, 100));
    await app.ctx.broker.publish(`lh/v1/${d.third_things_id}/down/cmd`, Buffer.from('{"op":"ping"}'));
    await app.close();

    app = await buildApp(config, { database, logger: false });
    await app.ready();
    url = `mqtt://127.0.0.1:${app.ctx.broker.port()}`;
    const got = new Promise<string>((resolve) => {
      const c2 = connectDevice(url, d.third_things_id, d.things_key, { clean: false });
      c2.then((cl) =>
        cl.on('message', (topic, payload) => {
          resolve(`${topic} ${payload}`);
          cl.end(true);
        }),
      );
    });
    expect(await got).toBe(`lh/v1/${d.third_things_id}/down/cmd {"op":"ping"}`);
    await app.close();
    await drop();
  });
});

/**
 * The server as a client of a broker it does not run: Mosquitto when TEST_MQTT_URL names one (CI),
 * otherwise a plain broker started here that knows nothing of devices (no auth, no hooks).
 */
describe(`ingest through an external broker (${process.env.TEST_MQTT_URL ? 'TEST_MQTT_URL' : 'a plain broker'})`, () => {
  let t: TestApp;
  let tenant: TenantFixture;
  let brokerUrl: string;
  let stopBroker = async () => {};

  beforeAll(async () => {
    const broker = await externalBroker();
    brokerUrl = broker.url;
    stopBroker = broker.stop;
    t = await createTestApp({ mqttUrl: brokerUrl });
    tenant = await makeTenant(t);
  });
  afterAll(async () => {
    await t?.close();
    await stopBroker();
  });

  it('stores a re-sent batch once and drops a malformed one while storing the next', async () => {
    const d = await makeDevice(t, tenant);
    const c = await connectDevice(brokerUrl, d.third_things_id, d.things_key, { clientId: `${d.third_things_id}-test` });
    const topic = upTopic(d.third_things_id, 'frames');
    await c.publishAsync(topic, batch(1, T0), { qos: 1 });
    await c.publishAsync(topic, batch(1, T0), { qos: 1 });
    await c.publishAsync(topic, Buffer.from('garbage'), { qos: 1 });
    await c.publishAsync(topic, batch(2, T0 + 1e6), { qos: 1 });
    c.end();
    const rows = await poll(
      async () =>
        (await t.database.raw.query<{ seq: number }>('select seq::int as seq from frame_chunks where things_id = $1 order by seq', [d.id]))
          .rows,
      (r) => r.length >= 2,
    );
    expect(rows).toEqual([{ seq: 1 }, { seq: 2 }]);
    const m = await poll(
      async () =>
        (await t.database.raw.query<{ n: number }>('select malformed_count::int as n from things where id = $1', [d.id])).rows[0].n,
      (n) => n === 1,
    );
    expect(m).toBe(1);
  });
});
