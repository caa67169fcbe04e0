import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, login, type TestApp } from './helper.ts';
import { makeDevice, makeSubUser, makeTenant, PASSWORD, type TenantFixture } from './things.fixtures.ts';

/** Projects (spec §1, §7): devices, groups, vehicles and sub-users; a member sees only the project's devices. */
describe('projects', () => {
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

  const url = (tenant: TenantFixture, rest = '') => `/v1/project/tenants/${tenant.tenantId}/projects${rest}`;
  const req = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', u: string, auth: string, payload?: object) =>
    t.app.inject({ method, url: u, headers: { authorization: auth }, ...(payload ? { payload } : {}) });
  const usernameOf = async (userId: string) =>
    (await t.database.raw.query<{ username: string }>('select username from users where id = $1', [userId])).rows[0].username;
  /** The names of the devices the caller's device list shows. */
  const visible = async (tenant: TenantFixture, auth: string) => {
    const res = await req('GET', `/v1/things/tenants/${tenant.tenantId}/things?page_size=100`, auth);
    expect(res.statusCode).toBe(200);
    return (res.json().list as { name: string }[]).map((d) => d.name).sort();
  };

  it('creates, renames, lists and deletes projects of its own tenant only', async () => {
    const p = await req('POST', url(a), a.auth, { name: 'East depot', description: 'Buses' });
    expect(p.statusCode).toBe(200);
    expect(p.json()).toMatchObject({ name: 'East depot', description: 'Buses', device_count: 0, user_count: 0 });
    const id = p.json().id;
    expect((await req('POST', url(a), a.auth, { name: 'East depot' })).json()).toMatchObject({ code: 'project.duplicate' });

    const renamed = await req('PUT', url(a, `/${id}`), a.auth, { name: 'West depot', description: null });
    expect(renamed.json()).toMatchObject({ id, name: 'West depot', description: null });
    const listed = (await req('GET', `${url(a)}?keyword=west`, a.auth)).json();
    expect(listed.list.map((x: { id: string }) => x.id)).toEqual([id]);

    // Tenant B neither reaches A's path nor finds A's project through its own, nor binds its things to it.
    expect((await req('GET', url(a), b.auth)).statusCode).toBe(403);
    expect((await req('GET', url(b, `/${id}`), b.auth)).json()).toMatchObject({ code: 'project.not-found' });
    expect((await req('DELETE', url(b, `/${id}`), b.auth)).statusCode).toBe(404);
    const foreign = await makeDevice(t, b, { name: 'Not yours' });
    const refused = await req('POST', url(a, `/${id}/bind`), a.auth, { things_ids: [foreign.id] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'project.unknown-member', field: 'things_ids' });
    const bManager = await req('POST', url(a, `/${id}/bind`), a.auth, { users: [{ user_id: b.managerId, access: 'read' }] });
    expect(bManager.json()).toMatchObject({ code: 'project.unknown-member', field: 'users' });

    expect((await req('DELETE', url(a, `/${id}`), a.auth)).json()).toEqual({ ok: true });
    expect((await req('GET', url(a, `/${id}`), a.auth)).statusCode).toBe(404);
  });

  it('holds its keys: a sub-user may list its own projects, never change one (the manager decides who sees what)', async () => {
    const mine = (await req('POST', url(a), a.auth, { name: 'Keys mine' })).json();
    const other = (await req('POST', url(a), a.auth, { name: 'Keys other' })).json();
    const sub = await makeSubUser(t, a, ['project:project:query']);
    const none = await makeSubUser(t, a, []);
    await req('POST', url(a, `/${mine.id}/bind`), a.auth, { users: [{ user_id: sub.userId, access: 'read' }] });
    const subAuth = await login(t.app, `${await usernameOf(sub.userId)}@${a.name}`, PASSWORD);

    expect((await req('GET', url(a), none.auth)).statusCode).toBe(403);
    const listed = (await req('GET', `${url(a)}?page_size=100`, subAuth)).json();
    expect(listed.list.map((x: { id: string }) => x.id)).toEqual([mine.id]);
    expect((await req('GET', url(a, `/${other.id}`), subAuth)).statusCode).toBe(404);
    const members = (await req('GET', url(a, `/${mine.id}/members`), subAuth)).json();
    expect(members.users.map((u: { user_id: string }) => u.user_id)).toEqual([sub.userId]);

    // Even a stored grant of a manager's key does not let a sub-user add itself to a project.
    await t.database.raw.query(
      `insert into user_grants (user_id, key) values ($1, 'project:project:bind'), ($1, 'project:project:create')`,
      [sub.userId],
    );
    const again = await login(t.app, `${await usernameOf(sub.userId)}@${a.name}`, PASSWORD);
    expect((await req('POST', url(a), again, { name: 'Mine now' })).statusCode).toBe(403);
    const self = await req('POST', url(a, `/${other.id}/bind`), again, { users: [{ user_id: sub.userId, access: 'write' }] });
    expect(self.statusCode).toBe(403);
  });

  it('a sub-user in a project sees only the devices the project holds, directly, through a group or a vehicle', async () => {
    const [d1, d2, d3, d4, d5] = [
      await makeDevice(t, a, { name: 'P-direct' }),
      await makeDevice(t, a, { name: 'P-granted-only' }),
      await makeDevice(t, a, { name: 'P-granted-too' }),
      await makeDevice(t, a, { name: 'P-in-group' }),
      await makeDevice(t, a, { name: 'P-in-vehicle' }),
    ];
    const sub = await makeSubUser(
      t,
      a,
      ['things:things:page', 'things:things:queryone', 'things:things:update'],
      [d1, d2, d3].map((d) => ({ thingsId: d.id, access: 'read' as const })),
    );
    const name = `${await usernameOf(sub.userId)}@${a.name}`;
    expect(await visible(a, sub.auth)).toEqual(['P-direct', 'P-granted-only', 'P-granted-too']);

    const group = (await req('POST', `/v1/out-group-mgmt/tenants/${a.tenantId}/groups`, a.auth, { name: 'Project group' })).json();
    await req('POST', `/v1/out-group-mgmt/tenants/${a.tenantId}/groups/${group.id}/bind`, a.auth, { things_ids: [d4.id] });
    const vehicle = await req('POST', `/v1/things/tenants/${a.tenantId}/vehicles`, a.auth, {
      name: 'Project bus',
      channels: [{ name: 'Powertrain', things_id: d5.id, channel: 0 }],
    });
    expect(vehicle.statusCode).toBe(200);

    const p = (await req('POST', url(a), a.auth, { name: 'Scope' })).json();
    const bound = await req('POST', url(a, `/${p.id}/bind`), a.auth, {
      things_ids: [d1.id],
      group_ids: [group.id],
      vehicle_ids: [vehicle.json().id],
      users: [{ user_id: sub.userId, access: 'read' }],
    });
    expect(bound.json()).toEqual({ changed: 4 });
    expect((await req('GET', url(a, `/${p.id}`), a.auth)).json()).toMatchObject({
      things_count: 1,
      group_count: 1,
      vehicle_count: 1,
      user_count: 1,
      device_count: 3,
    });
    const devices = (await req('GET', url(a, `/${p.id}/things`), a.auth)).json();
    expect(devices.list.map((d: { name: string; direct: boolean }) => [d.name, d.direct])).toEqual([
      ['P-direct', true],
      ['P-in-group', false],
      ['P-in-vehicle', false],
    ]);

    // Joining the project ended the sub-user's sessions; signed in again, it sees the project's devices only.
    expect((await req('GET', `/v1/things/tenants/${a.tenantId}/things`, sub.auth)).statusCode).toBe(401);
    let member = await login(t.app, name, PASSWORD);
    expect(await visible(a, member)).toEqual(['P-direct', 'P-in-group', 'P-in-vehicle']);
    expect((await req('GET', `/v1/things/tenants/${a.tenantId}/things/${d2.id}`, member)).statusCode).toBe(404);
    expect((await req('GET', `/v1/things/tenants/${a.tenantId}/things/${d4.id}`, member)).statusCode).toBe(200);
    // Read access from the project: no change to the device.
    expect((await req('PUT', `/v1/things/tenants/${a.tenantId}/things/${d4.id}`, member, { name: 'Renamed' })).statusCode).toBe(403);

    await req('POST', url(a, `/${p.id}/bind`), a.auth, { users: [{ user_id: sub.userId, access: 'write' }] });
    member = await login(t.app, name, PASSWORD);
    const renamed = await req('PUT', `/v1/things/tenants/${a.tenantId}/things/${d4.id}`, member, { name: 'P-in-group-renamed' });
    expect(renamed.statusCode).toBe(200);

    // The group loses its device: the project does too, and the member signs in again (its sockets closed).
    await req('POST', `/v1/out-group-mgmt/tenants/${a.tenantId}/groups/${group.id}/unbind`, a.auth, { things_ids: [d4.id] });
    expect((await req('GET', `/v1/things/tenants/${a.tenantId}/things`, member)).statusCode).toBe(401);
    member = await login(t.app, name, PASSWORD);
    expect(await visible(a, member)).toEqual(['P-direct', 'P-in-vehicle']);

    // Out of the project, the sub-user's own grants apply again.
    await req('POST', url(a, `/${p.id}/unbind`), a.auth, { user_ids: [sub.userId] });
    member = await login(t.app, name, PASSWORD);
    expect(await visible(a, member)).toEqual(['P-direct', 'P-granted-only', 'P-granted-too']);
  });
});
