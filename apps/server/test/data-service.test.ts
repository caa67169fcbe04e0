import type { CanFrame } from '@loggerhead/can';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataServiceService } from '../src/modules/data/data-service.service.ts';
import { exportFile, upload } from './data-service.helpers.ts';
import { createTestApp, type TestApp } from './helper.ts';
import { poll } from './poll.ts';
import { makeDevice, makeSubUser, makeTenant, type TenantFixture } from './things.fixtures.ts';

const DAY = 86_400_000;
/** `n` frames 1 ms apart from `t0Ms`, each with its index in the data. */
const burst = (t0Ms: number, n: number, channel = 0): CanFrame[] =>
  Array.from({ length: n }, (_, i) => ({
    ts: (t0Ms + i) * 1000,
    channel,
    id: 0x200 + (i % 16),
    ext: false,
    fd: false,
    brs: false,
    esi: false,
    rtr: false,
    err: false,
    tx: false,
    data: new Uint8Array([i & 0xff, (i >> 8) & 0xff]),
  }));

describe('download templates and clean tasks', () => {
  let t: TestApp;
  let a: TenantFixture;
  let b: TenantFixture;
  beforeAll(async () => {
    t = await createTestApp();
    a = await makeTenant(t);
    b = await makeTenant(t);
  });
  afterAll(async () => {
    await t?.close();
  });
  const req = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, auth: string, payload?: object) =>
    t.app.inject({ method, url: `/v1/data-mgmt/tenants/${url}`, headers: { authorization: auth }, ...(payload ? { payload } : {}) });
  const stored = async (thingsId: string) =>
    (
      await t.database.raw.query<{ frames: string; first: string | null }>(
        'select coalesce(sum(frame_count), 0)::text as frames, min(time_start)::text as first from frame_chunks where things_id = $1',
        [thingsId],
      )
    ).rows[0];

  it('a clean task deletes exactly the data older than its days in every store and keeps the rest', async () => {
    const d = await makeDevice(t, a);
    const other = await makeDevice(t, a);
    const now = Date.now();
    const raw = t.database.raw;
    await upload(t, a, d.id, burst(now - 10 * DAY, 70));
    await upload(t, a, d.id, burst(now - 6 * DAY, 30));
    // A chunk straddling the cut-off (now - 5 days): its last frame is newer, so it stays whole.
    const straddle = now - 5 * DAY - 60_000;
    await upload(t, a, d.id, [...burst(straddle, 4), ...burst(now - 5 * DAY + 600_000, 6)]);
    await upload(t, a, d.id, burst(now - 4 * DAY, 25));
    await upload(t, a, d.id, burst(now - 1 * DAY, 15));
    await upload(t, a, other.id, burst(now - 10 * DAY, 12));
    for (const [ts, id] of [
      [now - 9 * DAY, d.id],
      [now - 3 * DAY, d.id],
      [now - 9 * DAY, other.id],
    ] as const)
      await raw.query('insert into gps_fixes (tenant_id, things_id, ts, lat, lon) values ($1, $2, $3, 1, 2)', [a.tenantId, id, ts]);
    for (const [ts, id] of [
      [now - 8 * DAY, d.id],
      [now - 1 * DAY, d.id],
      [now - 8 * DAY, other.id],
    ] as const)
      await raw.query(
        `insert into thing_model_events (tenant_id, things_id, block, event, ts) values ($1, $2, 'b', 'e', to_timestamp($3::float8 / 1000))`,
        [a.tenantId, id, ts],
      );
    // The history of model properties: two old values and a recent one of the device, one old of the other.
    for (const [ts, id] of [
      [now - 7 * DAY, d.id],
      [now - 6 * DAY, d.id],
      [now - 2 * DAY, d.id],
      [now - 7 * DAY, other.id],
    ] as const)
      await raw.query(
        `insert into thing_property_values (tenant_id, things_id, property, ts, value) values ($1, $2, 'env.t', to_timestamp($3::float8 / 1000), '1')`,
        [a.tenantId, id, ts],
      );
    // Decoded signal chunks (start, end in ms, samples) and minute roll-ups; every row is 8 + 8 bytes.
    const chunkRows = (thingsId: string) => [
      { thingsId, start: now - 9 * DAY, end: now - 9 * DAY + 1000, n: 50 },
      { thingsId, start: now - 6 * DAY, end: now - 6 * DAY + 1000, n: 20 },
      { thingsId, start: straddle, end: now - 4 * DAY, n: 7 },
      { thingsId, start: now - 2 * DAY, end: now - 2 * DAY + 1000, n: 11 },
    ];
    const cutoffMs = now - 5 * DAY;
    const series = new Map<string, string>();
    for (const id of [d.id, other.id]) {
      const rows = chunkRows(id);
      const { rows: s } = await raw.query<{ id: string }>(
        `insert into signal_series (tenant_id, things_id, channel, message, signal, samples, bytes)
         values ($1, $2, 0, 'M', 'S', $3, 0) returning id::text`,
        [a.tenantId, id, rows.reduce((n, r) => n + r.n, 0)],
      );
      series.set(id, s[0].id);
      for (const r of rows)
        await raw.query(
          `insert into signal_chunks (series_id, t_start, t_end, n, codec, v_min, v_max, ts, vals)
           values ($1, $2, $3, $4, 2, 0, 1, '\\x0000000000000000', '\\x0000000000000000')`,
          [s[0].id, r.start * 1000, r.end * 1000, r.n],
        );
      for (const start of [now - 9 * DAY, now - 2 * DAY])
        await raw.query(`insert into signal_rollups (series_id, level, t_start, cells) values ($1, 1, $2, '\\x00')`, [
          s[0].id,
          start * 1000,
        ]);
    }
    const oldSamples = chunkRows(d.id)
      .filter((r) => r.end < cutoffMs)
      .reduce((n, r) => n + r.n, 0);

    const created = await req('POST', `${a.tenantId}/clean-tasks`, a.auth, { name: 'keep five days', things_id: d.id, keep_days: 5 });
    expect(created.statusCode).toBe(200);
    const task = created.json();
    expect(task).toMatchObject({ status: 1, keep_days: 5, last_run_at: null });
    expect(
      (await req('POST', `${a.tenantId}/clean-tasks`, a.auth, { name: 'keep five days', things_id: d.id, keep_days: 2 })).json(),
    ).toMatchObject({ code: 'clean-task.duplicate' });

    const run = await req('POST', `${a.tenantId}/clean-tasks/${task.id}/run`, a.auth);
    expect(run.statusCode).toBe(200);
    expect(run.json()).toMatchObject({
      frames: 100,
      samples: oldSamples,
      gps: 1,
      events: 1,
      properties: 2,
      deleted: 100 + oldSamples + 4,
      limited: false,
    });
    const left = await stored(d.id);
    expect(Number(left.frames)).toBe(10 + 25 + 15);
    expect(Number(left.first)).toBe(straddle * 1000);
    // The capacity follows: the per-day usage holds exactly the frames left.
    const usage = await raw.query<{ frames: string }>(
      'select coalesce(sum(frames), 0)::text as frames from storage_usage where things_id = $1',
      [d.id],
    );
    expect(Number(usage.rows[0].frames)).toBe(50);
    const fixes = await raw.query<{ ts: string }>('select ts::text from gps_fixes where things_id = $1', [d.id]);
    expect(fixes.rows.map((r) => Number(r.ts))).toEqual([now - 3 * DAY]);
    const events = await raw.query<{ ms: string }>(
      'select (extract(epoch from ts) * 1000)::bigint::text as ms from thing_model_events where things_id = $1',
      [d.id],
    );
    expect(events.rows.map((r) => Number(r.ms))).toEqual([now - 1 * DAY]);
    const values = await raw.query<{ ms: string }>(
      'select (extract(epoch from ts) * 1000)::bigint::text as ms from thing_property_values where things_id = $1',
      [d.id],
    );
    expect(values.rows.map((r) => Number(r.ms))).toEqual([now - 2 * DAY]);
    const chunksOf = async (id: string) =>
      (
        await raw.query<{ t: string }>('select t_start::text as t from signal_chunks where series_id = $1 order by t_start', [
          series.get(id),
        ])
      ).rows.map((r) => Number(r.t));
    expect(await chunksOf(d.id)).toEqual(
      chunkRows(d.id)
        .filter((r) => r.end >= cutoffMs)
        .map((r) => r.start * 1000),
    );
    const rollups = await raw.query<{ t: string }>('select t_start::text as t from signal_rollups where series_id = $1', [
      series.get(d.id),
    ]);
    expect(rollups.rows.map((r) => Number(r.t))).toEqual([(now - 2 * DAY) * 1000]);
    const sd = await raw.query<{ samples: string }>('select samples::text from signal_series where id = $1', [series.get(d.id)]);
    expect(Number(sd.rows[0].samples)).toBe(7 + 11);
    // The other device is untouched.
    expect(Number((await stored(other.id)).frames)).toBe(12);
    expect((await chunksOf(other.id)).length).toBe(4);
    expect((await raw.query('select 1 from gps_fixes where things_id = $1', [other.id])).rows.length).toBe(1);
    expect((await raw.query('select 1 from thing_model_events where things_id = $1', [other.id])).rows.length).toBe(1);
    expect((await raw.query('select 1 from thing_property_values where things_id = $1', [other.id])).rows.length).toBe(1);
    expect((await req('GET', `${a.tenantId}/clean-tasks/${task.id}`, a.auth)).json()).toMatchObject({
      last_deleted: 100 + oldSamples + 4,
      last_limited: false,
    });

    // Tenant and device checks: another tenant finds nothing; a reader of the device cannot make one.
    expect((await req('GET', `${b.tenantId}/clean-tasks/${task.id}`, b.auth)).json()).toMatchObject({ code: 'clean-task.not-found' });
    expect((await req('POST', `${b.tenantId}/clean-tasks/${task.id}/run`, b.auth)).statusCode).toBe(404);
    const reader = await makeSubUser(
      t,
      a,
      ['data-mgmt:clean-task:create', 'data-mgmt:clean-task:query'],
      [{ thingsId: other.id, access: 'read' }],
    );
    expect((await req('POST', `${a.tenantId}/clean-tasks`, reader.auth, { name: 'x', things_id: other.id, keep_days: 1 })).statusCode).toBe(
      403,
    );
    expect((await req('PUT', `${a.tenantId}/clean-tasks/${task.id}/status/0`, a.auth)).json().status).toBe(0);
  });

  it('the scheduled sweep runs each due task once and stops at the row limit, oldest data first', async () => {
    const d = await makeDevice(t, a);
    const now = Date.now();
    await upload(t, a, d.id, burst(now - 20 * DAY, 30));
    await upload(t, a, d.id, burst(now - 15 * DAY, 30));
    await upload(t, a, d.id, burst(now - 12 * DAY, 30));
    const task = (await req('POST', `${a.tenantId}/clean-tasks`, a.auth, { name: 'limited', things_id: d.id, keep_days: 7 })).json();
    // The limit made small (the spec's is 1 million rows): 70 rows a run.
    const svc = dataServiceService({
      raw: t.database.raw,
      exports: { create: async () => ({ id: '' }) },
      signals: t.app.ctx.signals,
      maxRows: 70,
    });
    expect(await svc.sweep()).toBeGreaterThanOrEqual(1);
    expect(Number((await stored(d.id)).frames)).toBe(30);
    expect(Number((await stored(d.id)).first)).toBe((now - 12 * DAY) * 1000);
    const after = (await req('GET', `${a.tenantId}/clean-tasks/${task.id}`, a.auth)).json();
    expect(after).toMatchObject({ last_deleted: 60, last_limited: true });
    // Run once a day: a second sweep now leaves it alone.
    await svc.sweep();
    expect(Number((await stored(d.id)).frames)).toBe(30);

    // Decoded samples count toward the same limit, oldest first.
    const s = await makeDevice(t, a);
    const { rows } = await t.database.raw.query<{ id: string }>(
      `insert into signal_series (tenant_id, things_id, channel, message, signal, samples) values ($1, $2, 0, 'M', 'S', 90) returning id::text`,
      [a.tenantId, s.id],
    );
    const starts = [now - 20 * DAY, now - 15 * DAY, now - 12 * DAY];
    for (const start of starts)
      await t.database.raw.query(
        `insert into signal_chunks (series_id, t_start, t_end, n, codec, v_min, v_max, ts, vals)
         values ($1, $2, $3, 30, 2, 0, 1, '\\x00', '\\x00')`,
        [rows[0].id, start * 1000, (start + 1000) * 1000],
      );
    const sTask = (
      await req('POST', `${a.tenantId}/clean-tasks`, a.auth, { name: 'limited samples', things_id: s.id, keep_days: 7 })
    ).json();
    await svc.sweep();
    const kept = await t.database.raw.query<{ t: string }>('select t_start::text as t from signal_chunks where series_id = $1', [
      rows[0].id,
    ]);
    expect(kept.rows.map((r) => Number(r.t))).toEqual([starts[2] * 1000]);
    expect((await req('GET', `${a.tenantId}/clean-tasks/${sTask.id}`, a.auth)).json()).toMatchObject({
      last_deleted: 60,
      last_limited: true,
    });
  });

  it('a template run produces the same file as the equivalent direct export', async () => {
    const d1 = await makeDevice(t, a);
    const d2 = await makeDevice(t, a);
    const T = Date.now() - 3 * DAY;
    await upload(t, a, d1.id, [...burst(T, 40, 0), ...burst(T + 100, 40, 1)]);
    await upload(t, a, d2.id, burst(T, 25, 1));
    const body = { name: 'ch1 csv', things_ids: [d1.id, d2.id], format: 'csv', channels: [1], begin_time: T, end_time: T + 1000 };
    const created = await req('POST', `${a.tenantId}/download-templates`, a.auth, body);
    expect(created.statusCode).toBe(200);
    const tpl = created.json();
    expect(tpl).toMatchObject({ things_ids: [d1.id, d2.id], channels: [1], begin_time: T, last_hours: null });
    expect((await req('POST', `${a.tenantId}/download-templates`, a.auth, { ...body, begin_time: null })).statusCode).toBe(400);
    expect((await req('GET', `${b.tenantId}/download-templates/${tpl.id}`, b.auth)).json()).toMatchObject({
      code: 'download-template.not-found',
    });
    const foreign = await makeDevice(t, b);
    expect(
      (await req('POST', `${a.tenantId}/download-templates`, a.auth, { ...body, name: 'x', things_ids: [foreign.id] })).statusCode,
    ).toBe(404);

    const run = await req('POST', `${a.tenantId}/download-templates/${tpl.id}/run`, a.auth, {});
    expect(run.statusCode).toBe(200);
    const r = run.json();
    expect(r.downloads.map((x: { things_id: string }) => x.things_id)).toEqual([d1.id, d2.id]);
    for (const [i, d] of [d1, d2].entries()) {
      const base = `/v1/data-mgmt/tenants/${a.tenantId}/things/${d.id}/downloads/${r.downloads[i].id}`;
      const st = await poll(
        async () => (await t.app.inject({ method: 'GET', url: base, headers: { authorization: a.auth } })).json() as { status: number },
        (s) => s.status === 3 || s.status === 7,
        { ms: 10_000, what: `download ${r.downloads[i].id} to end` },
      );
      expect(st.status).toBe(3);
      const viaTemplate = await t.app.inject({ method: 'GET', url: `${base}/file`, headers: { authorization: a.auth } });
      const direct = await exportFile(t, a, d.id, { begin_time: T, end_time: T + 1000, format: 'csv', channels: [1] });
      expect(direct.progress.status).toBe(3);
      expect(viaTemplate.body).toBe(direct.file?.body);
      expect(viaTemplate.body.trim().split('\n')).toHaveLength(1 + (i === 0 ? 40 : 25));
    }
    expect((await req('GET', `${a.tenantId}/download-templates`, a.auth)).json().list[0].last_run_at).toBeGreaterThan(0);
    expect((await req('DELETE', `${a.tenantId}/download-templates/${tpl.id}`, a.auth)).json()).toEqual({ ok: true });
  });
});
