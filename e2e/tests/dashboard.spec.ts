import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CanFrame } from '@loggerhead/can/frame.ts';
import { writeLog } from '@loggerhead/can/logs/index.ts';
import { Api } from '../support/api.ts';
import { canFrame, registerTenant } from '../support/fixtures.ts';
import { ownServerTest, simulateDevice } from '../support/own-server.ts';
import { screenshots } from '../support/screenshots.ts';
import { button, dialogOpened, expect, loginThroughForm, pickOption } from '../support/test.ts';

/**
 * The default dashboard: a tenant manager binds a DBC to a simulated logger's CAN0, the logger
 * replays a log, and on the Dashboard page a number panel shows the latest decoded value while a
 * line panel draws the curve; panels move and are deleted. The test needs the broker's port, so
 * it runs a server of its own. `SCREENSHOTS=1` keeps pictures of the steps.
 */
const test = ownServerTest;

const shot = screenshots('screens', 'dashboard-');

/** Message 0x100 "Engine": Speed (16 bit, 0.1 km/h) and Temp (8 bit signed, offset -40). */
const DBC = `VERSION ""

NS_ :

BS_:

BU_: ECU

BO_ 256 Engine: 8 ECU
 SG_ Speed : 0|16@1+ (0.1,0) [0|250] "km/h" Vector__XXX
 SG_ Temp : 16|8@1- (1,-40) [-40|87] "degC" Vector__XXX
`;

const COUNT = 200;
/** Speed 10.0, 10.5 … 109.5 km/h; Temp 20 … 29 °C; one frame every 5 ms. */
const speedAt = (i: number) => 10 + i * 0.5;
const tempAt = (i: number) => 20 + (i % 10);

/** Frames whose bytes are written by hand from the signal layout, not by the decoder under test. */
function engineFrames(): CanFrame[] {
  const t0 = 1_600_000_000_000_000;
  return Array.from({ length: COUNT }, (_, i) => {
    const raw = Math.round(speedAt(i) * 10);
    const data = new Uint8Array(8);
    data[0] = raw & 0xff;
    data[1] = raw >> 8;
    data[2] = (tempAt(i) + 40) & 0xff;
    return canFrame({ ts: t0 + i * 5000, id: 0x100, data });
  });
}

test('the default dashboard shows decoded signals as a number and a curve; panels move and are deleted', async ({
  page,
  own,
  adminApi,
}) => {
  test.setTimeout(300_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loggerhead-dashboard-e2e-'));
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(`${e.message}\n${e.stack ?? ''}`));
  try {
    // A tenant of its own: its manager's first login creates the default dashboard.
    const tenant = await registerTenant(adminApi, 'dash');
    const api = new Api(own.baseURL);
    await api.login(tenant);
    const types = await api.get<{ id: string; name: string }[]>(`/things/tenants/${tenant.tenantId}/device-types`);
    const deviceId = Array.from({ length: 20 }, () => '0123456789ABCDEF'[Math.floor(Math.random() * 16)]).join('');
    const deviceName = `Logger ${deviceId.slice(-4)}`;
    const thing = await api.post<{ id: string; things_key: string }>(`/things/tenants/${tenant.tenantId}/things`, {
      third_things_id: deviceId,
      name: deviceName,
      info_model_id: types.find((t) => t.name === 'CANDTU-200')?.id,
    });

    await loginThroughForm(page, tenant);

    // The header menu leads to the dashboard; without panels it offers to add one.
    await page.getByTestId('app-header').getByRole('menuitem', { name: '仪表盘' }).click();
    await expect(page).toHaveURL(/\/Container\/Dashboard/);
    const empty = page.getByTestId('dashboard-empty');
    await expect(empty).toContainText('仪表盘还没有面板');
    await expect(empty.getByTestId('panel-add')).toHaveText(/添\s*加\s*面\s*板/);
    await shot(page, 'empty-zh');

    // Upload the DBC and bind CAN0 of the device to it; parsing starts.
    const dbcFile = path.join(dir, 'engine.dbc');
    fs.writeFileSync(dbcFile, DBC);
    await page.goto('/Container/DBCManager');
    await page.getByTestId('dbc-upload').click();
    const upload = page.getByRole('dialog', { name: '上传 DBC 文件' });
    await dialogOpened(upload);
    await upload.getByTestId('dbc-file-input').setInputFiles(dbcFile);
    await expect(upload.getByTestId('dbc-file-chosen')).toContainText('engine.dbc');
    await upload.getByLabel('名称').fill('Engine DBC');
    await upload.getByRole('button', { name: button('上传') }).click();
    await expect(upload).toBeHidden();
    await page.goto(`/Container/HomePage/DeviceDetails?id=${thing.id}&tab=dbc`);
    const can0 = page.getByTestId('binding-CAN0');
    await can0.getByTestId('binding-bind').click();
    const bind = page.getByRole('dialog', { name: '绑定 CAN0' });
    await dialogOpened(bind);
    await bind.getByTestId('bind-dbc-select').click();
    await page.keyboard.type('Engine DBC');
    await expect(page.getByRole('option', { name: 'Engine DBC' })).toBeAttached();
    await page.keyboard.press('Enter');
    await expect(bind.getByTestId('bind-dbc-select')).toContainText('Engine DBC');
    await bind.getByRole('button', { name: button('确定') }).click();
    await expect(can0.getByTestId('parsing-state')).toHaveText('解析中');

    // The simulated logger replays its log; the frames are decoded and stored.
    const logFile = path.join(dir, 'engine.log');
    fs.writeFileSync(logFile, writeLog(engineFrames(), 'candump'));
    const sim = await simulateDevice(own, deviceId, thing.things_key, ['--log', logFile, '--fast']);
    expect(sim.code, sim.output).toBe(0);
    const last = speedAt(COUNT - 1); // 109.5

    // A number panel: the form names what is missing or wrong, in the console's language.
    await page.goto('/Container/Dashboard');
    await page.getByTestId('dashboard-empty').getByTestId('panel-add').click();
    let dialog = page.getByRole('dialog', { name: '添加面板' });
    await dialogOpened(dialog);
    await dialog.getByRole('button', { name: button('确定') }).click();
    await expect(dialog.getByText('请输入面板名称')).toBeVisible();
    await expect(dialog.getByText('请选择设备')).toBeVisible();
    await expect(dialog.getByText('请选择信号')).toBeVisible();
    await dialog.getByTestId('panel-name').fill('x'.repeat(33));
    await expect(dialog.getByText('面板名称为 1-32 个字符')).toBeVisible();
    // Markup in a name is shown as typed, never interpreted.
    await dialog.getByTestId('panel-name').fill('<b>车速</b>');
    await dialog.getByTestId('panel-description').fill('发动机转速表');
    await dialog.getByTestId('panel-chart-type').getByText('数值').click();
    await pickOption(page, 'panel-device', `${deviceName} (${deviceId})`);
    await pickOption(page, 'panel-channel', 'CAN0 · Engine DBC');
    await pickOption(page, 'panel-signals', 'Engine.Speed');
    await shot(page, 'dialog-zh');
    await dialog.getByRole('button', { name: button('确定') }).click();
    await expect(dialog).toBeHidden();
    const numberPanel = page.getByTestId('panel').filter({ hasText: '<b>车速</b>' });
    await expect(numberPanel.getByTestId('panel-value')).toHaveText(String(last), { timeout: 30_000 });
    await expect(numberPanel).toContainText('km/h');
    await expect(numberPanel.getByTestId('panel-time')).toContainText('更新于');
    await expect(numberPanel.locator('b')).toHaveCount(0);

    // A line panel of two signals over the last hour: the curve has points.
    await page.getByTestId('panel-add').click();
    dialog = page.getByRole('dialog', { name: '添加面板' });
    await dialogOpened(dialog);
    await dialog.getByTestId('panel-name').fill('发动机曲线');
    await pickOption(page, 'panel-device', `${deviceName} (${deviceId})`);
    await pickOption(page, 'panel-channel', 'CAN0 · Engine DBC');
    await pickOption(page, 'panel-signals', 'Engine.Speed');
    await pickOption(page, 'panel-signals', 'Engine.Temp');
    await dialog.getByRole('button', { name: button('确定') }).click();
    await expect(dialog).toBeHidden();
    const linePanel = page.getByTestId('panel').filter({ hasText: '发动机曲线' });
    await expect(linePanel).toContainText('最近 1 小时');
    await expect(linePanel.getByTestId('panel-curve')).toHaveAttribute('data-points', /^[1-9]\d*$/, { timeout: 30_000 });
    await expect(page.getByTestId('panel-count')).toHaveText('2 / 30 个面板');
    await shot(page, 'panels-zh');

    // Move the curve to the top; the order is kept across a reload.
    const names = page.getByTestId('panel').getByTestId('panel-name');
    await expect(names).toHaveText(['<b>车速</b>', '发动机曲线']);
    await linePanel.getByTestId('panel-up').click();
    await expect(names).toHaveText(['发动机曲线', '<b>车速</b>']);
    await page.reload();
    await expect(names).toHaveText(['发动机曲线', '<b>车速</b>']);

    // Delete the number panel after confirming.
    await numberPanel.getByTestId('panel-delete').click();
    const confirm = page.getByRole('dialog').filter({ hasText: '确定删除面板' });
    await dialogOpened(confirm);
    await confirm.getByRole('button', { name: button('删除') }).click();
    await expect(names).toHaveText(['发动机曲线']);
    await expect(page.getByTestId('panel-count')).toHaveText('1 / 30 个面板');
    const stored = await api.get<{ list: { name: string }[] }>(
      `/data-mgmt/tenants/${tenant.tenantId}/dashboards/${(await api.get<{ list: { id: string }[] }>(`/data-mgmt/tenants/${tenant.tenantId}/dashboards?business_type=candtu_dashboard_default`)).list[0].id}/panels`,
    );
    expect(stored.list.map((p) => p.name)).toEqual(['发动机曲线']);

    if (process.env.SCREENSHOTS) {
      // Both kinds of value panel again, for the pictures in English.
      await page.getByTestId('language-switch').click();
      await page.getByRole('menuitem', { name: 'English' }).click();
      for (const [name, kind] of [
        ['Speed', 'Number'],
        ['Temperature', 'Gauge'],
      ] as const) {
        await page.getByTestId('panel-add').click();
        dialog = page.getByRole('dialog', { name: 'Add panel' });
        await dialogOpened(dialog);
        await dialog.getByTestId('panel-name').fill(name);
        await dialog.getByTestId('panel-chart-type').getByText(kind).click();
        await pickOption(page, 'panel-device', `${deviceName} (${deviceId})`);
        await pickOption(page, 'panel-channel', 'CAN0 · Engine DBC');
        await pickOption(page, 'panel-signals', name === 'Speed' ? 'Engine.Speed' : 'Engine.Temp');
        await dialog.getByRole('button', { name: button('OK') }).click();
        await expect(dialog).toBeHidden();
      }
      await expect(page.getByTestId('panel-value')).toHaveCount(2);
      await shot(page, 'panels-en');
      await page.getByTestId('language-switch').click();
      await page.getByRole('menuitem', { name: '中文' }).click();
      await shot(page, 'panels-all-zh');
      await page.setViewportSize({ width: 390, height: 844 });
      await shot(page, 'panels-narrow-zh');
    }
    expect(pageErrors).toEqual([]);
  } finally {
    if (pageErrors.length) console.error(pageErrors.join('\n\n'));
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
