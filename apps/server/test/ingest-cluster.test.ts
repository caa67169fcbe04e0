import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { encodeBatch } from '@loggerhead/can/protocol/batch.ts';
import { upTopic } from '@loggerhead/can/protocol/topics.ts';
import type { LiveServerMessage } from '@loggerhead/contract';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildApp } from '../src/app.ts';
import type { Database } from '../src/db/client.ts';
import { hex } from '../src/live/live-hub.ts';
import { createTestApp, openTestDatabase, type TestApp, testConfig } from './helper.ts';
import { batch, closed, connectDevice, externalBroker, frames } from './ingest.helpers.ts';
import { poll } from './poll.ts';
import { bind, rampFrame, testDbc } from './signals.fixtures.ts';
import { makeDevice, makeTenant, type TenantFixture } from './things.fixtures.ts';

type Row = [number, number, number, number, string];

/**
 * Two server copies on one database and one external broker (Mosquitto when TEST_MQTT_URL names
 * one: batches are split between the copies by the shared subscription; otherwise a plain MQTT 3.1.1
 * broker: both copies receive every batch and the database keeps it once). Browsers are connected to
 * copy B only; whichever copy stored a batch, B's browsers see it exactly once.
 */
describe(`live views across two server copies (${process.env.TEST_MQTT_URL ? 'TEST_MQTT_URL' : 'a plain broker'})`, () => {
  let brokerUrl: string;
  let stopBroker = async () => {};
  let shared: { database: Database; drop: () => Promise<void> };
  let dataDir: string;
  let a: TestApp;
  let b: TestApp;
  let bPort: number;
  let tenant: TenantFixture;
  let device: MqttClient | null = null;
  const bLog: { msg?: string; reason?: string }[] = [];

  async function copy(port: number, logStream?: NodeJS.WritableStream): Promise<TestApp> {
    // Same database, same data folder, same broker: one deployment. The configured port only names
    // the copy's ingest session (copies on one host listen on different ports); tests listen on 0.
    const config = testConfig({ mqttUrl: brokerUrl, dataDir, port, ...(logStream ? { logLevel: 'warn' } : {}) });
    const app = await buildApp(config, { database: shared.database, ...(logStream ? { logStream } : { logger: false }) });
    await app.ready();
    await app.listen({ port: 0, host: '127.0.0.1' });
    return { app, config, database: shared.database, close: () => app.close() };
  }

  beforeAll(async () => {
    const broker = await externalBroker();
    brokerUrl = broker.url;
    stopBroker = broker.stop;
    shared = await openTestDatabase();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lh-test-'));
    a = await copy(40001);
    const lines = new Writable({
      write(chunk, _enc, done) {
        for (const l of String(chunk).split('\n').filter(Boolean)) bLog.push(JSON.parse(l));
        done();
      },
    });
    b = await copy(40002, lines);
    bPort = (b.app.server.address() as { port: number }).port;
    tenant = await makeTenant(a);
  });
  afterAll(async () => {
    device?.end(true);
    await a?.close();
    await b?.close();
    await shared?.drop();
    await stopBroker();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const clusterOf = (t: TestApp) => {
    const c = t.app.ctx.cluster;
    if (!c) throw new Error('no cluster fan-out: the copy does not use an external broker');
    return c;
  };

  async function live() {
    const ws = new WebSocket(`ws://127.0.0.1:${bPort}/v1/live?token=${tenant.auth.slice('Bearer '.length)}`);
    const msgs: LiveServerMessage[] = [];
    ws.on('message', (d) => msgs.push(JSON.parse(d.toString())));
    await new Promise((r) => ws.once('open', r));
    return { ws, msgs };
  }

  async function deviceClient() {
    device ??= await mqtt.connectAsync(brokerUrl, { clientId: `dev-${Math.random().toString(36).slice(2, 10)}`, reconnectPeriod: 0 });
    return device;
  }

  /**
   * Publishes batches from `make(seq)` one by one, each once stored, until at least `min` were sent
   * and copy A stored at least one of them (so some reached B only through the fan-out); returns how
   * many were sent.
   */
  async function publishUntilAStores(thirdId: string, make: (seq: number) => Buffer, min: number, max: number) {
    const c = await deviceClient();
    const byA = () => a.app.ctx.ingest.writer.stats.chunks;
    const total = () => byA() + b.app.ctx.ingest.writer.stats.chunks;
    const aBefore = byA();
    const before = total();
    let sent = 0;
    while (sent < min || (byA() === aBefore && sent < max)) {
      sent++;
      await c.publishAsync(upTopic(thirdId, 'frames'), make(sent), { qos: 1 });
      await poll(
        async () => total() - before,
        (k) => k >= sent,
        { ms: 10_000 },
      );
    }
    return sent;
  }

  it("shows copy B's browser every frame of a device exactly once, whichever copy stored it", async () => {
    const dev = await makeDevice(a, tenant);
    const browser = await live();
    browser.ws.send(JSON.stringify({ op: 'subscribe', id: 'f', kind: 'frames', things_id: dev.id }));
    await poll(
      async () => browser.msgs,
      (m) => m.some((x) => x.t === 'subscribed'),
    );
    // A learned that B watches the device.
    expect(
      (
        await poll(
          async () => clusterOf(a).watchedElsewhere(dev.id),
          (w) => w.frames,
        )
      ).frames,
    ).toBe(true);

    const t0 = Date.now() * 1000 - 3_600_000_000;
    const n = 40;
    const bStored = b.app.ctx.ingest.writer.stats.chunks;
    const aStored = a.app.ctx.ingest.writer.stats.chunks;
    const sent = await publishUntilAStores(dev.third_things_id, (seq) => batch(seq, t0 + seq * 1_000_000, n), 6, 30);
    // Each batch is stored once, by one of the copies, and A stored some.
    const storedBy = await poll(
      async () => ({ a: a.app.ctx.ingest.writer.stats.chunks - aStored, b: b.app.ctx.ingest.writer.stats.chunks - bStored }),
      (s) => s.a + s.b >= sent,
    );
    expect(storedBy.a + storedBy.b).toBe(sent);
    expect(storedBy.a).toBeGreaterThan(0);

    const expected: Row[] = [];
    for (let seq = 1; seq <= sent; seq++) {
      for (const f of frames(n, t0 + seq * 1_000_000)) expected.push([f.ts / 1000, f.channel, f.id, 0, hex(f.data)]);
    }
    const rows = () => browser.msgs.flatMap((m) => (m.t === 'frames' ? (m.f as Row[]) : []));
    await poll(
      async () => rows().length,
      (k) => k >= expected.length,
      { ms: 15_000 },
    );
    const byTime = (x: Row, y: Row) => x[0] - y[0];
    expect(rows().sort(byTime)).toEqual(expected.sort(byTime));
    expect(browser.msgs.some((m) => m.t === 'frames' && m.dropped)).toBe(false);

    // The last browser leaves: B stops watching, and A learns it.
    browser.ws.close();
    expect(
      (
        await poll(
          async () => clusterOf(a).watchedElsewhere(dev.id),
          (w) => !w.frames,
        )
      ).frames,
    ).toBe(false);
  });

  it("shows copy B's browser every decoded value exactly once, whichever copy decoded it", async () => {
    const dbcId = await testDbc(a, tenant);
    const dev = await makeDevice(a, tenant);
    expect((await bind(a, tenant, dev.id, 0, { dbc_id: dbcId })).statusCode).toBe(200);
    const browser = await live();
    browser.ws.send(JSON.stringify({ op: 'subscribe', id: 's', kind: 'signals', things_id: dev.id, signals: ['RAMP.Value'] }));
    await poll(
      async () => browser.msgs,
      (m) => m.some((x) => x.t === 'subscribed'),
    );
    expect(
      (
        await poll(
          async () => clusterOf(a).watchedElsewhere(dev.id),
          (w) => w.signals,
        )
      ).signals,
    ).toBe(true);

    // Five RAMP frames per batch, raw values 10·seq + i.
    const t0 = Date.now() * 1000 - 60_000_000;
    const ramp = (seq: number) =>
      Buffer.from(
        encodeBatch(
          Array.from({ length: 5 }, (_, i) => rampFrame(t0 + (seq * 5 + i) * 10_000, 10 * seq + i)),
          { session: 5, seq },
        ),
      );
    const sent = await publishUntilAStores(dev.third_things_id, ramp, 4, 30);
    const expected: number[] = [];
    for (let seq = 1; seq <= sent; seq++) for (let i = 0; i < 5; i++) expected.push((10 * seq + i) * 0.5 - 10);
    const values = () =>
      browser.msgs.flatMap((m) => (m.t === 'signals' ? m.s.filter((x) => x.signal === 'RAMP.Value').flatMap((x) => x.v) : []));
    await poll(
      async () => values().length,
      (k) => k >= expected.length,
      { ms: 15_000 },
    );
    expect(values().sort((x, y) => x - y)).toEqual(expected);
    browser.ws.close();
  });

  async function bell(port: number) {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/v1/live?token=${tenant.auth.slice('Bearer '.length)}`);
    const got: { t: string; unread?: number }[] = [];
    ws.on('message', (raw) => got.push(JSON.parse(String(raw))));
    ws.once('open', () => ws.send(JSON.stringify({ op: 'subscribe', id: 'bell', kind: 'messages' })));
    await poll(
      async () => got,
      (g) => g.some((m) => m.t === 'subscribed'),
    );
    return { ws, unread: () => got.filter((m) => m.t === 'unread').map((m) => m.unread) };
  }

  it("rings copy B's bell for a message stored by copy A, once, without running A's side effects on B", async () => {
    const onB = await bell(bPort);
    const onA = await bell((a.app.server.address() as { port: number }).port);
    let sideEffectsOnB = 0;
    const off = b.app.ctx.events.on('message.created', () => {
      sideEffectsOnB++;
    });
    try {
      await a.app.ctx.messages.send(tenant.tenantId, tenant.managerId, { title: 'Alarm', content: 'x', type: 'alert', reminderMode: 1 });
      expect(
        await poll(
          async () => onB.unread(),
          (u) => u.length >= 1,
        ),
      ).toEqual([1]);
      // The next one comes from B: had B relayed A's event back, A would have heard 1 twice before it.
      await b.app.ctx.messages.send(tenant.tenantId, tenant.managerId, { title: 'Alarm', content: 'y', type: 'alert', reminderMode: 1 });
      expect(
        await poll(
          async () => onA.unread(),
          (u) => u.length >= 2,
        ),
      ).toEqual([1, 2]);
      expect(
        await poll(
          async () => onB.unread(),
          (u) => u.length >= 2,
        ),
      ).toEqual([1, 2]);
      // Only B's own message reached B's in-process listeners.
      expect(sideEffectsOnB).toBe(1);
    } finally {
      off();
      onA.ws.close();
      onB.ws.close();
    }
  });

  it("pushes a command's state changes made on copy A to a remote-operations socket on copy B", async () => {
    const dev = await makeDevice(a, tenant);
    const ws = new WebSocket(`ws://127.0.0.1:${bPort}/v1/live?token=${tenant.auth.slice('Bearer '.length)}`);
    const got: { t: string; command?: { correlation_id: string; state: string } }[] = [];
    ws.on('message', (raw) => got.push(JSON.parse(String(raw))));
    ws.once('open', () =>
      ws.send(JSON.stringify({ op: 'subscribe', id: 'r', kind: 'remote', tenant_id: tenant.tenantId, things_id: dev.id })),
    );
    try {
      await poll(
        async () => got,
        (g) => g.some((m) => m.t === 'subscribed'),
      );
      const command = { correlation_id: 'c-1', state: 'sent' };
      a.app.ctx.events.emit('command.updated', { tenantId: tenant.tenantId, thingsId: dev.id, command: command as never });
      const pushed = await poll(
        async () => got.filter((m) => m.t === 'command'),
        (g) => g.length >= 1,
      );
      expect(pushed).toEqual([{ t: 'command', id: 'r', command }]);
    } finally {
      ws.close();
    }
  });

  it('ignores malformed cluster messages, logs the first one only, and keeps working', async () => {
    const dev = await makeDevice(a, tenant);
    const browser = await live();
    browser.ws.send(JSON.stringify({ op: 'subscribe', id: 'f', kind: 'frames', things_id: dev.id }));
    browser.ws.send(JSON.stringify({ op: 'subscribe', id: 's', kind: 'signals', things_id: dev.id }));
    await poll(
      async () => browser.msgs,
      (m) => m.some((x) => x.t === 'subscribed' && x.id === 'f') && m.some((x) => x.t === 'subscribed' && x.id === 's'),
    );
    const cb = clusterOf(b);
    const before = cb.stats.malformed;
    const other = 'f'.repeat(16);
    const c = await deviceClient();
    await c.publishAsync(cb.liveTopic(dev.id), Buffer.from('x'));
    await c.publishAsync(cb.liveTopic(dev.id), Buffer.concat([Buffer.from(`f${other}`), Buffer.from('not a batch')]));
    await c.publishAsync(cb.liveTopic(dev.id), Buffer.concat([Buffer.from(`s${other}`), Buffer.from('{"tenantId":1}')]));
    await c.publishAsync(`${cb.root}/events`, Buffer.from('{not json'));
    await c.publishAsync(`${cb.root}/watch/${other}`, Buffer.from('[1,2]'));
    expect(
      await poll(
        async () => cb.stats.malformed - before,
        (k) => k >= 5,
      ),
    ).toBe(5);
    expect(bLog.filter((l) => l.msg?.startsWith('malformed cluster message'))).toHaveLength(1);

    // Still fanned out: a batch stored by either copy reaches the browser on B.
    expect(
      (
        await poll(
          async () => clusterOf(a).watchedElsewhere(dev.id),
          (w) => w.frames,
        )
      ).frames,
    ).toBe(true);
    const t0 = Date.now() * 1000 - 7_200_000_000;
    await c.publishAsync(upTopic(dev.third_things_id, 'frames'), batch(1, t0, 10), { qos: 1 });
    const rows = await poll(
      async () => browser.msgs.flatMap((m) => (m.t === 'frames' ? m.f : [])),
      (r) => r.length >= 10,
    );
    expect(rows.map((r) => r[0])).toEqual(frames(10, t0).map((f) => f.ts / 1000));
    browser.ws.close();
  });
});

describe('the embedded broker keeps devices out of the cluster topics', () => {
  let t: TestApp;
  let tenant: TenantFixture;

  beforeAll(async () => {
    t = await createTestApp();
    tenant = await makeTenant(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses a device subscribing to or publishing on loggerhead/cluster/#', async () => {
    const d = await makeDevice(t, tenant);
    const c = await connectDevice(`mqtt://127.0.0.1:${t.app.ctx.broker.port()}`, d.third_things_id, d.things_key);
    try {
      await expect(c.subscribeAsync('loggerhead/cluster/#', { qos: 0 })).rejects.toThrow(/[Ss]ubscribe error/);
      await expect(c.subscribeAsync('loggerhead/cluster/abc/live/x', { qos: 0 })).rejects.toThrow(/[Ss]ubscribe error/);
      await expect(c.subscribeAsync('#', { qos: 0 })).rejects.toThrow(/[Ss]ubscribe error/);
      // Its own downlinks it may read: the refusals above are about the topics.
      expect((await c.subscribeAsync(`lh/v1/${d.third_things_id}/down/#`, { qos: 1 }))[0].qos).toBe(1);
      const wasClosed = closed(c);
      c.publish('loggerhead/cluster/abc/events', JSON.stringify({ from: 'x', event: 'message.updated', payload: {} }), { qos: 1 });
      expect(await wasClosed).toBe(true);
    } finally {
      c.end(true);
    }
  });
});
