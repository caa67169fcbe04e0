import type { CanFrame } from '@loggerhead/can';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataServiceService } from '../src/modules/data/data-service.service.ts';
import { exportFile, upload } from './data-service.helpers.ts';
import { createTestApp, type TestApp } from './helper.ts';
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

  it('a clean task deletes exactly the frames and GPS fixes older than its days and keeps the rest', async () => {
    const d = await makeDevice(t, a);
    const other = await makeDevice(t, a);
    const now = Date.now();
    await upload(t, a, d.id, burst(now - 10 * DAY, 70));
    await upload(t, a, d.id, burst(now - 6 * DAY, 30));
    await upload(t, a, d.id, burst(now - 4 * DAY, 25));
    await upload(t, a, d.id, burst(now - 1 * DAY, 15));
    await upload(t, a, other.id, burst(now - 10 * DAY, 12));
    for (const [ts, id] of [
      [now - 9 * DAY, d.id],
      [now - 3 * DAY, d.id],
      [now - 9 * DAY, other.id],
    ] as const)
      await t.database.raw.query('insert into gps_fixes (tenant_id, things_id, ts, lat, lon) values ($1, $2, $3, 1, 2)', [
        a.tenantId,
        id,
        ts,
      ]);

    const created = await req('POST', `${a.tenantId}/clean-tasks`, a.auth, { name: 'keep five days', things_id: d.id, keep_days: 5 });
    expect(created.statusCode).toBe(200);
    const task = created.json();
    expect(task).toMatchObject({ status: 1, keep_days: 5, last_run_at: null });
    expect(
      (await req('POST', `${a.tenantId}/clean-tasks`, a.auth, { name: 'keep five days', things_id: d.id, keep_days: 2 })).json(),
    ).toMatchObject({ code: 'clean-task.duplicate' });

    const run = await req('POST', `${a.tenantId}/clean-tasks/${task.id}/run`, a.auth);
    expect(run.statusCode).toBe(200);
    expect(run.json()).toMatchObject({ frames: 100, gps: 1, deleted: 101, limited: false });
    const left = await stored(d.id);
    expect(Number(left.frames)).toBe(40);
    expect(Number(left.first)).toBe((now - 4 * DAY) * 1000);
    const fixes = await t.database.raw.query<{ ts: string }>('select ts::text from gps_fixes where things_id = $1', [d.id]);
    expect(fixes.rows.map((r) => Number(r.ts))).toEqual([now - 3 * DAY]);
    // The other device is untouched.
    expect(Number((await stored(other.id)).frames)).toBe(12);
    expect((await req('GET', `${a.tenantId}/clean-tasks/${task.id}`, a.auth)).json()).toMatchObject({
      last_deleted: 101,
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
    const svc = dataServiceService({ raw: t.database.raw, exports: { create: async () => ({ id: '' }) }, maxRows: 70 });
    expect(await svc.sweep()).toBeGreaterThanOrEqual(1);
    expect(Number((await stored(d.id)).frames)).toBe(30);
    expect(Number((await stored(d.id)).first)).toBe((now - 12 * DAY) * 1000);
    const after = (await req('GET', `${a.tenantId}/clean-tasks/${task.id}`, a.auth)).json();
    expect(after).toMatchObject({ last_deleted: 60, last_limited: true });
    // Run once a day: a second sweep now leaves it alone.
    await svc.sweep();
    expect(Number((await stored(d.id)).frames)).toBe(30);
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
      let st = { status: 0 };
      for (let k = 0; k < 200 && st.status !== 3 && st.status !== 7; k++) {
        st = (await t.app.inject({ method: 'GET', url: base, headers: { authorization: a.auth } })).json();
        await new Promise((res) => setTimeout(res, 50));
      }
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
