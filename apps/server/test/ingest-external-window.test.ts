import fs from 'node:fs';
import { upTopic } from '@loggerhead/can/protocol/topics.ts';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app.ts';
import type { Database } from '../src/db/client.ts';
import { type Broker, externalBroker } from '../src/ingest/broker.ts';
import { openTestDatabase, type TestApp, testConfig } from './helper.ts';
import { batch } from './ingest.helpers.ts';
import { poll } from './poll.ts';
import { type ScriptedBroker, startScriptedBroker } from './scripted-broker.helpers.ts';
import { startMosquitto, tryConnect } from './services.helpers.ts';
import { makeDevice, makeTenant } from './things.fixtures.ts';

/**
 * The external-broker ingest path at fleet rates: each connection processes a window of messages at
 * once, acknowledges them in the order they came and each only after its commit, and reads no more
 * while its window is full (docs/decisions/0189-external-broker-window.md).
 */

function deferred() {
  let resolve = () => {};
  let reject = (_e: unknown) => {};
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('a connection to the external broker, message by message', () => {
  let fake: ScriptedBroker;
  let broker: Broker | null = null;
  const calls: { topic: string; d: ReturnType<typeof deferred> }[] = [];
  const errors: string[] = [];

  beforeAll(async () => {
    fake = await startScriptedBroker();
  });
  afterEach(async () => {
    for (const c of calls) c.d.resolve();
    await broker?.close();
    broker = null;
    calls.length = 0;
    errors.length = 0;
  });
  afterAll(async () => {
    await fake?.stop();
  });

  async function connect(window: number, clientId: string) {
    broker = externalBroker({
      url: fake.url,
      clientId,
      filters: { shared: '$share/g/lh/v1/+/up/#', plain: 'lh/v1/+/up/#' },
      connections: 1,
      window,
      onMessage: (topic) => {
        const d = deferred();
        calls.push({ topic, d });
        return d.promise;
      },
      onError: (_err, topic) => errors.push(topic),
    });
    await broker.start();
    return `${clientId}-0`;
  }
  const acked = (clientId: string) => fake.acks.filter((a) => a.clientId === clientId).map((a) => a.messageId);
  const topic = (k: number) => upTopic(`D${k}`, 'frames');

  it('takes a window of messages at once, acknowledges them in arrival order, and reads no more while it is full', async () => {
    const id = await connect(4, 'win');
    // The broker is told how many it may send before the first PUBACK.
    expect(fake.connects.find((c) => c.clientId === id)?.properties?.receiveMaximum).toBe(4);
    // A broker that sends more than that anyway: the window takes 4 and stops reading.
    for (let k = 1; k <= 6; k++) fake.deliver(id, topic(k), Buffer.from([k]));
    await poll(
      async () => calls.length,
      (n) => n >= 4,
    );
    expect(calls.map((c) => c.topic)).toEqual([1, 2, 3, 4].map(topic));

    // The 4th settles first: nothing may be acknowledged before the 1st is.
    calls[3].d.resolve();
    calls[0].d.resolve();
    // The 1st is acknowledged alone, which makes room for the 5th (and only it).
    expect(
      await poll(
        async () => acked(id),
        (a) => a.length >= 1,
      ),
    ).toEqual([1]);
    await poll(
      async () => calls.length,
      (n) => n >= 5,
    );
    expect(calls.map((c) => c.topic)).toEqual([1, 2, 3, 4, 5].map(topic));
    expect(acked(id)).toEqual([1]);

    // 3 then 2: PUBACKs 2, 3 and the waiting 4 leave in order.
    calls[2].d.resolve();
    calls[1].d.resolve();
    expect(
      await poll(
        async () => acked(id),
        (a) => a.length >= 4,
      ),
    ).toEqual([1, 2, 3, 4]);
    await poll(
      async () => calls.length,
      (n) => n >= 6,
    );
    calls[5].d.resolve();
    calls[4].d.resolve();
    expect(
      await poll(
        async () => acked(id),
        (a) => a.length >= 6,
      ),
    ).toEqual([1, 2, 3, 4, 5, 6]);
    expect(fake.unacked(id)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('does not acknowledge a failed message nor any after it, drops the connection, and takes the re-delivery', async () => {
    const id = await connect(100, 'fail');
    for (let k = 1; k <= 5; k++) fake.deliver(id, topic(k), Buffer.from([k]));
    await poll(
      async () => calls.length,
      (n) => n >= 5,
    );
    calls[0].d.resolve();
    calls[1].d.resolve();
    await poll(
      async () => acked(id),
      (a) => a.length >= 2,
    );
    // The 3rd fails; the 4th and 5th commit, but come after it.
    calls[2].d.reject(new Error('commit failed'));
    calls[3].d.resolve();
    calls[4].d.resolve();
    // The broker re-delivers 3, 4, 5 on the new connection: they are processed again and acknowledged.
    await poll(
      async () => calls.length,
      (n) => n >= 8,
      { ms: 10_000 },
    );
    expect(calls.slice(5).map((c) => c.topic)).toEqual([3, 4, 5].map(topic));
    // Acknowledged on the first connection: 1 and 2 only.
    expect(acked(id)).toEqual([1, 2]);
    expect(errors).toEqual([topic(3)]);
    for (const c of calls.slice(5)) c.d.resolve();
    expect(
      await poll(
        async () => acked(id),
        (a) => a.length >= 5,
      ),
    ).toEqual([1, 2, 3, 4, 5]);
    expect(fake.unacked(id)).toEqual([]);
  });

  it('lets what is in flight commit and be acknowledged before it disconnects', async () => {
    const id = await connect(100, 'close');
    for (let k = 1; k <= 3; k++) fake.deliver(id, topic(k), Buffer.from([k]));
    await poll(
      async () => calls.length,
      (n) => n >= 3,
    );
    const b = broker as Broker;
    broker = null;
    const closing = b.close();
    for (const c of calls) c.d.resolve();
    await closing;
    expect(
      await poll(
        async () => acked(id),
        (a) => a.length >= 3,
      ),
    ).toEqual([1, 2, 3]);
  });
});

/** Frames of a device stored, as the console's data page counts them. */
async function storedFrames(t: TestApp, tenant: { tenantId: string; auth: string }, thingsId: string, t0: number): Promise<number> {
  const res = await t.app.inject({
    method: 'GET',
    url: `/v1/data-mgmt/tenants/${tenant.tenantId}/things/${thingsId}/frames?begin_time=${Math.floor(t0 / 1000) - 1}&end_time=${Math.floor(t0 / 1000) + 86_400_000}&page_size=1&current_page=1`,
    headers: { authorization: tenant.auth },
  });
  return res.json().total;
}

describe('a server copy on the external broker, when a commit fails', () => {
  let fake: ScriptedBroker;
  let shared: { database: Database; drop: () => Promise<void> };
  let t: TestApp;

  beforeAll(async () => {
    fake = await startScriptedBroker();
    shared = await openTestDatabase();
    const config = testConfig({ mqttUrl: fake.url, port: 42001 });
    const app = await buildApp(config, { database: shared.database, logger: false });
    await app.ready();
    t = { app, config, database: shared.database, close: () => app.close() };
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await t?.close();
    await shared?.drop();
    await fake?.stop();
  });

  it('acknowledges in arrival order, nothing from the failed commit on, and stores every re-delivered batch once', async () => {
    const tenant = await makeTenant(t);
    const dev = await makeDevice(t, tenant);
    const writer = t.app.ctx.ingest.writer;
    const ingest = (fake.connected().find((id) => id.endsWith('-42001-0')) as string) ?? '';
    expect(ingest).not.toBe('');
    const t0 = (Math.floor(Date.now() / 1000) - 3600) * 1_000_000;
    const frames = (seq: number) => batch(seq, t0 + seq * 100_000, 10);
    const chunks0 = writer.stats.chunks;

    // Frame batches between uplinks of an unknown device, which settle without a commit, so before
    // the batches: their PUBACKs still wait for the batches before them.
    const first: number[] = [];
    for (let seq = 1; seq <= 20; seq++) {
      first.push(fake.deliver(ingest, upTopic(dev.third_things_id, 'frames'), frames(seq)));
      first.push(fake.deliver(ingest, upTopic('FFFFFFFFFFFFFFFF0000', 'frames'), frames(seq)));
    }
    const acked = (connection: number) => fake.acks.filter((a) => a.connection === connection).map((a) => a.messageId);
    const conn = fake.connects.findLastIndex((c) => c.clientId === ingest);
    expect(
      await poll(
        async () => acked(conn),
        (a) => a.length >= first.length,
      ),
    ).toEqual(first);

    // The next commit fails (the database refusing it); the batches after it commit.
    vi.spyOn(writer as unknown as { flush: () => Promise<unknown> }, 'flush').mockRejectedValueOnce(new Error('commit failed'));
    const second: number[] = [];
    for (let seq = 21; seq <= 120; seq++) second.push(fake.deliver(ingest, upTopic(dev.third_things_id, 'frames'), frames(seq)));

    // Re-delivered on a new connection, every batch is stored, once.
    await poll(
      async () => writer.stats.chunks - chunks0,
      (n) => n >= 120,
      { ms: 20_000 },
    );
    expect(writer.stats.chunks - chunks0).toBe(120);
    expect(await storedFrames(t, tenant, dev.id, t0)).toBe(1200);
    // Nothing of the second lot was acknowledged on the connection whose commit failed; all of it on the next.
    expect(acked(conn)).toEqual(first);
    const next = fake.connects.findLastIndex((c) => c.clientId === ingest);
    expect(next).toBeGreaterThan(conn);
    expect(
      await poll(
        async () => acked(next),
        (a) => a.length >= second.length,
      ),
    ).toEqual(second);
    expect(fake.unacked(ingest)).toEqual([]);
  });
});

describe('a server copy on Mosquitto, at fleet rates', () => {
  let mosquitto: Awaited<ReturnType<typeof startMosquitto>>;
  let shared: { database: Database; drop: () => Promise<void> };
  let config: ReturnType<typeof testConfig>;
  let t: TestApp | null = null;

  async function start(): Promise<TestApp> {
    const app = await buildApp(config, { database: shared.database, logger: false });
    await app.ready();
    return { app, config, database: shared.database, close: () => app.close() };
  }

  beforeAll(async () => {
    mosquitto = await startMosquitto();
    shared = await openTestDatabase();
    config = testConfig({ mqttUrl: mosquitto.url, mqttDynsec: true, port: 42002 });
    t = await start();
  });
  afterAll(async () => {
    await t?.close();
    await shared?.drop();
    await mosquitto?.stop();
    if (config) fs.rmSync(config.dataDir, { recursive: true, force: true });
  });

  it('stores 2,000 batches sent at once exactly once, many to a commit, and acknowledges them all to the broker', async () => {
    const app = t as TestApp;
    const tenant = await makeTenant(app);
    const dev = await makeDevice(app, tenant);
    const device = await poll(
      () => tryConnect(mosquitto.port, dev.third_things_id, dev.things_key),
      (r) => r.ok,
      { ms: 10_000 },
    );
    expect(device.ok).toBe(true);
    const writer = app.app.ctx.ingest.writer;
    const before = { ...writer.stats };
    const n = 2000;
    const t0 = (Math.floor(Date.now() / 1000) - 7200) * 1_000_000;
    try {
      await Promise.all(
        Array.from({ length: n }, (_, i) =>
          device.client.publishAsync(upTopic(dev.third_things_id, 'frames'), batch(i + 1, t0 + i * 100_000, 10), { qos: 1 }),
        ),
      );
    } finally {
      device.client.end(true);
    }
    await poll(
      async () => writer.stats.chunks - before.chunks,
      (k) => k >= n,
      { ms: 60_000 },
    );
    expect(writer.stats.chunks - before.chunks).toBe(n);
    expect(writer.stats.duplicates - before.duplicates).toBe(0);
    expect(await storedFrames(app, tenant, dev.id, t0)).toBe(n * 10);
    // Many messages to a commit: one at a time per connection, 4 connections would need 500 or more.
    const flushes = writer.stats.flushes - before.flushes;
    expect(flushes).toBeLessThanOrEqual(n / 10);

    // Everything was acknowledged to the broker: the copy started again on the same sessions is
    // re-delivered nothing, and takes the next batch.
    await app.close();
    t = null;
    t = await start();
    const again = await poll(
      () => tryConnect(mosquitto.port, dev.third_things_id, dev.things_key),
      (r) => r.ok,
      { ms: 10_000 },
    );
    await again.client.publishAsync(upTopic(dev.third_things_id, 'frames'), batch(n + 1, t0 + n * 100_000, 10), { qos: 1 });
    again.client.end(true);
    const w2 = t.app.ctx.ingest.writer;
    await poll(
      async () => w2.stats.chunks,
      (k) => k >= 1,
      { ms: 10_000 },
    );
    expect(w2.stats).toMatchObject({ chunks: 1, duplicates: 0 });
  });
});
