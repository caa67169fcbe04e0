import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart } from './command.helpers.ts';
import { createTestApp, type TestApp } from './helper.ts';
import { makeDevice, makeSubUser, makeTenant, publicType, type TenantFixture } from './things.fixtures.ts';

/**
 * A device group as the target of the device list's export (and the list itself) and of a firmware
 * upgrade: its members only; another tenant's or an unknown group is `group.not-found`. A sub-user
 * gets the members it may see; in an upgrade, the members it may only read are answered `http.403`
 * and not upgraded, the members it cannot see are not named at all.
 */

let t: TestApp;
let a: TenantFixture;
let b: TenantFixture;
let model: string;

beforeAll(async () => {
  t = await createTestApp();
  a = await makeTenant(t);
  b = await makeTenant(t);
  model = await publicType(t);
});
afterAll(async () => {
  await t?.close();
});

const groupsUrl = (tenant: TenantFixture, rest = '') => `/v1/out-group-mgmt/tenants/${tenant.tenantId}/groups${rest}`;

async function makeGroup(tenant: TenantFixture, name: string, thingsIds: string[]): Promise<string> {
  const g = await t.app.inject({ method: 'POST', url: groupsUrl(tenant), headers: { authorization: tenant.auth }, payload: { name } });
  expect(g.statusCode, g.body).toBe(200);
  const id = g.json().id as string;
  if (thingsIds.length) {
    const bound = await t.app.inject({
      method: 'POST',
      url: groupsUrl(tenant, `/${id}/bind`),
      headers: { authorization: tenant.auth },
      payload: { things_ids: thingsIds },
    });
    expect(bound.json()).toMatchObject({ changed: thingsIds.length });
  }
  return id;
}

const get = (url: string, auth = a.auth) => t.app.inject({ method: 'GET', url, headers: { authorization: auth } });
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe('a group as the target of a device export', () => {
  it('lists and exports the members only; foreign and unknown groups are refused; a sub-user gets its own members', async () => {
    const d1 = await makeDevice(t, a, { name: 'member one' });
    const d2 = await makeDevice(t, a, { name: 'member two' });
    const outside = await makeDevice(t, a, { name: 'not a member' });
    const groupId = await makeGroup(a, 'export group', [d1.id, d2.id]);
    const things = (q: string, auth = a.auth) => get(`/v1/things/tenants/${a.tenantId}/things${q}`, auth);

    const list = await things(`?group_id=${groupId}`);
    expect(list.statusCode, list.body).toBe(200);
    expect(
      list
        .json()
        .list.map((x: { id: string }) => x.id)
        .sort(),
    ).toEqual([d1.id, d2.id].sort());
    expect(list.json().total).toBe(2);

    const csv = await things(`/export?group_id=${groupId}`);
    expect(csv.statusCode, csv.body).toBe(200);
    const rows = csv.body.trim().split('\r\n');
    expect(rows).toHaveLength(3);
    expect(csv.body).toContain(d1.third_things_id);
    expect(csv.body).toContain(d2.third_things_id);
    expect(csv.body).not.toContain(outside.third_things_id);

    const foreignGroup = await makeGroup(b, 'their group', [(await makeDevice(t, b)).id]);
    for (const q of [`?group_id=${foreignGroup}`, `/export?group_id=${foreignGroup}`, `?group_id=${UNKNOWN}`]) {
      const r = await things(q);
      expect(r.statusCode, q).toBe(404);
      expect(r.json()).toMatchObject({ code: 'group.not-found' });
    }

    // A sub-user that sees one member gets that member only.
    const sub = await makeSubUser(t, a, ['things:things:page', 'things:things:export'], [{ thingsId: d2.id, access: 'read' }]);
    const own = await things(`?group_id=${groupId}`, sub.auth);
    expect(own.json().list.map((x: { id: string }) => x.id)).toEqual([d2.id]);
    const ownCsv = await things(`/export?group_id=${groupId}`, sub.auth);
    expect(ownCsv.body.trim().split('\r\n')).toHaveLength(2);
    expect(ownCsv.body).toContain(d2.third_things_id);
  });
});

describe('a group as the target of a firmware upgrade', () => {
  it('schedules one upgrade per member; read-only members are answered 403; foreign, unknown and empty groups are refused', async () => {
    const m = multipart({ version: '7.1.0', model_id: model, type: 'self' }, { name: 'fw.bin', bytes: randomBytes(2000) });
    const up = await t.app.inject({
      method: 'POST',
      url: `/v1/out-firmware-mgmt/tenants/${a.tenantId}/firmwares`,
      headers: { authorization: a.auth, ...m.headers },
      payload: m.payload,
    });
    expect(up.statusCode, up.body).toBe(200);
    const notify = (body: Record<string, unknown>, auth = a.auth) =>
      t.app.inject({
        method: 'POST',
        url: `/v1/out-firmware-mgmt/tenants/${a.tenantId}/firmwares/${model}/7.1.0/notify`,
        headers: { authorization: auth },
        payload: body,
      });
    const at = Date.now() + 3_600_000;
    const d1 = await makeDevice(t, a);
    const d2 = await makeDevice(t, a);
    const d3 = await makeDevice(t, a);
    const outside = await makeDevice(t, a);
    const groupId = await makeGroup(a, 'upgrade group', [d1.id, d2.id, d3.id]);

    const r = await notify({ group_id: groupId, at });
    expect(r.statusCode, r.body).toBe(200);
    const results = r.json().results as { things_id: string; upgrade: { state: string } | null; code: string | null }[];
    expect(results.map((x) => x.things_id).sort()).toEqual([d1.id, d2.id, d3.id].sort());
    for (const x of results) expect(x.upgrade?.state).toBe('scheduled');
    const upgradesOf = async (id: string) =>
      (await get(`/v1/out-firmware-mgmt/tenants/${a.tenantId}/things/${id}/upgrades`)).json() as unknown[];
    expect(await upgradesOf(outside.id)).toHaveLength(0);
    expect(await upgradesOf(d1.id)).toHaveLength(1);

    const foreignGroup = await makeGroup(b, 'their upgrade group', [(await makeDevice(t, b)).id]);
    for (const g of [foreignGroup, UNKNOWN]) {
      const refused = await notify({ group_id: g, at });
      expect(refused.statusCode).toBe(404);
      expect(refused.json()).toMatchObject({ code: 'group.not-found' });
    }
    const empty = await notify({ group_id: await makeGroup(a, 'no devices', []), at });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ code: 'group.empty' });
    expect((await notify({ group_id: groupId, things_ids: [d1.id], at })).statusCode).toBe(400);
    expect((await notify({ at })).statusCode).toBe(400);

    // A sub-user writing d1, reading d2 and not seeing d3: d1 is upgraded, d2 answered 403, d3 not named.
    const g2 = await makeGroup(a, 'mixed access', [d1.id, d2.id, d3.id]);
    await t.database.raw.query('delete from firmware_upgrades where things_id = any($1)', [[d1.id, d2.id, d3.id]]);
    const sub = await makeSubUser(
      t,
      a,
      ['firmware:firmware:notify-upgrade'],
      [
        { thingsId: d1.id, access: 'write' },
        { thingsId: d2.id, access: 'read' },
      ],
    );
    const mixed = await notify({ group_id: g2, at }, sub.auth);
    expect(mixed.statusCode, mixed.body).toBe(200);
    const byId = new Map((mixed.json().results as typeof results).map((x) => [x.things_id, x]));
    expect([...byId.keys()].sort()).toEqual([d1.id, d2.id].sort());
    expect(byId.get(d1.id)?.upgrade?.state).toBe('scheduled');
    expect(byId.get(d2.id)).toMatchObject({ upgrade: null, code: 'http.403' });
    expect(await upgradesOf(d2.id)).toHaveLength(0);
    expect(await upgradesOf(d3.id)).toHaveLength(0);

    // Without the key, the group upgrade is refused before anything is looked at.
    const noKey = await makeSubUser(t, a, ['things:things:page'], [{ thingsId: d1.id, access: 'write' }]);
    expect((await notify({ group_id: g2, at }, noKey.auth)).statusCode).toBe(403);
  });
});
