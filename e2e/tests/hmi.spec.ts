import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeLog } from '@loggerhead/can/logs/index.ts';
import mqtt from 'mqtt';
import { bindDbc, seedDevice, startRemoteDevice } from '../support/devices.ts';
import { canFrame } from '../support/fixtures.ts';
import { mqttPort, ownServerTest, simulateDevice } from '../support/own-server.ts';
import { screenshots } from '../support/screenshots.ts';
import { button, dialogOpened, expect, loginThroughForm, pickOption, signIn } from '../support/test.ts';

/**
 * Issue 17 (HMI), done when: an HMI screen with a gauge and a button shows a live signal and sends
 * a command to a simulated device. The screen is built in the console's editor (a gauge bound to a
 * DBC signal, a button sending CAN frames), published and opened full-screen; a simulated logger
 * sends frames the server decodes, and answers the button's command.
 */
const test = ownServerTest;

const shot = screenshots('screens', 'hmi-');

/** Message 0x100 "Engine": Speed, 16 bits Intel at 0.1 km/h. */
const DBC = `VERSION ""

NS_ :

BS_:

BU_: ECU

BO_ 256 Engine: 8 ECU
 SG_ Speed : 0|16@1+ (0.1,0) [0|250] "km/h" Vector__XXX
`;

/** 42.5 km/h, written by hand from the layout above: raw 425 = 0x01A9, little-endian. */
const SPEED = '42.5';
function engineLog() {
  const t0 = 1_600_000_000_000_000;
  const data = new Uint8Array([0xa9, 0x01, 0, 0, 0, 0, 0, 0]);
  return writeLog(
    Array.from({ length: 20 }, (_, i) => canFrame({ ts: t0 + i * 100_000, id: 0x100, data })),
    'candump',
  );
}

test('an HMI screen built in the editor shows a live DBC signal on its gauge and its button commands a simulated logger', async ({
  page,
  own,
  adminApi,
}) => {
  test.setTimeout(240_000);
  const self = await adminApi.get<{ tenant_id: string }>('/tenant/users/self');
  const tenantId = self.tenant_id;
  const device = await seedDevice(adminApi, tenantId, 'HMI press');
  await bindDbc(adminApi, tenantId, device.id, DBC, 0);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loggerhead-hmi-e2e-'));
  const logFile = path.join(dir, 'engine.log');
  fs.writeFileSync(logFile, engineLog());
  const deviceLabel = `${device.name} (${device.third_things_id})`;

  await loginThroughForm(page, own.admin);
  await page.goto('/Container/HmiManager');
  await expect(page).toHaveTitle(/^组态画面 - /);
  await page.getByTestId('hmi-new').click();
  const dialog = page.getByRole('dialog', { name: '新建画面' });
  await dialogOpened(dialog);
  await dialog.getByTestId('hmi-new-name').fill('Press line 1');
  await dialog.getByRole('button', { name: button('确定') }).click();

  // The editor: a gauge bound to Engine.Speed of CAN0.
  await expect(page).toHaveURL(/\/Container\/HmiManager\/HmiEditor\?id=/);
  await expect(page).toHaveTitle(/^编辑组态画面 - /);
  const screenId = new URL(page.url()).searchParams.get('id') as string;
  await page.getByTestId('hmi-add-widget').click();
  const addMenu = page.locator('.ant-dropdown-menu:visible');
  await addMenu.getByRole('menuitem', { name: '仪表', exact: true }).click();
  const panel = page.getByTestId('hmi-widget-panel');
  await expect(panel).toContainText('仪表');
  await panel.getByTestId('hmi-widget-label').fill('Speed');
  await pickOption(page, 'hmi-binding-device', deviceLabel);
  await pickOption(page, 'hmi-binding-signal', 'Engine.Speed (km/h)');
  // The gauge's scale follows the DBC's range of the signal.
  await expect(panel.getByTestId('hmi-gauge-max')).toHaveValue('250');

  // A button that sends one CAN frame through the logger.
  await page.getByTestId('hmi-add-widget').click();
  await addMenu.getByRole('menuitem', { name: '按钮', exact: true }).click();
  await expect(panel).toContainText('按钮');
  await panel.getByTestId('hmi-widget-label').fill('Horn');
  await pickOption(page, 'hmi-action-device', deviceLabel);
  await expect(panel.getByTestId('hmi-action-operation')).toHaveValue('common_fn.send_can');
  await panel.getByTestId('hmi-action-params').fill('{"frames": [{"channel": 0, "id": "0x321", "data": "0102"}]}');
  await panel.getByTestId('hmi-widget-label').click();

  // Dragged on the grid: two columns to the right, one row down.
  const horn = page.getByTestId('hmi-widget-w2');
  const canvasBox = await page.getByTestId('hmi-canvas').boundingBox();
  const box = await horn.boundingBox();
  if (!canvasBox || !box) throw new Error('the canvas is not laid out');
  const col = canvasBox.width / 24;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + col, box.y + box.height / 2 + 20, { steps: 4 });
  await page.mouse.move(box.x + box.width / 2 + 2 * col, box.y + box.height / 2 + 40, { steps: 4 });
  await page.mouse.up();
  await shot(page, 'editor-zh');
  // Leaving with unsaved changes asks first; staying keeps them.
  await page.getByRole('button', { name: button('全屏查看') }).click();
  const leave = page.getByRole('dialog', { name: '离开编辑器？' });
  await dialogOpened(leave);
  await leave.getByRole('button', { name: button('取消') }).click();
  await expect(leave).toBeHidden();
  await expect(page).toHaveURL(/\/Container\/HmiManager\/HmiEditor\?id=/);
  await page.getByTestId('hmi-editor-save').click();
  await expect(page.getByText('画面已保存')).toBeVisible();

  const saved = await adminApi.get<{
    canvas: { widgets: { id: string; type: string; x: number; y: number; binding?: unknown; action?: unknown }[] };
  }>(`/out-hmi/tenants/${tenantId}/screens/${screenId}`);
  expect(saved.canvas.widgets.map((w) => w.type)).toEqual(['gauge', 'button']);
  expect(saved.canvas.widgets[0].binding).toEqual({ source: 'signal', things_id: device.id, channel: 0, signal: 'Engine.Speed' });
  expect(saved.canvas.widgets[1].action).toMatchObject({ kind: 'command', things_id: device.id, operation_name: 'common_fn.send_can' });
  // The gauge took rows 0-3, so the button was added at row 4, column 0; the drag moved it.
  expect(saved.canvas.widgets[1]).toMatchObject({ x: 2, y: 5 });

  // Published from the list, then opened full-screen.
  await page.goto('/Container/HmiManager');
  await page.getByTestId('hmi-publish-Press line 1').click();
  await expect(page.getByTestId('hmi-status-Press line 1')).toHaveText('已发布');
  await page.getByTestId('hmi-view-Press line 1').click();
  await expect(page.getByTestId('hmi-view')).toBeVisible();
  await expect(page).toHaveTitle(/^Press line 1 - /);
  await expect(page.getByTestId('hmi-value-w1')).toHaveText('—');

  // The simulated logger records 42.5 km/h on CAN0; the gauge shows the decoded value live.
  const logger = await startRemoteDevice(own, adminApi, tenantId, device, { replay: logFile });
  try {
    await expect(page.getByTestId('hmi-value-w1')).toHaveText(SPEED, { timeout: 30_000 });
    await shot(page, 'view-zh');

    // The button: the logger answers the command (it puts the frame on its bus).
    await page.getByTestId('hmi-button-w2').click();
    await expect(page.getByTestId('hmi-press-result')).toHaveAttribute('data-state', 'answered', { timeout: 20_000 });
    await expect(page.getByTestId('hmi-press-result')).toContainText('设备已应答');
    const sent = await adminApi.get<{ list: { operation_name: string; state: string; result: unknown; description: string }[] }>(
      `/things/tenants/${tenantId}/things/${device.id}/messages?current_page=1&page_size=10`,
    );
    expect(sent.list[0]).toMatchObject({
      operation_name: 'common_fn.send_can',
      state: 'answered',
      result: { sent: 1 },
      description: 'HMI: Press line 1',
    });
  } finally {
    await logger.stop();
  }
});

test('an operator signs in and sees only the screen given to them, live, and its button commands the logger', async ({
  page,
  browser,
  own,
  adminApi,
}) => {
  test.setTimeout(240_000);
  const self = await adminApi.get<{ tenant_id: string }>('/tenant/users/self');
  const tenantId = self.tenant_id;
  const tenant = await adminApi.get<{ name: string }>('/tenant/users/self/tenant');
  const device = await seedDevice(adminApi, tenantId, 'HMI mixer');
  await bindDbc(adminApi, tenantId, device.id, DBC, 0);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loggerhead-hmi-e2e-'));
  const logFile = path.join(dir, 'engine.log');
  fs.writeFileSync(logFile, engineLog());

  // Two published screens, seeded through the API; the operator is given only one.
  const canvas = {
    row_height: 40,
    widgets: [
      {
        id: 'speed',
        type: 'value',
        x: 0,
        y: 0,
        w: 6,
        h: 2,
        label: 'Mixer speed',
        binding: { source: 'signal', things_id: device.id, channel: 0, signal: 'Engine.Speed' },
      },
      {
        id: 'stop',
        type: 'button',
        x: 6,
        y: 0,
        w: 4,
        h: 2,
        label: 'Stop',
        action: {
          kind: 'command',
          things_id: device.id,
          operation_name: 'common_fn.send_can',
          operation_params: { frames: [{ channel: 0, id: '0x7FF', data: '00' }] },
        },
      },
    ],
  };
  const given = await adminApi.post<{ id: string }>(`/out-hmi/tenants/${tenantId}/screens`, { name: 'Mixer 2', canvas });
  const other = await adminApi.post<{ id: string }>(`/out-hmi/tenants/${tenantId}/screens`, { name: 'Boiler room', canvas });
  for (const s of [given, other]) await adminApi.post(`/out-hmi/tenants/${tenantId}/screens/${s.id}/publish`);

  // The operator: a sub-user with no menu, read access to the device and its live data.
  const username = `operator_${randomBytes(3).toString('hex')}`;
  const password = `Op-${randomBytes(4).toString('hex')}`;
  await adminApi.post(`/tenant/tenants/${tenantId}/users`, {
    username,
    password,
    mobile: `139${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`,
    menus: [],
    grants: ['data-mgmt:things-data:query'],
    devices: [{ things_id: device.id, access: 'read' }],
  });

  // The manager gives the screen on the HMI users tab.
  await loginThroughForm(page, own.admin);
  await page.goto('/Container/HmiManager?tab=users');
  await pickOption(page, `hmi-user-screens-${username}`, 'Mixer 2');
  await page.getByTestId(`hmi-user-save-${username}`).click();
  await expect(page.getByText('已保存')).toBeVisible();

  const context = await browser.newContext();
  const op = await context.newPage();
  const logger = await startRemoteDevice(own, adminApi, tenantId, device, { replay: logFile });
  try {
    await loginThroughForm(op, { username: `${username}@${tenant.name}`, password });
    await op.getByTestId('user-menu').click();
    await op.getByRole('menuitem', { name: '我的组态画面' }).click();
    await expect(op).toHaveTitle(/^我的组态画面 - /);
    await expect(op.getByTestId('hmi-mine-Mixer 2')).toBeVisible();
    await expect(op.getByTestId('hmi-mine-Boiler room')).toHaveCount(0);
    await op.getByTestId('hmi-mine-Mixer 2').click();
    await expect(op.getByTestId('hmi-view')).toBeVisible();
    await expect(op.getByTestId('hmi-value-speed')).toHaveText(SPEED, { timeout: 30_000 });
    await op.getByTestId('hmi-button-stop').click();
    await expect(op.getByTestId('hmi-press-result')).toHaveAttribute('data-state', 'answered', { timeout: 20_000 });
    await shot(op, 'operator-zh');
    // The other screen is not the operator's, even by its address.
    await op.goto(`/HmiView?id=${other.id}`);
    await expect(op.getByText('画面不存在或未分配给您')).toBeVisible();
  } finally {
    await logger.stop();
    await context.close();
  }
});

test('trends open with the last hour stored: a device property’s reported values and a DBC signal’s curve, then follow live', async ({
  page,
  own,
  admin,
  adminApi,
}) => {
  test.setTimeout(150_000);
  const tag = randomBytes(3).toString('hex');
  const self = await adminApi.get<{ tenant_id: string }>('/tenant/users/self');
  const tenantId = self.tenant_id;

  // A logger's recording of the last 44 minutes, uploaded after the fact: twelve speeds four minutes
  // apart (the simulator's one-off replay ends at now), decoded through the DBC.
  const logger = await seedDevice(adminApi, tenantId, `Mixer ${tag}`);
  await bindDbc(adminApi, tenantId, logger.id, DBC, 0);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loggerhead-hmi-e2e-'));
  const logFile = path.join(dir, 'recorded.log');
  fs.writeFileSync(
    logFile,
    writeLog(
      Array.from({ length: 12 }, (_, i) => {
        const raw = 300 + (i % 3) * 100; // 30, 40, 50 km/h
        return canFrame({
          ts: 1_700_000_000_000_000 + i * 240_000_000,
          id: 0x100,
          data: new Uint8Array([raw & 0xff, raw >> 8, 0, 0, 0, 0, 0, 0]),
        });
      }),
      'candump',
    ),
  );
  const sim = await simulateDevice(own, logger.third_things_id, logger.things_key, ['--log', logFile, '--fast']);
  expect(sim.code, sim.output).toBe(0);
  fs.rmSync(dir, { recursive: true, force: true });
  // A model with one numeric property, and a JSON device of it.
  const block = await adminApi.post<{ id: string }>(`/mapping-mgmt/tenants/${tenantId}/function-blocks`, {
    name: `tank_${tag}`,
    display_name: 'Tank',
    json_schema: { status: [{ identifier: 'level', name: 'Level', data_type: 1, read_only: true, default_value: 0 }] },
  });
  const model = await adminApi.post<{ id: string }>(`/mapping-mgmt/tenants/${tenantId}/info-models`, {
    name: `Tank-${tag}`,
    info_model_fn_blocks: [block.id],
  });
  const device = await adminApi.post<{ id: string; third_things_id: string; things_key: string }>(`/things/tenants/${tenantId}/things`, {
    third_things_id: randomBytes(10).toString('hex').toUpperCase(),
    name: `Tank ${tag}`,
    info_model_id: model.id,
  });
  const property = `tank_${tag}.level`;

  // Twelve readings of the last hour, five minutes apart, sent before the screen is opened.
  const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${mqttPort(own)}`, {
    clientId: device.third_things_id,
    username: device.third_things_id,
    password: device.things_key,
  });
  const topic = `lh/v1/${device.third_things_id}/up/telemetry`;
  const now = Date.now();
  try {
    for (let i = 0; i < 12; i++)
      await client.publishAsync(
        topic,
        JSON.stringify({ ts: now - (55 - i * 5) * 60_000, properties: { [`tank_${tag}`]: { level: 40 + (i % 4) * 5 } } }),
        { qos: 1 },
      );
    await expect
      .poll(async () => {
        const h = await adminApi.get<{ list: unknown[] }>(
          `/things/tenants/${tenantId}/things/${device.id}/digital-twin/history?property=${property}&start_time=${now - 3_700_000}`,
        );
        return h.list.length;
      })
      .toBe(12);

    const screen = await adminApi.post<{ id: string }>(`/out-hmi/tenants/${tenantId}/screens`, {
      name: `Tank ${tag}`,
      canvas: {
        row_height: 40,
        widgets: [
          {
            id: 'level',
            type: 'trend',
            x: 0,
            y: 0,
            w: 12,
            h: 5,
            label: 'Tank level',
            binding: { source: 'property', things_id: device.id, property },
          },
          {
            id: 'speed',
            type: 'trend',
            x: 12,
            y: 0,
            w: 12,
            h: 5,
            label: 'Mixer speed',
            binding: { source: 'signal', things_id: logger.id, channel: 0, signal: 'Engine.Speed' },
          },
        ],
      },
    });
    await adminApi.post(`/out-hmi/tenants/${tenantId}/screens/${screen.id}/publish`);
    await signIn(page, admin);
    await page.goto(`/HmiView?id=${screen.id}`);
    // The line has the twelve stored points at once, before any new reading.
    const line = page.getByRole('img', { name: 'Tank level' }).locator('polyline');
    await expect(line).toHaveAttribute('points', /^(\S+,\S+ ){11}\S+,\S+$/);
    // The signal's trend: the twelve recorded speeds, though the logger sends nothing now.
    await expect(page.getByRole('img', { name: 'Mixer speed' }).locator('polyline')).toHaveAttribute('points', /^(\S+,\S+ ){11}\S+,\S+$/);
    await shot(page, 'trends');
    // A new reading joins it.
    await client.publishAsync(topic, JSON.stringify({ ts: Date.now(), properties: { [`tank_${tag}`]: { level: 70 } } }), { qos: 1 });
    await expect(line).toHaveAttribute('points', /^(\S+,\S+ ){12}\S+,\S+$/, { timeout: 20_000 });
  } finally {
    await client.endAsync();
  }
});
