import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startRemoteDevice } from '../support/devices.ts';
import { ownServerTest } from '../support/own-server.ts';
import { button, dialogOpened, expect, loginThroughForm, pickOption } from '../support/test.ts';

/**
 * Issue "Device models", done when: a function block with two properties and an operation is
 * defined in the console, an info model made of it, a plain JSON-telemetry device of that model
 * added; its properties are live, a desired value set from the console comes back reported by the
 * simulated device, and a twin rule made in the console fires on it. The simulated device needs
 * the broker's port, so the test runs a server of its own.
 */
const test = ownServerTest;

test('a function block, its info model, a JSON device of it, its live twin and a twin rule firing', async ({
  page,
  own,
  admin,
  adminApi,
}) => {
  test.setTimeout(240_000);
  const tag = randomBytes(3).toString('hex');
  const blockName = `climate_${tag}`;
  const modelName = `Thermostat-${tag}`;
  const deviceId = randomBytes(10).toString('hex').toUpperCase();
  const self = await adminApi.get<{ tenant_id: string }>('/tenant/users/self');
  const tenantId = self.tenant_id;
  await loginThroughForm(page, admin);

  // 1. The function block: a read-only temperature, a writable set point, an operation "boost".
  await page.goto('/Container/DeviceTypeList');
  await page.getByRole('tab', { name: '功能块' }).click();
  await page.getByTestId('add-function-block').click();
  const blockDialog = page.getByRole('dialog', { name: '添加功能块' });
  await dialogOpened(blockDialog);
  await blockDialog.getByTestId('block-name').fill(blockName);
  await blockDialog.getByTestId('block-display-name').fill('Climate');
  await blockDialog.getByTestId('add-prop').click();
  await blockDialog.getByTestId('prop-identifier-0').fill('temperature');
  await blockDialog.getByTestId('prop-name-0').fill('Temperature');
  await blockDialog.getByRole('checkbox', { name: '只读' }).first().check();
  await blockDialog.getByTestId('add-prop').click();
  await blockDialog.getByTestId('prop-identifier-1').fill('setpoint');
  await blockDialog.getByTestId('prop-name-1').fill('Set point');
  await blockDialog.getByTestId('add-op').click();
  await blockDialog.getByTestId('op-identifier-0').fill('boost');
  await blockDialog.getByTestId('op-name-0').fill('Boost');
  await blockDialog.getByTestId('block-save').click();
  await expect(blockDialog).toBeHidden();
  const blockRow = page.getByTestId('function-block-table').getByRole('row', { name: new RegExp(blockName) });
  await expect(blockRow).toContainText('temperature');
  await expect(blockRow).toContainText('setpoint');
  await expect(blockRow).toContainText('boost');

  // 2. The info model of it (an IoT device model by default).
  await page.getByRole('tab', { name: '物模型（设备类型）' }).click();
  await page.getByTestId('add-info-model').click();
  const modelDialog = page.getByRole('dialog', { name: '添加物模型' });
  await dialogOpened(modelDialog);
  await modelDialog.getByTestId('model-name').fill(modelName);
  await pickOption(page, 'model-blocks', `Climate (${blockName})`);
  await modelDialog.getByTestId('model-save').click();
  await expect(modelDialog).toBeHidden();
  const modelRow = page.getByTestId('device-type-table').getByRole('row', { name: new RegExp(modelName) });
  await expect(modelRow).toContainText('Climate');

  // 3. The twin rule: when the set point goes above 25, an event in the device's log.
  await page.getByRole('tab', { name: '孪生规则' }).click();
  await page.getByTestId('add-twin-rule').click();
  const ruleDialog = page.getByRole('dialog', { name: '添加孪生规则' });
  await dialogOpened(ruleDialog);
  await ruleDialog.getByTestId('rule-name').fill(`hot-${tag}`);
  await pickOption(page, 'rule-model', modelName);
  await pickOption(page, 'rule-field-0', `${blockName}.setpoint`);
  await pickOption(page, 'rule-op-0', '>');
  await ruleDialog.getByTestId('rule-value-0').fill('25');
  await ruleDialog.getByTestId('action-message-0').fill('set point high');
  await ruleDialog.getByTestId('rule-save').click();
  await expect(ruleDialog).toBeHidden();
  const ruleRow = page.getByTestId('twin-rule-table').getByRole('row', { name: new RegExp(`hot-${tag}`) });
  await expect(ruleRow).toContainText(`${blockName}.setpoint > 25`);
  await expect(ruleRow).toContainText(modelName);
  await expect(ruleRow.getByTestId(`rule-fires-hot-${tag}`)).toHaveText('0');

  // 4. A device of that model, added on the home page.
  await page.goto('/Container/HomePage');
  await page.getByTestId('add-device').click();
  const add = page.getByRole('dialog', { name: '添加设备' });
  await dialogOpened(add);
  await add.getByLabel('设备 ID').fill(deviceId);
  await add.getByLabel('设备名称').fill(`Thermostat ${tag}`);
  await add.locator('#add-device_info_model_id').click();
  await page.locator('.ant-select-dropdown:visible').getByTitle(modelName, { exact: true }).click();
  await add.getByRole('button', { name: button('确定') }).click();
  const keyDialog = page.getByRole('dialog', { name: '设备接入密钥' });
  const key = (await keyDialog.getByTestId('things-key').textContent()) ?? '';
  expect(key).toMatch(/^[0-9a-f]{32}$/);
  await keyDialog
    .getByRole('button', { name: button('关闭') })
    .last()
    .click();

  // 5. The simulated device plays the model (its blocks as the API gives them), reporting every 500 ms.
  const things = await adminApi.get<{ list: { id: string; third_things_id: string; info_model_id: string }[] }>(
    `/things/tenants/${tenantId}/things?current_page=1&page_size=20&keyword=${deviceId}`,
  );
  const thing = things.list.find((d) => d.third_things_id === deviceId);
  expect(thing, 'the device added in the console').toBeTruthy();
  const blocks = await adminApi.get(`/mapping-mgmt/tenants/${tenantId}/info-models/${thing?.info_model_id}/function-blocks`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loggerhead-models-e2e-'));
  const blocksFile = path.join(dir, 'blocks.json');
  fs.writeFileSync(blocksFile, JSON.stringify(blocks));
  const sim = await startRemoteDevice(
    own,
    adminApi,
    tenantId,
    { id: thing?.id as string, name: 'thermostat', third_things_id: deviceId, things_key: key },
    { telemetry: blocksFile, interval: 500 },
  );
  try {
    // 6. Its properties, live: the drifting temperature changes while we watch.
    await page
      .getByTestId('device-table')
      .getByRole('row', { name: new RegExp(deviceId) })
      .getByTestId('device-name')
      .click();
    await page.getByRole('tab', { name: '物模型' }).click();
    const temperature = page.getByTestId(`reported-${blockName}.temperature`);
    const setpoint = page.getByTestId(`reported-${blockName}.setpoint`);
    await expect(temperature).toHaveText(/^-?\d+(\.\d+)?$/);
    await expect(setpoint).toHaveText('20');
    const firstTemperature = await temperature.textContent();
    await expect(temperature).not.toHaveText(firstTemperature ?? '');

    // 7. A desired set point goes down; the device applies it and reports it back.
    await page.getByTestId(`desired-input-${blockName}.setpoint`).fill('30');
    await page.getByTestId(`desired-set-${blockName}.setpoint`).click();
    await expect(page.getByTestId(`desired-${blockName}.setpoint`)).toHaveText('30');
    await expect(setpoint).toHaveText('30');
    await expect(page.getByTestId('twin-version')).toContainText('期望版本 1，设备已确认 1');

    // 8. The twin rule fired on it: its event in the device's log, its fire in the rules' list.
    const events = page.getByTestId('model-events');
    await expect(events.getByRole('row', { name: /rules\.twin_rule/ })).toContainText('set point high');

    // The operation of the block, as a command the device answers.
    await page.getByTestId(`op-${blockName}.boost`).click();
    await page.getByTestId('op-send').click();
    await expect(page.getByText(/命令已下发/)).toBeVisible();

    await page.goto('/Container/DeviceTypeList');
    await page.getByRole('tab', { name: '孪生规则' }).click();
    await expect(page.getByTestId(`rule-fires-hot-${tag}`)).toHaveText('1');
    const fire = page.getByTestId('twin-rule-fires').getByRole('row', { name: new RegExp(`hot-${tag}`) });
    await expect(fire).toContainText(`"${blockName}.setpoint":30`);
  } finally {
    await sim.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
