import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testConfig } from './helper.ts';
import { testApi } from './testmgmt.helpers.ts';
import { makeDevice, makeSubUser, makeTenant, type TenantFixture } from './things.fixtures.ts';

/**
 * Test runs started on a device group: one run per member the caller may read, in one batch, each
 * queued per device as a listed device's run is; another tenant's group, an unknown group and an
 * empty group are refused with their codes.
 */

let t: TestApp;
let a: TenantFixture;
let b: TenantFixture;

beforeAll(async () => {
  t = await createTestApp({ groovy: { ...testConfig().groovy, workers: 1 } });
  a = await makeTenant(t);
  b = await makeTenant(t);
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

describe('runs on a device group', () => {
  it('starts one run per member, refuses foreign, unknown and empty groups, and gives a sub-user its members only', async () => {
    const api = testApi(t, a);
    const script = await api.script('for groups', "check('always', true)");
    const routine = await api.routine({ name: 'group routine', steps: [{ type: 'collect', seconds: 1 }], script_id: script.id });
    const d1 = await makeDevice(t, a);
    const d2 = await makeDevice(t, a);
    const outside = await makeDevice(t, a);
    const groupId = await makeGroup(a, 'two trucks', [d1.id, d2.id]);
    const range = { begin_time: Date.now() - 60_000, end_time: Date.now() };

    const runs = await api.start({ routine_id: routine.id, group_id: groupId, dry_run: range });
    expect(runs.map((r) => r.things_id).sort()).toEqual([d1.id, d2.id].sort());
    expect(new Set(runs.map((r) => r.batch_id)).size).toBe(1);
    for (const r of runs) expect((await api.finished(r.id)).state).toBe('analyzed');
    const batch = (await api.call('GET', `/runs?page_size=100&batch_id=${runs[0].batch_id}`)).json();
    expect(batch.list.map((r: { things_id: string }) => r.things_id).sort()).toEqual([d1.id, d2.id].sort());
    expect(batch.list.map((r: { things_id: string }) => r.things_id)).not.toContain(outside.id);

    // Another tenant's group is not found through this tenant, and nothing starts.
    const foreignGroup = await makeGroup(b, 'theirs', [(await makeDevice(t, b)).id]);
    const foreign = await api.call('POST', '/runs', { routine_id: routine.id, group_id: foreignGroup, dry_run: range });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({ code: 'group.not-found' });
    const unknown = await api.call('POST', '/runs', { routine_id: routine.id, group_id: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.json()).toMatchObject({ code: 'group.not-found' });

    const emptyId = await makeGroup(a, 'no trucks', []);
    const empty = await api.call('POST', '/runs', { routine_id: routine.id, group_id: emptyId, dry_run: range });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ code: 'group.empty' });

    // Devices and a group together, or neither, are refused by the schema.
    const both = await api.call('POST', '/runs', { routine_id: routine.id, group_id: groupId, things_ids: [d1.id] });
    expect(both.statusCode).toBe(400);
    expect((await api.call('POST', '/runs', { routine_id: routine.id })).statusCode).toBe(400);

    const all = (await api.call('GET', `/runs?page_size=100&routine_id=${routine.id}`)).json();
    expect(all.total).toBe(2);

    // A sub-user that may read one member runs on that member only; a group of none of its devices is empty to it.
    const sub = await makeSubUser(t, a, ['test-mgmt:run:query', 'test-mgmt:run:execute'], [{ thingsId: d2.id, access: 'read' }]);
    const sa = testApi(t, a, sub.auth);
    const own = await sa.start({ routine_id: routine.id, group_id: groupId, dry_run: range });
    expect(own.map((r) => r.things_id)).toEqual([d2.id]);
    await sa.finished(own[0].id);
    const notMine = await makeGroup(a, 'not the sub-user', [d1.id, outside.id]);
    const none = await sa.call('POST', '/runs', { routine_id: routine.id, group_id: notMine, dry_run: range });
    expect(none.json()).toMatchObject({ code: 'group.empty' });
  });
});
