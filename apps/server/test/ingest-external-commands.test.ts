import { RemoteDevice } from '@loggerhead/simulator/remote-device.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandIn, isOnline, issue } from './command.helpers.ts';
import { createTestApp, type TestApp } from './helper.ts';
import { externalBroker } from './ingest.helpers.ts';
import { poll } from './poll.ts';
import { makeDevice, makeTenant, type TenantFixture } from './things.fixtures.ts';

/**
 * Commands when the server is a client of a broker it does not run (Mosquitto when TEST_MQTT_URL
 * names one, otherwise a plain broker started here): the downlink goes out through the server's
 * own connection, the logger's answer comes back through the subscription, and a command to a
 * logger that is away waits in the database until it is back.
 */
describe(`commands through an external broker (${process.env.TEST_MQTT_URL ? 'TEST_MQTT_URL' : 'a plain broker'})`, () => {
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

  it('sends a CAN command to a logger and records its answer', async () => {
    const d = await makeDevice(t, tenant);
    const sim = new RemoteDevice({ broker: brokerUrl, deviceId: d.third_things_id, key: d.things_key });
    await sim.connect();
    try {
      expect(
        await poll(
          () => isOnline(t, d.id),
          (v) => v,
          { ms: 10_000 },
        ),
      ).toBe(true);
      const res = await issue(t.app, tenant, d.id, {
        operation_name: 'common_fn.send_can',
        operation_params: { frames: [{ id: '0x321', data: 'CAFE' }] },
      });
      expect(res.statusCode).toBe(200);
      const cmd = await commandIn(t.app, tenant, d.id, res.json().correlation_id, ['answered', 'failed', 'timeout']);
      expect(cmd.state).toBe('answered');
      expect(sim.bus.sent.map((f) => [f.id, Buffer.from(f.data).toString('hex')])).toEqual([[0x321, 'cafe']]);
    } finally {
      await sim.close();
    }
  });

  it('queues a command for a logger that is away and delivers it when it is back', async () => {
    const d = await makeDevice(t, tenant);
    const sim = new RemoteDevice({ broker: brokerUrl, deviceId: d.third_things_id, key: d.things_key });
    const res = await issue(t.app, tenant, d.id, {
      operation_name: 'common_fn.send_can',
      operation_params: { frames: [{ id: '0x123', data: '01' }] },
    });
    expect(res.statusCode).toBe(200);
    const queued = await commandIn(t.app, tenant, d.id, res.json().correlation_id, ['queued']);
    expect(queued.state).toBe('queued');
    expect(sim.bus.sent).toEqual([]);
    await sim.connect();
    try {
      const cmd = await commandIn(t.app, tenant, d.id, res.json().correlation_id, ['answered', 'failed', 'timeout', 'expired']);
      expect(cmd.state).toBe('answered');
      expect(sim.bus.sent.map((f) => f.id)).toEqual([0x123]);
    } finally {
      await sim.close();
    }
  });
});
