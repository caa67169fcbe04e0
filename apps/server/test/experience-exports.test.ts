import fs from 'node:fs';
import path from 'node:path';
import { type CanFrame, makeFrame } from '@loggerhead/can';
import { writeLog } from '@loggerhead/can/logs/index.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPERIENCE_EXPORT } from '../src/modules/data/downloads.service.ts';
import { createTestApp, type TestApp } from './helper.ts';
import { poll } from './poll.ts';
import { makeDevice, makeTenant, type TenantFixture } from './things.fixtures.ts';

/**
 * Exports by the read-only experience account (one user shared by every visitor): they work, but
 * each is small, a session has one running and all sessions two, a session sees only its own,
 * and old ones are cleaned up with their files. The tenant becomes the demo tenant after its data
 * is in, so every session opened with POST /control/sessions/experience is read-only.
 */
let t: TestApp;
let a: TenantFixture;
let dev: { id: string };
let big: { id: string };
const T0 = (Math.floor(Date.now() / 3_600_000) - 48) * 3_600_000_000;
const ms = (us: number) => Math.floor(us / 1000);

function multipart(name: string, bytes: Uint8Array) {
  const boundary = '----lhexp';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    payload: Buffer.concat([head, Buffer.from(bytes), tail]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

function frames(n: number, stepUs: number): CanFrame[] {
  return Array.from({ length: n }, (_, i) =>
    makeFrame({
      ts: T0 + i * stepUs,
      channel: 0,
      id: 0x100 + (i % 8),
      ext: false,
      data: new Uint8Array([i & 0xff, (i >> 8) & 0xff]),
    }),
  );
}

async function upload(thingsId: string, list: CanFrame[]) {
  const m = multipart('trip.log', writeLog(list, 'candump'));
  const res = await t.app.inject({
    method: 'POST',
    url: `/v1/data-mgmt/tenants/${a.tenantId}/things/${thingsId}/uploads`,
    headers: { authorization: a.auth, ...m.headers },
    payload: m.payload,
  });
  if (res.statusCode !== 200) throw new Error(`upload: ${res.statusCode} ${res.body}`);
}

async function session(): Promise<{ auth: string; sessionId: string }> {
  const res = await t.app.inject({ method: 'POST', url: '/v1/control/sessions/experience' });
  expect(res.statusCode).toBe(200);
  return { auth: `Bearer ${res.json().token}`, sessionId: res.json().session_id };
}

const url = (thingsId: string, rest = '') => `/v1/data-mgmt/tenants/${a.tenantId}/things/${thingsId}/downloads${rest}`;
const call = (method: 'GET' | 'POST' | 'DELETE', u: string, auth: string, payload?: object) =>
  t.app.inject({ method, url: u, headers: { authorization: auth }, ...(payload ? { payload } : {}) });
const hour = { begin_time: ms(T0), end_time: ms(T0) + 3_600_000, format: 'csv' as const };

async function sessionTasks() {
  return (
    await t.database.raw.query<{ id: string; session_id: string; file_path: string | null }>(
      'select id, session_id, file_path from download_tasks where tenant_id = $1 and session_id is not null order by created_at',
      [a.tenantId],
    )
  ).rows;
}

/** A task row of a session as another server copy (or an earlier visitor) would have left it. */
async function fakeTask(sessionId: string, status: number, ageMs = 0, withFile = false): Promise<{ id: string; file: string | null }> {
  const { rows } = await t.database.raw.query<{ id: string }>(
    `insert into download_tasks (tenant_id, things_id, user_id, session_id, format, params, status, created_at, finished_at)
     values ($1, $2, (select id from users where tenant_id = $1 and is_manager), $3, 'csv', '{}', $4::smallint,
             now() - $5::int * interval '1 millisecond',
             case when $4::smallint = 3 then now() - $5::int * interval '1 millisecond' end) returning id`,
    [a.tenantId, dev.id, sessionId, status, ageMs],
  );
  const id = rows[0].id;
  if (!withFile) return { id, file: null };
  const key = `exports/${a.tenantId}/${id}.csv`;
  const file = path.join(t.config.dataDir, 'files', key);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, 'ts_us\n');
  await t.database.raw.query('update download_tasks set file_path = $2 where id = $1', [id, key]);
  return { id, file };
}

beforeAll(async () => {
  t = await createTestApp();
  a = await makeTenant(t);
  dev = await makeDevice(t, a);
  big = await makeDevice(t, a);
  await upload(dev.id, frames(500, 1000));
  // One frame more than an experience export may hold, inside one hour.
  await upload(big.id, frames(EXPERIENCE_EXPORT.maxFrames + 1, 20_000));
  await t.database.raw.query('update tenants set is_demo = true where id = $1', [a.tenantId]);
});
afterAll(async () => {
  await t?.close();
});

describe('exports by the read-only experience account', () => {
  it('bounds a signals CSV export to one hour too', async () => {
    const A = await session();
    const signals = (thingsId: string, auth: string, span: number) =>
      call(
        'GET',
        `/v1/data-mgmt/tenants/${a.tenantId}/things/${thingsId}/signals/export?signals=M.S&begin_time=${hour.begin_time}&end_time=${hour.begin_time + span}`,
        auth,
      );
    const long = await signals(dev.id, A.auth, EXPERIENCE_EXPORT.maxRangeMs + 1);
    expect(long.statusCode).toBe(400);
    expect(long.json()).toMatchObject({ code: 'data.export-limit', field: 'end_time' });
    const ok = await signals(dev.id, A.auth, EXPERIENCE_EXPORT.maxRangeMs);
    expect(ok.statusCode).toBe(200);
    expect(ok.body.startsWith('\uFEFFtime_ms,')).toBe(true);
  });

  it('works for a visitor, who alone sees, fetches and cancels it', async () => {
    const A = await session();
    const B = await session();
    const created = await call('POST', url(dev.id), A.auth, hour);
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().id;
    const st = await poll(
      async () => (await call('GET', url(dev.id, `/${id}`), A.auth)).json(),
      (s) => s.status === 3 || s.status === 7,
    );
    expect(st).toMatchObject({ status: 3, output_count: 500 });
    const file = await call('GET', url(dev.id, `/${id}/file`), A.auth);
    expect(file.statusCode).toBe(200);
    expect(file.body.trim().split('\n')).toHaveLength(501);

    // Another visitor (the same demo user, another session) finds nothing of it.
    expect((await call('GET', url(dev.id, `/${id}`), B.auth)).statusCode).toBe(404);
    expect((await call('GET', url(dev.id, `/${id}/file`), B.auth)).statusCode).toBe(404);
    expect((await call('DELETE', url(dev.id, `/${id}`), B.auth)).statusCode).toBe(404);
    expect((await sessionTasks()).find((r) => r.id === id)).toMatchObject({ session_id: A.sessionId });

    // Its own visitor deletes it, file and all.
    const stored = path.join(t.config.dataDir, 'files', (await sessionTasks()).find((r) => r.id === id)?.file_path as string);
    expect(fs.existsSync(stored)).toBe(true);
    expect((await call('DELETE', url(dev.id, `/${id}`), A.auth)).statusCode).toBe(204);
    expect(fs.existsSync(stored)).toBe(false);
  });

  it('refuses more than an hour, or more frames than the bound, before anything runs', async () => {
    const A = await session();
    const before = (await sessionTasks()).length;
    const long = await call('POST', url(dev.id), A.auth, { ...hour, end_time: hour.begin_time + EXPERIENCE_EXPORT.maxRangeMs + 1 });
    expect(long.statusCode).toBe(400);
    expect(long.json()).toMatchObject({ code: 'data.export-limit', field: 'end_time' });
    const many = await call('POST', url(big.id), A.auth, hour);
    expect(many.statusCode).toBe(400);
    expect(many.json()).toMatchObject({ code: 'data.export-limit', field: 'end_time' });
    expect((await sessionTasks()).length).toBe(before);
    // The same hour of the big device is fine for an ordinary account of a real tenant.
    await t.database.raw.query('update tenants set is_demo = false where id = $1', [a.tenantId]);
    try {
      const ok = await call('POST', url(big.id), a.auth, hour);
      expect(ok.statusCode).toBe(200);
      const st = await poll(
        async () => (await call('GET', url(big.id, `/${ok.json().id}`), a.auth)).json(),
        (s) => s.status === 3 || s.status === 7,
        { ms: 30_000 },
      );
      expect(st).toMatchObject({ status: 3, output_count: EXPERIENCE_EXPORT.maxFrames + 1 });
    } finally {
      await t.database.raw.query('update tenants set is_demo = true where id = $1', [a.tenantId]);
    }
  });

  it('lets a session run one export at a time, and all sessions two', async () => {
    await t.database.raw.query('delete from download_tasks where tenant_id = $1', [a.tenantId]);
    const A = await session();
    const B = await session();
    const C = await session();
    await fakeTask(A.sessionId, 4);
    const busy = await call('POST', url(dev.id), A.auth, hour);
    expect(busy.statusCode).toBe(409);
    expect(busy.json().code).toBe('data.export-busy');
    // A second visitor still may: one runs, two allowed.
    await fakeTask(B.sessionId, 2);
    const full = await call('POST', url(dev.id), C.auth, hour);
    expect(full.statusCode).toBe(429);
    expect(full.json().code).toBe('rate.limited');
    expect((await sessionTasks()).filter((r) => r.session_id === C.sessionId)).toHaveLength(0);
    // Unfinished rows older than the keep time (a stopped server's) block nobody.
    await t.database.raw.query(`update download_tasks set created_at = now() - interval '1 hour' where tenant_id = $1`, [a.tenantId]);
    expect((await call('POST', url(dev.id), C.auth, hour)).statusCode).toBe(200);
  });

  it('keeps only the newest few tasks of all sessions, and none older than the keep time, files included', async () => {
    await t.database.raw.query('delete from download_tasks where tenant_id = $1', [a.tenantId]);
    const others = await session();
    const old = await fakeTask(others.sessionId, 3, EXPERIENCE_EXPORT.keepMs + 60_000, true);
    const done: { id: string; file: string | null }[] = [];
    for (let i = 0; i < EXPERIENCE_EXPORT.kept + 3; i++) done.push(await fakeTask(others.sessionId, 3, (i + 1) * 1000, true));
    const A = await session();
    const res = await call('POST', url(dev.id), A.auth, hour);
    expect(res.statusCode).toBe(200);
    const left = await sessionTasks();
    expect(left).toHaveLength(EXPERIENCE_EXPORT.kept);
    const ids = new Set(left.map((r) => r.id));
    expect(ids.has(res.json().id)).toBe(true);
    // the newest fakes stay (created 1 s, 2 s … ago), the rest went with their files
    const kept = done.slice(0, EXPERIENCE_EXPORT.kept - 1);
    for (const d of kept) expect(ids.has(d.id)).toBe(true);
    for (const d of [old, ...done.slice(EXPERIENCE_EXPORT.kept - 1)]) {
      expect(ids.has(d.id)).toBe(false);
      expect(fs.existsSync(d.file as string)).toBe(false);
    }
    for (const d of kept) expect(fs.existsSync(d.file as string)).toBe(true);
  });
});
