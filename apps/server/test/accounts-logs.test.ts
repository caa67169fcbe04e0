import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastCode, mobile, requestCode, sendAndRead } from './accounts.factory.ts';
import { ADMIN_PASSWORD, createTestApp, type TestApp } from './helper.ts';

/** Secrets (passwords, codes, tokens) never reach the log; passwords are bcrypt cost 10. */
const lines: string[] = [];
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ logLevel: 'trace' }, { logLines: lines });
});
afterAll(async () => {
  await t?.close();
});

describe('secrets stay out of the log', () => {
  it('logs requests but none of the passwords, codes or tokens they carried', async () => {
    const secrets: string[] = [ADMIN_PASSWORD];
    const m = mobile();
    const code = await sendAndRead(t, 1, m, 'register');
    secrets.push(code);
    const password = 'Log-Secret-77';
    secrets.push(password);
    const username = `logtest_${Date.now() % 1e6}`;
    const reg = await t.app.inject({
      method: 'POST',
      url: '/v1/tenant/user-tenants',
      payload: { mobile: m, mobile_verification_code: code, username, password, confirmPassword: password },
    });
    expect(reg.statusCode).toBe(201);
    const adminLogin = await t.app.inject({
      method: 'POST',
      url: '/v1/control/sessions',
      payload: { username: 'admin', password: ADMIN_PASSWORD, type: 1 },
    });
    const adminToken = adminLogin.json().token;
    secrets.push(adminToken, adminLogin.json().ujwt);
    await t.app.inject({
      method: 'PUT',
      url: `/v1/tenant/tenants/${reg.json().tenant_id}/audit/1`,
      headers: { authorization: `Bearer ${adminToken}` },
      payload: {},
    });

    const login = await t.app.inject({ method: 'POST', url: '/v1/control/sessions', payload: { username, password, type: 1 } });
    const token = login.json().token;
    secrets.push(token);
    const auth = { authorization: `Bearer ${token}` };
    const newPassword = 'Chg-Secret-88';
    secrets.push(newPassword);
    expect(
      (
        await t.app.inject({
          method: 'PUT',
          url: '/v1/tenant/users/self/password',
          headers: auth,
          payload: { old_password: password, password: newPassword },
        })
      ).statusCode,
    ).toBe(204);
    const subPassword = 'Sub-Secret-99';
    secrets.push(subPassword);
    await t.app.inject({
      method: 'POST',
      url: `/v1/tenant/tenants/${reg.json().tenant_id}/users`,
      headers: auth,
      payload: { username: 'log_sub', mobile: mobile(), password: subPassword },
    });
    await t.app.inject({ method: 'POST', url: '/v1/control/reauth', headers: auth, payload: { password: 'Wrong-Secret-11' } });
    secrets.push('Wrong-Secret-11');
    await requestCode(t.app, 1, m, 'login');
    await t.database.raw.query(`update verification_codes set created_at = created_at - interval '61 seconds' where destination = $1`, [m]);
    await requestCode(t.app, 1, m, 'login');
    const loginCode = await lastCode(t, m);
    secrets.push(loginCode);
    await t.app.inject({ method: 'POST', url: '/v1/control/sessions', payload: { username: m, password: loginCode, type: 2 } });
    // a request failing validation echoes nothing secret either
    await t.app.inject({ method: 'POST', url: '/v1/control/sessions', payload: { username: 'x y', password: 'Typo-Secret-22', type: 1 } });
    secrets.push('Typo-Secret-22');

    const log = lines.join('');
    expect(lines.length).toBeGreaterThan(10);
    expect(log).toContain('/v1/tenant/user-tenants'); // the log is really being written
    for (const s of secrets) expect(log.includes(s), `secret ${s.slice(0, 6)}… in the log`).toBe(false);
    expect(log).not.toMatch(/Bearer\s+ey/);
  });

  it('hashes every password with bcrypt cost 10 and keeps no code in clear', async () => {
    const { rows } = await t.database.raw.query<{ password_hash: string }>('select password_hash from users');
    expect(rows.length).toBeGreaterThanOrEqual(3);
    for (const r of rows) expect(r.password_hash).toMatch(/^\$2[ab]\$10\$[./A-Za-z0-9]{53}$/);
    const codes = await t.database.raw.query<{ code_hash: string }>('select code_hash from verification_codes');
    for (const c of codes.rows) expect(c.code_hash).not.toMatch(/^\d{6}$/);
  });
});
