import { upTopic } from '@loggerhead/can/protocol/topics.ts';
import { RemoteDevice } from '@loggerhead/simulator/remote-device.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandIn, issue } from './command.helpers.ts';
import { createTestApp, type TestApp } from './helper.ts';
import { batch } from './ingest.helpers.ts';
import { poll } from './poll.ts';
import { startMosquitto, tryConnect } from './services.helpers.ts';
import { makeDevice, makeTenant, type TenantFixture } from './things.fixtures.ts';

const storedFrames = async (t: TestApp, thingsId: string) =>
  (
    await t.database.raw.query<{ n: number }>('select coalesce(sum(frame_count), 0)::int as n from frame_chunks where things_id = $1', [
      thingsId,
    ])
  ).rows[0].n;

describe("device accounts kept on Mosquitto's dynamic-security plugin (MQTT_DYNSEC)", () => {
  let broker: Awaited<ReturnType<typeof startMosquitto>>;
  let t: TestApp;
  let tenant: TenantFixture;
  const base = () => `/v1/things/tenants/${tenant.tenantId}`;

  beforeAll(async () => {
    broker = await startMosquitto();
    t = await createTestApp({ mqttUrl: broker.url, mqttDynsec: true });
    tenant = await makeTenant(t);
  });
  afterAll(async () => {
    await t?.close();
    await broker?.stop();
  });

  it('gives an added device an account: it connects, its frames are stored and it answers a command', async () => {
    const d = await makeDevice(t, tenant);
    const first = await poll(
      () => tryConnect(broker.port, d.third_things_id, d.things_key),
      (r) => r.ok,
    );
    expect(first.ok).toBe(true);
    await first.client.publishAsync(upTopic(d.third_things_id, 'frames'), batch(0, Date.now() * 1000 - 5_000_000), { qos: 1 });
    first.client.end(true);
    expect(
      await poll(
        () => storedFrames(t, d.id),
        (n) => n === 100,
      ),
    ).toBe(100);

    // Downlinks and answers go through the same broker: the server's account got its role.
    const sim = new RemoteDevice({ broker: `mqtt://127.0.0.1:${broker.port}`, deviceId: d.third_things_id, key: d.things_key });
    await sim.connect();
    try {
      const res = await issue(t.app, tenant, d.id, {
        operation_name: 'common_fn.send_can',
        operation_params: { frames: [{ id: '0x123', data: 'BEEF' }] },
      });
      expect(res.statusCode).toBe(200);
      const cmd = await commandIn(t.app, tenant, d.id, res.json().correlation_id, ['answered', 'failed', 'timeout']);
      expect(cmd.state).toBe('answered');
    } finally {
      await sim.close();
    }
  });

  it('refuses a wrong key and keeps a device to its own topics', async () => {
    const d = await makeDevice(t, tenant);
    const other = await makeDevice(t, tenant);
    const ok = await poll(
      () => tryConnect(broker.port, d.third_things_id, d.things_key),
      (r) => r.ok,
    );
    expect((await tryConnect(broker.port, d.third_things_id, `${d.things_key.slice(0, -1)}x`)).ok).toBe(false);
    // Another device's down topics and the server copies' topics: refused (SUBACK 0x80).
    for (const refused of [`lh/v1/${other.third_things_id}/down/#`, 'loggerhead/cluster/#'])
      await expect(ok.client.subscribeAsync(refused, { qos: 1 })).rejects.toThrow(/subscribe/i);
    expect((await ok.client.subscribeAsync(`lh/v1/${d.third_things_id}/down/#`, { qos: 1 })).map((g) => g.qos)).toEqual([1]);
    // A publish as another device is dropped by the broker: nothing is stored for it.
    await ok.client.publishAsync(upTopic(other.third_things_id, 'frames'), batch(0, Date.now() * 1000 - 4_000_000), { qos: 1 });
    await ok.client.publishAsync(upTopic(d.third_things_id, 'frames'), batch(0, Date.now() * 1000 - 4_000_000), { qos: 1 });
    expect(
      await poll(
        () => storedFrames(t, d.id),
        (n) => n === 100,
      ),
    ).toBe(100);
    expect(await storedFrames(t, other.id)).toBe(0);
    ok.client.end(true);
  });

  it('re-keys and deletes the account with the device', async () => {
    const d = await makeDevice(t, tenant);
    const before = await poll(
      () => tryConnect(broker.port, d.third_things_id, d.things_key),
      (r) => r.ok,
    );
    const closed = new Promise<void>((r) => before.client.once('close', () => r()));
    const rekey = await t.app.inject({
      method: 'POST',
      url: `${base()}/things/${d.id}/key`,
      headers: { authorization: tenant.auth },
    });
    expect(rekey.statusCode).toBe(200);
    const key = rekey.json().things_key as string;
    expect(key).not.toBe(d.things_key);
    await closed; // the connection made with the old key is closed
    expect(
      await poll(
        () => tryConnect(broker.port, d.third_things_id, d.things_key).then((r) => r.ok),
        (ok) => !ok,
      ),
    ).toBe(false);
    const again = await poll(
      () => tryConnect(broker.port, d.third_things_id, key),
      (r) => r.ok,
    );
    again.client.end(true);

    const del = await t.app.inject({
      method: 'DELETE',
      url: `${base()}/things/${d.id}`,
      headers: { authorization: tenant.auth },
    });
    expect(del.statusCode).toBeLessThan(300);
    expect(
      await poll(
        () => tryConnect(broker.port, d.third_things_id, key).then((r) => r.ok),
        (ok) => !ok,
      ),
    ).toBe(false);
  });

  it('catches up at reconciliation with devices added or deleted behind its back', async () => {
    const accounts = t.app.ctx.ingest.accounts;
    if (!accounts) throw new Error('MQTT_DYNSEC is on: the accounts must exist');
    const d = await makeDevice(t, tenant);
    await poll(
      () =>
        tryConnect(broker.port, d.third_things_id, d.things_key).then((r) => {
          r.client.end(true);
          return r.ok;
        }),
      (ok) => ok,
    );
    // Written straight into the database, as an import or a restore would: no hook ran.
    const id = `${'F'.repeat(12)}${Math.floor(Math.random() * 1e8)
      .toString()
      .padStart(8, '0')}`;
    await t.database.raw.query(
      `insert into things (tenant_id, third_things_id, name, things_key, thing_type, info_model_id)
       select tenant_id, $2, 'restored', 'restored-key-0123456789', thing_type, info_model_id from things where id = $1`,
      [d.id, id],
    );
    await t.database.raw.query('delete from things where id = $1', [d.id]);
    expect(await accounts.reconcile()).toEqual({ created: 1, rekeyed: 0, repaired: 0, removed: 1 });
    const restored = await tryConnect(broker.port, id, 'restored-key-0123456789');
    expect(restored.ok).toBe(true);
    restored.client.end(true);
    expect((await tryConnect(broker.port, d.third_things_id, d.things_key)).ok).toBe(false);
    // Nothing left to do: a second pass changes nothing.
    expect(await accounts.reconcile()).toEqual({ created: 0, rekeyed: 0, repaired: 0, removed: 0 });
  });
});
