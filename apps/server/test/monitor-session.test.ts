import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MONITOR_SESSION_TTL } from '../src/modules/control/control.service.ts';
import { createTestApp, type TestApp } from './helper.ts';
import { makeTenant, type TenantFixture } from './things.fixtures.ts';

/**
 * The monitor screen's session (spec §2 `/Watch?token=…`): the token a monitor window is opened
 * with is a read-only, short-lived session of the caller's account, so that an address never
 * carries a token that can change anything (docs/decisions/0207-links-never-replace-a-session.md).
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

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, auth: string | undefined, payload?: unknown) =>
  t.app.inject({ method, url, headers: auth ? { authorization: auth } : {}, payload: payload as never });
const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as Record<string, unknown>;

describe('monitor session', () => {
  it('reads as the account, refuses every write with its code, lasts at most twelve hours, and cannot renew itself', async () => {
    const before = Date.now();
    const opened = await call('POST', '/v1/control/sessions/monitor', a.auth);
    expect(opened.statusCode, opened.body).toBe(200);
    const monitor = opened.json() as { token: string; session_id: string; expires_at: number };
    expect(monitor.expires_at).toBeLessThanOrEqual(Date.now() + MONITOR_SESSION_TTL * 1000);
    expect(monitor.expires_at).toBeGreaterThan(before);
    // The token says what it is, for the window that holds it; the console's own token does not.
    expect(claimsOf(monitor.token)).toMatchObject({ mon: true, tid: a.tenantId });
    expect(claimsOf(a.auth.slice(7)).mon).toBeUndefined();
    const as = `Bearer ${monitor.token}`;

    // What the screen needs: the fleet and the own account, read.
    const vehicles = `/v1/things/tenants/${a.tenantId}/vehicles`;
    expect((await call('GET', vehicles, as)).statusCode).toBe(200);
    expect((await call('GET', '/v1/tenant/users/self', as)).json()).toMatchObject({ tenant_id: a.tenantId });

    // Writes of every kind: a keyed route, the account's own calls, a new session of any kind.
    for (const [method, url, body] of [
      ['POST', vehicles, { name: 'van' }],
      ['PUT', '/v1/tenant/users/self', { nick_name: 'changed' }],
      ['PUT', '/v1/tenant/users/self/password', { old_password: 'Tenant-Pass-123', new_password: 'Other-Pass-456' }],
      ['POST', '/v1/control/sessions/monitor', undefined],
      ['POST', '/v1/control/reauth', { password: 'Tenant-Pass-123' }],
    ] as const) {
      const res = await call(method, url, as, body);
      expect([method, url, res.statusCode, res.json().code]).toEqual([method, url, 403, 'session.monitor-read-only']);
    }
    expect((await call('GET', vehicles, a.auth)).json().total ?? 0).toBe(0);

    // The console's own session is untouched and still writes.
    expect((await call('PUT', '/v1/tenant/users/self', a.auth, { nick_name: 'mine' })).statusCode).toBe(200);

    // Its way out works, and ends only it.
    expect((await call('DELETE', `/v1/control/sessions/${monitor.session_id}`, as)).statusCode).toBe(204);
    expect((await call('GET', vehicles, as)).statusCode).toBe(401);
    expect((await call('GET', vehicles, a.auth)).statusCode).toBe(200);
  });

  it('is refused without a session', async () => {
    expect((await call('POST', '/v1/control/sessions/monitor', undefined)).statusCode).toBe(401);
  });
});
