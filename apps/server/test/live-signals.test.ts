import { encodeBatch } from '@loggerhead/can/protocol/batch.ts';
import { upTopic } from '@loggerhead/can/protocol/topics.ts';
import { thinSeries } from '@loggerhead/can/series/thin.ts';
import type { LiveServerMessage, LiveSignalSamples } from '@loggerhead/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { LiveHub } from '../src/live/live-hub.ts';
import { createTestApp, type TestApp } from './helper.ts';
import { connectDevice } from './ingest.helpers.ts';
import { poll } from './poll.ts';
import { bind, rampFrame, testDbc, waveFrame } from './signals.fixtures.ts';
import { makeDevice, makeTenant, type TenantFixture } from './things.fixtures.ts';

describe('live decoded signals over the WebSocket', () => {
  let t: TestApp;
  let a: TenantFixture;
  let b: TenantFixture;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp();
    a = await makeTenant(t);
    b = await makeTenant(t);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await t?.close();
  });

  async function socket(tenant: TenantFixture) {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/v1/live?token=${tenant.auth.slice('Bearer '.length)}`);
    const msgs: LiveServerMessage[] = [];
    ws.on('message', (d) => msgs.push(JSON.parse(d.toString())));
    await new Promise((r) => ws.once('open', r));
    return { ws, msgs };
  }

  it('pushes decoded values of frames published through the broker, to subscribers of that device only', async () => {
    const dbcId = await testDbc(t, a);
    const dev = await makeDevice(t, a);
    expect((await bind(t, a, dev.id, 0, { dbc_id: dbcId })).statusCode).toBe(200);
    // The live hub listens only while a browser watches signals (forwarding listens for its own rules).
    const idle = t.app.ctx.events.listenerCount('signals.decoded');

    const mine = await socket(a);
    mine.ws.send(JSON.stringify({ op: 'subscribe', id: 'c', kind: 'signals', things_id: dev.id, signals: ['RAMP.Value', 'WAVE.Level'] }));
    const stranger = await socket(b);
    stranger.ws.send(JSON.stringify({ op: 'subscribe', id: 'c', kind: 'signals', things_id: dev.id }));
    await poll(
      async () => [mine.msgs, stranger.msgs],
      ([m, s]) => m.some((x) => x.t === 'subscribed') && s.some((x) => x.t === 'error'),
    );
    expect(mine.msgs).toContainEqual({ t: 'subscribed', id: 'c', kind: 'signals', things_id: dev.id });
    expect(stranger.msgs).toHaveLength(1);
    expect(stranger.msgs[0]).toMatchObject({ t: 'error', id: 'c', code: 'http.404' });
    // Someone watches: the hub now listens to the decoder.
    expect(t.app.ctx.events.listenerCount('signals.decoded')).toBe(idle + 1);

    // 20 RAMP frames on CAN0 (raw 100..119) and one on CAN1 (not bound), 10 ms apart, and a WAVE frame.
    const t0 = Date.now() * 1000 - 60_000_000;
    const frames = [
      ...Array.from({ length: 20 }, (_, i) => rampFrame(t0 + i * 10_000, 100 + i, 0, i)),
      rampFrame(t0 + 5_000, 7, 1),
      waveFrame(t0 + 250_000, -2500, 0),
    ].sort((x, y) => x.ts - y.ts);
    const c = await connectDevice(`mqtt://127.0.0.1:${t.app.ctx.broker.port()}`, dev.third_things_id, dev.things_key);
    await c.publishAsync(upTopic(dev.third_things_id, 'frames'), Buffer.from(encodeBatch(frames, { session: 3, seq: 1 })), { qos: 1 });
    c.end();

    const samples = (m: LiveServerMessage[]) => m.flatMap((x) => (x.t === 'signals' ? x.s : []));
    const got = await poll(
      async () => samples(mine.msgs),
      (s) =>
        s.filter((x) => x.signal === 'RAMP.Value').reduce((n, x) => n + x.v.length, 0) >= 20 && s.some((x) => x.signal === 'WAVE.Level'),
    );
    const value = got.filter((x) => x.signal === 'RAMP.Value');
    expect(value.every((x) => x.channel === 0 && x.unit === 'km/h')).toBe(true);
    // Physical values: raw × 0.5 − 10; times in ms.
    expect(value.flatMap((x) => x.v)).toEqual(Array.from({ length: 20 }, (_, i) => (100 + i) * 0.5 - 10));
    expect(value.flatMap((x) => x.t)).toEqual(Array.from({ length: 20 }, (_, i) => (t0 + i * 10_000) / 1000));
    expect(got.find((x) => x.signal === 'WAVE.Level')).toMatchObject({ channel: 0, unit: 'V', t: [(t0 + 250_000) / 1000], v: [-25] });
    // Not asked for: the counter.
    expect(got.some((x) => x.signal === 'RAMP.Counter')).toBe(false);
    expect(samples(stranger.msgs)).toEqual([]);

    // The raw trace of that socket was not subscribed: no frames reached it.
    expect(mine.msgs.some((x) => x.t === 'frames')).toBe(false);

    mine.ws.send(JSON.stringify({ op: 'unsubscribe', id: 'c' }));
    await poll(
      async () => t.app.ctx.events.listenerCount('signals.decoded'),
      (n) => n === idle,
    );
    expect(t.app.ctx.events.listenerCount('signals.decoded')).toBe(idle);
    mine.ws.close();
    stranger.ws.close();
  });

  it('refuses a signal subscription without a valid session', async () => {
    const bad = new WebSocket(`ws://127.0.0.1:${port}/v1/live?token=forged`);
    const code = await new Promise((r) => bad.once('close', (c) => r(c)));
    expect(code).toBe(4401);
  });
});

describe('live hub: decoded samples are bounded per push', () => {
  function fake() {
    const sent: LiveServerMessage[] = [];
    return { sent, sub: { send: (m: LiveServerMessage) => sent.push(m), buffered: () => 0 } };
  }
  const batch = (tenantId: string, n: number, from = 0) => ({
    tenantId,
    thingsId: 'D1',
    series: [
      {
        channel: 2,
        message: 'M',
        signal: 'S',
        unit: 'V',
        // A sine with one spike at sample 777.
        ts: Float64Array.from({ length: n }, (_, i) => (from + i) * 1000),
        values: Float64Array.from({ length: n }, (_, i) => (from + i === 777 ? 1e6 : Math.sin((from + i) / 50))),
      },
    ],
  });

  it('thins a dense batch to the limit, keeping the extremes and the newest sample', () => {
    const hub = new LiveHub({ maxSamplesPerSignal: 100 });
    const one = fake();
    hub.subscribeSignals('T1', 'D1', one.sub, { channels: [2] });
    const other = fake();
    hub.subscribeSignals('T1', 'D1', other.sub, { channels: [3] });
    hub.publishSignals(batch('T1', 5000));
    hub.publishSignals(batch('T2', 10)); // another tenant's device with the same id: not delivered
    hub.flush();
    expect(other.sent).toEqual([]);
    expect(one.sent).toHaveLength(1);
    const s = (one.sent[0] as { s: LiveSignalSamples[] }).s;
    expect(s).toHaveLength(1);
    const x = s[0];
    expect(x.signal).toBe('M.S');
    expect(x.t.length).toBeLessThanOrEqual(100);
    expect(x.t.length).toBeGreaterThan(90);
    expect(x.thinned).toBe(5000 - x.t.length);
    expect(Math.max(...x.v)).toBe(1e6);
    expect(x.t[x.t.length - 1]).toBe(4999);
    expect(x.v[x.v.length - 1]).toBe(Math.sin(4999 / 50));
    expect(Math.min(...x.v)).toBeCloseTo(-1, 3);
    expect(x.t.every((v, i) => i === 0 || v > x.t[i - 1])).toBe(true);
    // Nothing new: nothing sent.
    hub.flush();
    expect(one.sent).toHaveLength(1);
  });

  it('keeps memory bounded between pushes, and skips a browser that fell behind', () => {
    const hub = new LiveHub({ maxSamplesPerSignal: 50 });
    const slow = fake();
    let backlog = 10 * 1024 * 1024;
    hub.subscribeSignals('T1', 'D1', { send: slow.sub.send, buffered: () => backlog });
    for (let k = 0; k < 100; k++) hub.publishSignals(batch('T1', 100, k * 100));
    hub.flush();
    expect(slow.sent).toEqual([]);
    backlog = 0;
    hub.publishSignals(batch('T1', 3, 20_000));
    hub.flush();
    const x = (slow.sent[0] as { s: LiveSignalSamples[] }).s[0];
    expect(x.t).toEqual([20_000, 20_001, 20_002]);
  });

  it('thinSeries leaves short series alone', () => {
    const t = [1, 2, 3];
    const v = [5, 6, 7];
    expect(thinSeries(t, v, 10)).toEqual({ t, v });
    expect(thinSeries([1, 2, 3, 4, 5], [1, 9, 2, 8, 3], 2)).toEqual({ t: [4, 5], v: [8, 3] });
  });
});
