import { type ErrorCode, ErrorCodes, RegistrationRequestSchema } from '@loggerhead/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountsRepository } from '../src/modules/tenant/accounts.repository.ts';
import { registrationService } from '../src/modules/tenant/registration.service.ts';
import type { VerificationService } from '../src/modules/tenant/verification.service.ts';
import { activeTenant, mobile, register, sendAndRead } from './accounts.factory.ts';
import { createTestApp, loginAdmin, type TestApp } from './helper.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

type Err = { code: string; field?: string; message: string };
const post = (payload: object) => t.app.inject({ method: 'POST', url: '/v1/tenant/user-tenants', payload });
const errors = (body: Err | Err[]) => (Array.isArray(body) ? body : [body]);
const byField = (body: Err | Err[]) => Object.fromEntries(errors(body).map((e) => [e.field, e.code]));
const codesSeen = new Set<string>();
const note = (body: Err | Err[]) => {
  for (const e of errors(body)) codesSeen.add(e.code);
  return body;
};

describe('registration field checks (spec §8 codes)', () => {
  it('answers every empty required field at once: 002, 013, 006, 012, 014', async () => {
    const res = await post({});
    expect(res.statusCode).toBe(400);
    const body = note(res.json());
    expect(Array.isArray(body)).toBe(true);
    expect(byField(body)).toEqual({
      mobile: '002',
      mobile_verification_code: '014',
      username: '013',
      password: '006',
      confirmPassword: '012',
    });
    for (const e of errors(body)) expect(e.message).toBe(ErrorCodes[e.code as ErrorCode].message);
  });

  it('answers format rules: 004, 008, 005, 010, 011, 015, 021, 014', async () => {
    const cases: [object, Record<string, string>][] = [
      [{ mobile: '12345678901' }, { mobile: '004' }],
      [{ mobile: '1391234567' }, { mobile: '004' }],
      [{ username: '1abc' }, { username: '008' }],
      [{ username: 'a' }, { username: '008' }],
      [{ username: 'abc-def' }, { username: '008' }],
      [{ username: 'a'.repeat(21) }, { username: '008' }],
      [{ password: 'Ab1' }, { password: '005' }],
      [{ password: 'Abc 12345' }, { password: '005' }],
      [{ password: '密码Abc12345' }, { password: '005' }],
      [{ password: 'A'.repeat(17) }, { password: '005' }],
      [{ password: 'abcdefgh' }, { password: '010' }],
      [{ password: '12345678' }, { password: '010' }],
      [{ password: 'Passw0rd!', confirmPassword: 'Passw0rd?' }, { confirmPassword: '011' }],
      [{ email: 'not-an-email', email_verification_code: '123456' }, { email: '015' }],
      [{ email: 'a@b.com', email_verification_code: '12a' }, { email_verification_code: '021' }],
      [{ email_verification_code: '123456' }, { email: '017' }],
      [{ mobile_verification_code: '12345' }, { mobile_verification_code: '014' }],
    ];
    for (const [payload, expected] of cases) {
      const body = note((await post(payload)).json());
      const got = byField(body);
      for (const [field, code] of Object.entries(expected)) expect(got[field], JSON.stringify(payload)).toBe(code);
    }
  });

  it('accepts passwords with two classes including specials', async () => {
    for (const pw of ['abcdefg!', 'ABCDEFG1', 'abc12345', 'Abcdefgh']) {
      const got = byField((await post({ password: pw, confirmPassword: pw })).json());
      expect(got.password, pw).toBeUndefined();
    }
  });

  it('answers taken mobile, name and e-mail: 007, 009, 016', async () => {
    const r = await activeTenant(t);
    const email = `${r.username}@example.org`;
    const code = await sendAndRead(t, 2, email, 'modify');
    await t.app.inject({ method: 'PUT', url: '/v1/tenant/users/self/email', headers: { authorization: r.auth }, payload: { email, code } });
    const body = note(
      (
        await post({ mobile: r.mobile, username: r.username.toUpperCase(), email: email.toUpperCase(), email_verification_code: '123456' })
      ).json(),
    );
    expect(byField(body)).toMatchObject({ mobile: '007', username: '009', email: '016' });
    // the platform's own tenant name is taken too
    expect(byField((await post({ username: 'platform' })).json()).username).toBe('009');
  });

  it('answers a wrong or missing SMS code with 018 and a wrong e-mail code with 019', async () => {
    const m = mobile();
    const code = await sendAndRead(t, 1, m, 'register');
    const wrong = code === '000000' ? '000001' : '000000';
    const base = { mobile: m, username: `reg_${Date.now() % 1e6}`, password: 'Passw0rd!', confirmPassword: 'Passw0rd!' };
    const sms = note((await post({ ...base, mobile_verification_code: wrong })).json());
    expect(sms).toMatchObject({ code: '018', field: 'mobile_verification_code', message: 'invalid SMS verification code' });
    const email = `${base.username}@example.net`;
    await sendAndRead(t, 2, email, 'register');
    const mail = note((await post({ ...base, mobile_verification_code: code, email, email_verification_code: '999999' })).json());
    expect(errors(mail).find((e) => e.field === 'email_verification_code')).toMatchObject({
      code: '019',
      message: 'invalid Email verification code',
    });
    // a code never sent to this number
    const other = note((await post({ ...base, mobile: mobile(), mobile_verification_code: '123456' })).json());
    expect(byField(other).mobile_verification_code).toBe('018');
  });

  it('registers with e-mail and personal info; the codes are used up; the tenant waits for review', async () => {
    const m = mobile();
    const username = `full_${Date.now() % 1e6}`;
    const email = `${username}@example.com`;
    const smsCode = await sendAndRead(t, 1, m, 'register');
    const mailCode = await sendAndRead(t, 2, email, 'register');
    const payload = {
      mobile: m,
      mobile_verification_code: smsCode,
      username,
      password: 'Passw0rd!',
      confirmPassword: 'Passw0rd!',
      email,
      email_verification_code: mailCode,
      organization_name: 'Fleet Co',
      industry: 'Transport',
      address: 'Dock 7',
      job: 'CTO',
      gender: 'female',
    };
    const res = await post(payload);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ status: 0 });
    const admin = await loginAdmin(t.app);
    const list = await t.app.inject({ method: 'GET', url: `/v1/tenant/tenant-audits?name=${username}`, headers: { authorization: admin } });
    expect(list.json().list[0]).toMatchObject({
      name: username,
      status: 0,
      audited: false,
      email,
      organization_name: 'Fleet Co',
      manager_username: username,
    });
    // the same payload again: the codes are gone, the names taken
    const again = note((await post(payload)).json());
    expect(byField(again)).toMatchObject({ mobile: '007', username: '009', email: '016' });
  });

  it('closes merchant registration and requires a valid merchant ID for owners (020)', async () => {
    const merchant = await post({ tenant_type: 1 });
    expect(merchant.statusCode).toBe(403);
    expect(merchant.json().code).toBe('register.merchant-closed');
    expect(merchant.json().message).toMatch(/e-mail/);

    expect(byField(note((await post({ tenant_type: 2 })).json())).merchant_id).toBe('020');
    expect(byField((await post({ tenant_type: 2, merchant_id: '00000000-0000-0000-0000-000000000000' })).json()).merchant_id).toBe('020');

    // a real merchant (made one by the platform) lets an owner register under it
    const m = await activeTenant(t);
    const admin = await loginAdmin(t.app);
    await t.database.raw.query('update tenants set tenant_type = 1 where id = $1', [m.tenantId]);
    const owner = await register(t, { tenant_type: 2, merchant_id: m.tenantId });
    const row = await t.app.inject({
      method: 'GET',
      url: `/v1/tenant/tenant-audits?name=${owner.username}`,
      headers: { authorization: admin },
    });
    expect(row.json().list[0]).toMatchObject({ tenant_type: 2, merchant_id: m.tenantId });
  });

  it('answers a race for the same account with one account and a clear 4xx, never a 500', async () => {
    const m = mobile();
    const code = await sendAndRead(t, 1, m, 'register');
    const username = `race_${Date.now() % 1e6}`;
    const payload = { mobile: m, mobile_verification_code: code, username, password: 'Passw0rd!', confirmPassword: 'Passw0rd!' };
    const [a, b] = await Promise.all([post(payload), post(payload)]);
    const [winner, loser] = a.statusCode === 201 ? [a, b] : [b, a];
    expect(winner.statusCode).toBe(201);
    // The loser either met the checks after the winner's insert (name, mobile or code taken) or passed
    // them at the same time and lost at the database: which, depends on timing.
    const codes = errors(note(loser.json())).map((e) => e.code);
    if (loser.statusCode === 409) expect(codes).toEqual(['iot-http.409']);
    else {
      expect(loser.statusCode).toBe(400);
      for (const c of codes) expect(['007', '009', '018']).toContain(c);
    }
    const users = await t.database.raw.query<{ n: number }>('select count(*)::int as n from users where username = $1', [username]);
    expect(users.rows[0].n).toBe(1);
  });

  it('answers iot-http.409 when a registration passes its checks and loses at the database', async () => {
    const raw = t.database.raw;
    const accounts = accountsRepository(raw);
    // The checks as a racing request saw them: nothing taken yet, its code valid.
    const racing = { ...accounts, nameTaken: async () => false, mobileTaken: async () => false, emailTaken: async () => false };
    const codes = { check: async () => 'ok', consume: async () => {} } as unknown as VerificationService;
    const svc = registrationService({ raw, accounts: racing, codes });
    const req = RegistrationRequestSchema.parse({
      mobile: mobile(),
      mobile_verification_code: '123456',
      username: `lost_${Date.now() % 1e6}`,
      password: 'Passw0rd!',
      confirmPassword: 'Passw0rd!',
    });
    await svc.register(req);
    await expect(svc.register(req)).rejects.toMatchObject({ status: 409, body: { code: 'iot-http.409' } });
  });

  it('has covered every registration code of §8', () => {
    for (const c of [
      '002',
      '004',
      '005',
      '006',
      '007',
      '008',
      '009',
      '010',
      '011',
      '012',
      '013',
      '014',
      '015',
      '016',
      '017',
      '018',
      '019',
      '020',
      '021',
    ]) {
      expect(codesSeen, c).toContain(c);
    }
  });
});

describe('user-tenant-validate', () => {
  const validate = (field: string, value: string) =>
    t.app.inject({ method: 'GET', url: `/v1/tenant/user-tenant-validate?field=${field}&value=${encodeURIComponent(value)}` });

  it('answers format and uniqueness of a mobile or a name', async () => {
    const r = await activeTenant(t);
    expect((await validate('mobile', mobile())).json()).toEqual({ field: 'mobile', valid: true });
    expect((await validate('mobile', '')).json().code).toBe('002');
    expect((await validate('mobile', '1234')).json().code).toBe('004');
    expect((await validate('mobile', r.mobile)).json().code).toBe('007');
    expect((await validate('name', 'fresh_name_1')).json()).toEqual({ field: 'name', valid: true });
    expect((await validate('name', '')).json().code).toBe('013');
    expect((await validate('name', '9lives')).json().code).toBe('008');
    expect((await validate('name', r.username)).json().code).toBe('009');
    const intl = await t.app.inject({ method: 'GET', url: `/v1/tenant/user-tenant-validate?field=mobile&value=91234567&area_code=852` });
    expect(intl.json().valid).toBe(true);
  });
});
