import fs from 'node:fs';
import path from 'node:path';
import { checkBatch, encodeBatch } from '@loggerhead/can/protocol/batch.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepRetention } from '../src/modules/data/retention.job.ts';
import { createTestApp, type TestApp } from './helper.ts';
import { frames } from './ingest.helpers.ts';
import { poll } from './poll.ts';
import { makeDevice, makeTenant, type TenantFixture } from './things.fixtures.ts';

const DAY_MS = 86_400_000;
const TODAY = Math.floor(Date.now() / DAY_MS);
/** Data ages in days; the sweep runs at noon today. */
const AGES = [5, 40, 100, 200];

describe('retention by package days', () => {
  let t: TestApp;
  let short: TenantFixture; // 30 days
  let mid: TenantFixture; // 90 days
  let long: TenantFixture; // the default 180 days
  const devs: Record<string, string> = {};
  let seq = 0;

  const write = async (tenantId: string, thingsId: string, age: number) => {
    const t0 = ((TODAY - age) * DAY_MS + 3_600_000) * 1000;
    const data = encodeBatch(frames(20, t0), { session: 1, seq: ++seq });
    const info = checkBatch(data);
    if (typeof info === 'string') throw new Error(info);
    await t.app.ctx.ingest.writer.write({ tenantId, thingsId, info, data });
  };
  const ages = async (thingsId: string) =>
    (
      await t.database.raw.query<{ d: number }>(
        'select distinct (time_start / 86400000000)::int as d from frame_chunks where things_id = $1 order by 1 desc',
        [thingsId],
      )
    ).rows.map((r) => TODAY - r.d);
  const usageAges = async (thingsId: string) =>
    (
      await t.database.raw.query<{ d: string }>(
        "select to_char(day, 'YYYY-MM-DD') as d from storage_usage where things_id = $1 order by day desc",
        [thingsId],
      )
    ).rows.map((r) => TODAY - Date.parse(`${r.d}T00:00:00Z`) / DAY_MS);
  const gpsAges = async (thingsId: string) =>
    (
      await t.database.raw.query<{ ts: number }>('select ts::float8 as ts from gps_fixes where things_id = $1 order by ts desc', [thingsId])
    ).rows.map((r) => TODAY - Math.floor(r.ts / DAY_MS));
  /** Ages (days) of the device's model data: twin events and property values, each one per age written. */
  const modelAges = async (thingsId: string) =>
    Promise.all(
      (['thing_model_events', 'thing_property_values'] as const).map(async (table) =>
        (
          await t.database.raw.query<{ ms: number }>(
            `select (extract(epoch from ts) * 1000)::float8 as ms from ${table} where things_id = $1 order by ts desc`,
            [thingsId],
          )
        ).rows.map((r) => TODAY - Math.floor(r.ms / DAY_MS)),
      ),
    );
  const partitions = async () =>
    (
      await t.database.raw.query<{ name: string }>(
        `select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent
          where p.relname = 'frame_chunks'`,
      )
    ).rows.map((r) => r.name);
  const partitionOf = (age: number) => `frame_chunks_p${new Date((TODAY - age) * DAY_MS).toISOString().slice(0, 10).replaceAll('-', '')}`;

  beforeAll(async () => {
    t = await createTestApp();
    short = await makeTenant(t);
    mid = await makeTenant(t);
    long = await makeTenant(t);
    await t.database.raw.query('update tenant_packages set maximum_data_retention_days = 30 where tenant_id = $1', [short.tenantId]);
    await t.database.raw.query('update tenant_packages set maximum_data_retention_days = 90 where tenant_id = $1', [mid.tenantId]);
    for (const tenant of [short, mid, long]) {
      const dev = await makeDevice(t, tenant);
      devs[tenant.tenantId] = dev.id;
      for (const age of AGES) {
        await write(tenant.tenantId, dev.id, age);
        await t.database.raw.query('insert into gps_fixes (tenant_id, things_id, ts, lat, lon) values ($1, $2, $3, 1, 1)', [
          tenant.tenantId,
          dev.id,
          (TODAY - age) * DAY_MS + 7_200_000,
        ]);
        const at = (TODAY - age) * DAY_MS + 7_200_000;
        await t.database.raw.query(
          `insert into thing_model_events (tenant_id, things_id, block, event, ts) values ($1, $2, 'b', 'e', to_timestamp($3::float8 / 1000))`,
          [tenant.tenantId, dev.id, at],
        );
        await t.database.raw.query(
          `insert into thing_property_values (tenant_id, things_id, property, ts, value) values ($1, $2, 'b.p', to_timestamp($3::float8 / 1000), '1')`,
          [tenant.tenantId, dev.id, at],
        );
      }
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it('keeps everything younger than each tenant’s days', async () => {
    for (const tenant of [short, mid, long]) expect(await ages(devs[tenant.tenantId])).toEqual(AGES);
    const res = await sweepRetention(
      { raw: t.database.raw, writer: t.app.ctx.ingest.writer, signals: t.app.ctx.signals },
      TODAY * DAY_MS + DAY_MS / 2,
    );
    // 30 days: only the 5-day-old data stays; 90 days: 5 and 40; 180 days: all but the 200-day-old
    expect(await ages(devs[short.tenantId])).toEqual([5]);
    expect(await ages(devs[mid.tenantId])).toEqual([5, 40]);
    expect(await ages(devs[long.tenantId])).toEqual([5, 40, 100]);
    // the capacity follows: per-day usage rows go with the data
    expect(await usageAges(devs[short.tenantId])).toEqual([5]);
    expect(await usageAges(devs[mid.tenantId])).toEqual([5, 40]);
    expect(await usageAges(devs[long.tenantId])).toEqual([5, 40, 100]);
    expect(await gpsAges(devs[short.tenantId])).toEqual([5]);
    expect(await gpsAges(devs[mid.tenantId])).toEqual([5, 40]);
    expect(await gpsAges(devs[long.tenantId])).toEqual([5, 40, 100]);
    // model data (twin events, property history) by the same days
    expect(await modelAges(devs[short.tenantId])).toEqual([[5], [5]]);
    expect(await modelAges(devs[mid.tenantId])).toEqual([
      [5, 40],
      [5, 40],
    ]);
    expect(await modelAges(devs[long.tenantId])).toEqual([
      [5, 40, 100],
      [5, 40, 100],
    ]);
    // past the longest retention the partition itself is dropped; the others stay, shared
    const names = await partitions();
    expect(names).not.toContain(partitionOf(200));
    for (const age of [5, 40, 100]) expect(names).toContain(partitionOf(age));
    expect(res.partitions).toBe(1);
    // chunks deleted inside shared partitions: short at 40 and 100 days, mid at 100 days
    expect(res.chunks).toBe(3);
  });

  it('follows a package change and keeps data of an unlimited package', async () => {
    await t.database.raw.query('update tenant_packages set maximum_data_retention_days = null where tenant_id = $1', [long.tenantId]);
    await t.database.raw.query('update tenant_packages set maximum_data_retention_days = 4 where tenant_id = $1', [mid.tenantId]);
    await write(long.tenantId, devs[long.tenantId], 300);
    await sweepRetention({ raw: t.database.raw, writer: t.app.ctx.ingest.writer }, TODAY * DAY_MS + DAY_MS / 2);
    expect(await ages(devs[mid.tenantId])).toEqual([]);
    expect(await ages(devs[short.tenantId])).toEqual([5]);
    // unlimited: nothing of that tenant goes, and no partition is dropped under it
    expect(await ages(devs[long.tenantId])).toEqual([5, 40, 100, 300]);
    expect(await partitions()).toContain(partitionOf(300));
  });

  it('keeps a tenant’s data only for its own shorter choice (tenant-spec reclaim_policy 1)', async () => {
    // long has an unlimited package now; it chooses to keep 50 days, short (30-day package) asks for 60
    await t.database.raw.query('update tenants set reclaim_policy = 1, max_reserves_duration = 50 where id = $1', [long.tenantId]);
    await t.database.raw.query('update tenants set reclaim_policy = 1, max_reserves_duration = 60 where id = $1', [short.tenantId]);
    await write(short.tenantId, devs[short.tenantId], 20);
    await write(short.tenantId, devs[short.tenantId], 45);
    await sweepRetention({ raw: t.database.raw, writer: t.app.ctx.ingest.writer }, TODAY * DAY_MS + DAY_MS / 2);
    expect(await ages(devs[long.tenantId])).toEqual([5, 40]);
    expect(await gpsAges(devs[long.tenantId])).toEqual([5, 40]);
    // the package's 30 days still bound a longer wish
    expect(await ages(devs[short.tenantId])).toEqual([5, 20]);
    // back to policy 0: the package alone decides again
    await t.database.raw.query('update tenants set reclaim_policy = 0, max_reserves_duration = null where id = $1', [long.tenantId]);
    await write(long.tenantId, devs[long.tenantId], 70);
    await sweepRetention({ raw: t.database.raw, writer: t.app.ctx.ingest.writer }, TODAY * DAY_MS + DAY_MS / 2);
    expect(await ages(devs[long.tenantId])).toEqual([5, 40, 70]);
  });

  it('removes recalled files stored longer ago than the tenant’s days, and export files a day after their export', async () => {
    const NOW = TODAY * DAY_MS + DAY_MS / 2;
    const dataDir = t.app.ctx.config.dataDir;
    const tenantBytes = async (tenantId: string, thingsId: string) =>
      (
        await t.database.raw.query<{ b: number }>(
          'select coalesce(sum(bytes), 0)::float8 as b from tenant_storage_usage where tenant_id = $1 and things_id = $2',
          [tenantId, thingsId],
        )
      ).rows[0].b;
    // A recalled file as the recall service leaves it: the row, the file, its bytes on the capacity.
    const recalled = async (tenant: TenantFixture, label: string, storedAgeDays: number, fileTime: number, size: number) => {
      const thingsId = devs[tenant.tenantId];
      const name = `${thingsId}_${label}.log`;
      const file = path.join(dataDir, 'recall', tenant.tenantId, name);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, Buffer.alloc(size));
      await t.database.raw.query(
        `insert into recall_files (tenant_id, things_id, name, filename, size, sha256, file_time, stored_at)
         values ($1, $2, $3, $4, $5, 'x', $6, to_timestamp($7::float8 / 1000))`,
        [tenant.tenantId, thingsId, name, `${label}.log`, size, fileTime, NOW - storedAgeDays * DAY_MS],
      );
      await t.app.ctx.usage.add(tenant.tenantId, thingsId, size);
      return { name, file };
    };
    const rowOf = async (name: string) => (await t.database.raw.query('select 1 from recall_files where name = $1', [name])).rows.length;

    // short keeps 30 days: by when the file was recalled, not by the file's own time
    const oldStored = await recalled(short, 'old-stored', 40, NOW - DAY_MS, 3000);
    const youngStored = await recalled(short, 'young-stored', 10, NOW - 100 * DAY_MS, 1000);
    // long has an unlimited package now: kept for ever
    const ancient = await recalled(long, 'ancient', 400, NOW - 400 * DAY_MS, 500);

    const exportOf = async (tenant: TenantFixture) => {
      const base = `/v1/data-mgmt/tenants/${tenant.tenantId}/things/${devs[tenant.tenantId]}/downloads`;
      const begin = (TODAY - 5) * DAY_MS;
      const created = await t.app.inject({
        method: 'POST',
        url: base,
        headers: { authorization: tenant.auth },
        payload: { begin_time: begin, end_time: begin + 2 * 3_600_000, format: 'csv' },
      });
      expect(created.statusCode, created.body).toBe(200);
      const id: string = created.json().id;
      const get = () => t.app.inject({ method: 'GET', url: `${base}/${id}`, headers: { authorization: tenant.auth } });
      const st = await poll(
        async () => (await get()).json(),
        (s) => s.status === 3 || s.status === 7,
      );
      expect(st.status).toBe(3);
      const { rows } = await t.database.raw.query<{ file_path: string }>('select file_path from download_tasks where id = $1', [id]);
      const file = path.join(dataDir, 'files', rows[0].file_path);
      expect(fs.existsSync(file)).toBe(true);
      return { id, file, get };
    };
    const stale = await exportOf(short);
    const fresh = await exportOf(short);
    const otherStale = await exportOf(long);
    // the stale ones ended 25 hours before the sweep; a failed one without a file, two days before
    await t.database.raw.query('update download_tasks set finished_at = to_timestamp($2::float8 / 1000) where id = any($1::uuid[])', [
      `{${stale.id},${otherStale.id}}`,
      NOW - 25 * 3_600_000,
    ]);
    const { rows: failed } = await t.database.raw.query<{ id: string }>(
      `insert into download_tasks (tenant_id, things_id, format, params, status, error, created_at, finished_at)
       values ($1, $2, 'csv', '{}', 7, 'Export failed', to_timestamp($3::float8 / 1000), to_timestamp($3::float8 / 1000)) returning id`,
      [short.tenantId, devs[short.tenantId], NOW - 2 * DAY_MS],
    );

    const shortBytes = await tenantBytes(short.tenantId, devs[short.tenantId]);
    const longBytes = await tenantBytes(long.tenantId, devs[long.tenantId]);
    const res = await sweepRetention(
      {
        raw: t.database.raw,
        writer: t.app.ctx.ingest.writer,
        files: { store: t.app.ctx.files, usage: t.app.ctx.usage },
      },
      NOW,
    );
    expect(res).toMatchObject({ recalled: 1, exports: 3 });

    // recalled files: the old one gone from the disk and the table, its bytes off the capacity
    expect(fs.existsSync(oldStored.file)).toBe(false);
    expect(await rowOf(oldStored.name)).toBe(0);
    expect(await tenantBytes(short.tenantId, devs[short.tenantId])).toBe(shortBytes - 3000);
    for (const kept of [youngStored, ancient]) {
      expect(fs.existsSync(kept.file)).toBe(true);
      expect(await rowOf(kept.name)).toBe(1);
    }
    expect(await tenantBytes(long.tenantId, devs[long.tenantId])).toBe(longBytes);

    // exports: past a day the file and the task go (of every tenant, whatever its package)
    for (const gone of [stale, otherStale]) {
      expect(fs.existsSync(gone.file)).toBe(false);
      expect((await gone.get()).statusCode).toBe(404);
    }
    expect((await t.database.raw.query('select 1 from download_tasks where id = $1', [failed[0].id])).rows).toHaveLength(0);
    expect(fs.existsSync(fresh.file)).toBe(true);
    const kept = await t.app.inject({
      method: 'GET',
      url: `/v1/data-mgmt/tenants/${short.tenantId}/things/${devs[short.tenantId]}/downloads/${fresh.id}/file`,
      headers: { authorization: short.auth },
    });
    expect(kept.statusCode).toBe(200);
    expect(kept.body.split('\n')[0]).toBe('ts_us,time,channel,id,ext,fd,brs,esi,rtr,err,dir,dlc,data');
  });
});
