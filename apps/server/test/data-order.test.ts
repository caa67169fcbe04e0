import { type CanFrame, makeFrame } from '@loggerhead/can';
import { readLog, writeLog } from '@loggerhead/can/logs/index.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helper.ts';
import { poll } from './poll.ts';
import { makeDevice, makeTenant, type TenantFixture } from './things.fixtures.ts';

// Two days ago on the hour: kept by the retention sweep.
const T0 = (Math.floor(Date.now() / 3_600_000) - 48) * 3_600_000_000;
const ms = (us: number) => Math.floor(us / 1000);

function multipart(name: string, bytes: Uint8Array) {
  const boundary = '----lhorder';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  return {
    payload: Buffer.concat([head, Buffer.from(bytes), Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** `n` frames from `t0`, one every `step` µs; the id and first byte say which upload a frame came from. */
function log(n: number, t0: number, step: number, tag: number): CanFrame[] {
  return Array.from({ length: n }, (_, i) =>
    makeFrame({
      ts: t0 + i * step,
      channel: i % 2,
      id: 0x100 + tag,
      ext: false,
      data: new Uint8Array([tag, i & 0xff, (i >> 8) & 0xff]),
    }),
  );
}

describe('history and exports in time order across overlapping uploads', () => {
  let t: TestApp;
  let a: TenantFixture;
  let dev: { id: string };
  const url = (rest: string) => `/v1/data-mgmt/tenants/${a.tenantId}/things/${dev.id}${rest}`;
  // Two uploads of the same 24 s (even and odd milliseconds; 10 000 frames per stored chunk, so the
  // chunks of one interleave with the other's), and a third one inside them repeating some times.
  const A = log(12_000, T0, 2000, 1);
  const B = log(12_000, T0 + 1000, 2000, 2);
  const C = log(50, T0 + 5_000_000, 4000, 3);
  // What a reader must see: every frame once, by time (a stable sort keeps equal times together).
  const all = [...A, ...B, ...C].sort((x, y) => x.ts - y.ts);
  const end = ms(all[all.length - 1].ts) + 1;

  beforeAll(async () => {
    t = await createTestApp();
    a = await makeTenant(t);
    dev = await makeDevice(t, a);
    for (const [name, frames] of [
      ['a.log', A],
      ['b.log', B],
      ['c.log', C],
    ] as const) {
      const m = multipart(name, writeLog(frames, 'candump'));
      const res = await t.app.inject({
        method: 'POST',
        url: url('/uploads'),
        headers: { authorization: a.auth, ...m.headers },
        payload: m.payload,
      });
      expect(res.statusCode).toBe(200);
    }
    // The stored chunks really overlap (otherwise this test would prove nothing).
    const { rows } = await t.database.raw.query<{ s: string; e: string }>(
      'select time_start as s, time_end as e from frame_chunks where things_id = $1 order by time_start',
      [dev.id],
    );
    expect(rows.length).toBeGreaterThanOrEqual(5);
    expect(rows.some((r, i) => i > 0 && Number(r.s) < Number(rows[i - 1].e))).toBe(true);
  });
  afterAll(async () => {
    await t?.close();
  });

  const page = async (query: string) => {
    const res = await t.app.inject({ method: 'GET', url: url(`/frames?${query}`), headers: { authorization: a.auth } });
    expect(res.statusCode).toBe(200);
    return res.json() as { total: number; list: { ts: number; id: number; data: string }[] };
  };

  it('pages the history by time, never jumping back, each frame once', async () => {
    const seen: { ts: number; id: number; data: string }[] = [];
    for (let p = 1; p <= 10; p++) {
      const r = await page(`begin_time=${ms(T0)}&end_time=${end}&current_page=${p}&page_size=1000`);
      expect(r.total).toBe(all.length);
      seen.push(...r.list);
    }
    expect(seen.map((f) => f.ts)).toEqual(all.slice(0, 10_000).map((f) => f.ts));
    // Each frame once: (time, source) pairs are unique and are exactly the first 10 000 of the merge.
    const key = (ts: number, id: number) => `${ts}/${id}`;
    expect(new Set(seen.map((f) => key(f.ts, f.id))).size).toBe(10_000);
    expect(new Set(seen.map((f) => key(f.ts, f.id)))).toEqual(new Set(all.slice(0, 10_000).map((f) => key(f.ts, f.id))));
  });

  it('keeps the order with channel and id filters', async () => {
    const r = await page(`begin_time=${ms(T0)}&end_time=${end}&current_page=1&page_size=500&channels=1&ids=${0x101},${0x102}`);
    const want = all.filter((f) => f.channel === 1 && (f.id === 0x101 || f.id === 0x102)).slice(0, 500);
    expect(r.list.map((f) => [f.ts, f.id])).toEqual(want.map((f) => [f.ts, f.id]));
  });

  it('starts a range in the middle of overlapping chunks in order', async () => {
    const from = ms(T0) + 19_999;
    const r = await page(`begin_time=${from}&end_time=${end}&current_page=1&page_size=100`);
    const want = all.filter((f) => f.ts >= from * 1000).slice(0, 100);
    expect(r.list.map((f) => f.ts)).toEqual(want.map((f) => f.ts));
  });

  it('exports candump, ASC, BLF and CSV in time order', async () => {
    for (const format of ['candump', 'asc', 'blf', 'csv'] as const) {
      const created = await t.app.inject({
        method: 'POST',
        url: url('/downloads'),
        headers: { authorization: a.auth },
        payload: { begin_time: ms(T0), end_time: end, format },
      });
      expect(created.statusCode).toBe(200);
      const id = created.json().id;
      const st = await poll(
        async () => (await t.app.inject({ method: 'GET', url: url(`/downloads/${id}`), headers: { authorization: a.auth } })).json(),
        (s) => s.status === 3 || s.status === 7,
        { ms: 20_000 },
      );
      expect(st).toMatchObject({ status: 3, output_count: all.length });
      const file = await t.app.inject({ method: 'GET', url: url(`/downloads/${id}/file`), headers: { authorization: a.auth } });
      expect(file.statusCode).toBe(200);
      let times: number[];
      if (format === 'csv')
        times = file.body
          .trim()
          .split('\n')
          .slice(1)
          .map((l) => Number(l.split(',')[0]));
      else {
        const back = readLog(file.rawPayload, format);
        expect(back.error).toBeUndefined();
        // ASC and BLF times are relative to the file's start; the gaps between frames are what counts.
        times = back.frames.map((f) => f.ts - back.frames[0].ts + all[0].ts);
      }
      expect(times, format).toEqual(all.map((f) => f.ts));
    }
  });
});
