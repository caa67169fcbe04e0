import fs from 'node:fs';
import { PERMISSIONS } from '@loggerhead/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { createTestApp, openTestDatabase, type TestApp, testConfig } from './helper.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ experience: true });
});
afterAll(async () => {
  await t?.close();
});

const expSession = () => t.app.inject({ method: 'POST', url: '/v1/control/sessions/experience' });

describe('read-only experience account', () => {
  it('opens a session for the seeded demo manager without a password', async () => {
    const res = await expSession();
    expect(res.statusCode).toBe(200);
    const auth = `Bearer ${res.json().token}`;
    const self = (await t.app.inject({ method: 'GET', url: '/v1/tenant/users/self', headers: { authorization: auth } })).json();
    expect(self).toMatchObject({
      username: 'demo',
      isManager: true,
      readOnly: true,
      tenantInfo: { name: 'demo', is_demo: true, status: 1 },
    });
  });

  it('reads but never writes', async () => {
    const auth = `Bearer ${(await expSession()).json().token}`;
    const tenantId = (await t.app.inject({ method: 'GET', url: '/v1/tenant/users/self', headers: { authorization: auth } })).json()
      .tenant_id;
    const h = { authorization: auth };
    expect((await t.app.inject({ method: 'GET', url: `/v1/tenant/tenants/${tenantId}/users`, headers: h })).statusCode).toBe(200);
    const writes = [
      { method: 'PUT' as const, url: '/v1/tenant/users/self', payload: { nick_name: 'Hacker' } },
      { method: 'PUT' as const, url: '/v1/tenant/users/self/password', payload: { old_password: 'x', password: 'Passw0rd!' } },
      { method: 'PUT' as const, url: '/v1/tenant/users/self/tenant', payload: { city: 'Nowhere' } },
      { method: 'POST' as const, url: `/v1/tenant/tenants/${tenantId}/users`, payload: { username: 'intruder', mobile: '13912345678' } },
      {
        method: 'PUT' as const,
        url: `/v1/tenant/tenants/${tenantId}/customization`,
        payload: { data: [{ key: 'systemName', value: 'x' }] },
      },
      { method: 'PUT' as const, url: '/v1/tenant/users/self/configs', payload: { key: 'cols', value: '["a"]' } },
    ];
    for (const w of writes) {
      const res = await t.app.inject({ ...w, headers: h });
      expect(res.statusCode, w.url).toBe(403);
      expect(res.json().code).toBe('http.403');
    }
    const names = (await t.app.inject({ method: 'GET', url: '/v1/control/privileges/self', headers: h }))
      .json()
      .apis.map((a: { name: string }) => a.name);
    expect(names).toContain('things:things:query');
    expect(names).not.toContain('things:things:create');
    expect(names.length).toBeLessThan(PERMISSIONS.length / 2);
  });

  it('is seeded once across restarts and absent when disabled', async () => {
    const { database, drop } = await openTestDatabase();
    try {
      for (let i = 0; i < 2; i++) {
        const config = testConfig({ experience: true });
        const app = await buildApp(config, { database, logger: false });
        await app.close();
        fs.rmSync(config.dataDir, { recursive: true, force: true });
      }
      const { rows } = await database.raw.query<{ n: number }>('select count(*)::int as n from tenants where is_demo');
      expect(rows[0].n).toBe(1);
    } finally {
      await drop();
    }
    const off = await createTestApp({ experience: false });
    try {
      expect((await off.app.inject({ method: 'POST', url: '/v1/control/sessions/experience' })).statusCode).toBe(404);
    } finally {
      await off.close();
    }
  });
});
