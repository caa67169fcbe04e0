import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helper.ts';
import { makeDevice, makeSubUser, makeTenant, type TenantFixture } from './things.fixtures.ts';

describe('tenant API keys', () => {
  let t: TestApp;
  let a: TenantFixture;
  let b: TenantFixture;
  let dev1: { id: string };
  let dev2: { id: string };
  const keys = (tn: TenantFixture, rest = '') => `/v1/control/tenants/${tn.tenantId}/api-keys${rest}`;
  const things = (tn: TenantFixture, rest = '') => `/v1/things/tenants/${tn.tenantId}/things${rest}`;
  const create = (body: object, auth = a.auth, tn = a) =>
    t.app.inject({ method: 'POST', url: keys(tn), headers: { authorization: auth }, payload: body });
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  beforeAll(async () => {
    t = await createTestApp();
    a = await makeTenant(t);
    b = await makeTenant(t);
    dev1 = await makeDevice(t, a);
    dev2 = await makeDevice(t, a);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('shows the secret once, stores only its hash, and lists the key without it', async () => {
    const res = await create({ name: 'ingest bridge', permissions: ['things:things:page', 'things:things:queryone'] });
    expect(res.statusCode).toBe(200);
    const key = res.json();
    expect(key.token).toMatch(/^lhk_[A-Za-z0-9_-]{50,}$/);
    expect(key.token.startsWith(key.prefix)).toBe(true);

    // The database holds no trace of the secret part of the token.
    const secret = key.token.slice(key.prefix.length);
    const { rows } = await t.database.raw.query<Record<string, unknown>>('select * from api_keys where id = $1', [key.id]);
    const stored = JSON.stringify(rows[0]);
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain(key.token);
    expect(rows[0].secret_hash).toMatch(/^[0-9a-f]{64}$/);

    const list = (await t.app.inject({ method: 'GET', url: keys(a), headers: { authorization: a.auth } })).json();
    expect(list.total).toBe(1);
    expect(JSON.stringify(list)).not.toContain(secret);
    expect(list.list[0]).toMatchObject({ name: 'ingest bridge', last_used_at: null, revoked_at: null });

    // It works as a bearer token, with its permissions only.
    const page = await t.app.inject({ method: 'GET', url: things(a), headers: bearer(key.token) });
    expect(page.statusCode).toBe(200);
    expect(page.json().total).toBe(2);
    const write = await t.app.inject({ method: 'DELETE', url: things(a, `/${dev1.id}`), headers: bearer(key.token) });
    expect(write.statusCode).toBe(403);
    // Not the account's own calls, nor another tenant.
    const self = await t.app.inject({ method: 'GET', url: '/v1/tenant/users/self', headers: bearer(key.token) });
    expect(self.statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: things(b), headers: bearer(key.token) })).statusCode).toBe(403);
    // A wrong secret with a right prefix is refused.
    const forged = `${key.prefix}${'A'.repeat(secret.length)}`;
    expect((await t.app.inject({ method: 'GET', url: things(a), headers: bearer(forged) })).json()).toMatchObject({
      code: 'api-key.refused',
    });

    // Every use, reads included, is in the operation log, under the key's name; and the last use is shown.
    const log = await t.database.raw.query<{ username: string; method: string; path: string; status: number }>(
      `select username, method, path, status from op_logs where tenant_id = $1 and username like '%#ingest bridge' order by id`,
      [a.tenantId],
    );
    expect(log.rows.map((r) => `${r.method} ${r.status}`)).toEqual(['GET 200', 'DELETE 403', 'GET 403', 'GET 403']);
    const after = (await t.app.inject({ method: 'GET', url: keys(a), headers: { authorization: a.auth } })).json();
    expect(after.list[0].last_used_at).toBeGreaterThan(Date.now() - 60_000);
  });

  it('keeps a key to its devices', async () => {
    const key = (
      await create({ name: 'one device', permissions: ['things:things:page', 'things:things:queryone'], things_ids: [dev2.id] })
    ).json();
    const page = (await t.app.inject({ method: 'GET', url: things(a), headers: bearer(key.token) })).json();
    expect(page.list.map((d: { id: string }) => d.id)).toEqual([dev2.id]);
    expect((await t.app.inject({ method: 'GET', url: things(a, `/${dev2.id}`), headers: bearer(key.token) })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: things(a, `/${dev1.id}`), headers: bearer(key.token) })).statusCode).toBe(404);
    // Its machine account is no sub-user and cannot log in.
    const subs = await t.app.inject({ method: 'GET', url: `/v1/tenant/tenants/${a.tenantId}/users`, headers: { authorization: a.auth } });
    expect(subs.statusCode).toBe(200);
    expect(subs.json().total).toBe(0);
    const login = await t.app.inject({
      method: 'POST',
      url: '/v1/control/sessions',
      payload: { username: `~api-key-${key.prefix.slice(4)}`, password: '!', type: 1 },
    });
    expect(login.statusCode).toBe(400);
  });

  it('refuses an expired or revoked key', async () => {
    const key = (await create({ name: 'short', permissions: ['things:things:page'], expires_at: Date.now() + 1500 })).json();
    expect((await t.app.inject({ method: 'GET', url: things(a), headers: bearer(key.token) })).statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 1600));
    expect((await t.app.inject({ method: 'GET', url: things(a), headers: bearer(key.token) })).json()).toMatchObject({
      code: 'api-key.refused',
    });
    expect((await create({ name: 'past', permissions: ['things:things:page'], expires_at: Date.now() - 1 })).json()).toMatchObject({
      code: 'api-key.bad-expiry',
    });

    const kept = (await create({ name: 'revoked', permissions: ['things:things:page'] })).json();
    expect((await t.app.inject({ method: 'GET', url: things(a), headers: bearer(kept.token) })).statusCode).toBe(200);
    // Another tenant cannot revoke it.
    expect(
      (await t.app.inject({ method: 'DELETE', url: keys(b, `/${kept.id}`), headers: { authorization: b.auth } })).json(),
    ).toMatchObject({
      code: 'api-key.not-found',
    });
    const del = await t.app.inject({ method: 'DELETE', url: keys(a, `/${kept.id}`), headers: { authorization: a.auth } });
    expect(del.statusCode).toBe(200);
    const refused = await t.app.inject({ method: 'GET', url: things(a), headers: bearer(kept.token) });
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ code: 'api-key.refused' });
  });

  it('never holds more than its creator', async () => {
    const sub = await makeSubUser(
      t,
      a,
      ['control:api-key:create', 'control:api-key:query', 'things:things:page'],
      [{ thingsId: dev1.id, access: 'read' }],
    );
    // A key the sub-user does not hold, a manager-only key and key management are refused.
    for (const perm of [
      'things:things:delete',
      'alert:things-forward:query',
      'control:api-key:create',
      'tenant:tenant:query',
      'no:such:key',
    ]) {
      expect((await create({ name: `x ${perm}`, permissions: [perm] }, sub.auth)).json()).toMatchObject({
        code: 'api-key.bad-permission',
        field: 'permissions',
      });
    }
    // A device it cannot see is not found.
    expect((await create({ name: 'y', permissions: ['things:things:page'], things_ids: [dev2.id] }, sub.auth)).statusCode).toBe(404);
    const key = (await create({ name: 'sub key', permissions: ['things:things:page'] }, sub.auth)).json();
    const page = (await t.app.inject({ method: 'GET', url: things(a), headers: bearer(key.token) })).json();
    expect(page.list.map((d: { id: string }) => d.id)).toEqual([dev1.id]);
    // The creator loses the key: so does the API key.
    await t.database.raw.query("delete from user_grants where user_id = $1 and key = 'things:things:page'", [sub.userId]);
    expect((await t.app.inject({ method: 'GET', url: things(a), headers: bearer(key.token) })).statusCode).toBe(403);
    // A key cannot make keys.
    const manager = (await create({ name: 'mgr', permissions: ['things:things:page'] })).json();
    const viaKey = await t.app.inject({
      method: 'POST',
      url: keys(a),
      headers: bearer(manager.token),
      payload: { name: 'z', permissions: ['things:things:page'] },
    });
    expect(viaKey.statusCode).toBe(403);
    // The sub-user lists only its own keys.
    const mine = (await t.app.inject({ method: 'GET', url: keys(a), headers: { authorization: sub.auth } })).json();
    expect(mine.list.map((k: { name: string }) => k.name)).toEqual(['sub key']);
  });
});
