import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, loginAdmin, type TestApp } from './helper.ts';
import { makeSubUser, makeTenant, type TenantFixture } from './things.fixtures.ts';

/**
 * Tenant roles (spec §6 control:tenant-role, control:user-role): the manager bundles permission keys
 * and menus in a role and gives it to sub-users; the server then enforces the role's keys on them
 * (and no more once the role changes or goes), and the privileges call lists its menus. Roles are the
 * tenant's own: another tenant's role or sub-user is not found, and sub-users cannot manage roles.
 */

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

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, auth: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: { authorization: auth }, payload: payload as never });
const roles = (tenant: TenantFixture, rest = '') => `/v1/control/tenants/${tenant.tenantId}/roles${rest}`;
const userRoles = (tenant: TenantFixture, userId: string) => `/v1/control/tenants/${tenant.tenantId}/users/${userId}/roles`;
const vehicles = (tenant: TenantFixture) => `/v1/things/tenants/${tenant.tenantId}/vehicles`;

describe('tenant roles', () => {
  it('bundle keys and menus that the server enforces on the sub-users holding them', async () => {
    const driver = { name: 'fleet driver', keys: ['car:car:query', 'car:car:create', 'things:things:page'], menus: ['car'] };
    const created = await call('POST', roles(a), a.auth, driver);
    expect(created.statusCode, created.body).toBe(200);
    const role = created.json();
    expect(role).toMatchObject({ name: 'fleet driver', keys: [...driver.keys].sort(), menus: ['car'], user_count: 0 });

    // Only what a sub-user may be given, and one name once.
    const sysKey = await call('POST', roles(a), a.auth, { name: 'admin', keys: ['tenant:tenant:query'] });
    expect(sysKey.statusCode).toBe(400);
    expect(sysKey.json()).toMatchObject({ code: 'role.bad-key', field: 'keys', details: { keys: ['tenant:tenant:query'] } });
    const mgrKey = await call('POST', roles(a), a.auth, { name: 'admin', keys: ['control:tenant-role:create'] });
    expect(mgrKey.json()).toMatchObject({ code: 'role.bad-key' });
    const mgrMenu = await call('POST', roles(a), a.auth, { name: 'admin', menus: ['subuser'] });
    expect(mgrMenu.json()).toMatchObject({ code: 'role.bad-menu' });
    const twice = await call('POST', roles(a), a.auth, { name: 'fleet driver' });
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toMatchObject({ code: 'role.duplicate' });

    // A sub-user without grants is refused; with the role it reads and adds vehicles and has the menu.
    const sub = await makeSubUser(t, a, []);
    expect((await call('GET', vehicles(a), sub.auth)).statusCode).toBe(403);
    const set = await call('PUT', userRoles(a, sub.userId), a.auth, { role_ids: [role.id] });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().list.map((r: { id: string }) => r.id)).toEqual([role.id]);
    expect((await call('GET', vehicles(a), sub.auth)).statusCode).toBe(200);
    const added = await call('POST', vehicles(a), sub.auth, { name: 'van 1' });
    expect(added.statusCode, added.body).toBe(200);
    const priv = (await call('GET', '/v1/control/privileges/self', sub.auth)).json();
    expect(priv.menus).toEqual(['car']);
    expect(priv.apis.map((x: { name: string }) => x.name)).toEqual(expect.arrayContaining(driver.keys));
    expect((await call('GET', roles(a), a.auth)).json().list[0]).toMatchObject({ id: role.id, user_count: 1 });
    expect((await call('GET', userRoles(a, sub.userId), a.auth)).json().list.map((r: { id: string }) => r.id)).toEqual([role.id]);

    // Sub-users do not manage roles, not even with the role's keys.
    expect((await call('GET', roles(a), sub.auth)).statusCode).toBe(403);
    expect((await call('POST', roles(a), sub.auth, { name: 'mine', keys: ['car:car:delete'] })).statusCode).toBe(403);
    expect((await call('PUT', userRoles(a, sub.userId), sub.auth, { role_ids: [] })).statusCode).toBe(403);

    // Taking a key off the role takes it off its holders at once; deleting the role takes the rest.
    const narrowed = await call('PUT', roles(a, `/${role.id}`), a.auth, { ...driver, keys: ['car:car:query', 'things:things:page'] });
    expect(narrowed.statusCode, narrowed.body).toBe(200);
    expect((await call('POST', vehicles(a), sub.auth, { name: 'van 2' })).statusCode).toBe(403);
    expect((await call('GET', vehicles(a), sub.auth)).statusCode).toBe(200);
    expect((await call('DELETE', roles(a, `/${role.id}`), a.auth)).statusCode).toBe(200);
    expect((await call('GET', vehicles(a), sub.auth)).statusCode).toBe(403);
    expect((await call('GET', '/v1/control/privileges/self', sub.auth)).json().menus).toEqual([]);
  });

  it("are the tenant's own: another tenant's roles and sub-users are not reachable", async () => {
    const mine = (await call('POST', roles(a), a.auth, { name: 'reader', keys: ['car:car:query'] })).json();
    const theirs = (await call('POST', roles(b), b.auth, { name: 'reader', keys: ['car:car:query'] })).json();
    expect(theirs.id).not.toBe(mine.id);
    const subA = await makeSubUser(t, a, []);
    const subB = await makeSubUser(t, b, []);

    // Tenant b's manager cannot read or change a's roles through a's path.
    expect((await call('GET', roles(a), b.auth)).statusCode).toBe(403);
    expect((await call('PUT', roles(a, `/${mine.id}`), b.auth, { name: 'taken' })).statusCode).toBe(403);
    // Through its own path, a's role does not exist.
    const foreignRole = await call('PUT', roles(b, `/${mine.id}`), b.auth, { name: 'taken' });
    expect(foreignRole.statusCode).toBe(404);
    expect(foreignRole.json()).toMatchObject({ code: 'role.not-found' });
    expect((await call('DELETE', roles(b, `/${mine.id}`), b.auth)).json()).toMatchObject({ code: 'role.not-found' });
    // Another tenant's role cannot be given, nor can a role be given to another tenant's user or the manager.
    const given = await call('PUT', userRoles(a, subA.userId), a.auth, { role_ids: [theirs.id] });
    expect(given.statusCode).toBe(404);
    expect(given.json()).toMatchObject({ code: 'role.not-found', field: 'role_ids' });
    expect((await call('GET', userRoles(a, subA.userId), a.auth)).json().list).toEqual([]);
    expect((await call('PUT', userRoles(a, subB.userId), a.auth, { role_ids: [mine.id] })).statusCode).toBe(404);
    expect((await call('PUT', userRoles(a, a.managerId), a.auth, { role_ids: [mine.id] })).statusCode).toBe(404);
    expect((await call('GET', vehicles(b), subB.auth)).statusCode).toBe(403);
    // The same name in two tenants is two roles.
    expect((await call('GET', roles(b), b.auth)).json().list.map((r: { name: string }) => r.name)).toEqual(['reader']);
  });
});

describe("tenant APIs and a user's privileges", () => {
  it('list the keys a tenant may give, and what a sub-user holds from its grants and its roles', async () => {
    const apis = await call('GET', '/v1/control/tenant-apis', a.auth);
    expect(apis.statusCode, apis.body).toBe(200);
    const names = apis.json().list.map((x: { name: string }) => x.name);
    expect(apis.json().total).toBe(names.length);
    // Keys a sub-user can be given, with the device access they also need; never the manager's or the platform's.
    expect(apis.json().list).toEqual(
      expect.arrayContaining([
        { name: 'car:car:query', scope: 'tenant' },
        { name: 'things:things:page', scope: 'device-read' },
        { name: 'things:things:command', scope: 'device-write' },
      ]),
    );
    expect(names).not.toContain('control:tenant-role:create');
    expect(names).not.toContain('tenant:tenant:query');
    // Every listed key is accepted in a role.
    const all = await call('POST', roles(a), a.auth, { name: 'every api', keys: names });
    expect(all.statusCode, all.body).toBe(200);
    expect((await call('DELETE', roles(a, `/${all.json().id}`), a.auth)).statusCode).toBe(200);

    const made = await call('POST', roles(a), a.auth, { name: 'fence watcher', keys: ['fence:fence:query'], menus: ['fence'] });
    expect(made.statusCode, made.body).toBe(200);
    const role = made.json();
    const sub = await makeSubUser(t, a, ['car:car:query']);
    const privileges = `/v1/control/tenants/${a.tenantId}/users/${sub.userId}/privileges`;
    const before = (await call('GET', privileges, a.auth)).json();
    expect(before).toMatchObject({ user_id: sub.userId, tenant_manager: false, menus: [], roles: [] });
    expect(before.apis).toEqual([{ name: 'car:car:query' }]);
    const given = await call('PUT', userRoles(a, sub.userId), a.auth, { role_ids: [role.id] });
    expect(given.statusCode, given.body).toBe(200);
    const after = (await call('GET', privileges, a.auth)).json();
    expect(after.apis.map((x: { name: string }) => x.name).sort()).toEqual(['car:car:query', 'fence:fence:query']);
    expect(after.menus).toEqual(['fence']);
    expect(after.roles).toEqual([{ id: role.id, name: 'fence watcher', common: false }]);
    // What the manager reads is what the sub-user's own session holds.
    const self = (await call('GET', '/v1/control/privileges/self', sub.auth)).json();
    expect(self.apis.map((x: { name: string }) => x.name).sort()).toEqual(['car:car:query', 'fence:fence:query']);
    expect(self.menus).toEqual(after.menus);

    // The manager's alone, and its own tenant's users only.
    expect((await call('GET', '/v1/control/tenant-apis', sub.auth)).statusCode).toBe(403);
    expect((await call('GET', privileges, sub.auth)).statusCode).toBe(403);
    expect((await call('GET', `/v1/control/tenants/${b.tenantId}/users/${sub.userId}/privileges`, b.auth)).statusCode).toBe(404);
    expect((await call('GET', `/v1/control/tenants/${a.tenantId}/users/${sub.userId}/privileges`, b.auth)).statusCode).toBe(403);
  });
});

describe("a sub-user's menus under /control", () => {
  it('are read and replaced on their own, manager-only menus refused, the sub-user signed out to take them up', async () => {
    const sub = await makeSubUser(t, a, []);
    const url = `/v1/control/tenants/${a.tenantId}/users/${sub.userId}/menus`;
    expect((await call('GET', url, a.auth)).json()).toEqual({ menus: [] });
    const set = await call('PUT', url, a.auth, { menus: ['fence', 'car', 'car'] });
    expect(set.statusCode, set.body).toBe(200);
    expect([...set.json().menus].sort()).toEqual(['car', 'fence']);
    expect([...(await call('GET', url, a.auth)).json().menus].sort()).toEqual(['car', 'fence']);
    // The server's view of what it holds follows; its open session ends, as after any change of its rights.
    const held = (await call('GET', `/v1/control/tenants/${a.tenantId}/users/${sub.userId}/privileges`, a.auth)).json();
    expect(held.menus).toEqual(['car', 'fence']);
    expect((await call('GET', '/v1/control/privileges/self', sub.auth)).statusCode).toBe(401);

    const bad = await call('PUT', url, a.auth, { menus: ['subuser'] });
    expect(bad.statusCode).toBe(400);
    expect((await call('PUT', url, a.auth, { menus: ['no-such-menu'] })).statusCode).toBe(400);
    expect([...(await call('GET', url, a.auth)).json().menus].sort()).toEqual(['car', 'fence']);

    // Another tenant's manager reaches neither through its own tenant nor through this one.
    expect((await call('GET', `/v1/control/tenants/${b.tenantId}/users/${sub.userId}/menus`, b.auth)).statusCode).toBe(404);
    expect((await call('PUT', url, b.auth, { menus: [] })).statusCode).toBe(403);
    // Changing menus is the manager's: a sub-user is refused even with the read key.
    const other = await makeSubUser(t, a, ['control:user-menu:query']);
    expect((await call('GET', url, other.auth)).statusCode).toBe(200);
    expect((await call('PUT', url, other.auth, { menus: [] })).statusCode).toBe(403);
  });
});

describe('common roles and the global menu', () => {
  const common = (rest = '') => `/v1/control/common-roles${rest}`;

  it('are defined by the system manager, given by any tenant manager, enforced on holders, and changed by no tenant', async () => {
    const admin = await loginAdmin(t.app);
    const c = await makeTenant(t);
    const d = await makeTenant(t);
    // Only the system manager defines them.
    expect((await call('POST', common(), c.auth, { name: 'viewer', keys: ['car:car:query'] })).statusCode).toBe(403);
    const made = await call('POST', common(), admin, {
      name: 'fleet viewer',
      keys: ['car:car:query', 'things:things:page'],
      menus: ['car'],
    });
    expect(made.statusCode, made.body).toBe(200);
    const role = made.json();
    expect(role).toMatchObject({ tenant_id: null, common: true, menus: ['car'], user_count: 0 });
    expect((await call('POST', common(), admin, { name: 'fleet viewer' })).json()).toMatchObject({ code: 'role.duplicate' });
    expect((await call('POST', common(), admin, { name: 'x', keys: ['tenant:tenant:query'] })).json()).toMatchObject({
      code: 'role.bad-key',
    });

    // Every tenant lists it after its own roles, and may give it to its sub-users.
    await call('POST', roles(c), c.auth, { name: 'own role' });
    const listed = (await call('GET', roles(c), c.auth)).json().list;
    expect(listed.map((r: { name: string; common: boolean }) => [r.name, r.common])).toEqual([
      ['own role', false],
      ['fleet viewer', true],
    ]);
    const subC = await makeSubUser(t, c, []);
    const subD = await makeSubUser(t, d, []);
    expect((await call('GET', vehicles(c), subC.auth)).statusCode).toBe(403);
    expect((await call('PUT', userRoles(c, subC.userId), c.auth, { role_ids: [role.id] })).statusCode).toBe(200);
    expect((await call('PUT', userRoles(d, subD.userId), d.auth, { role_ids: [role.id] })).statusCode).toBe(200);
    expect((await call('GET', vehicles(c), subC.auth)).statusCode).toBe(200);
    expect((await call('GET', '/v1/control/privileges/self', subC.auth)).json().menus).toEqual(['car']);
    // A tenant counts only its own holders; the system manager every holder.
    expect((await call('GET', roles(c), c.auth)).json().list.find((r: { id: string }) => r.id === role.id).user_count).toBe(1);
    expect((await call('GET', common(), admin)).json().list.find((r: { id: string }) => r.id === role.id).user_count).toBe(2);

    // A tenant manager cannot change or delete it, and the role is unchanged.
    const changed = await call('PUT', roles(c, `/${role.id}`), c.auth, { name: 'mine now', keys: ['car:car:delete'] });
    expect(changed.statusCode).toBe(403);
    expect(changed.json()).toMatchObject({ code: 'role.common' });
    expect((await call('DELETE', roles(c, `/${role.id}`), c.auth)).json()).toMatchObject({ code: 'role.common' });
    expect((await call('GET', common(), admin)).json().list.find((r: { id: string }) => r.id === role.id).name).toBe('fleet viewer');

    // The system manager narrows it: every holder loses the key at once; deleting it takes the menu.
    const narrowed = await call('PUT', common(`/${role.id}`), admin, { name: 'fleet viewer', keys: [], menus: ['car'] });
    expect(narrowed.statusCode, narrowed.body).toBe(200);
    expect((await call('GET', vehicles(c), subC.auth)).statusCode).toBe(403);
    expect((await call('DELETE', common(`/${role.id}`), admin)).statusCode).toBe(200);
    expect((await call('GET', '/v1/control/privileges/self', subD.auth)).json().menus).toEqual([]);
    expect((await call('DELETE', common(`/${role.id}`), admin)).json()).toMatchObject({ code: 'role.not-found' });
  });

  it("the global menu is the system manager's: the global config serves it to the header", async () => {
    const admin = await loginAdmin(t.app);
    const before = (await t.app.inject({ method: 'GET', url: '/v1/control/global-config' })).json();
    expect(before.menu).toEqual(['home', 'dashboard', 'car', 'dbc', 'test', 'ecu', 'fence']);
    expect((await call('PUT', '/v1/control/menus', a.auth, { menu: ['home'] })).statusCode).toBe(403);
    // The header's order, whatever order was sent; the home page cannot be hidden; unknown entries refused.
    const set = await call('PUT', '/v1/control/menus', admin, { menu: ['car', 'home'] });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toEqual({ menu: ['home', 'car'] });
    expect((await call('PUT', '/v1/control/menus', admin, { menu: ['car'] })).statusCode).toBe(400);
    expect((await call('PUT', '/v1/control/menus', admin, { menu: ['home', 'subuser'] })).statusCode).toBe(400);
    expect((await call('GET', '/v1/control/menus', admin)).json()).toEqual({ menu: ['home', 'car'] });
    expect((await t.app.inject({ method: 'GET', url: '/v1/control/global-config' })).json().menu).toEqual(['home', 'car']);
    await call('PUT', '/v1/control/menus', admin, { menu: before.menu });
  });
});
