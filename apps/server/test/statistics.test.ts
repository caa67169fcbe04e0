import type { CanFrame } from '@loggerhead/can';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statisticsService } from '../src/modules/statistics/statistics.service.ts';
import { createTestApp, type TestApp } from './helper.ts';
import { bind, ingestFrames, rampFrame, testDbc, waveFrame } from './signals.fixtures.ts';
import { makeDevice, makeSubUser, makeTenant, type TenantFixture } from './things.fixtures.ts';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const D0 = Date.UTC(2026, 2, 1);

/** A small deterministic generator, so that every run drives the same samples. */
function lcg(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

interface Drive {
  /** ms since the epoch, value as decoded */
  speed: { t: number; v: number }[];
  engine: { t: number; v: number }[];
  frames: CanFrame[];
}

/**
 * One device's two days: a few driving sessions a day, a sample every 5–15 s, some with the engine
 * idle (Level 0 or below) and one silent stretch of several minutes inside a session.
 */
function drive(seed: number): Drive {
  const rnd = lcg(seed);
  const d: Drive = { speed: [], engine: [], frames: [] };
  for (let day = 0; day < 2; day++) {
    for (const [startH, hours] of [
      [6 + seed, 1.5 + day],
      [17, 0.75 + seed / 4],
    ]) {
      let t = D0 + day * DAY + startH * HOUR + Math.floor(rnd() * 60_000);
      const end = t + hours * HOUR;
      while (t < end) {
        const rawSpeed = Math.floor(rnd() * 260) + 20; // 0 … 130 km/h after scale 0.5, offset −10
        const rawLevel = rnd() < 0.15 ? -Math.floor(rnd() * 50) : Math.floor(rnd() * 3000);
        d.speed.push({ t, v: rawSpeed * 0.5 - 10 });
        d.engine.push({ t, v: rawLevel * 0.01 });
        d.frames.push(rampFrame(t * 1000, rawSpeed), waveFrame(t * 1000 + 1, rawLevel));
        t += 5000 + Math.floor(rnd() * 10_000);
        if (rnd() < 0.01) t += 5 * 60_000; // out of coverage for five minutes
      }
    }
  }
  // The engine sample 1 µs later keeps the two signals apart in time; its time in ms is t + 0.001.
  d.engine = d.engine.map((e) => ({ t: e.t + 0.001, v: e.v }));
  return d;
}

/** Operating hours of one day, computed here from the samples: each value holds until the next sample, at most 60 s. */
function expectedHours(samples: { t: number; v: number }[], dayStart: number): number {
  const inDay = samples.filter((s) => s.t >= dayStart && s.t < dayStart + DAY).sort((a, b) => a.t - b.t);
  let ms = 0;
  inDay.forEach((s, i) => {
    if (!(s.v > 0)) return;
    const until = i + 1 < inDay.length ? inDay[i + 1].t : dayStart + DAY;
    ms += Math.min(until - s.t, 60_000);
  });
  return ms / HOUR;
}

function expectedMean(samples: { t: number; v: number }[], dayStart: number): number {
  const inDay = samples.filter((s) => s.t >= dayStart && s.t < dayStart + DAY);
  let sum = 0;
  for (const s of inDay) sum += s.v;
  return sum / inDay.length;
}

describe('statistics tasks', () => {
  let t: TestApp;
  let a: TenantFixture;
  let b: TenantFixture;
  const devices: { id: string; drive: Drive }[] = [];
  let seq = 0;
  const url = (tn: TenantFixture, rest = '') => `/v1/data-mgmt/tenants/${tn.tenantId}${rest}`;
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload?: object, auth = a.auth) =>
    t.app.inject({ method, url: path, headers: { authorization: auth }, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    t = await createTestApp();
    a = await makeTenant(t);
    b = await makeTenant(t);
    const dbcId = await testDbc(t, a);
    for (const seed of [1, 2]) {
      const dev = await makeDevice(t, a);
      expect((await bind(t, a, dev.id, 0, { dbc_id: dbcId })).statusCode).toBe(200);
      const d = drive(seed);
      // One batch per hour of frames (a batch spans at most an hour).
      const byHour = new Map<number, CanFrame[]>();
      for (const f of d.frames) {
        const h = Math.floor(f.ts / 1000 / HOUR);
        byHour.set(h, [...(byHour.get(h) ?? []), f]);
      }
      for (const frames of byHour.values()) await ingestFrames(t, a.tenantId, dev.id, frames, ++seq);
      devices.push({ id: dev.id, drive: d });
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it('computes daily operating hours and mean speed per device, equal to a computation from the raw samples', async () => {
    const hours = await call('POST', url(a, '/statistics-tasks'), {
      name: 'operating hours',
      method: 'operating_hours',
      params: { threshold: 0, max_gap_s: 60 },
      things_ids: devices.map((d) => d.id),
      signals: [{ message: 'WAVE', signal: 'Level' }],
      period: 'day',
    });
    expect(hours.statusCode).toBe(200);
    const speed = await call('POST', url(a, '/statistics-tasks'), {
      name: 'mean speed',
      method: 'mean',
      things_ids: devices.map((d) => d.id),
      signals: [{ message: 'RAMP', signal: 'Value', channel: 0 }],
      period: 'day',
    });
    expect(speed.statusCode).toBe(200);

    for (const task of [hours.json(), speed.json()]) {
      const run = await call('POST', url(a, `/statistics-tasks/${task.id}/run`), { begin_time: D0, end_time: D0 + 2 * DAY });
      expect(run.statusCode).toBe(200);
      expect(run.json()).toEqual({ windows: 2, results: 4 });
    }

    const results = async (taskId: string) =>
      (await call('GET', url(a, `/statistics-results?task_id=${taskId}&page_size=100`))).json().list as {
        things_id: string;
        window_start: number;
        window_end: number;
        value: number;
        unit: string;
        signal: string;
      }[];
    const h = await results(hours.json().id);
    const m = await results(speed.json().id);
    expect(h).toHaveLength(4);
    expect(m).toHaveLength(4);
    for (const dev of devices) {
      for (const day of [0, 1]) {
        const start = D0 + day * DAY;
        const hr = h.find((r) => r.things_id === dev.id && r.window_start === start);
        const mr = m.find((r) => r.things_id === dev.id && r.window_start === start);
        expect(hr).toMatchObject({ window_end: start + DAY, unit: 'h', signal: 'WAVE.Level' });
        expect(mr).toMatchObject({ unit: 'km/h', signal: 'RAMP.Value' });
        const eh = expectedHours(dev.drive.engine, start);
        const em = expectedMean(dev.drive.speed, start);
        // Sessions last hours; idle samples and the silent stretch make operating hours less than driving time.
        expect(eh).toBeGreaterThan(0.5);
        expect(hr?.value).toBeCloseTo(eh, 6);
        expect(mr?.value).toBeCloseTo(em, 9);
      }
    }
    // The two devices drove differently: their values differ.
    expect(h[0].value).not.toBeCloseTo(
      h.find((r) => r.things_id !== h[0].things_id && r.window_start === h[0].window_start)?.value ?? 0,
      3,
    );

    // Exported as CSV, one line per device and day.
    const csv = await call('GET', url(a, `/statistics-results-csv-file?task_id=${speed.json().id}`));
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body.trim().split('\n');
    expect(lines[0]).toBe('task,method,things_id,signal,window_start,window_end,value,unit,samples');
    expect(lines).toHaveLength(5);
    const first = devices[0];
    const line = lines.find((l) => l.includes(first.id) && l.includes(new Date(D0).toISOString()));
    expect(Number(line?.split(',')[6])).toBeCloseTo(expectedMean(first.drive.speed, D0), 9);

    // The history has both runs.
    const history = (await call('GET', url(a, '/statistics-history'))).json();
    expect(history.total).toBe(2);
    expect(history.list[0]).toMatchObject({ trigger: 'manual', windows: 2, results: 4, error: null });
  });

  it('computes count, maximum and percentile per hour, and distance from GPS fixes', async () => {
    const dev = devices[0];
    const hourStart = Math.floor(dev.drive.speed[0].t / HOUR) * HOUR;
    const inHour = dev.drive.speed.filter((s) => s.t >= hourStart && s.t < hourStart + HOUR).map((s) => s.v);
    const make = async (name: string, method: string, params: object = {}) => {
      const res = await call('POST', url(a, '/statistics-tasks'), {
        name,
        method,
        params,
        things_ids: [dev.id],
        signals: method === 'distance' ? [] : [{ message: 'RAMP', signal: 'Value' }],
        period: 'hour',
      });
      expect(res.statusCode).toBe(200);
      const run = await call('POST', url(a, `/statistics-tasks/${res.json().id}/run`), {
        begin_time: hourStart,
        end_time: hourStart + HOUR,
      });
      expect(run.json()).toEqual({ windows: 1, results: 1 });
      return (await call('GET', url(a, `/statistics-results?task_id=${res.json().id}`))).json().list[0];
    };
    expect((await make('count', 'count')).value).toBe(inHour.length);
    const sorted = [...inHour].sort((x, y) => x - y);
    expect((await make('max', 'max')).value).toBe(sorted[sorted.length - 1]);
    // The median of an even count is the mean of the two middle values.
    const mid = (sorted.length - 1) / 2;
    const median = (sorted[Math.floor(mid)] + sorted[Math.ceil(mid)]) / 2;
    expect((await make('median', 'percentile', { percentile: 50 })).value).toBeCloseTo(median, 9);

    // Two GPS fixes 0.01° of latitude apart: 1.112 km along the meridian.
    await t.database.raw.query('insert into gps_fixes (tenant_id, things_id, ts, lat, lon) values ($1,$2,$3,$4,$5), ($1,$2,$6,$7,$5)', [
      a.tenantId,
      dev.id,
      hourStart + 1000,
      31.2,
      121.5,
      hourStart + 61_000,
      31.21,
    ]);
    const dist = await make('distance', 'distance');
    expect(dist).toMatchObject({ signal: 'gps', unit: 'km', samples: 2 });
    expect(dist.value).toBeCloseTo(1.112, 3);
  });

  it('refuses bad tasks with their codes, and keeps tenants apart', async () => {
    const base = { name: 'x', method: 'mean', things_ids: [devices[0].id], period: 'day' };
    expect((await call('POST', url(a, '/statistics-tasks'), base)).json()).toMatchObject({ code: 'statistics.no-signal' });
    const pct = await call('POST', url(a, '/statistics-tasks'), {
      ...base,
      method: 'percentile',
      signals: [{ message: 'RAMP', signal: 'Value' }],
    });
    expect(pct.json()).toMatchObject({ code: 'statistics.bad-param' });
    const foreignDevice = await makeDevice(t, b);
    const foreign = await call('POST', url(a, '/statistics-tasks'), { ...base, method: 'distance', things_ids: [foreignDevice.id] });
    expect(foreign.statusCode).toBe(404);
    const ok = await call('POST', url(a, '/statistics-tasks'), { ...base, name: 'kept', method: 'distance' });
    expect(ok.statusCode).toBe(200);
    expect((await call('POST', url(a, '/statistics-tasks'), { ...base, name: 'kept', method: 'distance' })).json()).toMatchObject({
      code: 'statistics.duplicate',
    });
    const id = ok.json().id;
    const bad = await call('POST', url(a, `/statistics-tasks/${id}/run`), { begin_time: D0 + DAY, end_time: D0 });
    expect(bad.json()).toMatchObject({ code: 'data.bad-range' });
    const long = await call('POST', url(a, `/statistics-tasks/${id}/run`), { begin_time: D0, end_time: D0 + 500 * DAY });
    expect(long.json()).toMatchObject({ code: 'statistics.range-too-long' });
    // Another tenant neither reads nor runs it.
    expect((await call('GET', url(a, `/statistics-tasks/${id}`), undefined, b.auth)).statusCode).toBe(403);
    expect((await call('GET', url(b, `/statistics-tasks/${id}`), undefined, b.auth)).json()).toMatchObject({
      code: 'statistics.not-found',
    });
    // A sub-user without the keys is refused; with them, sees results of its own devices only.
    const none = await makeSubUser(t, a, []);
    expect((await call('GET', url(a, '/statistics-tasks'), undefined, none.auth)).statusCode).toBe(403);
    const sub = await makeSubUser(
      t,
      a,
      ['data-mgmt:statistics-task:query', 'data-mgmt:statistics-result:query'],
      [{ thingsId: devices[1].id, access: 'read' }],
    );
    const tasks = (await call('GET', url(a, '/statistics-tasks?keyword=mean'), undefined, sub.auth)).json();
    expect(tasks.list.map((x: { name: string }) => x.name)).toEqual(['mean speed']);
    const seen = (await call('GET', url(a, `/statistics-results?task_id=${tasks.list[0].id}`), undefined, sub.auth)).json();
    expect(seen.total).toBe(2);
    expect(new Set(seen.list.map((r: { things_id: string }) => r.things_id))).toEqual(new Set([devices[1].id]));
    expect((await call('DELETE', url(a, `/statistics-tasks/${id}`))).statusCode).toBe(200);
  });

  it('computes each whole window once on schedule, after it ended and late data had time to arrive', async () => {
    const created = await call('POST', url(a, '/statistics-tasks'), {
      name: 'hourly count',
      method: 'count',
      things_ids: [devices[0].id],
      signals: [{ message: 'RAMP', signal: 'Value' }],
      period: 'hour',
    });
    const task = created.json();
    const svc = statisticsService({ raw: t.database.raw });
    const first = task.computed_until;
    // Within the grace time after the hour: nothing yet.
    expect(await svc.sweep(first + HOUR + 60_000)).toBe(0);
    // Three hours later: three windows, once.
    const sweeps = [await svc.sweep(first + 3 * HOUR + 6 * 60_000), await svc.sweep(first + 3 * HOUR + 7 * 60_000)];
    expect(sweeps.filter((n) => n > 0)).toHaveLength(1);
    const after = (await call('GET', url(a, `/statistics-tasks/${task.id}`))).json();
    expect(after.computed_until).toBe(first + 3 * HOUR);
    expect(after.last_error).toBeNull();
    const results = (await call('GET', url(a, `/statistics-results?task_id=${task.id}`))).json();
    expect(results.list.map((r: { window_start: number }) => r.window_start)).toEqual([first, first + HOUR, first + 2 * HOUR]);
    // No data then: a count of zero, not a missing row.
    expect(results.list.every((r: { value: number; samples: number }) => r.value === 0 && r.samples === 0)).toBe(true);
    const history = (await call('GET', url(a, `/statistics-history?task_id=${task.id}`))).json();
    expect(history.list).toHaveLength(1);
    expect(history.list[0]).toMatchObject({ trigger: 'schedule', windows: 3 });
    // A disabled task is not computed.
    await call('PUT', url(a, `/statistics-tasks/${task.id}/status/0`));
    await svc.sweep(first + 10 * HOUR);
    expect((await call('GET', url(a, `/statistics-tasks/${task.id}`))).json()).toMatchObject({
      status: 0,
      computed_until: first + 3 * HOUR,
    });
  });
});
