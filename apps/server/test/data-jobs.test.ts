/**
 * A tenant's exports and log uploads share the server with every other tenant: the package's
 * `concurrent_data_jobs` bounds how many run at once (429 `data.jobs-busy` before the work starts,
 * nothing stored), and an export is encoded piece by piece, giving the server's thread back between
 * pieces, whatever its format.
 */

import { makeFrame } from '@loggerhead/can';
import { writeLog } from '@loggerhead/can/logs/index.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helper.ts';
import { poll } from './poll.ts';
import { makeDevice, makeTenant, type TenantFixture } from './things.fixtures.ts';

const FRAMES = 200_000;
const T0_US = Date.UTC(2024, 0, 1) * 1000;

function multipart(name: string, bytes: Uint8Array) {
  const boundary = '----lhjobs';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  return {
    payload: Buffer.concat([head, Buffer.from(bytes), Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

const frames = () =>
  Array.from({ length: FRAMES }, (_, i) =>
    makeFrame({ ts: T0_US + i * 1000, id: 0x100 + (i % 50), data: Uint8Array.of(i & 255, 1, 2, 3, 4, 5, 6, 7) }),
  );

describe('data jobs of a tenant', () => {
  let t: TestApp;
  let a: TenantFixture;
  let b: TenantFixture;
  let dev: { id: string };
  let devB: { id: string };
  const range = { begin_time: T0_US / 1000, end_time: T0_US / 1000 + FRAMES + 1000 };

  const upload = (tn: TenantFixture, thingsId: string, bytes: Uint8Array, name = 'trip.log') => {
    const m = multipart(name, bytes);
    return t.app.inject({
      method: 'POST',
      url: `/v1/data-mgmt/tenants/${tn.tenantId}/things/${thingsId}/uploads`,
      headers: { authorization: tn.auth, ...m.headers },
      payload: m.payload,
    });
  };
  const startExport = (tn: TenantFixture, thingsId: string, format: string) =>
    t.app.inject({
      method: 'POST',
      url: `/v1/data-mgmt/tenants/${tn.tenantId}/things/${thingsId}/downloads`,
      headers: { authorization: tn.auth },
      payload: { ...range, format },
    });
  const finished = (tn: TenantFixture, thingsId: string, id: string) =>
    poll(
      async () =>
        (
          await t.app.inject({
            method: 'GET',
            url: `/v1/data-mgmt/tenants/${tn.tenantId}/things/${thingsId}/downloads/${id}`,
            headers: { authorization: tn.auth },
          })
        ).json(),
      (s) => s.status === 3 || s.status === 7 || s.status === 6,
      { ms: 120_000 },
    );
  const setLimit = (tn: TenantFixture, n: number | null) =>
    t.database.raw.query('update tenant_packages set concurrent_data_jobs = $2 where tenant_id = $1', [tn.tenantId, n]);

  beforeAll(async () => {
    t = await createTestApp();
    a = await makeTenant(t);
    b = await makeTenant(t);
    dev = await makeDevice(t, a);
    devB = await makeDevice(t, b);
    const log = writeLog(frames(), 'candump');
    expect((await upload(a, dev.id, log)).statusCode).toBe(200);
    expect((await upload(b, devB.id, log)).statusCode).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses one export or upload past the package with 429 data.jobs-busy, not another tenant', async () => {
    await setLimit(a, 1);
    const first = await startExport(a, dev.id, 'asc');
    expect(first.statusCode).toBe(200);
    const second = await startExport(a, dev.id, 'asc');
    const up = await upload(a, dev.id, writeLog(frames().slice(0, 10), 'candump'));
    const other = await startExport(b, devB.id, 'asc');
    const done = await finished(a, dev.id, first.json().id);
    expect(done.status).toBe(3);
    // The first export was still running when the two came (it holds 200,000 frames).
    expect(second.statusCode).toBe(429);
    expect(second.json()).toMatchObject({ code: 'data.jobs-busy', details: { limit: 1, running: 1 } });
    expect(up.statusCode).toBe(429);
    expect(up.json().code).toBe('data.jobs-busy');
    const tasks = await t.database.raw.query<{ n: number }>('select count(*)::int as n from download_tasks where tenant_id = $1', [
      a.tenantId,
    ]);
    expect(Number(tasks.rows[0].n)).toBe(1);
    // Tenant B's package is its own.
    expect(other.statusCode).toBe(200);
    expect((await finished(b, devB.id, other.json().id)).status).toBe(3);
    // Once the first is done there is room again.
    const again = await startExport(a, dev.id, 'candump');
    expect(again.statusCode).toBe(200);
    expect((await finished(a, dev.id, again.json().id)).status).toBe(3);
  });

  it('encodes an export piece by piece in every format: the thread is never held as long as one whole file takes', async () => {
    await setLimit(a, null);
    const all = frames();
    for (const format of ['asc', 'blf', 'trc', 'mf4', 'csv', 'candump'] as const) {
      // The peer in the same run: the whole file written at once, as ASC, BLF and TRC exports were
      // (candump, CSV and MF4 went in pieces of 200,000 frames: here, the whole file too).
      const wholeFile = format === 'asc' || format === 'blf' || format === 'trc';
      const p0 = performance.now();
      if (wholeFile) writeLog(all, format);
      const wholeMs = performance.now() - p0;
      let last = performance.now();
      let worst = 0;
      const timer = setInterval(() => {
        const now = performance.now();
        worst = Math.max(worst, now - last);
        last = now;
      }, 5);
      try {
        const s = await startExport(a, dev.id, format);
        expect(s.statusCode).toBe(200);
        expect(await finished(a, dev.id, s.json().id)).toMatchObject({ status: 3, output_count: FRAMES });
      } finally {
        clearInterval(timer);
      }
      if (wholeFile) expect(worst, format).toBeLessThan(wholeMs);
    }
  });
});
