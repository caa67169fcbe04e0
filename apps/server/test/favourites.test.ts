import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../src/db/migrate.ts';
import { createTestApp, openTestDatabase, type TestApp } from './helper.ts';
import { deviceId, makeDevice, makeSubUser, makeTenant, type TenantFixture } from './things.fixtures.ts';

/**
 * The favourite star (spec §3 collected) is the caller's own: a read-only sub-user may star what it
 * reads, and nobody else's list changes; the experience account keeps stars per session.
 */
let t: TestApp;
let a: TenantFixture;
beforeAll(async () => {
  t = await createTestApp();
  a = await makeTenant(t);
});
afterAll(async () => {
  await t?.close();
});

const list = async (auth: string, tenantId: string, q = '') => {
  const res = await t.app.inject({
    method: 'GET',
    url: `/v1/things/tenants/${tenantId}/things?page_size=100${q}`,
    headers: { authorization: auth },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().list as { id: string; collected: boolean }[];
};
const star = (auth: string, tenantId: string, id: string, collected: boolean) =>
  t.app.inject({
    method: 'PUT',
    url: `/v1/things/tenants/${tenantId}/things/${id}/collected`,
    headers: { authorization: auth },
    payload: { collected },
  });
const ids = (rows: { id: string }[]) => rows.map((r) => r.id).sort();
const starred = async (auth: string, tenantId: string) => ids(await list(auth, tenantId, '&collected=1'));

describe('favourites are per user', () => {
  it("a read-only sub-user's star changes only its own list", async () => {
    const d1 = await makeDevice(t, a);
    const d2 = await makeDevice(t, a);
    const reader = await makeSubUser(
      t,
      a,
      ['things:things:page', 'things:things:query', 'things:things:queryone'],
      [
        { thingsId: d1.id, access: 'read' },
        { thingsId: d2.id, access: 'read' },
      ],
    );
    const other = await makeSubUser(t, a, ['things:things:page', 'things:things:query'], [{ thingsId: d2.id, access: 'write' }]);
    const before = (await t.database.raw.query('select * from things where id = $1', [d2.id])).rows[0];

    expect((await star(a.auth, a.tenantId, d1.id, true)).json().collected).toBe(true);
    const res = await star(reader.auth, a.tenantId, d2.id, true);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: d2.id, collected: true, access: 'read' });

    expect(await starred(reader.auth, a.tenantId)).toEqual([d2.id]);
    expect(await starred(a.auth, a.tenantId)).toEqual([d1.id]);
    expect(await starred(other.auth, a.tenantId)).toEqual([]);
    // the unstarred filter is the rest of what each one sees
    expect(ids(await list(reader.auth, a.tenantId, '&collected=0'))).toEqual([d1.id]);
    const mgr = await list(a.auth, a.tenantId);
    expect(mgr.find((d) => d.id === d2.id)?.collected).toBe(false);
    // the device itself did not change
    expect((await t.database.raw.query('select * from things where id = $1', [d2.id])).rows[0]).toEqual(before);

    expect((await star(reader.auth, a.tenantId, d2.id, false)).json().collected).toBe(false);
    expect(await starred(reader.auth, a.tenantId)).toEqual([]);
    expect(await starred(a.auth, a.tenantId)).toEqual([d1.id]);
  });

  it('a device not granted stays not found', async () => {
    const d = await makeDevice(t, a);
    const stranger = await makeSubUser(t, a, ['things:things:query'], []);
    expect((await star(stranger.auth, a.tenantId, d.id, true)).statusCode).toBe(404);
    const n = await t.database.raw.query<{ n: number }>('select count(*)::int as n from user_favourite_things where things_id = $1', [
      d.id,
    ]);
    expect(n.rows[0].n).toBe(0);
  });

  it('the create and update bodies star for the caller', async () => {
    const made = await makeDevice(t, a, { collected: true });
    expect(made).toMatchObject({ collected: true });
    const writer = await makeSubUser(t, a, ['things:things:update', 'things:things:page'], [{ thingsId: made.id, access: 'write' }]);
    const up = await t.app.inject({
      method: 'PUT',
      url: `/v1/things/tenants/${a.tenantId}/things/${made.id}`,
      headers: { authorization: writer.auth },
      payload: { collected: true },
    });
    expect(up.json().collected).toBe(true);
    expect(await starred(writer.auth, a.tenantId)).toEqual([made.id]);
    expect(await starred(a.auth, a.tenantId)).toContain(made.id);
  });
});

describe('the experience account keeps stars per session', () => {
  it('shows a star only to the visitor who set it, and forgets those of ended sessions', async () => {
    const demo = await makeTenant(t);
    const d = await makeDevice(t, demo);
    await t.database.raw.query('update tenants set is_demo = true where id = $1', [demo.tenantId]);
    const open = async () => {
      const res = await t.app.inject({ method: 'POST', url: '/v1/control/sessions/experience' });
      return { auth: `Bearer ${res.json().token}`, id: res.json().session_id as string };
    };
    const A = await open();
    const B = await open();
    expect((await star(A.auth, demo.tenantId, d.id, true)).json().collected).toBe(true);
    expect(await starred(A.auth, demo.tenantId)).toEqual([d.id]);
    expect(await starred(B.auth, demo.tenantId)).toEqual([]);
    expect((await list(B.auth, demo.tenantId)).find((x) => x.id === d.id)?.collected).toBe(false);

    // A leaves; the next star of any visitor clears A's.
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/v1/control/sessions/${A.id}`, headers: { authorization: A.auth } })).statusCode,
    ).toBe(204);
    await star(B.auth, demo.tenantId, d.id, true);
    const rows = await t.database.raw.query<{ session_id: string }>('select session_id from user_favourite_things where things_id = $1', [
      d.id,
    ]);
    expect(rows.rows.map((r) => r.session_id)).toEqual([B.id]);
    await t.database.raw.query('update tenants set is_demo = false where id = $1', [demo.tenantId]);
  });
});

describe('the migration of the old device-wide flag', () => {
  it("makes each starred device a favourite of its tenant's manager, and drops the demo tenant's", async () => {
    const { database, drop } = await openTestDatabase({ empty: true });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lh-mig-'));
    try {
      const all = fs.readdirSync(path.join(import.meta.dirname, '../src/db/migrations')).filter((f) => /^\d{4}_.+\.sql$/.test(f));
      const copy = (upTo: string) => {
        for (const f of all.filter((x) => x <= upTo))
          fs.copyFileSync(path.join(import.meta.dirname, '../src/db/migrations', f), path.join(dir, f));
      };
      copy('0090_zzz');
      await migrate(database.raw, dir);
      const raw = database.raw;
      const type = (await raw.query<{ id: string }>(`select id from device_types where name = 'CANDTU-200'`)).rows[0].id;
      const tenant = async (name: string, demo: boolean) => {
        const tid = (await raw.query<{ id: string }>('insert into tenants (name, is_demo) values ($1, $2) returning id', [name, demo]))
          .rows[0].id;
        const mgr = (
          await raw.query<{ id: string }>(
            `insert into users (tenant_id, username, name, password_hash, is_manager) values ($1, $2, $2, 'x', true) returning id`,
            [tid, `${name}_m`],
          )
        ).rows[0].id;
        await raw.query(`insert into users (tenant_id, username, name, password_hash, parent_user_id) values ($1, $2, $2, 'x', $3)`, [
          tid,
          `${name}_s`,
          mgr,
        ]);
        const thing = async (collected: boolean) =>
          (
            await raw.query<{ id: string }>(
              `insert into things (tenant_id, third_things_id, name, info_model_id, things_key, collected) values ($1,$2,'d',$3,'k',$4) returning id`,
              [tid, deviceId(), type, collected],
            )
          ).rows[0].id;
        return { tid, mgr, starred: await thing(true), plain: await thing(false) };
      };
      const real = await tenant('real', false);
      const demo = await tenant('demo', true);

      copy('0091_zzz');
      expect(await migrate(raw, dir)).toEqual(['0091_user_favourites_login_failures.sql']);
      const favs = await raw.query<{ user_id: string; tenant_id: string; things_id: string; session_id: string | null }>(
        'select user_id, tenant_id, things_id, session_id from user_favourite_things',
      );
      expect(favs.rows).toEqual([{ user_id: real.mgr, tenant_id: real.tid, things_id: real.starred, session_id: null }]);
      expect(demo.starred).toBeTruthy();
      const col = await raw.query(`select 1 from information_schema.columns where table_name = 'things' and column_name = 'collected'`);
      expect(col.rows).toHaveLength(0);
    } finally {
      await drop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
