import type { LoggerheadApp } from '../src/app.ts';
import { loginAdmin, type TestApp } from './helper.ts';

/** Small factories for the account tests: codes are read where an operator would, in the push log. */

let seq = 0;
/** A fresh valid domestic mobile. */
export function mobile(): string {
  seq++;
  return `139${String(Date.now() % 1e5).padStart(5, '0')}${String(seq % 1000).padStart(3, '0')}`;
}
/** A fresh client address, so per-IP limits of one test do not leak into the next. */
export function ip(): string {
  seq++;
  return `10.${(seq >> 16) & 255}.${(seq >> 8) & 255}.${seq & 255}`;
}

export async function requestCode(app: LoggerheadApp, type: 1 | 2, destination: string, purpose: 'register' | 'modify' | 'login') {
  return app.inject({ method: 'POST', url: '/v1/tenant/verification-codes', remoteAddress: ip(), payload: { type, destination, purpose } });
}

/** The last code sent to a destination, read from the push log text. */
export async function lastCode(t: TestApp, destination: string): Promise<string> {
  const { rows } = await t.database.raw.query<{ text: string }>(
    'select text from push_logs where destination = $1 order by created_at desc limit 1',
    [destination.toLowerCase()],
  );
  const m = /\b(\d{6})\b/.exec(rows[0]?.text ?? '');
  if (!m) throw new Error(`no code sent to ${destination}`);
  return m[1];
}

/** Sends a code and reads it; an earlier code to the destination is first aged past the 60 s resend wait. */
export async function sendAndRead(t: TestApp, type: 1 | 2, destination: string, purpose: 'register' | 'modify' | 'login') {
  await t.database.raw.query(`update verification_codes set created_at = created_at - interval '61 seconds' where destination = $1`, [
    destination.toLowerCase(),
  ]);
  const res = await requestCode(t.app, type, destination, purpose);
  if (res.statusCode !== 201) throw new Error(`code to ${destination}: ${res.statusCode} ${res.body}`);
  return lastCode(t, destination);
}

export interface Registered {
  tenantId: string;
  userId: string;
  username: string;
  mobile: string;
  password: string;
}

/** Registers a tenant through the API (pending review). */
export async function register(t: TestApp, over: Record<string, unknown> = {}): Promise<Registered> {
  const m = (over.mobile as string) ?? mobile();
  const username = (over.username as string) ?? `u_${Math.random().toString(36).slice(2, 10)}`;
  const password = (over.password as string) ?? 'Passw0rd!';
  const code = await sendAndRead(t, 1, m, 'register');
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/tenant/user-tenants',
    payload: { mobile: m, mobile_verification_code: code, username, password, confirmPassword: password, ...over },
  });
  if (res.statusCode !== 201) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
  const body = res.json();
  return { tenantId: body.tenant_id, userId: body.user_id, username, mobile: m, password };
}

/** Approves a tenant as the system manager would. */
export async function approve(t: TestApp, tenantId: string, admin?: string) {
  const auth = admin ?? (await loginAdmin(t.app));
  const res = await t.app.inject({
    method: 'PUT',
    url: `/v1/tenant/tenants/${tenantId}/audit/1`,
    headers: { authorization: auth },
    payload: { notify: false },
  });
  if (res.statusCode !== 200) throw new Error(`approve failed: ${res.statusCode} ${res.body}`);
}

/** A registered, approved tenant with its manager logged in. */
export async function activeTenant(t: TestApp, over: Record<string, unknown> = {}): Promise<Registered & { auth: string }> {
  const r = await register(t, over);
  await approve(t, r.tenantId);
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/control/sessions',
    payload: { username: r.username, password: r.password, type: 1 },
  });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  return { ...r, auth: `Bearer ${res.json().token}` };
}

export async function loginAs(app: LoggerheadApp, username: string, password: string) {
  return app.inject({ method: 'POST', url: '/v1/control/sessions', payload: { username, password, type: 1 } });
}
