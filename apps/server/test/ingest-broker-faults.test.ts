import fs from 'node:fs';
import { upTopic } from '@loggerhead/can/protocol/topics.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import type { Database } from '../src/db/client.ts';
import { type Broker, externalBroker } from '../src/ingest/broker.ts';
import { audit, type FleetDevice, startPersistentMosquitto, storedBatches, streamFleet } from './fleet-audit.helpers.ts';
import { openTestDatabase, type TestApp, testConfig } from './helper.ts';
import { poll } from './poll.ts';
import { type ScriptedBroker, startScriptedBroker } from './scripted-broker.helpers.ts';
import { makeDevice, makeTenant } from './things.fixtures.ts';

/**
 * A server copy on an external Mosquitto (with persistence) while the broker is restarted, or
 * killed, under a streaming fleet: every batch a device was acknowledged is stored, once, and the
 * copy goes on storing by itself (it subscribes again on every reconnect).
 */
/** How long after the broker is back a device's batch may still reach no subscriber (the copy's reconnect, under load). */
const RESUBSCRIBE_RACE_MS = 3000;

describe('a server copy on Mosquitto when the broker restarts or dies mid-stream', () => {
  let mosquitto: Awaited<ReturnType<typeof startPersistentMosquitto>>;
  let shared: { database: Database; drop: () => Promise<void> };
  let t: TestApp;
  let tenant: Awaited<ReturnType<typeof makeTenant>>;

  beforeAll(async () => {
    mosquitto = await startPersistentMosquitto();
    shared = await openTestDatabase();
    const config = testConfig({ mqttUrl: mosquitto.url, port: 42011 });
    const app = await buildApp(config, { database: shared.database, logger: false });
    await app.ready();
    t = { app, config, database: shared.database, close: () => app.close() };
    tenant = await makeTenant(t);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await shared?.drop();
    await mosquitto?.stop();
    if (t) fs.rmSync(t.config.dataDir, { recursive: true, force: true });
  });

  for (const fault of ['restart', 'kill'] as const) {
    it(`loses no acknowledged batch outside the broker's own windows, doubles none, across a broker ${fault}, and stores what comes after it`, async () => {
      const t0 = (Math.floor(Date.now() / 1000) - 3600) * 1_000_000;
      const devices: FleetDevice[] = [];
      for (let i = 0; i < 8; i++) {
        const d = await makeDevice(t, tenant);
        devices.push({ deviceId: d.third_things_id, key: d.things_key, thingsId: d.id });
      }
      const fleet = streamFleet(mosquitto.url, devices, { t0 });
      const writer = t.app.ctx.ingest.writer;
      await poll(fleet.ackedCount, (n) => n >= 400, { ms: 30_000, what: '400 batches acknowledged' });
      const chunksAfter = writer.stats.chunks;
      const faultAt = Date.now();
      if (fault === 'restart') await mosquitto.restart(500);
      else await mosquitto.kill(500);
      const upAt = Date.now();
      // After the fault the fleet goes on: what it is acknowledged now must be stored too.
      const atFault = fleet.ackedCount();
      await poll(fleet.ackedCount, (n) => n >= atFault + 400, { ms: 30_000, what: '400 more batches acknowledged' });
      await fleet.stop();
      const ids = devices.map((d) => d.thingsId);
      // The losses the broker itself makes (docs/device-protocol.md, broker settings for a fleet):
      // a killed Mosquitto forgets what it acknowledged to devices and still held in memory, and
      // after any restart it routes to no one what devices publish before the copies have
      // subscribed again. Outside those windows nothing acknowledged may be lost: before a graceful
      // restart, and from a few seconds after the broker is back (the copy stores by itself).
      const raceEnd = upAt + RESUBSCRIBE_RACE_MS;
      const lostAt = async () => {
        const stored = await storedBatches(t.database.raw, ids);
        const at: number[] = [];
        for (const [thingsId, seqs] of fleet.acked) {
          for (const seq of seqs) if (!stored.get(thingsId)?.has(seq)) at.push(fleet.ackedAt(thingsId, seq));
        }
        return { at, audit: audit(fleet.acked, stored) };
      };
      const outside = (at: number[]) => at.filter((a) => a > raceEnd || (fault === 'restart' && a < faultAt));
      const result = await poll(lostAt, (r) => outside(r.at).length === 0, {
        ms: 30_000,
        what: "every batch acknowledged outside the broker's own windows stored",
      });
      expect(result.audit.doubled).toBe(0);
      expect(result.audit.acked).toBeGreaterThanOrEqual(atFault + 400);
      // The broker's windows are short: most of what was acknowledged around the fault is stored.
      expect(result.audit.lost).toBeLessThan(result.audit.acked / 20);
      // Stored after the fault by this copy, which was not restarted.
      expect(writer.stats.chunks).toBeGreaterThan(chunksAfter);
      // The figures of the closing note.
      const inMemory = result.at.filter((a) => a < faultAt).length;
      console.log(
        `broker ${fault}: sent ${fleet.sentCount()}, acknowledged ${result.audit.acked}, stored ${result.audit.stored}, ` +
          `lost ${result.audit.lost} (${inMemory} held in the killed broker's memory, ${result.audit.lost - inMemory} published before the copy subscribed again), doubled ${result.audit.doubled}`,
      );
    }, 120_000);
  }
});

describe('a connection to the external broker, when its subscription may be gone', () => {
  let fake: ScriptedBroker;
  let broker: Broker | null = null;
  beforeAll(async () => {
    fake = await startScriptedBroker();
  });
  afterAll(async () => {
    await broker?.close();
    await fake?.stop();
  });
  const subscribed = (clientId: string) => fake.subscribes.filter((s) => s.clientId === clientId);

  it('subscribes again on a reconnect where the broker says it kept the session, and after a silence', async () => {
    const renewed: string[] = [];
    const held: (() => void)[] = [];
    broker = externalBroker({
      url: fake.url,
      clientId: 'resub',
      filters: { shared: '$share/g/lh/v1/+/up/#', plain: 'lh/v1/+/up/#' },
      connections: 1,
      idleResubscribeMs: 400,
      onMessage: () => new Promise<void>((r) => held.push(r)),
      onError: () => {},
      onResubscribe: (_i, reason, err) => renewed.push(err ? `${reason}: failed` : reason),
    });
    await broker.start();
    expect(subscribed('resub-0').map((s) => s.filters)).toEqual([['$share/g/lh/v1/+/up/#']]);
    // A message left unacknowledged: the broker keeps the session and says so at the next CONNECT.
    fake.deliver('resub-0', upTopic('D1', 'frames'), Buffer.from([1]));
    await poll(
      () => held.length,
      (n) => n >= 1,
    );
    fake.drop('resub-0');
    await poll(
      () => subscribed('resub-0').length,
      (n) => n >= 2,
      { ms: 5000, what: 'a SUBSCRIBE on the new connection' },
    );
    const second = subscribed('resub-0')[1];
    expect(second.filters).toEqual(['$share/g/lh/v1/+/up/#']);
    expect(second.connection).toBe(fake.connects.findLastIndex((c) => c.clientId === 'resub-0'));
    expect(
      await poll(
        () => renewed,
        (r) => r.length >= 1,
      ),
    ).toEqual(['reconnect']);
    for (const r of held.splice(0)) r();

    // Deliveries keep flowing: no SUBSCRIBE; a silence of 400 ms: one more.
    const before = subscribed('resub-0').length;
    const end = Date.now() + 800;
    while (Date.now() < end) {
      fake.deliver('resub-0', upTopic('D1', 'frames'), Buffer.from([2]));
      await new Promise((r) => setTimeout(r, 50));
      for (const r of held.splice(0)) r();
    }
    expect(subscribed('resub-0').length).toBe(before);
    await poll(
      () => subscribed('resub-0').length,
      (n) => n > before,
      { ms: 3000, what: 'a SUBSCRIBE after a silence' },
    );
    expect(
      await poll(
        () => renewed.at(-1),
        (r) => r === 'idle',
        { what: 'the renewal reported' },
      ),
    ).toBe('idle');
  });
});
