import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { thinTrack } from '../src/modules/gps/gps.track.ts';
import { createTestApp, type TestApp } from './helper.ts';
import { makeDevice, makeTenant, type TenantFixture } from './things.fixtures.ts';

let t: TestApp;
let a: TenantFixture;
let b: TenantFixture;
let device: { id: string };
let big: { id: string };

/** One degree along a great circle (the equator or a meridian) on the mean-radius sphere. */
const DEG_M = (6371008.8 * Math.PI) / 180;
const T0 = Date.UTC(2026, 0, 5, 8, 0, 0);

type Fix = { ts: number; lat: number; lon: number; speed: number | null };

/**
 * An L-shaped drive: east along the equator from (0, 0) to (0, 0.01) in 100 steps of 10 s, a stop of
 * 10 fixes 30 s apart at the corner, then north along the meridian to (0.01, 0.01).
 */
function lTrack(): Fix[] {
  const out: Fix[] = [];
  for (let i = 0; i <= 100; i++) out.push({ ts: T0 + (i + 1) * 10_000, lat: 0, lon: i * 0.0001, speed: 40 });
  for (let k = 1; k <= 10; k++) out.push({ ts: T0 + 1_010_000 + k * 30_000, lat: 0, lon: 0.01, speed: 0 });
  for (let i = 1; i <= 100; i++) out.push({ ts: T0 + 1_310_000 + i * 10_000, lat: i * 0.0001, lon: 0.01, speed: 40 });
  return out;
}

async function insert(thingsId: string, tenantId: string, fixes: Fix[]) {
  for (let i = 0; i < fixes.length; i += 500) {
    const part = fixes.slice(i, i + 500);
    const params: unknown[] = [];
    const rows = part.map((f) => {
      const n = params.push(tenantId, thingsId, f.ts, f.lat, f.lon, f.speed);
      return `($${n - 5},$${n - 4},$${n - 3},$${n - 2},$${n - 1},$${n})`;
    });
    await t.database.raw.query(`insert into gps_fixes (tenant_id, things_id, ts, lat, lon, speed) values ${rows.join(',')}`, params);
  }
}

const track = (tenant: TenantFixture, thingsId: string, q: string) =>
  t.app.inject({
    method: 'GET',
    url: `/v1/things/tenants/${tenant.tenantId}/things/${thingsId}/gps?${q}`,
    headers: { authorization: tenant.auth },
  });

beforeAll(async () => {
  t = await createTestApp();
  a = await makeTenant(t);
  b = await makeTenant(t);
  device = await makeDevice(t, a);
  big = await makeDevice(t, a);
  await insert(device.id, a.tenantId, lTrack());
});
afterAll(async () => {
  await t?.close();
});

describe('GPS track', () => {
  it('returns the whole range with distance and the stop', async () => {
    const res = await track(a, device.id, `begin_time=${T0}&end_time=${T0 + 86_400_000}&max_points=1000&stop_minutes=4`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.total).toBe(211);
    expect(body.points).toHaveLength(211);
    expect(body.truncated).toBe(false);
    expect(body.distance_m).toBeCloseTo(2 * 0.01 * DEG_M, 0);
    // Ten fixes 30 s apart: 270 s at the corner.
    expect(body.stops).toEqual([
      { begin_time: T0 + 1_010_000 + 30_000, end_time: T0 + 1_010_000 + 300_000, duration_s: 270, lat: 0, lon: 0.01 },
    ]);
    const longer = await track(a, device.id, `begin_time=${T0}&end_time=${T0 + 86_400_000}&stop_minutes=5`);
    expect(longer.json().stops).toEqual([]);
  });

  it('thins to max_points keeping the ends and the corner', async () => {
    const body = (await track(a, device.id, `begin_time=${T0}&end_time=${T0 + 86_400_000}&max_points=5`)).json();
    expect(body.points).toHaveLength(5);
    const pts = body.points.map((p: { lat: number; lon: number }) => [p.lat, p.lon]);
    expect(pts[0]).toEqual([0, 0]);
    expect(pts.at(-1)).toEqual([0.01, 0.01]);
    expect(pts).toContainEqual([0, 0.01]);
    // Points stay in time order; the distance is still that of every fix.
    const ts = body.points.map((p: { ts: number }) => p.ts);
    expect([...ts].sort((x, y) => x - y)).toEqual(ts);
    expect(body.distance_m).toBeCloseTo(2 * 0.01 * DEG_M, 0);
  });

  it('keeps a time window', async () => {
    // The first leg only: 101 fixes from T0 + 10 s to T0 + 1010 s.
    const body = (await track(a, device.id, `begin_time=${T0}&end_time=${T0 + 1_010_001}`)).json();
    expect(body.total).toBe(101);
    expect(body.distance_m).toBeCloseTo(0.01 * DEG_M, 0);
  });

  it('reads at most 200000 fixes', async () => {
    await t.database.raw.query(
      `insert into gps_fixes (tenant_id, things_id, ts, lat, lon, speed)
       select $1, $2, $3::bigint + g * 1000, 30 + g * 0.00001, 120, 10 from generate_series(1, 200005) g`,
      [a.tenantId, big.id, T0],
    );
    const body = (await track(a, big.id, `begin_time=${T0}&end_time=${T0 + 400_000_000}&max_points=2000`)).json();
    expect(body.total).toBe(200000);
    expect(body.truncated).toBe(true);
    expect(body.points.length).toBeLessThanOrEqual(2000);
    expect(body.points[0].ts).toBe(T0 + 1000);
  });

  it('gives the latest fixes for the live position', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/v1/things/tenants/${a.tenantId}/things/${device.id}/gps/live?limit=3`,
      headers: { authorization: a.auth },
    });
    const pts = res.json().points;
    expect(pts.map((p: { lat: number }) => p.lat)).toEqual([0.0098, 0.0099, 0.01]);
    const tooMany = await t.app.inject({
      method: 'GET',
      url: `/v1/things/tenants/${a.tenantId}/things/${device.id}/gps/live?limit=5001`,
      headers: { authorization: a.auth },
    });
    expect(tooMany.statusCode).toBe(400);
  });

  it('refuses bad ranges and other tenants', async () => {
    expect((await track(a, device.id, `begin_time=${T0}&end_time=${T0}`)).statusCode).toBe(400);
    const other = await t.app.inject({
      method: 'GET',
      url: `/v1/things/tenants/${a.tenantId}/things/${device.id}/gps?begin_time=0&end_time=1`,
      headers: { authorization: b.auth },
    });
    expect(other.statusCode).toBe(403);
    expect((await track(b, device.id, `begin_time=${T0}&end_time=${T0 + 1000}`)).statusCode).toBe(404);
  });
});

describe('thinTrack', () => {
  it('keeps every corner of a zig-zag when max_points allows', () => {
    // 11 legs of 100 fixes each between alternating latitudes: 12 corners including both ends.
    const pts = Array.from({ length: 1101 }, (_, i) => {
      const leg = Math.floor(i / 100);
      const f = (i % 100) / 100;
      const from = leg % 2 === 0 ? 0 : 0.01;
      const to = leg % 2 === 0 ? 0.01 : 0;
      return { lat: i === 1100 ? 0 : from + (to - from) * f, lon: i * 0.0001 };
    });
    const keep = thinTrack(pts, 12);
    expect(keep).toEqual([0, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1100]);
  });

  it('returns sorted, distinct indexes, both ends, never more than asked', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ lat: fc.double({ min: -60, max: 60, noNaN: true }), lon: fc.double({ min: -170, max: 170, noNaN: true }) }), {
          minLength: 2,
          maxLength: 300,
        }),
        fc.integer({ min: 2, max: 400 }),
        (pts, max) => {
          const keep = thinTrack(pts, max);
          expect(keep.length).toBe(Math.min(pts.length, max));
          expect(keep[0]).toBe(0);
          expect(keep.at(-1)).toBe(pts.length - 1);
          for (let i = 1; i < keep.length; i++) expect(keep[i]).toBeGreaterThan(keep[i - 1]);
        },
      ),
      { numRuns: 200 },
    );
  });
});
