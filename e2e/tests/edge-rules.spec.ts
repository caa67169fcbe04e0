import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startRemoteDevice } from '../support/devices.ts';
import { ownServerTest } from '../support/own-server.ts';
import { dialogOpened, expect, loginThroughForm, pickOption } from '../support/test.ts';

/**
 * An edge-computing rule made in the console is issued to a simulated device of its model, the
 * device's acceptance shows in the issuance history, and its uploads change: the filtered property's
 * stored value stops moving while the others keep coming. The simulated device needs the broker's
 * port, so the test runs a server of its own.
 */
const test = ownServerTest;

interface Twin {
  reported: Record<string, { value: unknown; ts: number }>;
}

test('an edge rule issued from the console is accepted by the simulated device and filters its uploads', async ({
  page,
  own,
  admin,
  adminApi,
}) => {
  test.setTimeout(240_000);
  const tag = randomBytes(3).toString('hex');
  const block = `probe_${tag}`;
  const modelName = `Probe-${tag}`;
  const ruleName = `still-${tag}`;
  const self = await adminApi.get<{ tenant_id: string }>('/tenant/users/self');
  const tenantId = self.tenant_id;

  // Seeded through the API: a block with a drifting temperature and a set point, its model, a device of it.
  const fb = await adminApi.post<{ id: string }>(`/mapping-mgmt/tenants/${tenantId}/function-blocks`, {
    name: block,
    display_name: 'Probe',
    json_schema: {
      status: [
        { identifier: 'temperature', name: 'Temperature', data_type: 1, read_only: true, default_value: 21 },
        { identifier: 'setpoint', name: 'Set point', data_type: 1, default_value: 20 },
      ],
    },
  });
  const model = await adminApi.post<{ id: string }>(`/mapping-mgmt/tenants/${tenantId}/info-models`, {
    name: modelName,
    info_model_fn_blocks: [fb.id],
  });
  const deviceId = randomBytes(10).toString('hex').toUpperCase();
  const thing = await adminApi.post<{ id: string; third_things_id: string; things_key: string }>(`/things/tenants/${tenantId}/things`, {
    third_things_id: deviceId,
    name: `Probe ${tag}`,
    info_model_id: model.id,
    thing_type: 1,
  });
  const blocks = await adminApi.get(`/mapping-mgmt/tenants/${tenantId}/info-models/${model.id}/function-blocks`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loggerhead-edge-e2e-'));
  const blocksFile = path.join(dir, 'blocks.json');
  fs.writeFileSync(blocksFile, JSON.stringify(blocks));
  const sim = await startRemoteDevice(own, adminApi, tenantId, { ...thing, name: 'probe' }, { telemetry: blocksFile, interval: 300 });
  const twin = () => adminApi.get<Twin>(`/things/tenants/${tenantId}/things/${thing.id}/digital-twin`);
  try {
    // Before any rule the temperature drifts in the stored twin.
    await expect.poll(async () => (await twin()).reported[`${block}.temperature`]?.value, { timeout: 20_000 }).not.toBeUndefined();
    const t0 = (await twin()).reported[`${block}.temperature`].value;
    await expect.poll(async () => (await twin()).reported[`${block}.temperature`].value, { timeout: 20_000 }).not.toBe(t0);

    await loginThroughForm(page, admin);
    await page.goto('/Container/DeviceTypeList');
    await page.getByRole('tab', { name: '边缘计算规则' }).click();

    // The rule: upload the temperature only when it moves by more than 1000.
    await page.getByTestId('add-edge-rule').click();
    const dialog = page.getByRole('dialog', { name: '添加边缘计算规则' });
    await dialogOpened(dialog);
    await dialog.getByTestId('edge-name').fill(ruleName);
    await pickOption(page, 'edge-model', modelName);
    await pickOption(page, 'edge-field', `${block}.temperature (Temperature)`);
    await dialog.getByTestId('edge-threshold').fill('1000');
    await dialog.getByTestId('edge-save').click();
    await expect(dialog).toBeHidden();
    const row = page.getByTestId('edge-rule-table').getByRole('row', { name: new RegExp(ruleName) });
    await expect(row).toContainText(`${block}.temperature 变化 > 1000 才上传`);
    await expect(row.getByTestId(`edge-accepted-${ruleName}`)).toHaveText('0 / 0');

    // Issued to the device; the history shows its acceptance, the rule its count.
    await row.getByTestId(`edge-issue-${ruleName}`).click();
    const issue = page.getByRole('dialog', { name: new RegExp(`下发“${ruleName}”`) });
    await dialogOpened(issue);
    await pickOption(page, 'edge-issue-devices', `Probe ${tag} (${deviceId})`);
    await issue.getByTestId('edge-issue-ok').click();
    await expect(issue).toBeHidden();
    const history = page.getByTestId('edge-issuances').getByRole('row', { name: new RegExp(`Probe ${tag}`) });
    await expect(history.getByTestId(`edge-state-Probe ${tag}`)).toHaveText('已接受', { timeout: 20_000 });
    await expect(history).toContainText(`${ruleName} v1`);
    await expect(row.getByTestId(`edge-accepted-${ruleName}`)).toHaveText('1 / 1');

    // The uploads changed: the stored temperature holds still (after the first upload under the rule,
    // which sets its reference) while the set point keeps being reported.
    const setpointAt = async () => (await twin()).reported[`${block}.setpoint`].ts;
    const s1 = await setpointAt();
    await expect.poll(setpointAt, { timeout: 20_000 }).toBeGreaterThan(s1 + 1000);
    const held = (await twin()).reported[`${block}.temperature`];
    const s2 = await setpointAt();
    await expect.poll(setpointAt, { timeout: 20_000 }).toBeGreaterThan(s2 + 2000);
    expect((await twin()).reported[`${block}.temperature`]).toEqual(held);
  } finally {
    await sim.stop();
  }
});
