import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { controlRepository } from '../src/modules/control/control.repository.ts';
import { controlService, SESSION_CACHE_MS } from '../src/modules/control/control.service.ts';
import { activeTenant, loginAs, mobile } from './accounts.factory.ts';
import { ADMIN_PASSWORD, createTestApp, loginAdmin, type TestApp } from './helper.ts';

/**
 * Resolved sessions are reused for a few seconds, and whatever ends or narrows a session in
 * this process is refused on the very next call.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const self = (auth: string) => t.app.inject({ method: 'GET', url: '/v1/tenant/users/self', headers: { authorization: auth } });

describe('session cache', () => {
  it('refuses a logged-out session at once', async () => {
    const login = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
    const { token, session_id } = login.json();
    const auth = `Bearer ${token}`;
    expect((await self(auth)).statusCode).toBe(200);
    expect((await self(auth)).statusCode).toBe(200);
    const out = await t.app.inject({ method: 'DELETE', url: `/v1/control/sessions/${session_id}`, headers: { authorization: auth } });
    expect(out.statusCode).toBe(204);
    expect((await self(auth)).statusCode).toBe(401);
  });

  it('refuses a sub-user at once when the manager changes its permissions or disables it', async () => {
    const mgr = await activeTenant(t);
    const m = mobile();
    const created = await t.app.inject({
      method: 'POST',
      url: `/v1/tenant/tenants/${mgr.tenantId}/users`,
      headers: { authorization: mgr.auth },
      payload: { username: 'cache_sub', mobile: m, grants: ['data-mgmt:op-log:query'] },
    });
    expect(created.statusCode).toBe(201);
    const subId = created.json().id;
    const login = async () => `Bearer ${(await loginAs(t.app, `cache_sub@${mgr.username}`, m.slice(-8))).json().token}`;
    const opLogs = (auth: string) =>
      t.app.inject({ method: 'GET', url: `/v1/data-mgmt/tenants/${mgr.tenantId}/op-logs`, headers: { authorization: auth } });

    let sub = await login();
    expect((await opLogs(sub)).statusCode).toBe(200);
    const change = await t.app.inject({
      method: 'PUT',
      url: `/v1/tenant/tenants/${mgr.tenantId}/users/${subId}`,
      headers: { authorization: mgr.auth },
      payload: { grants: [] },
    });
    expect(change.statusCode).toBe(200);
    expect((await opLogs(sub)).statusCode).toBe(401);
    // Logged in again, it has the new (narrower) permissions.
    sub = await login();
    expect((await opLogs(sub)).statusCode).toBe(403);

    expect((await self(sub)).statusCode).toBe(200);
    await t.app.inject({
      method: 'PUT',
      url: `/v1/tenant/tenants/${mgr.tenantId}/users/${subId}`,
      headers: { authorization: mgr.auth },
      payload: { status: 3 },
    });
    expect((await self(sub)).statusCode).toBe(401);
    // The manager's own session, also cached, is untouched.
    expect((await self(mgr.auth)).statusCode).toBe(200);
  });

  it('refuses a tenant’s sessions at once when the system manager rejects the tenant', async () => {
    const mgr = await activeTenant(t);
    expect((await self(mgr.auth)).statusCode).toBe(200);
    const admin = await loginAdmin(t.app);
    const r = await t.app.inject({
      method: 'PUT',
      url: `/v1/tenant/tenants/${mgr.tenantId}/audit/0`,
      headers: { authorization: admin },
      payload: { notify: false },
    });
    expect(r.statusCode).toBe(200);
    expect((await self(mgr.auth)).statusCode).toBe(401);
  });

  it('reuses a resolved session for a few seconds only (a change made elsewhere shows after that)', async () => {
    const mgr = await activeTenant(t);
    let clock = Date.now();
    const control = controlService({
      repo: controlRepository(t.database.raw),
      signer: t.app.ctx.signer,
      sessionTtl: 3600,
      loadGrants: async () => new Set(),
      now: () => new Date(clock),
    });
    const token = mgr.auth.slice('Bearer '.length);
    const first = await control.authenticate(token);
    expect(first?.userId).toBe(mgr.userId);
    // Revoked by another server copy (straight in the database): this process learns within the window.
    await t.database.raw.query('update sessions set revoked_at = now() where id = $1', [first?.sessionId]);
    clock += SESSION_CACHE_MS - 1;
    expect(await control.authenticate(token)).toEqual(first);
    clock += 2;
    expect(await control.authenticate(token)).toBeNull();
  });
});

describe('ended sessions are deleted after a week', () => {
  it('keeps live sessions and recently ended ones, deletes the rest; a deleted session answers as ended', async () => {
    const r = await activeTenant(t);
    const opened = async () => (await loginAs(t.app, r.username, r.password)).json() as { token: string; session_id: string };
    const [live, fresh, old, expired] = [await opened(), await opened(), await opened(), await opened()];
    const set = (id: string, column: 'revoked_at' | 'expires_at', ago: string) =>
      t.database.raw.query(`update sessions set ${column} = now() - $2::interval where id = $1`, [id, ago]);
    await set(fresh.session_id, 'revoked_at', '6 days');
    await set(old.session_id, 'revoked_at', '8 days');
    await set(expired.session_id, 'expires_at', '8 days');
    expect((await self(`Bearer ${live.token}`)).statusCode).toBe(200);

    expect(await t.app.ctx.control.purgeEndedSessions()).toBe(2);
    const left = await t.database.raw.query<{ id: string }>('select id from sessions where user_id = $1', [r.userId]);
    const ids = left.rows.map((x) => x.id);
    for (const s of [live, fresh]) expect(ids).toContain(s.session_id);
    for (const s of [old, expired]) expect(ids).not.toContain(s.session_id);
    expect((await self(`Bearer ${live.token}`)).statusCode).toBe(200);
    const gone = await self(`Bearer ${old.token}`);
    expect(gone.statusCode).toBe(401);
  });
});
