import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { writeLog } from '@loggerhead/can/logs/index.ts';
import { runFleet } from '@loggerhead/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { simulate } from '../src/cli/simulate.ts';
import { createTestApp, type TestApp } from './helper.ts';
import { frames } from './ingest.helpers.ts';
import { poll } from './poll.ts';
import { makeDevice, makeTenant, type TenantFixture } from './things.fixtures.ts';

describe('loggerhead simulate', () => {
  let t: TestApp;
  let tenant: TenantFixture;
  let broker: string;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lh-sim-'));
  beforeAll(async () => {
    t = await createTestApp();
    tenant = await makeTenant(t);
    broker = `mqtt://127.0.0.1:${t.app.ctx.broker.port()}`;
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const stored = async (thingsId: string) =>
    (
      await t.database.raw.query<{ n: number }>('select coalesce(sum(frame_count),0)::int as n from frame_chunks where things_id = $1', [
        thingsId,
      ])
    ).rows[0].n;

  it('replays a log like a logger and exits 0 once every batch is stored, keeping the times', async () => {
    const d = await makeDevice(t, tenant);
    const src = frames(30_000, (Date.now() - 86_400_000) * 1000);
    const file = path.join(dir, 'trip.log');
    fs.writeFileSync(file, writeLog(src, 'candump'));
    const code = await simulate([
      '--broker',
      broker,
      '--device',
      d.third_things_id,
      '--key',
      d.things_key,
      '--log',
      file,
      '--fast',
      '--keep-time',
      '--mqtt5',
    ]);
    expect(code).toBe(0);
    expect(await stored(d.id)).toBe(30_000);
    const first = await t.database.raw.query<{ t: number }>('select min(time_start) as t from frame_chunks where things_id = $1', [d.id]);
    expect(Number(first.rows[0].t)).toBe(src[0].ts);
  });

  it('exits non-zero with a message for a wrong key', async () => {
    const d = await makeDevice(t, tenant);
    const file = path.join(dir, 'small.log');
    fs.writeFileSync(file, writeLog(frames(10, 1_700_000_000_000_000), 'candump'));
    expect(await simulate(['--broker', broker, '--device', d.third_things_id, '--key', 'nope', '--log', file])).toBe(1);
  });

  it('runs a synthetic fleet sharing one device', async () => {
    const d = await makeDevice(t, tenant);
    const code = await simulate([
      '--broker',
      broker,
      '--device',
      d.third_things_id,
      '--key',
      d.things_key,
      '--devices',
      '3',
      '--rate',
      '1000',
      '--duration',
      '1',
    ]);
    expect(code).toBe(0);
    // 1000 frames/s in 10 batches a second: whole batches of 100, as many as the machine managed.
    // The bound leaves room for a late timer tick on a busy machine; an unpaced fleet sends far more.
    const n = await stored(d.id);
    expect(n).toBeGreaterThan(0);
    expect(n % 100).toBe(0);
    expect(n).toBeLessThanOrEqual(3 * 1500);
  });

  it("keeps the log's pace with --realtime: each frame reaches the live trace within a second of its log time", async () => {
    const d = await makeDevice(t, tenant);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as net.AddressInfo).port;
    const ws = new WebSocket(`ws://127.0.0.1:${port}/v1/live?token=${tenant.auth.slice('Bearer '.length)}`);
    // Arrival (wall clock, ms) of every frame pushed to the browser, with its time in the log (µs).
    const arrivals: { ts: number; at: number }[] = [];
    const subscribed = new Promise<void>((resolve) =>
      ws.on('message', (raw) => {
        const at = Date.now();
        const m = JSON.parse(raw.toString()) as { t: string; f?: [number, ...unknown[]][] };
        if (m.t === 'subscribed') resolve();
        // Sent in ms with the µs as the fraction.
        for (const f of m.f ?? []) arrivals.push({ ts: Math.round(f[0] * 1000), at });
      }),
    );
    await new Promise((r) => ws.once('open', r));
    ws.send(JSON.stringify({ op: 'subscribe', id: 'trace', kind: 'frames', things_id: d.id }));
    await subscribed;
    // 3 s of log, a frame every 100 ms: the old pacing held all 31 in one batch until the last was due.
    const src = frames(31, 1_700_000_000_000_000).map((f, i) => ({ ...f, ts: 1_700_000_000_000_000 + i * 100_000 }));
    const file = path.join(dir, 'paced.log');
    fs.writeFileSync(file, writeLog(src, 'candump'));
    const code = await simulate(['--broker', broker, '--device', d.third_things_id, '--key', d.things_key, '--log', file, '--realtime']);
    expect(code).toBe(0);
    await poll(
      async () => arrivals.length,
      (n) => n >= src.length,
    );
    ws.close();
    expect(arrivals.length).toBe(src.length);
    // The replay moves the log to start at now, so a frame's log time is when it is due: the lag
    // is how late the browser saw it. Batches go out every 200 ms; the live view flushes every 100 ms.
    const lags = arrivals.map((a) => a.at - a.ts / 1000);
    expect(Math.max(...lags)).toBeLessThan(1000);
    // The log's own spacing survived the move (100 ms apart, in order).
    const ts = arrivals.map((a) => a.ts).sort((a, b) => a - b);
    expect(ts[ts.length - 1] - ts[0]).toBe(3_000_000);
  });

  it('reports devices of a fleet that cannot connect instead of crashing', async () => {
    // A broker that accepts TCP and never answers CONNACK: every attempt ends in "connack timeout".
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((s) => {
      sockets.add(s);
      s.on('error', () => {});
    });
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const url = `mqtt://127.0.0.1:${(silent.address() as net.AddressInfo).port}`;
    try {
      const r = await runFleet({
        broker: url,
        devices: [{ deviceId: '0123456789ABCDEF0123', key: 'k' }],
        count: 20,
        rate: 100,
        duration: 1,
        connectTimeoutMs: 1500,
      });
      expect(r.failed).toBe(20);
      expect(r.frames).toBe(0);
      expect(Object.values(r.failures).reduce((a, b) => a + b, 0)).toBe(20);
      expect(Object.keys(r.failures).join()).toMatch(/connack timeout|no connection/);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((r) => silent.close(r));
    }
  });

  it('ramps a fleet in at its connect rate, holds it idle, and reports the PUBACK round trips of a sending one', async () => {
    const d = await makeDevice(t, tenant);
    const creds = [{ deviceId: d.third_things_id, key: d.things_key }];
    let heard: { connected: number; failed: number } | null = null;
    // 20 connections at 40 a second: the last one starts about half a second after the first.
    const idle = await runFleet({
      broker,
      devices: creds,
      count: 20,
      rate: 100,
      duration: 0.2,
      connectRate: 40,
      idle: true,
      onConnected: (connected, failed) => {
        heard = { connected, failed };
      },
    });
    expect(heard).toEqual({ connected: 20, failed: 0 });
    expect(idle.connectSeconds).toBeGreaterThanOrEqual(0.45);
    expect(idle.batches).toBe(0);
    expect(await stored(d.id)).toBe(0);
    const busy = await runFleet({ broker, devices: creds, count: 5, rate: 100, duration: 1, connectRate: 0 });
    expect(busy.batches).toBeGreaterThan(0);
    expect(await stored(d.id)).toBe(busy.frames);
    expect(busy.ackP50Ms).toBeGreaterThan(0);
    expect(busy.ackP99Ms).toBeGreaterThanOrEqual(busy.ackP50Ms ?? Number.POSITIVE_INFINITY);
  });
});
