import { upTopic } from '@loggerhead/can/protocol/topics.ts';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helper.ts';
import { batch, closed, connectDevice } from './ingest.helpers.ts';
import { poll } from './poll.ts';
import { makeDevice, makeTenant, type TenantFixture } from './things.fixtures.ts';

/** MQTT_MAX_CONNECTIONS: connects beyond the ceiling are refused cleanly; the broker goes on serving. */
describe('embedded broker connection ceiling', () => {
  let t: TestApp;
  let tenant: TenantFixture;
  let url: string;
  beforeAll(async () => {
    t = await createTestApp({ mqttMaxConnections: 3 });
    tenant = await makeTenant(t);
    url = `mqtt://127.0.0.1:${t.app.ctx.broker.port()}`;
  });
  afterAll(async () => {
    await t?.close();
  });

  const count = async (thingsId: string) =>
    Number(
      (await t.database.raw.query<{ n: string }>('select count(*) as n from frame_chunks where things_id = $1', [thingsId])).rows[0].n,
    );

  it('answers "server unavailable" beyond the ceiling, keeps serving those inside it, and takes a new one once one left', async () => {
    const devices = await Promise.all([0, 1, 2, 3].map(() => makeDevice(t, tenant)));
    const inside: MqttClient[] = [];
    for (const d of devices.slice(0, 3)) inside.push(await connectDevice(url, d.third_things_id, d.things_key));

    const extra = devices[3];
    // 3.1.1: CONNACK return code 3; MQTT 5: reason 0x88 (server unavailable).
    await expect(connectDevice(url, extra.third_things_id, extra.things_key)).rejects.toMatchObject({ code: 3 });
    await expect(connectDevice(url, extra.third_things_id, extra.things_key, { protocolVersion: 5 })).rejects.toMatchObject({
      code: 0x88,
    });

    // The ones inside still have their batches committed and acknowledged.
    for (const [i, c] of inside.entries()) {
      await c.publishAsync(upTopic(devices[i].third_things_id, 'frames'), batch(1, Date.now() * 1000), { qos: 1 });
      expect(await count(devices[i].id)).toBe(1);
    }

    inside[0].end(true);
    expect(await closed(inside[0])).toBe(true);
    // The server sees the socket close a moment after the client does.
    const again = await poll(
      () => connectDevice(url, extra.third_things_id, extra.things_key).catch(() => null),
      (c) => c !== null,
      { what: 'the device beyond the ceiling to be let in once a place is free' },
    );
    expect(again).not.toBeNull();
    for (const c of [...inside.slice(1), again as MqttClient]) await c.endAsync();
  });
});
