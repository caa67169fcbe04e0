import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type { CanFrame } from '@loggerhead/can';
import { checkBatch, encodeBatch } from '@loggerhead/can/protocol/batch.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type LoggerheadApp } from '../src/app.ts';
import type { Database } from '../src/db/client.ts';
import { alertDispatcher } from '../src/modules/alert/alert.dispatcher.ts';
import { alertsOf } from '../src/modules/alert/alert.module.ts';
import { eventsRepository } from '../src/modules/alert/events.repository.ts';
import { engineRepository } from '../src/rules/engine.repository.ts';
import { RuleEngine } from '../src/rules/rules.engine.ts';
import { openTestDatabase, type TestApp, testConfig } from './helper.ts';
import { connectDevice } from './ingest.helpers.ts';
import { poll } from './poll.ts';
import { bind, rampFrame, testDbc } from './signals.fixtures.ts';
import { makeDevice, makeTenant, type TenantFixture } from './things.fixtures.ts';

/**
 * Rules on the real ingest path: frame batches published by a device over MQTT, a DBC-signal rule
 * decoded with the channel's DBC, and rule state that survives a restart of the server.
 */
let database: Database;
let drop: () => Promise<void>;
let app: LoggerheadApp;
let t: TestApp;
let a: TenantFixture;
let device: { id: string; third_things_id: string; things_key: string };
let seq = 0;

const dataDirs: string[] = [];

async function start() {
  const config = testConfig();
  dataDirs.push(config.dataDir);
  app = await buildApp(config, { database, logger: false });
  await app.ready();
  t = { app, config, database, close: async () => {} };
}

function frame(ts: number, id: number, v: number): CanFrame {
  return {
    ts,
    channel: 0,
    id,
    ext: false,
    fd: false,
    brs: false,
    esi: false,
    rtr: false,
    err: false,
    tx: false,
    data: new Uint8Array([v, 0, 0, 0, 0, 0, 0, 0]),
  };
}

async function commit(frames: CanFrame[]) {
  const data = encodeBatch(frames, { session: 3, seq: ++seq });
  const info = checkBatch(data);
  if (typeof info === 'string') throw new Error(info);
  await app.ctx.ingest.writer.write({ tenantId: a.tenantId, thingsId: device.id, info, data });
  await alertsOf(app).idle();
}

const events = async (q = '') =>
  (
    await app.inject({
      method: 'GET',
      url: `/v1/alert-data-mgmt/tenants/${a.tenantId}/events?page_size=100${q}`,
      headers: { authorization: a.auth },
    })
  ).json();

async function rule(body: Record<string, unknown>): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: `/v1/alert-mgmt/tenants/${a.tenantId}/trigger-rules`,
    headers: { authorization: a.auth },
    payload: { things_id: device.id, channel: 0, ...body },
  });
  if (res.statusCode !== 200) throw new Error(res.body);
  return res.json().id;
}

beforeAll(async () => {
  ({ database, drop } = await openTestDatabase());
  await start();
  a = await makeTenant(t);
  device = await makeDevice(t, a);
});
afterAll(async () => {
  await app?.close();
  await drop?.();
  for (const d of dataDirs) fs.rmSync(d, { recursive: true, force: true });
});

describe('rules on the ingest stream', () => {
  it('fires from frame batches a device publishes over MQTT', async () => {
    const id = await rule({ name: 'mqtt hot', frame_id: 0x77, conditions: [{ op: '>=', value: 0x80 }] });
    const mqtt = await connectDevice(`mqtt://127.0.0.1:${app.ctx.broker.port()}`, device.third_things_id, device.things_key);
    const t0 = Date.UTC(2026, 0, 5, 10) * 1000;
    try {
      // PUBACK comes after the commit; the rule runs on the writer's `committed` event.
      await mqtt.publishAsync(
        `lh/v1/${device.third_things_id}/up/frames`,
        Buffer.from(encodeBatch([frame(t0, 0x77, 0x10), frame(t0 + 500, 0x77, 0x90), frame(t0 + 900, 0x78, 0xff)], { session: 5, seq: 1 })),
        { qos: 1 },
      );
    } finally {
      await mqtt.endAsync();
    }
    const got = await poll(
      async () => {
        await alertsOf(app).idle();
        return events(`&rule_id=${id}`);
      },
      (e) => e.total === 1,
    );
    expect(got.list[0].event_data).toMatchObject({ frame_id: '0x77', value: 0x90, ts_us: t0 + 500 });
  });

  it('evaluates a DBC signal rule with the DBC bound to the channel', async () => {
    const dbc = await testDbc(t, a);
    expect((await bind(t, a, device.id, 0, { dbc_id: dbc })).statusCode).toBe(200);
    // RAMP.Value = raw × 0.5 − 10: above 40 from raw 101.
    const id = await rule({
      name: 'ramp',
      data_type: 'signal',
      conditions: [{ source: 'signal', message: 'RAMP', signal: 'Value', op: '>', value: 40 }],
    });
    const t0 = Date.UTC(2026, 0, 5, 11) * 1000;
    await commit([rampFrame(t0, 90), rampFrame(t0 + 1000, 100), rampFrame(t0 + 2000, 101), rampFrame(t0 + 3000, 140)]);
    const e = await events(`&rule_id=${id}`);
    expect(e.total).toBe(1);
    expect(e.list[0].event_data).toMatchObject({ frame_id: '0x100', value: 40.5, ts_us: t0 + 2000 });
  });

  it('keeps a rule active across a restart: no second event until it has recovered', async () => {
    const id = await rule({ name: 'sticky', frame_id: 0x66, conditions: [{ op: '>', value: 100 }] });
    const t0 = Date.UTC(2026, 0, 5, 12) * 1000;
    await commit([frame(t0, 0x66, 200)]);
    expect((await events(`&rule_id=${id}`)).total).toBe(1);

    await app.close();
    await start();
    await commit([frame(t0 + 1000, 0x66, 200)]);
    expect((await events(`&rule_id=${id}`)).total).toBe(1);
    await commit([frame(t0 + 2000, 0x66, 50)]);
    await commit([frame(t0 + 3000, 0x66, 250)]);
    const e = await events(`&rule_id=${id}`);
    expect(e.total).toBe(2);
    expect(e.list[1].recovered_at).not.toBeNull();
  });

  it('hands rule state from one server copy to another through the database', async () => {
    const id = await rule({ name: 'two copies', frame_id: 0x44, conditions: [{ op: '>', value: 100 }] });
    const raw = database.raw;
    const log = { warn: () => {}, error: () => {} };
    const alerts = alertsOf(app);
    // A second copy: its own engine and dispatcher on the same database, fed batches directly.
    const copyB = new RuleEngine(
      engineRepository(raw),
      alertDispatcher({
        raw,
        events: app.ctx.events,
        messages: app.ctx.messages,
        outbox: alerts.outbox,
        broker: app.ctx.broker,
        clock: alerts.clock,
        timeZone: 'UTC',
        engineRepo: engineRepository(raw),
        eventsRepo: eventsRepository(raw),
        log,
      }),
      log,
    );
    const toB = async (frames: CanFrame[]) => {
      const data = encodeBatch(frames, { session: 4, seq: ++seq });
      const info = checkBatch(data);
      if (typeof info === 'string') throw new Error(info);
      copyB.onChunks([{ tenantId: a.tenantId, thingsId: device.id, info, data }]);
      await copyB.idle();
    };
    const t0 = Date.UTC(2026, 0, 5, 13) * 1000;
    await commit([frame(t0, 0x44, 200)]); // copy A fires
    await toB([frame(t0 + 1000, 0x44, 210)]); // copy B knows it is active: no second event
    expect((await events(`&rule_id=${id}`)).total).toBe(1);
    await toB([frame(t0 + 2000, 0x44, 20)]); // copy B sees it recover
    alerts.engine.invalidate(device.id); // copy A reads the rules again (every 5 s on its own)
    await commit([frame(t0 + 3000, 0x44, 220)]); // so copy A fires again
    const e = await events(`&rule_id=${id}`);
    expect(e.total).toBe(2);
    expect(e.list[1].recovered_at).not.toBeNull();
  });

  it("evaluates a device's rule in a group commit of 3,000 devices, most of them without rules", async () => {
    const id = await rule({ name: 'in a fleet', frame_id: 0x47, conditions: [{ op: '>', value: 100 }] });
    const t0 = Date.UTC(2026, 0, 5, 15) * 1000;
    const batchOf = (thingsId: string, frames: CanFrame[]) => {
      const data = encodeBatch(frames, { session: 5, seq: ++seq });
      const info = checkBatch(data);
      if (typeof info === 'string') throw new Error(info);
      return { tenantId: a.tenantId, thingsId, info, data };
    };
    // A fleet: each group commit hands the rules every device's batches, one device at a time.
    const fleet = Array.from({ length: 2999 }, (_, i) => batchOf(randomUUID(), [frame(t0 + i, 0x10, 1)]));
    const writes = [...fleet, batchOf(device.id, [frame(t0 + 5000, 0x47, 200)])].map((c) => app.ctx.ingest.writer.write(c));
    await Promise.all(writes);
    await alertsOf(app).idle();
    expect(alertsOf(app).engine.stats.dropped).toBe(0);
    expect((await events(`&rule_id=${id}`)).total).toBe(1);
  });

  it('keeps the previous value of a change condition when the rules are read again', async () => {
    const id = await rule({ name: 'toggles', frame_id: 0x45, conditions: [{ op: 'change' }] });
    const t0 = Date.UTC(2026, 0, 5, 14) * 1000;
    await commit([frame(t0, 0x45, 1)]);
    alertsOf(app).engine.invalidate(device.id);
    await commit([frame(t0 + 1000, 0x45, 2)]);
    expect((await events(`&rule_id=${id}`)).total).toBe(1);
  });
});
