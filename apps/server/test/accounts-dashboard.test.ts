import { DEFAULT_DASHBOARD_TYPE, defaultDashboardName } from '@loggerhead/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeTenant, loginAs, mobile } from './accounts.factory.ts';
import { createTestApp, type TestApp } from './helper.ts';

/** The manager's default dashboard (spec §3 dashboard, §4 login, §6 only the manager creates it). */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const url = (tenantId: string, type = DEFAULT_DASHBOARD_TYPE) => `/v1/data-mgmt/tenants/${tenantId}/dashboards?business_type=${type}`;
const list = (tenantId: string, auth: string) => t.app.inject({ method: 'GET', url: url(tenantId), headers: { authorization: auth } });
const create = (tenantId: string, auth: string, body: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: `/v1/data-mgmt/tenants/${tenantId}/dashboards`, headers: { authorization: auth }, payload: body });

async function subUser(mgr: { tenantId: string; auth: string; username: string }, name: string, grants: string[]) {
  const m = mobile();
  const res = await t.app.inject({
    method: 'POST',
    url: `/v1/tenant/tenants/${mgr.tenantId}/users`,
    headers: { authorization: mgr.auth },
    payload: { username: name, mobile: m, grants },
  });
  expect(res.statusCode).toBe(201);
  const login = await loginAs(t.app, `${name}@${mgr.username}`, m.slice(-8));
  return `Bearer ${login.json().token}`;
}

describe('default dashboard', () => {
  it('is created once per tenant, by the manager only, and every user of the tenant finds it', async () => {
    const mgr = await activeTenant(t);
    const writer = await subUser(mgr, 'dash_writer', ['data-mgmt:dashboard:create']);
    const reader = await subUser(mgr, 'dash_reader', []);

    expect((await list(mgr.tenantId, mgr.auth)).json().list).toEqual([]);

    // A sub-user may hold the create key, yet the default dashboard is the manager's to make.
    const bySub = await create(mgr.tenantId, writer, { business_type: DEFAULT_DASHBOARD_TYPE, name: 'x' });
    expect(bySub.statusCode).toBe(403);
    expect(bySub.json().code).toBe('http.403');

    const name = defaultDashboardName(mgr.userId);
    const made = await create(mgr.tenantId, mgr.auth, { business_type: DEFAULT_DASHBOARD_TYPE, name });
    expect(made.statusCode).toBe(201);
    expect(made.json()).toMatchObject({ tenant_id: mgr.tenantId, owner_id: mgr.userId, business_type: DEFAULT_DASHBOARD_TYPE, name });
    expect(name).toBe(`${mgr.userId}candtu_dashboard_default`);

    const again = await create(mgr.tenantId, mgr.auth, { business_type: DEFAULT_DASHBOARD_TYPE, name });
    expect(again.statusCode).toBe(409);

    for (const auth of [mgr.auth, writer, reader]) {
      const got = (await list(mgr.tenantId, auth)).json().list;
      expect(got.map((d: { id: string }) => d.id)).toEqual([made.json().id]);
    }

    // Other dashboards need the create key.
    expect((await create(mgr.tenantId, writer, { business_type: 'custom', name: 'mine' })).statusCode).toBe(201);
    expect((await create(mgr.tenantId, reader, { business_type: 'custom', name: 'mine' })).statusCode).toBe(403);
    expect((await list(mgr.tenantId, mgr.auth)).json().list).toHaveLength(1);
  });

  it('never shows or accepts another tenant’s dashboards', async () => {
    const a = await activeTenant(t);
    const b = await activeTenant(t);
    await create(a.tenantId, a.auth, { business_type: DEFAULT_DASHBOARD_TYPE, name: defaultDashboardName(a.userId) });
    const peek = await list(a.tenantId, b.auth);
    expect(peek.statusCode).toBe(403);
    expect(peek.body).not.toContain(a.userId);
    expect((await create(a.tenantId, b.auth, { business_type: 'custom', name: 'x' })).statusCode).toBe(403);
    expect((await list(b.tenantId, b.auth)).json().list).toEqual([]);
  });

  it('the read-only experience tenant has its default dashboard seeded', async () => {
    const demo = await createTestApp({ experience: true });
    try {
      const s = await demo.app.inject({ method: 'POST', url: '/v1/control/sessions/experience' });
      const auth = `Bearer ${s.json().token}`;
      const self = (await demo.app.inject({ method: 'GET', url: '/v1/tenant/users/self', headers: { authorization: auth } })).json();
      const got = await demo.app.inject({ method: 'GET', url: url(self.tenant_id), headers: { authorization: auth } });
      expect(got.json().list).toEqual([expect.objectContaining({ owner_id: self.id, name: defaultDashboardName(self.id) })]);
    } finally {
      await demo.close();
    }
  });

  it('validates the business type and name', async () => {
    const mgr = await activeTenant(t);
    const bad = await create(mgr.tenantId, mgr.auth, { business_type: 'has space', name: '' });
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json())).toContain('http.400');
  });
});
