import { PERMISSIONS } from '@loggerhead/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeTenant, approve, lastCode, loginAs, mobile, register, requestCode, sendAndRead } from './accounts.factory.ts';
import { createTestApp, loginAdmin, type TestApp } from './helper.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const get = (url: string, auth?: string) => t.app.inject({ method: 'GET', url, headers: auth ? { authorization: auth } : {} });
const put = (url: string, auth: string, payload: unknown) =>
  t.app.inject({ method: 'PUT', url, headers: { authorization: auth }, payload: payload as object });

describe('login flow of a new tenant', () => {
  it('registers pending, answers 10016 until approved, then serves self and privileges', async () => {
    const r = await register(t, { organization_name: 'Acme Trucks', industry: 'Logistics', address: 'Harbour Road 1' });
    const pending = await loginAs(t.app, r.username, r.password);
    expect(pending.statusCode).toBe(403);
    expect(pending.json().code).toBe('iot-tenant.10016');

    await approve(t, r.tenantId);
    const ok = await loginAs(t.app, r.username, r.password);
    expect(ok.statusCode).toBe(200);
    const auth = `Bearer ${ok.json().token}`;

    const self = await get('/v1/tenant/users/self', auth);
    expect(self.statusCode).toBe(200);
    expect(self.json()).toMatchObject({
      id: r.userId,
      tenant_id: r.tenantId,
      username: r.username,
      name: r.username,
      mobile: r.mobile,
      isManager: true,
      systemManager: false,
      login_name: r.username,
      organization_name: 'Acme Trucks',
      readOnly: false,
      tenantInfo: { id: r.tenantId, name: r.username, status: 1, industry: 'Logistics' },
    });
    expect(self.json().last_login_time).toBeGreaterThan(Date.now() - 60_000);

    const priv = await get('/v1/control/privileges/self', auth);
    expect(priv.statusCode).toBe(200);
    const p = priv.json();
    expect(p.tenant_manager).toBe(true);
    expect(p.system_manager).toBe(false);
    const names = p.apis.map((a: { name: string }) => a.name);
    expect(names).toContain('tenant:user:create');
    expect(names).toContain('things:things:create');
    expect(names).not.toContain('tenant:tenant:audit');
    expect(p.menus).toContain('subuser');
    expect(p.menus).toContain('system-setting');
  });

  it('gives the system manager the system keys', async () => {
    const p = (await get('/v1/control/privileges/self', await loginAdmin(t.app))).json();
    expect(p.system_manager).toBe(true);
    const names = p.apis.map((a: { name: string }) => a.name);
    for (const def of PERMISSIONS.filter((d) => d.scope === 'system')) expect(names).toContain(def.key);
  });

  it('answers the tenant-manager check from the name form alone', async () => {
    const m = await get('/v1/tenant/is-manager?username=someone');
    expect(m.statusCode).toBe(200);
    expect(m.json()).toEqual({ is_manager: true });
    expect((await get('/v1/tenant/is-manager?username=alice@acme')).json()).toEqual({ is_manager: false });
    // an unknown and a known name answer alike
    const r = await activeTenant(t);
    expect((await get(`/v1/tenant/is-manager?username=${r.username}`)).json()).toEqual(
      (await get('/v1/tenant/is-manager?username=nobody_here')).json(),
    );
    expect((await get('/v1/tenant/is-manager', r.auth)).json()).toEqual({ is_manager: true });
    expect((await get('/v1/tenant/is-manager')).statusCode).toBe(401);
  });

  it('refuses the self calls without a token', async () => {
    expect((await get('/v1/tenant/users/self')).statusCode).toBe(401);
    expect((await get('/v1/control/privileges/self')).statusCode).toBe(401);
  });
});

describe('personal info', () => {
  it('validates and stores personal info; company fields go to the tenant', async () => {
    const r = await activeTenant(t);
    const bad = await put('/v1/tenant/users/self', r.auth, { nick_name: 'A', job: 'x' });
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .map((e: { field: string }) => e.field)
        .sort(),
    ).toEqual(['job', 'nick_name']);

    const ok = await put('/v1/tenant/users/self', r.auth, {
      nick_name: 'Li Lei',
      gender: 'female',
      job: 'Engineer',
      organization_name: 'Acme Ltd',
      industry: 'Automotive',
      address: 'Main St 5',
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ nick_name: 'Li Lei', gender: 'female', job: 'Engineer', organization_name: 'Acme Ltd' });
    const tenant = await get('/v1/tenant/users/self/tenant', r.auth);
    expect(tenant.json()).toMatchObject({ organization_name: 'Acme Ltd', industry: 'Automotive', address: 'Main St 5' });

    expect((await get('/v1/tenant/tenant-detail', r.auth)).json()).toEqual(tenant.json());
    const tput = await put('/v1/tenant/users/self/tenant', r.auth, { city: 'Shanghai', industry: 'Mining' });
    expect(tput.statusCode).toBe(200);
    expect(tput.json()).toMatchObject({ city: 'Shanghai', industry: 'Mining' });
  });
});

describe('password, mobile and e-mail changes', () => {
  it('changes the password by the old one and ends the other sessions only', async () => {
    const r = await activeTenant(t);
    const other = `Bearer ${(await loginAs(t.app, r.username, r.password)).json().token}`;
    const wrong = await put('/v1/tenant/users/self/password', r.auth, { old_password: 'Nope12345', password: 'NewPassw0rd' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'auth.password-error', field: 'old_password' });
    const weak = await put('/v1/tenant/users/self/password', r.auth, { old_password: r.password, password: 'abcdefgh' });
    expect(weak.json()).toMatchObject({ code: '010', field: 'password' });
    const ok = await put('/v1/tenant/users/self/password', r.auth, { old_password: r.password, password: 'NewPassw0rd' });
    expect(ok.statusCode).toBe(204);
    expect((await get('/v1/tenant/users/self', r.auth)).statusCode).toBe(200);
    expect((await get('/v1/tenant/users/self', other)).statusCode).toBe(401);
    expect((await loginAs(t.app, r.username, r.password)).statusCode).toBe(401);
    expect((await loginAs(t.app, r.username, 'NewPassw0rd')).statusCode).toBe(200);
  });

  it('changes the password with an SMS code to the own mobile', async () => {
    const r = await activeTenant(t);
    const code = await sendAndRead(t, 1, r.mobile, 'modify');
    const wrong = await put('/v1/tenant/users/self/password', r.auth, {
      code: code === '000000' ? '000001' : '000000',
      mobile: r.mobile,
      password: 'Other-Pass1',
    });
    expect(wrong.json().code).toBe('018');
    const ok = await put('/v1/tenant/users/self/password', r.auth, { code, mobile: r.mobile, password: 'Other-Pass1' });
    expect(ok.statusCode).toBe(204);
    expect((await loginAs(t.app, r.username, 'Other-Pass1')).statusCode).toBe(200);
  });

  it('changes the mobile with a code sent to the new number', async () => {
    const r = await activeTenant(t);
    const next = mobile();
    const code = await sendAndRead(t, 1, next, 'modify');
    const mismatch = await put('/v1/tenant/users/self/mobile', r.auth, { new_mobile: next, new_code: code, old_mobile: '13900000000' });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().field).toBe('old_mobile');
    const bad = await put('/v1/tenant/users/self/mobile', r.auth, { new_mobile: '123', new_code: '12', old_mobile: r.mobile });
    expect(
      bad
        .json()
        .map((e: { code: string }) => e.code)
        .sort(),
    ).toEqual(['004', '014']);
    const ok = await put('/v1/tenant/users/self/mobile', r.auth, { new_mobile: next, new_code: code, old_mobile: r.mobile });
    expect(ok.statusCode).toBe(204);
    expect((await get('/v1/tenant/users/self', r.auth)).json().mobile).toBe(next);
    // a taken number
    const other = await activeTenant(t);
    const code2 = await sendAndRead(t, 1, other.mobile, 'modify');
    const taken = await put('/v1/tenant/users/self/mobile', r.auth, { new_mobile: other.mobile, new_code: code2, old_mobile: next });
    expect(taken.json()).toMatchObject({ code: '007', field: 'new_mobile' });
  });

  it('binds an e-mail with a code', async () => {
    const r = await activeTenant(t);
    const email = `${r.username}@Example.com`;
    const code = await sendAndRead(t, 2, email, 'modify');
    const bad = await put('/v1/tenant/users/self/email', r.auth, { email: 'not-mail', code });
    expect(bad.json()).toMatchObject({ code: '015' });
    const wrong = await put('/v1/tenant/users/self/email', r.auth, { email, code: code === '111111' ? '222222' : '111111' });
    expect(wrong.json()).toMatchObject({ code: '019' });
    const ok = await put('/v1/tenant/users/self/email', r.auth, { email, code });
    expect(ok.statusCode).toBe(204);
    expect((await get('/v1/tenant/users/self', r.auth)).json().email).toBe(email);
    const again = await put('/v1/tenant/users/self/email', r.auth, { email, code });
    expect(again.json().code).toBe('019'); // used up
  });
});

function multipart(filename: string, type: string, data: Buffer) {
  const boundary = '----lhboundary';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(600, 7)]);

describe('avatar', () => {
  it('stores an image under the data dir and serves it; refuses other files and > 2 MB', async () => {
    const r = await activeTenant(t);
    const up = multipart('me.png', 'image/png', PNG);
    const res = await t.app.inject({
      method: 'PUT',
      url: '/v1/tenant/users/self/avatar',
      headers: { ...up.headers, authorization: r.auth },
      payload: up.payload,
    });
    expect(res.statusCode).toBe(200);
    const url = res.json().avatar as string;
    expect(url).toMatch(/^\/v1\/tenant\/avatars\/[0-9a-f]{32}\.png$/);
    expect((await get('/v1/tenant/users/self', r.auth)).json().avatar).toBe(url);
    const img = await get(url);
    expect(img.statusCode).toBe(200);
    expect(img.headers['content-type']).toBe('image/png');
    expect(img.rawPayload.equals(PNG)).toBe(true);

    const text = multipart('x.png', 'image/png', Buffer.from('<svg onload=alert(1)>'));
    const r2 = await t.app.inject({
      method: 'PUT',
      url: '/v1/tenant/users/self/avatar',
      headers: { ...text.headers, authorization: r.auth },
      payload: text.payload,
    });
    expect(r2.statusCode).toBe(415);

    const big = multipart('big.png', 'image/png', Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]));
    const r3 = await t.app.inject({
      method: 'PUT',
      url: '/v1/tenant/users/self/avatar',
      headers: { ...big.headers, authorization: r.auth },
      payload: big.payload,
    });
    expect(r3.statusCode).toBe(413);
    // the old avatar is still in place after the refusals
    expect((await get('/v1/tenant/users/self', r.auth)).json().avatar).toBe(url);
  });
});

describe('login variants', () => {
  it('logs in by mobile and SMS code (type 2)', async () => {
    const r = await activeTenant(t);
    await sendAndRead(t, 1, r.mobile, 'login');
    const code = await lastCode(t, r.mobile);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/v1/control/sessions',
      payload: { username: r.mobile, password: code === '123456' ? '654321' : '123456', type: 2 },
    });
    expect(bad.statusCode).toBe(401);
    expect(bad.json().code).toBe('auth.bad-code');
    const ok = await t.app.inject({
      method: 'POST',
      url: '/v1/control/sessions/tenant-manager',
      payload: { username: r.mobile, password: code, type: 2 },
    });
    expect(ok.statusCode).toBe(200);
    expect((await get('/v1/tenant/users/self', `Bearer ${ok.json().token}`)).json().id).toBe(r.userId);
    // a used code does not work twice
    const again = await t.app.inject({
      method: 'POST',
      url: '/v1/control/sessions',
      payload: { username: r.mobile, password: code, type: 2 },
    });
    expect(again.json().code).toBe('auth.bad-code');

    const empty = await t.app.inject({ method: 'POST', url: '/v1/control/sessions', payload: { username: '', password: code, type: 2 } });
    expect(empty.json()).toMatchObject({ code: '002', field: 'username' });
    const short = await t.app.inject({
      method: 'POST',
      url: '/v1/control/sessions',
      payload: { username: r.mobile, password: '12', type: 2 },
    });
    expect(short.json()).toMatchObject({ code: '014', field: 'password' });

    const stranger = mobile();
    const c2 = await sendAndRead(t, 1, stranger, 'login');
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/v1/control/sessions',
      payload: { username: stranger, password: c2, type: 2 },
    });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().code).toBe('auth.phone-not-registered');
  });

  it('locks an account for 15 minutes after 5 wrong passwords', async () => {
    const r = await activeTenant(t);
    for (let i = 0; i < 5; i++) expect((await loginAs(t.app, r.username, 'Wrong-pass1')).statusCode).toBe(401);
    const locked = await loginAs(t.app, r.username, r.password);
    expect(locked.statusCode).toBe(423);
    expect(locked.json().code).toBe('auth.locked');
    const seconds = locked.json().details.seconds;
    expect(seconds).toBeGreaterThan(14 * 60);
    expect(seconds).toBeLessThanOrEqual(15 * 60);
    // once the 15 minutes are over (of the name and of the account), the right password works again
    await t.database.raw.query(`update users set locked_until = now() - interval '1 second' where id = $1`, [r.userId]);
    await t.database.raw.query(`update login_failures set locked_until = now() - interval '1 second' where login = $1`, [r.username]);
    expect((await loginAs(t.app, r.username, r.password)).statusCode).toBe(200);
  });

  it('checks the login name form (003) and empty fields (001, 022)', async () => {
    const post = (payload: object) => t.app.inject({ method: 'POST', url: '/v1/control/sessions', payload });
    expect((await post({ username: '', password: 'x', type: 1 })).json().code).toBe('001');
    expect((await post({ username: 'abc', password: '', type: 1 })).json().code).toBe('022');
    expect((await post({ username: 'a b!', password: 'x', type: 1 })).json().code).toBe('003');
  });

  it('re-confirms the password (dialog) without ending the session', async () => {
    const r = await activeTenant(t);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/v1/control/reauth',
      headers: { authorization: r.auth },
      payload: { password: 'nope' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'auth.password-error', message: 'Password error' });
    const ok = await t.app.inject({
      method: 'POST',
      url: '/v1/control/reauth',
      headers: { authorization: r.auth },
      payload: { password: r.password },
    });
    expect(ok.statusCode).toBe(204);
    expect((await get('/v1/tenant/users/self', r.auth)).statusCode).toBe(200);
  });

  it('resets a forgotten password with an SMS code and ends all sessions', async () => {
    const r = await activeTenant(t);
    const code = await sendAndRead(t, 1, r.mobile, 'modify');
    const post = (payload: object) => t.app.inject({ method: 'POST', url: '/v1/tenant/reset-password', payload });
    const bad = await post({ type: 1, source: '', verification_code: '1', new_password: 'short', user_type: -1 });
    expect(
      bad
        .json()
        .map((e: { code: string }) => e.code)
        .sort(),
    ).toEqual(['002', '005', '014']);
    const ok = await post({
      type: 1,
      source: r.mobile,
      verification_code: code,
      new_password: 'Reset-Pass9',
      confirmPassword: 'Reset-Pass9',
      user_type: -1,
    });
    expect(ok.statusCode).toBe(204);
    expect((await get('/v1/tenant/users/self', r.auth)).statusCode).toBe(401);
    expect((await loginAs(t.app, r.username, 'Reset-Pass9')).statusCode).toBe(200);
    const reused = await post({ type: 1, source: r.mobile, verification_code: code, new_password: 'Reset-Pass8', user_type: -1 });
    expect(reused.json().code).toBe('018');
  });
});

describe('verification codes', () => {
  it('counts the 60 s per destination: any purpose, however the destination is typed; other destinations go at once', async () => {
    const m = mobile();
    expect((await requestCode(t.app, 1, m, 'register')).statusCode).toBe(201);
    // The same number, another purpose or written with spaces and dashes: still the same destination.
    for (const purpose of ['login', 'modify', 'register'] as const) {
      expect((await requestCode(t.app, 1, m, purpose)).statusCode).toBe(429);
    }
    expect((await requestCode(t.app, 1, `${m.slice(0, 3)} ${m.slice(3, 7)}-${m.slice(7)}`, 'login')).statusCode).toBe(429);
    // Another number is not held up.
    expect((await requestCode(t.app, 1, mobile(), 'login')).statusCode).toBe(201);
    // E-mail addresses compare without case.
    const mail = `Wait.${Date.now()}@Example.com`;
    expect((await requestCode(t.app, 2, mail, 'modify')).statusCode).toBe(201);
    expect((await requestCode(t.app, 2, mail.toLowerCase(), 'register')).statusCode).toBe(429);
    // Once the 60 s are over, the number gets a new code.
    await t.database.raw.query(`update verification_codes set created_at = created_at - interval '59 seconds' where destination = $1`, [m]);
    expect((await requestCode(t.app, 1, m, 'login')).statusCode).toBe(429);
    await t.database.raw.query(`update verification_codes set created_at = created_at - interval '2 seconds' where destination = $1`, [m]);
    expect((await requestCode(t.app, 1, m, 'login')).statusCode).toBe(201);
  });

  it('sends one code per destination per 60 s and keeps only a hash', async () => {
    const m = mobile();
    const first = await requestCode(t.app, 1, m, 'register');
    expect(first.statusCode).toBe(201);
    expect(first.json()).toEqual({ expires_in: 300, resend_in: 60 });
    const code = await lastCode(t, m);
    const second = await requestCode(t.app, 1, m, 'login');
    expect(second.statusCode).toBe(429);
    expect(second.json().code).toBe('code.too-soon');
    expect(second.json().details.seconds).toBeGreaterThan(55);
    expect(second.json().details.seconds).toBeLessThanOrEqual(60);
    const { rows } = await t.database.raw.query<{ code_hash: string }>('select code_hash from verification_codes where destination = $1', [
      m,
    ]);
    expect(rows).toHaveLength(1);
    expect(rows[0].code_hash).not.toContain(code);
    const log = await t.database.raw.query<{ status: string; purpose: string; channel: string }>(
      'select status, purpose, channel from push_logs where destination = $1',
      [m],
    );
    expect(log.rows).toEqual([{ status: 'logged', purpose: 'register', channel: 'sms' }]);
  });

  it('burns a code after 5 wrong tries and expires it after 5 minutes', async () => {
    const r = await activeTenant(t);
    const code = await sendAndRead(t, 1, r.mobile, 'login');
    const wrong = code === '000000' ? '000001' : '000000';
    const post = (c: string) =>
      t.app.inject({ method: 'POST', url: '/v1/control/sessions', payload: { username: r.mobile, password: c, type: 2 } });
    for (let i = 0; i < 5; i++) expect((await post(wrong)).json().code).toBe('auth.bad-code');
    expect((await post(code)).json().code).toBe('auth.bad-code');

    await t.database.raw.query(`update verification_codes set created_at = created_at - interval '2 minutes' where destination = $1`, [
      r.mobile,
    ]);
    const fresh = await sendAndRead(t, 1, r.mobile, 'login');
    await t.database.raw.query(`update verification_codes set expires_at = now() - interval '1 second' where destination = $1`, [r.mobile]);
    expect((await post(fresh)).json().code).toBe('auth.bad-code');
  });

  it('limits codes per client address', async () => {
    const addr = '192.0.2.77';
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/tenant/verification-codes',
        remoteAddress: addr,
        payload: { type: 1, destination: mobile(), purpose: 'register' },
      });
      statuses.push(res.statusCode);
      if (res.statusCode === 429) expect(res.json().code).toBe('rate.limited');
    }
    expect(statuses.slice(0, 10).every((s) => s === 201)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  it('takes the per-address limit from the configuration', async () => {
    const small = await createTestApp({ codeIpLimit: 3 });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const res = await small.app.inject({
          method: 'POST',
          url: '/v1/tenant/verification-codes',
          remoteAddress: '192.0.2.78',
          payload: { type: 1, destination: mobile(), purpose: 'register' },
        });
        statuses.push(res.statusCode);
      }
      expect(statuses).toEqual([201, 201, 201, 429]);
    } finally {
      await small.close();
    }
  });

  it('validates the destination', async () => {
    const bad = await requestCode(t.app, 1, '12345', 'register');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('004');
    expect((await requestCode(t.app, 2, 'nope', 'register')).json().code).toBe('015');
  });
});
