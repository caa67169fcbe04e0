import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCK_AFTER_FAILURES, LOCK_MINUTES } from '../src/modules/control/control.service.ts';
import { activeTenant, ip, loginAs, mobile, requestCode, sendAndRead } from './accounts.factory.ts';
import { createTestApp, type TestApp } from './helper.ts';

/**
 * No answer of the public login, code and reset calls tells a real account from a name nobody
 * has: failures are counted per login name whether an account has it or not, and the lock-out
 * shows for both alike; a locked account stays locked, even for its right password.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

type Answer = { status: number; code: string; message: string; locked: boolean };
/** What a caller learns from an answer; the seconds left of a lock only as "a lock of about 15 minutes". */
function seen(res: Awaited<ReturnType<typeof loginAs>>): Answer {
  const body = res.json();
  const seconds = body.details?.seconds;
  if (seconds !== undefined) {
    expect(seconds).toBeGreaterThan(LOCK_MINUTES * 60 - 60);
    expect(seconds).toBeLessThanOrEqual(LOCK_MINUTES * 60);
  }
  return { status: res.statusCode, code: body.code, message: body.message, locked: seconds !== undefined };
}

/** The answers to `n` wrong passwords and then the given last password. */
async function tries(login: string, n: number, last: string, url = '/v1/control/sessions'): Promise<Answer[]> {
  const out: Answer[] = [];
  for (let i = 0; i < n; i++) {
    out.push(seen(await t.app.inject({ method: 'POST', url, payload: { username: login, password: `Wrong-pass${i}`, type: 1 } })));
  }
  out.push(seen(await t.app.inject({ method: 'POST', url, payload: { username: login, password: last, type: 1 } })));
  return out;
}

const wrong = { status: 401, code: 'auth.bad-credentials', message: 'Username or password incorrect', locked: false };
const locked = {
  status: 423,
  code: 'auth.locked',
  message: 'Too many failed logins with this name: try again in a few minutes',
  locked: true,
};

describe('password login', () => {
  it('answers a real account and an unknown name alike, wrong after wrong, then locked', async () => {
    const r = await activeTenant(t);
    const real = await tries(r.username, LOCK_AFTER_FAILURES, r.password);
    const unknown = await tries(`nobody_${Date.now()}`, LOCK_AFTER_FAILURES, r.password);
    expect(real).toEqual([...Array(LOCK_AFTER_FAILURES).fill(wrong), locked]);
    expect(unknown).toEqual(real);
    // The right password during the lock opened no session.
    const s = await t.database.raw.query<{ n: number }>('select count(*)::int as n from sessions where user_id = $1', [r.userId]);
    expect(s.rows[0].n).toBe(1); // the one activeTenant logged in with
  });

  it('keeps a locked account locked through its other name, answering as for an unknown name', async () => {
    const r = await activeTenant(t);
    await tries(r.username, LOCK_AFTER_FAILURES - 1, 'Wrong-again1');
    // the account is locked now; its mobile has no failures of its own yet
    const byMobile = await tries(r.mobile, LOCK_AFTER_FAILURES, r.password);
    const stranger = await tries(mobile(), LOCK_AFTER_FAILURES, r.password);
    expect(byMobile).toEqual(stranger);
    expect((await loginAs(t.app, r.mobile, r.password)).statusCode).toBe(423);
    // the tenant-manager call is the same door
    const mgr = await t.app.inject({
      method: 'POST',
      url: '/v1/control/sessions/tenant-manager',
      payload: { username: r.username, password: r.password, type: 1 },
    });
    expect(seen(mgr)).toEqual(locked);

    // Lock over, for the account and its names: the right password works and the count starts again.
    await t.database.raw.query(`update users set locked_until = now() - interval '1 second' where id = $1`, [r.userId]);
    await t.database.raw.query(`update login_failures set locked_until = now() - interval '1 second' where login = any($1)`, [
      [r.username, r.mobile],
    ]);
    expect((await loginAs(t.app, r.mobile, r.password)).statusCode).toBe(200);
    const left = await t.database.raw.query('select login from login_failures where login = $1', [r.mobile]);
    expect(left.rows).toHaveLength(0);
  });

  it('locks an account through the password re-confirmation too, without telling the login page', async () => {
    const r = await activeTenant(t);
    for (let i = 0; i < LOCK_AFTER_FAILURES; i++) {
      await t.app.inject({ method: 'POST', url: '/v1/control/reauth', headers: { authorization: r.auth }, payload: { password: 'nope' } });
    }
    expect(seen(await loginAs(t.app, r.username, r.password))).toEqual(wrong);
  });

  it('forgets the failures of a name once its account logs in', async () => {
    const r = await activeTenant(t);
    const first = await tries(r.username, LOCK_AFTER_FAILURES - 2, r.password);
    expect(first.map((a) => a.status)).toEqual([...Array(LOCK_AFTER_FAILURES - 2).fill(401), 200]);
    // counted on from there, these wrong tries would have locked the name
    const again = await tries(r.username, LOCK_AFTER_FAILURES - 1, r.password);
    expect(again.map((a) => a.status)).toEqual([...Array(LOCK_AFTER_FAILURES - 1).fill(401), 200]);
  });
});

describe('code login, reset and codes', () => {
  it('opens a locked account with a code sent to its mobile: a password guesser cannot keep its owner out', async () => {
    const r = await activeTenant(t);
    expect((await tries(r.username, LOCK_AFTER_FAILURES, r.password)).at(-1)).toEqual(locked);
    const code = await sendAndRead(t, 1, r.mobile, 'login');
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/control/sessions',
      remoteAddress: ip(),
      payload: { username: r.mobile, password: code, type: 2 },
    });
    expect(res.statusCode).toBe(200);
    // The account's own lock ends with it; the lock of the name that was guessed runs its course.
    const u = await t.database.raw.query<{ locked_until: Date | null; failed_logins: number }>(
      'select locked_until, failed_logins from users where id = $1',
      [r.userId],
    );
    expect(u.rows[0]).toEqual({ locked_until: null, failed_logins: 0 });
    expect(seen(await loginAs(t.app, r.username, r.password))).toEqual(locked);
  });

  it('sends a code to any number alike, registered or not', async () => {
    const r = await activeTenant(t);
    // past the 60 s wait of the registration code
    await t.database.raw.query(`update verification_codes set created_at = created_at - interval '61 seconds' where destination = $1`, [
      r.mobile,
    ]);
    const known = await requestCode(t.app, 1, r.mobile, 'login');
    const unknown = await requestCode(t.app, 1, mobile(), 'login');
    expect(known.statusCode).toBe(201);
    expect({ status: unknown.statusCode, body: unknown.json() }).toEqual({ status: known.statusCode, body: known.json() });
  });

  it('answers a wrong login code alike for a registered and an unregistered number', async () => {
    const r = await activeTenant(t);
    const stranger = mobile();
    const answers = [];
    for (const m of [r.mobile, stranger]) {
      const code = await sendAndRead(t, 1, m, 'login');
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/control/sessions',
        remoteAddress: ip(),
        payload: { username: m, password: code === '000000' ? '111111' : '000000', type: 2 },
      });
      answers.push({ status: res.statusCode, body: res.json() });
    }
    expect(answers[0]).toEqual({ status: 401, body: { code: 'auth.bad-code', message: 'Code incorrect' } });
    expect(answers[1]).toEqual(answers[0]);
  });

  it('answers a wrong reset code alike for a registered and an unregistered number', async () => {
    const r = await activeTenant(t);
    const answers = [];
    for (const m of [r.mobile, mobile()]) {
      const code = await sendAndRead(t, 1, m, 'modify');
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/tenant/reset-password',
        payload: {
          type: 1,
          source: m,
          verification_code: code === '000000' ? '111111' : '000000',
          new_password: 'Reset-Pass9',
          user_type: -1,
        },
      });
      answers.push({ status: res.statusCode, body: res.json() });
    }
    expect(answers[0]).toMatchObject({ status: 400, body: { code: '018', field: 'verification_code' } });
    expect(answers[1]).toEqual(answers[0]);
  });
});
