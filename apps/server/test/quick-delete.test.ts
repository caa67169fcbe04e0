import fs from 'node:fs';
import path from 'node:path';
import { checkBatch, encodeBatch } from '@loggerhead/can/protocol/batch.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, loginAdmin, type TestApp } from './helper.ts';
import { frames } from './ingest.helpers.ts';
import { poll } from './poll.ts';
import { bind, rampFrame, testDbc } from './signals.fixtures.ts';
import { makeDevice, makeSubUser, makeTenant, PASSWORD, type TenantFixture } from './things.fixtures.ts';

const DAY_MS = 86_400_000;
// Midnight UTC four days ago: data on days D, D+1, D+2 (three daily partitions).
const D = (Math.floor(Date.now() / DAY_MS) - 4) * DAY_MS;
const MS = 1000;

describe('quick delete of a device’s data', () => {
  let t: TestApp;
  let admin: string;
  let a: TenantFixture;
  let b: TenantFixture;
  let listed: { id: string; third_things_id: string };
  let other: { id: string; third_things_id: string };
  let foreign: { id: string; third_things_id: string };
  let seq = 0;

  const write = async (tenantId: string, thingsId: string, dayOffset: number, n = 50) => {
    const data = encodeBatch(frames(n, (D + dayOffset * DAY_MS + 3_600_000) * MS), { session: 3, seq: ++seq });
    const info = checkBatch(data);
    if (typeof info === 'string') throw new Error(info);
    await t.app.ctx.ingest.writer.write({ tenantId, thingsId, info, data });
  };
  const chunksByDay = async (thingsId: string) =>
    (
      await t.database.raw.query<{ d: number; n: number }>(
        'select (time_start / 86400000000)::int as d, count(*)::int as n from frame_chunks where things_id = $1 group by 1 order by 1',
        [thingsId],
      )
    ).rows.map((r) => [r.d - Math.floor(D / DAY_MS), r.n]);
  const usedMb = async (tenant: TenantFixture) =>
    (
      await t.app.inject({
        method: 'GET',
        url: `/v1/data-mgmt/tenants/${tenant.tenantId}/usage`,
        headers: { authorization: tenant.auth },
      })
    ).json().total_disk_usage as number;
  const create = (tenant: TenantFixture, payload: object, auth = tenant.auth) =>
    t.app.inject({
      method: 'POST',
      url: `/v1/data-mgmt/tenants/${tenant.tenantId}/quick-delete-tasks`,
      headers: { authorization: auth },
      payload,
    });
  const task = async (tenant: TenantFixture, id: string) =>
    (
      await t.app.inject({
        method: 'GET',
        url: `/v1/data-mgmt/tenants/${tenant.tenantId}/quick-delete-tasks/${id}`,
        headers: { authorization: tenant.auth },
      })
    ).json();
  const finished = (tenant: TenantFixture, id: string) =>
    poll(
      () => task(tenant, id),
      (x) => x.status >= 3,
      { ms: 15_000 },
    );

  beforeAll(async () => {
    t = await createTestApp();
    admin = await loginAdmin(t.app);
    a = await makeTenant(t);
    b = await makeTenant(t);
    listed = await makeDevice(t, a);
    other = await makeDevice(t, a);
    foreign = await makeDevice(t, b);
    const put = await t.app.inject({
      method: 'PUT',
      url: `/v1/tenant/tenants/${a.tenantId}/specification`,
      headers: { authorization: admin },
      payload: { quick_delete_things_num: 2, special_storage: 2, quick_delete_things_list: [{ third_things_id: listed.third_things_id }] },
    });
    expect(put.statusCode, put.body).toBe(200);
    // B lists its own device under A's device number: the list is per tenant.
    await t.app.inject({
      method: 'PUT',
      url: `/v1/tenant/tenants/${b.tenantId}/specification`,
      headers: { authorization: admin },
      payload: { quick_delete_things_num: 1, quick_delete_things_list: [{ third_things_id: foreign.third_things_id }] },
    });
    for (const dev of [listed, other]) for (const day of [0, 1, 2]) await write(a.tenantId, dev.id, day);
    await write(b.tenantId, foreign.id, 1);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses without the right password, outside the tenant and for devices not on the list', async () => {
    expect((await create(a, { things_id: listed.id })).statusCode).toBe(400); // password missing
    const wrong = await create(a, { things_id: listed.id, password: 'not-the-password' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'auth.password-error', field: 'password' });

    const notListed = await create(a, { things_id: other.id, password: PASSWORD });
    expect(notListed.statusCode).toBe(403);
    expect(notListed.json().code).toBe('quick-delete.not-listed');
    // one device off the list refuses the whole request
    expect((await create(a, { things_id: [listed.id, other.id], password: PASSWORD })).json().code).toBe('quick-delete.not-listed');
    // B's device, even though it is on B's list, is not A's
    expect((await create(a, { things_id: foreign.id, password: PASSWORD })).statusCode).toBe(404);
    // nor may B act on A's tenant
    expect((await create(a, { things_id: listed.id, password: PASSWORD }, b.auth)).statusCode).toBe(403);
    // a sub-user with read access only to the device
    const reader = await makeSubUser(
      t,
      a,
      ['data-mgmt:things-data:delete', 'data-mgmt:things-data:query'],
      [{ thingsId: listed.id, access: 'read' }],
    );
    expect((await create(a, { things_id: listed.id, password: PASSWORD }, reader.auth)).statusCode).toBe(403);
    expect(
      (await create(a, { things_id: listed.id, password: PASSWORD, start_time: D + 2 * DAY_MS, end_time: D + DAY_MS })).json().code,
    ).toBe('quick-delete.bad-range');

    // nothing was deleted
    expect(await chunksByDay(listed.id)).toEqual([
      [0, 1],
      [1, 1],
      [2, 1],
    ]);
    const list = await t.app.inject({
      method: 'GET',
      url: `/v1/data-mgmt/tenants/${a.tenantId}/quick-delete-tasks`,
      headers: { authorization: a.auth },
    });
    expect(list.json().total).toBe(0);
  });

  it('deletes the frames, GPS fixes, model data and files of a time range, and the usage follows', async () => {
    await t.database.raw.query(
      'insert into gps_fixes (tenant_id, things_id, ts, lat, lon) values ($1,$2,$3,1,1), ($1,$2,$4,2,2), ($1,$5,$4,3,3)',
      [a.tenantId, listed.id, D + 3_600_000, D + DAY_MS + 3_600_000, other.id],
    );
    // Model data (twin events, property history) on day 0 and day 1, and the other device's on day 1.
    for (const [id, ms] of [
      [listed.id, D + 3_600_000],
      [listed.id, D + DAY_MS + 3_600_000],
      [other.id, D + DAY_MS + 3_600_000],
    ] as const) {
      await t.database.raw.query(
        `insert into thing_model_events (tenant_id, things_id, block, event, ts) values ($1, $2, 'b', 'e', to_timestamp($3::float8 / 1000))`,
        [a.tenantId, id, ms],
      );
      await t.database.raw.query(
        `insert into thing_property_values (tenant_id, things_id, property, ts, value) values ($1, $2, 'b.p', to_timestamp($3::float8 / 1000), '1')`,
        [a.tenantId, id, ms],
      );
    }
    const modelData = async () =>
      (
        await t.database.raw.query<{ things_id: string; ms: number }>(
          `select things_id, (extract(epoch from ts) * 1000)::float8 as ms from thing_model_events where tenant_id = $1
           union all select things_id, (extract(epoch from ts) * 1000)::float8 from thing_property_values where tenant_id = $1
           order by 2, 1`,
          [a.tenantId],
        )
      ).rows.map((r) => [r.things_id, r.ms]);
    const dir = path.join(t.config.dataDir, 'recall', a.tenantId);
    fs.mkdirSync(dir, { recursive: true });
    const name = `${listed.id}_day1.log`;
    fs.writeFileSync(path.join(dir, name), Buffer.alloc(1000));
    await t.database.raw.query(
      `insert into recall_files (tenant_id, things_id, name, filename, size, sha256, file_time) values ($1,$2,$3,'day1.log',1000,'x',$4)`,
      [a.tenantId, listed.id, name, D + DAY_MS + 60_000],
    );
    await t.app.ctx.usage.add(a.tenantId, listed.id, 1000);
    const before = await usedMb(a);
    const { rows: dayBytes } = await t.database.raw.query<{ b: number }>(
      'select bytes::int as b from storage_usage where things_id = $1 and day = $2::date',
      [listed.id, new Date(D + DAY_MS).toISOString().slice(0, 10)],
    );

    // Day 1 only, through the API.
    const res = await create(a, {
      things_id: listed.id,
      password: PASSWORD,
      delete_children: 1,
      start_time: D + DAY_MS,
      end_time: D + 2 * DAY_MS,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ things_ids: [listed.id], start_time: D + DAY_MS, end_time: D + 2 * DAY_MS });
    const done = await finished(a, res.json().id);
    // one partition-day of frames, then signals, GPS and files
    expect(done).toMatchObject({ status: 3, process_rate: 100, steps_total: 4, steps_done: 4, deleted_frames: 50 });
    expect(done.deleted_bytes).toBe(dayBytes[0].b + 1000);

    expect(await chunksByDay(listed.id)).toEqual([
      [0, 1],
      [2, 1],
    ]);
    expect((await chunksByDay(other.id)).length).toBe(3);
    expect((await chunksByDay(foreign.id)).length).toBe(1);
    const gps = await t.database.raw.query<{ ts: number; things_id: string }>(
      'select ts::float8 as ts, things_id from gps_fixes where tenant_id = $1 order by ts, things_id',
      [a.tenantId],
    );
    expect(gps.rows.map((r) => [r.things_id, r.ts])).toEqual([
      [listed.id, D + 3_600_000],
      [other.id, D + DAY_MS + 3_600_000],
    ]);
    // Day 0 of the device's model data stays, day 1 goes; the other device keeps its own.
    expect(await modelData()).toEqual([
      [listed.id, D + 3_600_000],
      [listed.id, D + 3_600_000],
      [other.id, D + DAY_MS + 3_600_000],
      [other.id, D + DAY_MS + 3_600_000],
    ]);
    expect(fs.existsSync(path.join(dir, name))).toBe(false);
    expect((await t.database.raw.query('select 1 from recall_files where name = $1', [name])).rows).toHaveLength(0);
    const after = await usedMb(a);
    // MB with 2 decimals
    expect(Math.abs(before - after - (dayBytes[0].b + 1000) / 1024 / 1024)).toBeLessThan(0.011);
  });

  it('deletes everything of the device, decoded signals included, when no range is given', async () => {
    const dbc = await testDbc(t, a);
    expect((await bind(t, a, listed.id, 0, { dbc_id: dbc, state: 'started' })).statusCode).toBe(200);
    const ramp = Array.from({ length: 200 }, (_, i) => rampFrame((D + 2 * DAY_MS + 7_200_000) * MS + i * 10_000, i, 0, i));
    const data = encodeBatch(ramp, { session: 4, seq: ++seq });
    const info = checkBatch(data);
    if (typeof info === 'string') throw new Error(info);
    await t.app.ctx.ingest.writer.write({ tenantId: a.tenantId, thingsId: listed.id, info, data });
    await t.app.ctx.signals.idle();
    const series = async () =>
      (
        await t.database.raw.query<{ n: number; b: number }>(
          'select coalesce(sum(samples),0)::int as n, coalesce(sum(bytes),0)::int as b from signal_series where things_id = $1',
          [listed.id],
        )
      ).rows[0];
    expect((await series()).n).toBeGreaterThan(0);
    const before = await usedMb(a);

    const res = await create(a, { things_id: [listed.id], password: PASSWORD });
    expect(res.statusCode, res.body).toBe(201);
    const done = await finished(a, res.json().id);
    expect(done).toMatchObject({ status: 3, process_rate: 100, steps_total: 2 + 3 });
    expect(await chunksByDay(listed.id)).toEqual([]);
    expect(await series()).toEqual({ n: 0, b: 0 });
    expect((await t.database.raw.query('select 1 from storage_usage where things_id = $1', [listed.id])).rows).toHaveLength(0);
    expect((await t.database.raw.query('select 1 from gps_fixes where things_id = $1', [listed.id])).rows).toHaveLength(0);
    for (const table of ['thing_model_events', 'thing_property_values'])
      expect((await t.database.raw.query(`select 1 from ${table} where things_id = $1`, [listed.id])).rows).toHaveLength(0);
    // the other devices keep their data
    expect((await chunksByDay(other.id)).length).toBe(3);
    expect((await chunksByDay(foreign.id)).length).toBe(1);
    const after = await usedMb(a);
    expect(after).toBeLessThan(before);
    const perThing = (
      await t.app.inject({
        method: 'GET',
        url: `/v1/data-mgmt/tenants/${a.tenantId}/usage/things?page_size=25`,
        headers: { authorization: a.auth },
      })
    ).json();
    expect(perThing.list.find((r: { things_id: string }) => r.things_id === listed.id)?.bytes ?? 0).toBe(0);
    const list = await t.app.inject({
      method: 'GET',
      url: `/v1/data-mgmt/tenants/${a.tenantId}/quick-delete-tasks`,
      headers: { authorization: a.auth },
    });
    expect(list.json().total).toBe(2);
    // B cannot read A's tasks
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/v1/data-mgmt/tenants/${a.tenantId}/quick-delete-tasks/${done.id}`,
          headers: { authorization: b.auth },
        })
      ).statusCode,
    ).toBe(403);
  });
  it('takes the child devices along unless delete_children is 0', async () => {
    const child = await makeDevice(t, a);
    await t.database.raw.query('update things set parent_things_id = $1 where id = $2', [listed.id, child.id]);
    await write(a.tenantId, listed.id, 3);
    await write(a.tenantId, child.id, 3);
    const alone = await create(a, { things_id: listed.id, password: PASSWORD, delete_children: 0 });
    expect(alone.json().things_ids).toEqual([listed.id]);
    await finished(a, alone.json().id);
    expect(await chunksByDay(listed.id)).toEqual([]);
    expect(await chunksByDay(child.id)).toEqual([[3, 1]]);
    const both = await create(a, { things_id: listed.id, password: PASSWORD });
    expect(both.json().things_ids).toEqual([listed.id, child.id]);
    expect((await finished(a, both.json().id)).status).toBe(3);
    expect(await chunksByDay(child.id)).toEqual([]);
  });
});
