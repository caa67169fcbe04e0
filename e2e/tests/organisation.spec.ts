import type { Page } from '@playwright/test';
import { type SeededDevice, seedDevice, startRemoteDevice } from '../support/devices.ts';
import { ownServerTest as test } from '../support/own-server.ts';
import { button, dialogOpened, expect, loginThroughForm, pickOption } from '../support/test.ts';

/**
 * Issue "Platform administration and organisation", organisation for tenants, done when: a tenant
 * labels devices and filters by label; creates a group of three simulated devices and sends one
 * group command that each answers. Devices are seeded through the API; everything else is done
 * in the console. The simulated loggers need the broker's port, so the file runs its own server.
 */

/** The rows of the home page's device list that are shown now. */
const deviceRows = (page: Page) => page.getByTestId('device-table').locator('tbody tr.ant-table-row');

async function labelDevice(page: Page, device: SeededDevice, label: string, value: string) {
  const row = deviceRows(page).filter({ hasText: device.name });
  await row.getByTestId('edit-labels').click();
  const dialog = page.getByRole('dialog', { name: '编辑设备标签' });
  await dialogOpened(dialog);
  await dialog.getByTestId('label-add').click();
  await pickOption(page, 'label-pick', label);
  await dialog.getByTestId('label-value').fill(value);
  await dialog.getByRole('button', { name: button('保存') }).click();
  await expect(dialog).toBeHidden();
  await expect(row.getByTestId('device-labels')).toContainText(`${label}: ${value}`);
}

test('a tenant makes a label, labels two of three devices and filters the device list by label and value', async ({
  page,
  admin,
  adminApi,
}) => {
  const { tenant_id: tenant } = await adminApi.get<{ tenant_id: string }>('/tenant/users/self');
  const suffix = Math.random().toString(36).slice(2, 6);
  const north = await seedDevice(adminApi, tenant, `North van ${suffix}`);
  const south = await seedDevice(adminApi, tenant, `South van ${suffix}`);
  const plain = await seedDevice(adminApi, tenant, `Plain van ${suffix}`);
  const label = `route-${suffix}`;

  await loginThroughForm(page, admin);
  // The label registry: one label with its usual value.
  await page.goto('/Container/LabelManager');
  await page.getByTestId('add-label').click();
  const form = page.getByRole('dialog', { name: '添加标签' });
  await dialogOpened(form);
  await form.getByTestId('label-name').fill(label);
  await form.getByTestId('label-default-value').fill('north');
  await form.getByRole('button', { name: button('确定') }).click();
  await expect(page.getByTestId('label-table')).toContainText(label);

  // The device label editor on the device list: the value starts from the label's own.
  await page.goto('/Container/HomePage');
  await page.getByTestId('device-search').locator('input').fill(suffix);
  await page.getByTestId('device-search').locator('input').press('Enter');
  await expect(deviceRows(page)).toHaveCount(3);
  const northRow = deviceRows(page).filter({ hasText: north.name });
  await northRow.getByTestId('edit-labels').click();
  const editor = page.getByRole('dialog', { name: '编辑设备标签' });
  await dialogOpened(editor);
  await editor.getByTestId('label-add').click();
  await pickOption(page, 'label-pick', label);
  await expect(editor.getByTestId('label-value')).toHaveValue('north');
  await editor.getByRole('button', { name: button('保存') }).click();
  await expect(northRow.getByTestId('device-labels')).toContainText(`${label}: north`);
  await labelDevice(page, south, label, 'south');

  // Filtering by the label, then by its value.
  await pickOption(page, 'label-filter', label);
  await expect(deviceRows(page)).toHaveCount(2);
  await expect(page.getByTestId('device-table')).toContainText(north.name);
  await expect(page.getByTestId('device-table')).toContainText(south.name);
  await expect(page.getByTestId('device-table')).not.toContainText(plain.name);
  await page.getByTestId('label-value-filter').locator('input').fill('south');
  await page.getByTestId('label-value-filter').locator('input').press('Enter');
  await expect(deviceRows(page)).toHaveCount(1);
  await expect(deviceRows(page)).toContainText(south.name);

  // What the console shows is what the server stored.
  const stored = await adminApi.get<{ labels: { tenantLabelId: string; labelValue: string }[] }>(
    `/things/tenants/${tenant}/things/${south.id}`,
  );
  const registry = await adminApi.get<{ id: string; label: string }[]>(`/tenant/tenants/${tenant}/labels/batch`);
  expect(stored.labels).toEqual([{ tenantLabelId: registry.find((l) => l.label === label)?.id, labelValue: 'south' }]);
  const registryLabel = registry.find((l) => l.label === label) as { id: string };
  expect((await adminApi.get<{ labels: unknown[] }>(`/things/tenants/${tenant}/things/${plain.id}`)).labels).toEqual([]);
  expect((await adminApi.get<{ things_count: number }>(`/tenant/tenants/${tenant}/labels/${registryLabel.id}`)).things_count).toBe(2);
});

test('a tenant groups three simulated loggers and sends one group command that each answers', async ({ page, own, admin, adminApi }) => {
  test.setTimeout(120_000);
  const { tenant_id: tenant } = await adminApi.get<{ tenant_id: string }>('/tenant/users/self');
  const suffix = Math.random().toString(36).slice(2, 6);
  const devices = [
    await seedDevice(adminApi, tenant, `Fleet A ${suffix}`),
    await seedDevice(adminApi, tenant, `Fleet B ${suffix}`),
    await seedDevice(adminApi, tenant, `Fleet C ${suffix}`),
  ];
  const loggers = [];
  try {
    for (const d of devices) loggers.push(await startRemoteDevice(own, adminApi, tenant, d));
    await loginThroughForm(page, admin);
    await page.goto('/Container/GroupManager');
    await page.getByTestId('add-group').click();
    const form = page.getByRole('dialog', { name: '添加分组' });
    await dialogOpened(form);
    const name = `Fleet ${suffix}`;
    await form.getByTestId('group-name').fill(name);
    await form.getByRole('button', { name: button('确定') }).click();
    const row = page.getByTestId('group-table').locator('tr', { hasText: name });
    await expect(row).toBeVisible();

    // Its devices.
    await row.getByTestId('group-members-open').click();
    for (const d of devices) await pickOption(page, 'group-device-pick', `${d.name} (${d.third_things_id})`);
    await page.getByTestId('group-bind').click();
    const members = page.getByTestId('group-members').locator('tbody tr.ant-table-row');
    await expect(members).toHaveCount(3);
    // Closed by its own button: an Escape would close the device picker's list instead, leaving
    // the drawer over the table.
    await page.locator('.ant-drawer-open .ant-drawer-close').click();
    await expect(page.getByTestId('group-members')).toBeHidden();
    await expect(row).toContainText('3');

    // One command for all three.
    await row.getByTestId('group-commands-open').click();
    await page.getByTestId('group-command-description').fill('wake up');
    await page.getByTestId('group-command-params').fill(JSON.stringify({ frames: [{ channel: 0, id: '0x321', data: 'C0FFEE' }] }));
    await page.getByTestId('group-command-send').click();
    const items = page.getByTestId('group-command-items').locator('tbody tr.ant-table-row');
    await expect(items).toHaveCount(3);
    for (const d of devices) await expect(items.filter({ hasText: d.third_things_id })).toContainText('已应答', { timeout: 30_000 });

    // Each logger's own command answered, as the server has it.
    const groups = await adminApi.get<{ list: { id: string; name: string }[] }>(
      `/out-group-mgmt/tenants/${tenant}/groups?keyword=${suffix}`,
    );
    const group = groups.list.find((g) => g.name === name) as { id: string };
    const sent = await adminApi.get<{ list: { id: string; states: Record<string, number> }[] }>(
      `/out-group-mgmt/tenants/${tenant}/groups/${group.id}/commands`,
    );
    expect(sent.list).toHaveLength(1);
    expect(sent.list[0].states).toEqual({ answered: 3 });
    for (const d of devices) {
      const cmds = await adminApi.get<{ list: { state: string; description: string; operation_params: { frames: { data: string }[] } }[] }>(
        `/things/tenants/${tenant}/things/${d.id}/messages`,
      );
      expect(cmds.list.map((c) => [c.state, c.description])).toEqual([['answered', 'wake up']]);
    }
  } finally {
    for (const l of loggers) await l.stop();
  }
});
