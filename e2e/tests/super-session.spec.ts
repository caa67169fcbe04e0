import { Api } from '../support/api.ts';
import { seedDevice } from '../support/devices.ts';
import { registerTenant } from '../support/fixtures.ts';
import { button, expect, signIn, test } from '../support/test.ts';

interface OpLog {
  method: string;
  path: string;
  status: number;
  username: string | null;
  super_session?: boolean;
}

/**
 * Issue "Platform administration and organisation", super-session: the system manager opens a
 * tenant's console from the tenant list, read-only; it sees the tenant's devices, a change is
 * refused, and the tenant's operation log and the platform's both show the use.
 */
test('a system manager opens a tenant console read-only: its devices show, a write is refused, both logs show it', async ({
  page,
  admin,
  adminApi,
}) => {
  const tenant = await registerTenant(adminApi, 'viewed');
  const manager = new Api(adminApi.baseURL);
  await manager.login({ username: tenant.username, password: tenant.password });
  const device = await seedDevice(manager, tenant.tenantId, `Viewed truck ${tenant.username}`);
  const { tenant_id: platform } = await adminApi.get<{ tenant_id: string }>('/tenant/users/self');

  await signIn(page, admin, '/Container/SystemManager/SystemSetting?tab=tenants');
  await page.getByTestId(`tenant-console-${tenant.username}`).click();
  await page
    .getByRole('dialog')
    .getByRole('button', { name: button('进入控制台') })
    .click();
  await expect(page.getByTestId('super-session')).toContainText('只读');

  await page.goto('/Container/HomePage');
  await expect(page.getByTestId('device-table')).toContainText(device.name);

  // A change, sent as the console sends it, with the super-session's token: refused with its code.
  const refused = await page.evaluate(
    async ({ tenantId, thingsId }) => {
      const res = await fetch(`/v1/things/tenants/${tenantId}/things/${thingsId}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${localStorage.getItem('token')}` },
        body: JSON.stringify({ name: 'Renamed' }),
      });
      return { status: res.status, body: await res.json() };
    },
    { tenantId: tenant.tenantId, thingsId: device.id },
  );
  expect(refused).toMatchObject({ status: 403, body: { code: 'super-session.read-only' } });
  expect((await manager.get<{ name: string }>(`/things/tenants/${tenant.tenantId}/things/${device.id}`)).name).toBe(device.name);

  // Both operation logs: the opening and the refused change, under the system manager's name, marked.
  for (const [api, tenantId] of [
    [manager, tenant.tenantId],
    [adminApi, platform],
  ] as const) {
    const logs = await api.get<{ list: OpLog[] }>(`/data-mgmt/tenants/${tenantId}/op-logs?current_page=1&page_size=50`);
    const marked = logs.list.filter((l) => l.super_session).map((l) => [l.username, l.method, l.path, l.status]);
    expect(marked).toContainEqual([admin.username, 'POST', '/v1/control/super-session', 200]);
    expect(marked).toContainEqual([admin.username, 'PUT', '/v1/things/tenants/:tenant_id/things/:things_id', 403]);
  }
});
