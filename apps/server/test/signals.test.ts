import { liveCurvesConfigKey } from '@loggerhead/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DecodedBatch } from '../src/modules/signals/signals.events.ts';
import { createTestApp, type TestApp } from './helper.ts';
import { bind, ingestFrames, rampFrame, testDbc, waveFrame } from './signals.fixtures.ts';
import { makeDevice, makeTenant, type TenantFixture } from './things.fixtures.ts';

// An hour boundary, so that second and minute cells line up with the samples.
const T0 = Date.UTC(2026, 2, 1, 8, 0, 0) * 1000;
const MS = 1000;

describe('decoded signals: decode on ingest, start / pause / unbind, history table, statistics', () => {
  let t: TestApp;
  let tenant: TenantFixture;
  let other: TenantFixture;
  let dbcId: string;
  let seq = 0;

  beforeAll(async () => {
    t = await createTestApp();
    tenant = await makeTenant(t);
    other = await makeTenant(t);
    dbcId = await testDbc(t, tenant);
  });
  afterAll(async () => {
    await t?.close();
  });

  const get = (path: string, auth = tenant.auth, tn = tenant) =>
    t.app.inject({ method: 'GET', url: `/v1/data-mgmt/tenants/${tn.tenantId}/things/${path}`, headers: { authorization: auth } });
  const series = async (thingsId: string) =>
    (await get(`${thingsId}/signals`)).json() as { message: string; signal: string; samples: number; channel: number }[];
  const setState = (thingsId: string, channel: number, state: string) =>
    t.app.inject({
      method: 'PUT',
      url: `/v1/mapping-mgmt/tenants/${tenant.tenantId}/things/${thingsId}/channels/${channel}/dbc-binding/state`,
      headers: { authorization: tenant.auth },
      payload: { state },
    });
  const usageOf = async (thingsId: string) =>
    Number(
      (
        await t.database.raw.query<{ b: string }>('select coalesce(sum(bytes), 0) as b from tenant_storage_usage where things_id = $1', [
          thingsId,
        ])
      ).rows[0].b,
    );
  /** 100 Hz RAMP frames, raw Value = start + i, on `channel`. */
  const ramp = (n: number, from: number, start: number, channel = 0) =>
    Array.from({ length: n }, (_, i) => rampFrame(T0 + (from + i) * 10 * MS, start + i, channel, i));

  it('decodes started channels only, counts the bytes, and pauses', async () => {
    const dev = await makeDevice(t, tenant);
    expect((await bind(t, tenant, dev.id, 0, { dbc_id: dbcId })).statusCode).toBe(200);
    const live: DecodedBatch[] = [];
    const off = t.app.ctx.events.on('signals.decoded', (e) => {
      live.push(e);
    });
    // Channel 1 is not bound: its frames stay raw only.
    await ingestFrames(
      t,
      tenant.tenantId,
      dev.id,
      [...ramp(300, 0, 0), ...ramp(50, 300, 0, 1)].sort((a, b) => a.ts - b.ts),
      ++seq,
    );
    off();
    const s = await series(dev.id);
    expect(s.map((x) => `${x.channel}:${x.message}.${x.signal}=${x.samples}`).sort()).toEqual(['0:RAMP.Counter=300', '0:RAMP.Value=300']);
    const value = live[0].series.find((x) => x.signal === 'Value');
    expect(value?.values.slice(0, 3)).toEqual(Float64Array.from([-10, -9.5, -9])); // raw 0,1,2 × 0.5 − 10
    const bytes = await usageOf(dev.id);
    expect(bytes).toBeGreaterThan(0);

    expect((await setState(dev.id, 0, 'paused')).json().state).toBe('paused');
    await ingestFrames(t, tenant.tenantId, dev.id, ramp(100, 400, 400), ++seq);
    expect((await series(dev.id)).find((x) => x.signal === 'Value')?.samples).toBe(300);
    expect(await usageOf(dev.id)).toBe(bytes);

    await setState(dev.id, 0, 'started');
    await ingestFrames(t, tenant.tenantId, dev.id, ramp(100, 600, 600), ++seq);
    expect((await series(dev.id)).find((x) => x.signal === 'Value')?.samples).toBe(400);
    expect(await usageOf(dev.id)).toBeGreaterThan(bytes);
  });

  it('decodes only the strategy signals when bound through a strategy', async () => {
    const dev = await makeDevice(t, tenant);
    const s = await t.app.inject({
      method: 'POST',
      url: `/v1/mapping-mgmt/tenants/${tenant.tenantId}/signal-strategies`,
      headers: { authorization: tenant.auth },
      payload: { dbc_id: dbcId, signals: [{ message: 'WAVE', signal: 'Level' }] },
    });
    await bind(t, tenant, dev.id, 1, { strategy_id: s.json().id });
    await ingestFrames(t, tenant.tenantId, dev.id, [...ramp(20, 0, 0, 1), waveFrame(T0 + 500 * MS, -12345, 1)], ++seq);
    expect((await series(dev.id)).map((x) => `${x.channel}:${x.message}.${x.signal}=${x.samples}`)).toEqual(['1:WAVE.Level=1']);
    const data = await get(`${dev.id}/signals/data?signals=WAVE.Level&begin_time=${T0 / MS}&end_time=${T0 / MS + 1000}`);
    expect(data.json().list).toEqual([{ time: T0 / MS + 500, channel: 1, message: 'WAVE', signal: 'Level', value: -123.45, unit: 'V' }]);
  });

  it('unbinding clears the channel data, its capacity and its saved curves (dashboards) of every user', async () => {
    const dev = await makeDevice(t, tenant);
    await bind(t, tenant, dev.id, 0, { dbc_id: dbcId });
    await bind(t, tenant, dev.id, 1, { dbc_id: dbcId });
    await ingestFrames(
      t,
      tenant.tenantId,
      dev.id,
      [...ramp(100, 0, 0, 0), ...ramp(100, 0, 0, 1)].sort((a, b) => a.ts - b.ts),
      ++seq,
    );
    const before = await usageOf(dev.id);
    // Saved real-time curves (the channels' dashboards) of this tenant's user, and a same-named key of another tenant's user.
    const key = liveCurvesConfigKey(dev.id);
    const curves = [
      { name: 'speed0', signal: 'RAMP.Value', channel: 0, shown: true },
      { name: 'speed1', signal: 'RAMP.Value', channel: 1, shown: true },
      { name: 'count0', signal: 'RAMP.Counter', channel: 0, shown: false },
    ];
    const putConfig = (auth: string, value: unknown) =>
      t.app.inject({
        method: 'PUT',
        url: '/v1/tenant/users/self/configs',
        headers: { authorization: auth },
        payload: { key, value: JSON.stringify(value) },
      });
    const getConfig = async (auth: string) =>
      JSON.parse(
        (
          (
            await t.app.inject({ method: 'GET', url: `/v1/tenant/users/self/configs?keys=${key}`, headers: { authorization: auth } })
          ).json() as {
            value: string;
          }[]
        )[0].value,
      );
    expect((await putConfig(tenant.auth, curves)).statusCode).toBe(200);
    expect((await putConfig(other.auth, curves)).statusCode).toBe(200);
    const cleared: number[] = [];
    const off = t.app.ctx.events.on('signals.channel-cleared', (e) => {
      if (e.thingsId === dev.id) cleared.push(e.channel);
    });
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/v1/mapping-mgmt/tenants/${tenant.tenantId}/things/${dev.id}/channels/0/dbc-binding`,
      headers: { authorization: tenant.auth },
    });
    off();
    expect(res.statusCode).toBe(204);
    expect(cleared).toEqual([0]);
    expect(await getConfig(tenant.auth)).toEqual([curves[1]]);
    expect(await getConfig(other.auth)).toEqual(curves);
    expect((await series(dev.id)).every((x) => x.channel === 1)).toBe(true);
    const chunks = await t.database.raw.query(
      'select 1 from signal_chunks c join signal_series s on s.id = c.series_id where s.things_id = $1 and s.channel = 0',
      [dev.id],
    );
    expect(chunks.rows).toEqual([]);
    const after = await usageOf(dev.id);
    expect(after).toBeGreaterThan(0);
    expect(after).toBeLessThan(before);
    // Frames arriving for the unbound channel are not decoded any more.
    await ingestFrames(t, tenant.tenantId, dev.id, ramp(10, 200, 0, 0), ++seq);
    expect((await series(dev.id)).every((x) => x.channel === 1)).toBe(true);
  });

  it('pages the history table in time order with the 10000-row rule, exports CSV', async () => {
    const dev = await makeDevice(t, tenant);
    await bind(t, tenant, dev.id, 0, { dbc_id: dbcId });
    // Two batches whose times interleave: the table still comes out in time order.
    const all = ramp(400, 0, 0);
    await ingestFrames(
      t,
      tenant.tenantId,
      dev.id,
      all.filter((_, i) => i % 2 === 0),
      ++seq,
    );
    await ingestFrames(
      t,
      tenant.tenantId,
      dev.id,
      all.filter((_, i) => i % 2 === 1),
      ++seq,
    );
    const q = `signals=RAMP.Value,RAMP.Counter&begin_time=${T0 / MS + 1000}&end_time=${T0 / MS + 3000}`;
    const page = await get(`${dev.id}/signals/data?${q}&current_page=2&page_size=4`);
    expect(page.statusCode).toBe(200);
    // 1000 ms to 3000 ms at 10 ms: samples 100..299, two signals each.
    expect(page.json().total).toBe(400);
    // Rows 4..7: samples 102 and 103, Value before Counter (the order asked).
    expect(page.json().list.map((r: { time: number; signal: string; value: number }) => [r.time - T0 / MS, r.signal, r.value])).toEqual([
      [1020, 'Value', 102 * 0.5 - 10],
      [1020, 'Counter', 102 % 256],
      [1030, 'Value', 103 * 0.5 - 10],
      [1030, 'Counter', 103 % 256],
    ]);
    const over = await get(`${dev.id}/signals/data?${q}&current_page=101&page_size=100`);
    expect(over.statusCode).toBe(400);
    expect(over.json().code).toBe('data.over-10000');
    expect((await get(`${dev.id}/signals/data?signals=RAMP&begin_time=1&end_time=2`)).statusCode).toBe(400);
    const backwards = await get(`${dev.id}/signals/data?signals=RAMP.Value&begin_time=2&end_time=1`);
    expect(backwards.json().code).toBe('data.bad-range');

    const csv = await get(`${dev.id}/signals/export?signals=RAMP.Value&begin_time=${T0 / MS}&end_time=${T0 / MS + 100}`);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n');
    expect(lines[0]).toBe('time_ms,iso_time,channel,message,signal,value,unit');
    expect(lines.length).toBe(1 + 10);
    expect(lines[1]).toBe(`${T0 / MS},${new Date(T0 / MS).toISOString()},0,RAMP,Value,-10,km/h`);
  });

  it('measures the signal period and the bus statistics', async () => {
    const dev = await makeDevice(t, tenant);
    await bind(t, tenant, dev.id, 0, { dbc_id: dbcId });
    // RAMP every 10 ms, WAVE every 20 ms with a 2 ms wobble on odd frames.
    const frames = [...ramp(200, 0, 0), ...Array.from({ length: 100 }, (_, i) => waveFrame(T0 + (i * 20 + (i % 2) * 2) * MS, i))].sort(
      (a, b) => a.ts - b.ts,
    );
    await ingestFrames(t, tenant.tenantId, dev.id, frames, ++seq);
    const range = `begin_time=${T0 / MS}&end_time=${T0 / MS + 10_000}`;
    const period = (await get(`${dev.id}/signals/period?signal=RAMP.Value&${range}`)).json();
    expect(period).toMatchObject({ samples: 200, period_ms: 10, mean_ms: 10, jitter_ms: 0, truncated: false });

    const stats = (await get(`${dev.id}/bus-statistics?${range}&channel=0&bitrate=500000`)).json();
    expect(stats.frames).toBe(300);
    const r = stats.ids.find((x: { id: number }) => x.id === 0x100);
    expect(r).toMatchObject({ count: 200, cycle_ms: 10, jitter_ms: 0, min_ms: 10, max_ms: 10, dlc: 8, message: 'RAMP' });
    const w = stats.ids.find((x: { id: number }) => x.id === 0x200);
    // Intervals alternate 22 ms and 18 ms (99 of them, 50 × 22 and 49 × 18): mean (1100 + 882) / 99.
    expect(w.count).toBe(100);
    expect(w.cycle_ms).toBeCloseTo(1982 / 99, 9);
    expect(w).toMatchObject({ min_ms: 18, max_ms: 22, message: 'WAVE' });
    // 8-byte standard frames: 47 + 64 bits + worst-case stuffing floor(97 / 4) = 135 bits each.
    const spanS = (T0 + 1990 * MS - T0) / 1e6;
    expect(stats.bus_load).toBeCloseTo(((300 * 135) / (spanS * 500_000)) * 100, 2);
  });

  it('drops decoded data past retention and on a quick delete, with its capacity', async () => {
    const dev = await makeDevice(t, tenant);
    await bind(t, tenant, dev.id, 0, { dbc_id: dbcId });
    // Three minutes at 10 Hz.
    const frames = Array.from({ length: 1800 }, (_, i) => rampFrame(T0 + i * 100 * MS, i));
    await ingestFrames(t, tenant.tenantId, dev.id, frames, ++seq);
    const full = await usageOf(dev.id);
    const freed = await t.app.ctx.signals.purgeBefore(tenant.tenantId, T0 / MS + 120_000, dev.id);
    expect(freed).toBeGreaterThan(0);
    expect(await usageOf(dev.id)).toBe(full - freed);
    const q = `signals=RAMP.Value&begin_time=${T0 / MS}&end_time=${T0 / MS + 180_000}&page_size=1`;
    const left = (await get(`${dev.id}/signals/data?${q}`)).json();
    // The minutes that ended before the cut are gone; the last one (samples 1200..1799) stays.
    expect(left.total).toBe(600);
    expect(left.list[0]).toMatchObject({ time: T0 / MS + 120_000, value: 1200 * 0.5 - 10 });

    await t.app.ctx.signals.clearDevice(tenant.tenantId, dev.id);
    expect(await series(dev.id)).toEqual([]);
    expect(await usageOf(dev.id)).toBe(0);
  });

  it('refuses other tenants and unknown devices', async () => {
    const dev = await makeDevice(t, tenant);
    const path = `${dev.id}/signals/curve?signal=RAMP.Value&begin_time=1&end_time=2&width=10`;
    expect((await get(path, other.auth)).statusCode).toBe(403);
    expect((await get(path, other.auth, other)).statusCode).toBe(404);
    expect((await get(`${dev.id}/bus-statistics?begin_time=1&end_time=2`, other.auth, other)).statusCode).toBe(404);
    // A malformed id is bad input (400); a well-formed id of no device is not found (404).
    expect((await get(`not-a-device/signals`)).statusCode).toBe(400);
    expect((await get(`3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b/signals`)).statusCode).toBe(404);
  });
});
