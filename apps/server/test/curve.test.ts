import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Bucketer, chooseLevel } from '../src/modules/signals/curve-buckets.ts';
import { Block, rollUp } from '../src/modules/signals/rollup.ts';
import {
  CODEC_F32,
  CODEC_F64,
  CODEC_SCALED,
  decodeTimes,
  decodeValues,
  encodeTimes,
  encodeValues,
} from '../src/modules/signals/sample-codec.ts';
import { createTestApp, type TestApp } from './helper.ts';
import { bind, rampFrame, testDbc, waveFrame } from './signals.fixtures.ts';
import { makeDevice, makeTenant, type TenantFixture } from './things.fixtures.ts';

describe('sample codec and roll-ups', () => {
  it('round-trips times and values bit for bit, choosing the compact codec when it is exact', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 5_000_000 }), { minLength: 1, maxLength: 400 }),
        fc.array(fc.integer({ min: -40000, max: 40000 }), { minLength: 1, maxLength: 400 }),
        fc.constantFrom([0.5, -10], [0.01, 0], [1, 0], [0.1, 40]),
        (gaps, raws, [factor, offset]) => {
          const n = Math.min(gaps.length, raws.length);
          const ts = new Float64Array(n);
          let t = 1_767_225_600_000_000;
          for (let i = 0; i < n; i++) ts[i] = t += gaps[i] % 60_000;
          const values = Float64Array.from(raws.slice(0, n), (r) => r * factor + offset);
          const tb = encodeTimes(ts, 0, n, ts[0]);
          const outT = new Float64Array(n);
          decodeTimes(tb, n, ts[0], outT);
          expect(outT).toEqual(ts);
          const ev = encodeValues(values, 0, n, factor, offset);
          expect(ev.codec).toBe(CODEC_SCALED);
          const outV = new Float64Array(n);
          decodeValues(ev.bytes, n, ev.codec, ev.factor, ev.offset, outV);
          expect(outV).toEqual(values);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('packs wide deltas (over 24 bits) and wide time gaps exactly', () => {
    const raws = [0, 2 ** 30, 1, 2 ** 30 + 5, -7];
    const values = Float64Array.from(raws, (r) => r * 0.5);
    const ev = encodeValues(values, 0, raws.length, 0.5, 0);
    expect(ev.codec).toBe(CODEC_SCALED);
    const out = new Float64Array(raws.length);
    decodeValues(ev.bytes, raws.length, ev.codec, ev.factor, ev.offset, out);
    expect(out).toEqual(values);
    const ts = Float64Array.from([0, 1, 59_999_999, 60_000_000, 60_000_001]);
    const back = new Float64Array(ts.length);
    decodeTimes(encodeTimes(ts, 0, ts.length, 0), ts.length, 0, back);
    expect(back).toEqual(ts);
  });

  it('falls back to float32 or float64 when the scaling does not reproduce the values', () => {
    const f32 = Float64Array.from([0.5, 1.25, -3]);
    expect(encodeValues(f32, 0, 3, 0.3, 0).codec).toBe(CODEC_F32);
    const f64 = Float64Array.from([Math.PI, Math.E]);
    const ev = encodeValues(f64, 0, 2, 1, 0);
    expect(ev.codec).toBe(CODEC_F64);
    const out = new Float64Array(2);
    decodeValues(ev.bytes, 2, ev.codec, ev.factor, ev.offset, out);
    expect(out).toEqual(f64);
  });

  it('packs a steady 100 Hz signal in about a quarter byte per sample', () => {
    const n = 6000;
    const ts = Float64Array.from({ length: n }, (_, i) => i * 10_000);
    const values = Float64Array.from({ length: n }, (_, i) => Math.round(1000 * Math.sin((2 * Math.PI * i) / 6000)) * 0.01);
    const bytes = encodeTimes(ts, 0, n, 0).byteLength + encodeValues(values, 0, n, 0.01, 0).bytes.byteLength;
    expect(bytes).toBeLessThan(n / 3);
  });

  it('rolls samples into 1 s cells and merges blocks cell by cell', () => {
    // 0.0 s: 1, 0.5 s: 5, 1.2 s: -2 (second cell), 61 s: 7 (next minute block).
    const ts = [0, 500_000, 1_200_000, 61_000_000];
    const vs = [1, 5, -2, 7];
    const blocks = rollUp(ts, vs, 0, 4, 1);
    const b0 = blocks.get(0) as Block;
    expect([b0.mins[0], b0.maxs[0], b0.sums[0], b0.counts[0]]).toEqual([1, 5, 6, 2]);
    expect([b0.mins[1], b0.maxs[1], b0.counts[1]]).toEqual([-2, -2, 1]);
    expect((blocks.get(60_000_000) as Block).counts[1]).toBe(1);
    const other = rollUp([100_000], [-9], 0, 1, 1).get(0) as Block;
    const merged = Block.decode(b0.encode());
    merged.merge(other);
    expect([merged.mins[0], merged.maxs[0], merged.sums[0], merged.counts[0]]).toEqual([-9, 5, -3, 3]);
  });

  it('buckets raw samples by hand-computed pixel and picks the resolution by bucket width', () => {
    // 10 samples 0..9 at t = 0..9 s over [0, 10 s) in 4 pixels of 2.5 s: {0,1,2} {3,4} {5,6,7} {8,9}.
    const bk = new Bucketer(0, 10_000_000, 4);
    for (let i = 0; i < 10; i++) bk.sample(i * 1_000_000, i);
    bk.sample(10_000_000, 99); // end is exclusive
    expect(bk.result()).toEqual({
      t: [0, 2500, 5000, 7500],
      min: [0, 3, 5, 8],
      max: [2, 4, 7, 9],
      avg: [1, 3.5, 6, 8.5],
      count: [3, 2, 3, 2],
    });
    expect(chooseLevel(30 * 86_400e6, 2000)).toBe(600); // 21.6 min per pixel
    expect(chooseLevel(86_400e6, 2000)).toBe(10); // 43.2 s
    expect(chooseLevel(3_600e6, 2000)).toBe(1); // 1.8 s
    expect(chooseLevel(600e6, 2000)).toBe('raw'); // 0.3 s
  });
});

// An hour boundary: seconds and minutes line up with the samples.
const T0 = Date.UTC(2026, 2, 2, 6, 0, 0) * 1000;
const MS = 1000;
const N = 54_000; // 90 minutes at 10 Hz

describe('curves over the API', () => {
  let t: TestApp;
  let tenant: TenantFixture;
  let thingsId: string;

  beforeAll(async () => {
    t = await createTestApp();
    tenant = await makeTenant(t);
    const dbcId = await testDbc(t, tenant);
    thingsId = (await makeDevice(t, tenant)).id;
    await bind(t, tenant, thingsId, 0, { dbc_id: dbcId });
    // RAMP.Value raw i (value i × 0.5 − 10) and WAVE.Level raw round(10000 sin(2πi/600)) (period 60 s), every 100 ms.
    const frames = [];
    for (let i = 0; i < N; i++) {
      const ts = T0 + i * 100 * MS;
      frames.push(rampFrame(ts, i), waveFrame(ts, Math.round(10000 * Math.sin((2 * Math.PI * i) / 600))));
    }
    for (let k = 0; k < frames.length; k += 20_000)
      await t.app.ctx.signals.onFrames(tenant.tenantId, thingsId, frames.slice(k, k + 20_000));
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  const curve = async (signal: string, beginMs: number, endMs: number, width: number) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/v1/data-mgmt/tenants/${tenant.tenantId}/things/${thingsId}/signals/curve?signal=${signal}&begin_time=${beginMs}&end_time=${endMs}&width=${width}`,
      headers: { authorization: tenant.auth },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    return res.json();
  };

  it('answers the full range from 1-minute roll-ups: one bucket per minute of 600 samples', async () => {
    const c = await curve('RAMP.Value', T0 / MS, T0 / MS + 5_400_000, 90);
    expect(c).toMatchObject({ level: '1m', bucket_ms: 60_000, unit: 'km/h', channel: 0 });
    expect(c.t.length).toBe(90);
    for (const k of [0, 1, 45, 89]) {
      expect(c.t[k]).toBe(T0 / MS + k * 60_000);
      expect(c.min[k]).toBe(600 * k * 0.5 - 10);
      expect(c.max[k]).toBe((600 * k + 599) * 0.5 - 10);
      expect(c.avg[k]).toBeCloseTo((600 * k + 299.5) * 0.5 - 10, 9);
      expect(c.count[k]).toBe(600);
    }
  });

  it('answers 90 minutes in 9 pixels from 10-minute roll-ups', async () => {
    const c = await curve('RAMP.Value', T0 / MS, T0 / MS + 5_400_000, 9);
    expect(c).toMatchObject({ level: '10m', bucket_ms: 600_000 });
    expect(c.min).toEqual(Array.from({ length: 9 }, (_, k) => 6000 * k * 0.5 - 10));
    expect(c.max).toEqual(Array.from({ length: 9 }, (_, k) => (6000 * k + 5999) * 0.5 - 10));
    expect(c.count).toEqual(Array(9).fill(6000));
  });

  it('answers an hour from 10-second roll-ups with the sine peaks where they are', async () => {
    // 30 s buckets are half periods of the 60 s sine: up from 0 to +10000 and back, then down to −10000.
    // Values are raw × 0.01 (the DBC's scaling).
    const v = (raw: number) => raw * 0.01;
    const c = await curve('WAVE.Level', T0 / MS, T0 / MS + 3_600_000, 120);
    expect(c.level).toBe('10s');
    expect(c.t.length).toBe(120);
    for (let k = 0; k < 120; k += 2) {
      expect([c.min[k], c.max[k]]).toEqual([0, v(10000)]);
      expect([c.min[k + 1], c.max[k + 1]]).toEqual([v(-10000), 0]);
    }
    expect(c.count.every((n: number) => n === 300)).toBe(true);
  });

  it('answers a minute from 1-second roll-ups, bucket by bucket', async () => {
    const v = (raw: number) => raw * 0.01;
    const c = await curve('WAVE.Level', T0 / MS, T0 / MS + 60_000, 12);
    expect(c).toMatchObject({ level: '1s', bucket_ms: 5000 });
    // Quarter-period edges, by hand: i = 149 is round(10000 cos(2π/600)) = 9999, i = 150 is 10000,
    // i = 299 is round(10000 sin(2π/600)) = 105, i = 300 is 0.
    expect(c.max[2]).toBe(v(9999));
    expect(c.max[3]).toBe(v(10000));
    expect(c.min[5]).toBe(v(105));
    expect(c.max[6]).toBe(0);
    // Every bucket: its 50 samples (5 s at 10 Hz), straight from the formula.
    for (let k = 0; k < 12; k++) {
      const raws = Array.from({ length: 50 }, (_, j) => Math.round(10000 * Math.sin((2 * Math.PI * (50 * k + j)) / 600)));
      expect([c.min[k], c.max[k], c.count[k]]).toEqual([v(Math.min(...raws)), v(Math.max(...raws)), 50]);
    }
  });

  it('returns the samples themselves when they fit, min/max per pixel when they do not', async () => {
    const from = T0 / MS + 100_000;
    const raw = await curve('RAMP.Value', from, from + 10_000, 200);
    expect(raw).toMatchObject({ level: 'raw', bucket_ms: 0 });
    expect(raw.t.length).toBe(100);
    expect(raw.t[0]).toBe(from);
    expect(raw.min[0]).toBe(1000 * 0.5 - 10);
    expect(raw.max[99]).toBe(1099 * 0.5 - 10);

    // 100 samples into 30 pixels of 333.3 ms: each pixel holds the samples whose time falls in it.
    const px = await curve('RAMP.Value', from, from + 10_000, 30);
    expect(px.level).toBe('raw');
    expect(px.t.length).toBe(30);
    for (let k = 0; k < 30; k++) {
      const first = Math.ceil((k * 10_000) / 30 / 100);
      const last = Math.ceil(((k + 1) * 10_000) / 30 / 100) - 1;
      expect([px.min[k], px.max[k], px.count[k]]).toEqual([(1000 + first) * 0.5 - 10, (1000 + last) * 0.5 - 10, last - first + 1]);
    }
  });

  it('never ships more points than pixels, whatever the range', async () => {
    const end = T0 / MS + 5_400_000;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: T0 / MS - 600_000, max: end }),
        fc.integer({ min: 1, max: 6_000_000 }),
        fc.integer({ min: 1, max: 3000 }),
        async (b, len, w) => {
          const c = await curve('WAVE.Level', b, b + len, w);
          expect(c.t.length).toBeLessThanOrEqual(w);
          for (const k of [c.min, c.max, c.avg, c.count]) expect(k.length).toBe(c.t.length);
          for (let i = 1; i < c.t.length; i++) expect(c.t[i]).toBeGreaterThan(c.t[i - 1]);
          for (let i = 0; i < c.t.length; i++) {
            expect(c.min[i]).toBeGreaterThanOrEqual(-100);
            expect(c.max[i]).toBeLessThanOrEqual(100);
            expect(c.min[i]).toBeLessThanOrEqual(c.max[i]);
          }
        },
      ),
      { numRuns: 25 },
    );
  });

  it('gives an empty curve for a signal with no data and refuses a backwards range', async () => {
    const c = await curve('WAVE.Nothing', T0 / MS, T0 / MS + 1000, 10);
    expect(c.t).toEqual([]);
    const res = await t.app.inject({
      method: 'GET',
      url: `/v1/data-mgmt/tenants/${tenant.tenantId}/things/${thingsId}/signals/curve?signal=RAMP.Value&begin_time=5&end_time=5&width=10`,
      headers: { authorization: tenant.auth },
    });
    expect(res.json().code).toBe('data.bad-range');
  });
});
