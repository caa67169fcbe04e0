import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeTenant, mobile, register, requestCode, sendAndRead } from './accounts.factory.ts';
import { createTestApp, loginAdmin, type TestApp } from './helper.ts';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await loginAdmin(t.app);
});
afterAll(async () => {
  await t?.close();
});

const call = (method: 'GET' | 'PUT', url: string, auth: string, payload?: object) =>
  t.app.inject({ method, url, headers: { authorization: auth }, ...(payload ? { payload } : {}) });

describe('tenant review and administration (system manager)', () => {
  it("writes the review's notice in the tenant's language, with the reason", async () => {
    const c = await register(t);
    await t.database.raw.query(`insert into tenant_customizations (tenant_id, key, value) values ($1, 'systemLanguage', 'en')`, [
      c.tenantId,
    ]);
    const no = await call('PUT', `/v1/tenant/tenants/${c.tenantId}/audit/0`, admin, { notify: true, remark: 'no licence attached' });
    expect(no.statusCode, no.body).toBe(200);
    const sms = await t.database.raw.query<{ text: string }>(`select text from push_logs where destination = $1 and purpose = 'audit'`, [
      c.mobile,
    ]);
    expect(sms.rows.map((r) => r.text)).toEqual([
      `Your Loggerhead account ${c.username} was not approved. Reason: no licence attached. Please contact us for details.`,
    ]);
  });

  it('lists pending tenants, approves with a notice, rejects, and counts them', async () => {
    const before = (await call('GET', '/v1/tenant/tenant-audit-statistic', admin)).json();
    const a = await register(t, { email: undefined });
    const b = await register(t);
    const mid = (await call('GET', '/v1/tenant/tenant-audit-statistic', admin)).json();
    expect(mid.pending).toBe(before.pending + 2);
    expect(mid.total).toBe(before.total + 2);

    const audits = (await call('GET', '/v1/tenant/tenant-audits', admin)).json();
    expect(audits.page_size).toBe(20);
    const names = audits.list.map((x: { name: string }) => x.name);
    expect(names).toEqual(expect.arrayContaining([a.username, b.username]));
    expect(audits.list.every((x: { status: number }) => x.status === 0)).toBe(true);
    // newest first
    expect(names.indexOf(b.username)).toBeLessThan(names.indexOf(a.username));

    const ok = await call('PUT', `/v1/tenant/tenants/${a.tenantId}/audit/1`, admin, { notify: true });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ id: a.tenantId, status: 1, audited: true });
    const notice = await t.database.raw.query<{ channel: string; purpose: string; text: string; status: string }>(
      `select channel, purpose, text, status from push_logs where destination = $1 and purpose = 'audit'`,
      [a.mobile],
    );
    expect(notice.rows).toHaveLength(1);
    expect(notice.rows[0]).toMatchObject({ channel: 'sms', status: 'logged' });
    // in the tenant's language: Chinese unless it chose English
    expect(notice.rows[0].text).toBe(`您的Loggerhead账号 ${a.username} 已通过审核，现在可以登录。`);
    const inApp = await t.database.raw.query<{ n: number; texts: { zh: { title: string }; en: { title: string } } }>(
      `select count(*) over ()::int as n, texts from user_messages where tenant_id = $1 and user_id = $2`,
      [a.tenantId, a.userId],
    );
    expect(inApp.rows[0].n).toBe(1);
    // in-app in both languages: the inbox answers in the reader's
    expect(inApp.rows[0].texts.zh.title).toBe('Loggerhead 账号已通过审核');
    expect(inApp.rows[0].texts.en.title).toBe('Loggerhead account approved');

    const no = await call('PUT', `/v1/tenant/tenants/${b.tenantId}/audit/0`, admin, { notify: false, remark: 'incomplete' });
    expect(no.json()).toMatchObject({ status: 2, audited: true });
    const silent = await t.database.raw.query(`select 1 from push_logs where destination = $1 and purpose = 'audit'`, [b.mobile]);
    expect(silent.rows).toHaveLength(0);
    const rejectedLogin = await t.app.inject({
      method: 'POST',
      url: '/v1/control/sessions',
      payload: { username: b.username, password: b.password, type: 1 },
    });
    expect(rejectedLogin.statusCode).toBe(403);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/v1/control/sessions',
          payload: { username: a.username, password: a.password, type: 1 },
        })
      ).statusCode,
    ).toBe(200);

    const after = (await call('GET', '/v1/tenant/tenant-audit-statistic', admin)).json();
    expect(after).toMatchObject({ pending: before.pending, active: before.active + 1, rejected: before.rejected + 1 });
    expect((await call('PUT', `/v1/tenant/tenants/${b.tenantId}/audit/2`, admin, {})).statusCode).toBe(400);
    expect((await call('PUT', '/v1/tenant/tenants/00000000-0000-4000-8000-000000000000/audit/1', admin, {})).statusCode).toBe(404);
  });

  it('filters the tenant list by name, mobile and status, 20 per page by default', async () => {
    const r = await activeTenant(t, { organization_name: 'Zebra Haulage' });
    const byName = (await call('GET', `/v1/tenant/tenants?name=${r.username}`, admin)).json();
    expect(byName.list.map((x: { id: string }) => x.id)).toEqual([r.tenantId]);
    expect(byName.page_size).toBe(20);
    const byOrg = (await call('GET', '/v1/tenant/tenants?name=zebra', admin)).json();
    expect(byOrg.list.map((x: { id: string }) => x.id)).toEqual([r.tenantId]);
    const byMobile = (await call('GET', `/v1/tenant/tenants?mobile=${r.mobile}`, admin)).json();
    expect(byMobile.list.map((x: { id: string }) => x.id)).toEqual([r.tenantId]);
    const active = (await call('GET', '/v1/tenant/tenants?status=1&page_size=500', admin)).json();
    expect(active.list.every((x: { status: number }) => x.status === 1)).toBe(true);
    expect(active.list.map((x: { name: string }) => x.name)).not.toContain('platform');
    // like-wildcards in the filter are taken literally
    expect((await call('GET', '/v1/tenant/tenants?name=%25', admin)).json().total).toBe(0);
  });

  it('updates a tenant; disabling it ends its sessions', async () => {
    const r = await activeTenant(t);
    const res = await call('PUT', `/v1/tenant/tenants/${r.tenantId}`, admin, {
      priority: 5,
      city: 'Ningbo',
      return_visit_time: 1_700_000_000_000,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ priority: 5, city: 'Ningbo', return_visit_time: 1_700_000_000_000 });
    expect((await call('GET', '/v1/tenant/users/self', r.auth)).statusCode).toBe(200);
    expect((await call('PUT', `/v1/tenant/tenants/${r.tenantId}`, admin, { status: 3 })).json().status).toBe(3);
    expect((await call('GET', '/v1/tenant/users/self', r.auth)).statusCode).toBe(401);
  });

  it('exports the tenant list as CSV, neutralising formulas', async () => {
    const r = await activeTenant(t, { organization_name: '=HYPERLINK("x")' });
    const res = await call('GET', `/v1/tenant/tenants-csv-file?name=${r.username}`, admin);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="tenants-/);
    const lines = res.body
      .replace(/^\ufeff/, '')
      .trim()
      .split('\r\n');
    expect(lines[0].split(',')).toEqual(expect.arrayContaining(['id', 'name', 'organization_name', 'mobile', 'status']));
    expect(lines).toHaveLength(2);
    // Text is quoted where it needs it (lib/csv.ts): a plain name as it is.
    expect(lines[1]).toContain(`,${r.username},`);
    expect(lines[1]).toContain(`"'=HYPERLINK(""x"")"`);
  });

  it('keeps all of this from tenant managers', async () => {
    const r = await activeTenant(t);
    for (const [method, url] of [
      ['GET', '/v1/tenant/tenants'],
      ['GET', '/v1/tenant/tenant-audits'],
      ['GET', '/v1/tenant/tenant-audit-statistic'],
      ['GET', '/v1/tenant/tenants-csv-file'],
      ['PUT', `/v1/tenant/tenants/${r.tenantId}`],
      ['PUT', `/v1/tenant/tenants/${r.tenantId}/audit/1`],
      ['GET', '/v1/notification/push-logs'],
    ] as const) {
      const res = await call(method, url, r.auth, method === 'PUT' ? {} : undefined);
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toEqual({ code: 'http.403', message: 'Not allowed to access' });
    }
  });
});

describe('push log', () => {
  it('shows codes sent, newest first, filtered by destination, 10 per page', async () => {
    const r = await activeTenant(t);
    const code = await sendAndRead(t, 1, r.mobile, 'login');
    const res = await call('GET', `/v1/notification/push-logs?destination=${r.mobile}`, admin);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ current_page: 1, page_size: 10 });
    expect(body.list.map((e: { purpose: string }) => e.purpose)).toEqual(['login', 'register']);
    expect(body.list[0]).toMatchObject({ destination: r.mobile, channel: 'sms', status: 'logged' });
    expect(body.list[0].text).toContain(code);
    for (let i = 0; i < 11; i++) await requestCode(t.app, 1, mobile(), 'register');
    const all = (await call('GET', '/v1/notification/push-logs', admin)).json();
    expect(all.list).toHaveLength(10);
    expect(all.total).toBeGreaterThan(10);
    const page2 = (await call('GET', '/v1/notification/push-logs?current_page=2', admin)).json();
    expect(page2.list[0].id).not.toBe(all.list[0].id);
    expect(page2.list[0].created_at).toBeLessThanOrEqual(all.list[9].created_at);
    const times = all.list.map((e: { created_at: number }) => e.created_at);
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });
});
