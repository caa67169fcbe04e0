import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeLog } from '@loggerhead/can/logs/index.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulate } from '../src/cli/simulate.ts';
import { createTestApp, type TestApp } from './helper.ts';
import { frames } from './ingest.helpers.ts';
import { makeDevice, makeTenant, type TenantFixture } from './things.fixtures.ts';

/** A short drive: 20 fixes 5 s apart heading north-east from People's Square, Shanghai. */
const T0 = Date.UTC(2026, 0, 5, 8, 0, 0);
const drive = Array.from({ length: 20 }, (_, i) => ({
  ts: T0 + i * 5000,
  lat: 31.2304 + i * 0.0005,
  lon: 121.4737 + i * 0.0004,
  speed: 30 + i,
}));
const csv = (time: (ts: number) => string) =>
  ['time,lat,lon,speed', ...drive.map((f) => `${time(f.ts)},${f.lat},${f.lon},${f.speed}`)].join('\n');

describe('loggerhead simulate --gps', () => {
  let t: TestApp;
  let tenant: TenantFixture;
  let broker: string;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lh-gps-'));
  beforeAll(async () => {
    t = await createTestApp();
    tenant = await makeTenant(t);
    broker = `mqtt://127.0.0.1:${t.app.ctx.broker.port()}`;
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const track = async (thingsId: string, begin: number, end: number) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/v1/things/tenants/${tenant.tenantId}/things/${thingsId}/gps?begin_time=${begin}&end_time=${end}&max_points=1000`,
      headers: { authorization: tenant.auth },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { total: number; points: { ts: number; lat: number; lon: number; speed: number | null }[] };
  };

  it('replays a CSV track with its own times: the fixes reach the GPS track API', async () => {
    const d = await makeDevice(t, tenant);
    const file = path.join(dir, 'drive-iso.csv');
    fs.writeFileSync(
      file,
      csv((ts) => new Date(ts).toISOString()),
    );
    const args = ['--broker', broker, '--device', d.third_things_id, '--key', d.things_key, '--gps', file, '--keep-time'];
    expect(await simulate(args)).toBe(0);
    const body = await track(d.id, T0, T0 + 3_600_000);
    expect(body.total).toBe(20);
    expect(body.points.map((p) => [p.ts, p.lat, p.lon, p.speed])).toEqual(drive.map((f) => [f.ts, f.lat, f.lon, f.speed]));
  });

  it('moves the track so that a fast replay ends at now, keeping the spacing (epoch-second times)', async () => {
    const d = await makeDevice(t, tenant);
    const file = path.join(dir, 'drive-epoch.csv');
    fs.writeFileSync(
      file,
      csv((ts) => String(ts / 1000)),
    );
    const before = Date.now();
    expect(await simulate(['--broker', broker, '--device', d.third_things_id, '--key', d.things_key, '--gps', file])).toBe(0);
    const after = Date.now();
    const body = await track(d.id, before - 3_600_000, after + 1000);
    expect(body.total).toBe(20);
    const last = body.points[19].ts;
    expect(last).toBeGreaterThanOrEqual(before);
    expect(last).toBeLessThanOrEqual(after);
    expect(body.points.map((p) => p.ts - last)).toEqual(drive.map((f) => f.ts - drive[19].ts));
    expect(body.points[0].lat).toBe(drive[0].lat);
  });

  it('moves a log and a track by the same amount', async () => {
    const d = await makeDevice(t, tenant);
    const gpsFile = path.join(dir, 'drive-both.csv');
    fs.writeFileSync(
      gpsFile,
      csv((ts) => new Date(ts).toISOString()),
    );
    // The log ends 10 s after the last fix.
    const src = frames(100, (drive[19].ts + 10_000) * 1000 - 99_000);
    const logFile = path.join(dir, 'both.log');
    fs.writeFileSync(logFile, writeLog(src, 'candump'));
    const args = ['--broker', broker, '--device', d.third_things_id, '--key', d.things_key, '--gps', gpsFile, '--log', logFile, '--fast'];
    expect(await simulate(args)).toBe(0);
    const chunk = await t.database.raw.query<{ t: string }>('select max(time_end) as t from frame_chunks where things_id = $1', [d.id]);
    const logEndMs = Number(chunk.rows[0].t) / 1000;
    const body = await track(d.id, Date.now() - 3_600_000, Date.now() + 1000);
    expect(body.total).toBe(20);
    expect(logEndMs - body.points[19].ts).toBeCloseTo(10_000, -1);
  });

  it('refuses a track with a coordinate out of range, naming the line', async () => {
    const d = await makeDevice(t, tenant);
    const file = path.join(dir, 'bad.csv');
    fs.writeFileSync(file, 'time,lat,lon\n2026-01-05T08:00:00Z,31.2,121.4\n2026-01-05T08:00:05Z,91,121.4\n');
    expect(await simulate(['--broker', broker, '--device', d.third_things_id, '--key', d.things_key, '--gps', file])).toBe(2);
  });
});
