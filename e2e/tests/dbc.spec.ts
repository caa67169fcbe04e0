import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CanFrame } from '@loggerhead/can/frame.ts';
import { writeLog } from '@loggerhead/can/logs/index.ts';
import { canFrame } from '../support/fixtures.ts';
import { ownServerTest, simulateDevice } from '../support/own-server.ts';
import { screenshots } from '../support/screenshots.ts';
import { button, dialogOpened, expect, loginThroughForm, pickOption } from '../support/test.ts';

/**
 * Issue "DBC decoding and signal curves", done when: a DBC uploaded in the console and bound to
 * a device's CAN channel decodes the frames a simulated logger sends — the values appear live,
 * then the same values are found in the history curve and the history data (and its CSV).
 * The test needs the broker's port, so it runs a server of its own.
 */
const test = ownServerTest;

const shot = screenshots('screens', 'dbc-');

/** A small DBC: message 0x100 "Engine" with Speed (16 bit, 0.1 km/h) and Temp (8 bit signed, offset -40). */
const DBC = `VERSION ""

NS_ :

BS_:

BU_: ECU

BO_ 256 Engine: 8 ECU
 SG_ Speed : 0|16@1+ (0.1,0) [0|6553.5] "km/h" Vector__XXX
 SG_ Temp : 16|8@1- (1,-40) [-40|87] "degC" Vector__XXX

BO_ 512 Body: 2 ECU
 SG_ Door : 0|1@1+ (1,0) [0|1] "" Vector__XXX
`;
/** The same file with the range bracket of Speed missing on line 10. */
const BROKEN = DBC.replace('[0|6553.5]', '[0|6553.5');

/** A file the size of a real vehicle's: 400 messages of 8 signals. */
function bigDbc(): string {
  const lines = ['VERSION ""', '', 'BU_: ECU', ''];
  for (let m = 0; m < 400; m++) {
    lines.push(`BO_ ${0x300 + m} Msg${m}: 8 ECU`);
    for (let k = 0; k < 8; k++) lines.push(` SG_ S${m}_${k} : ${k * 8}|8@1+ (1,0) [0|255] "" Vector__XXX`);
    lines.push('');
  }
  return lines.join('\n');
}

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

test('a DBC bound to a channel decodes simulated frames: live values, then the same in the history curve and data', async ({
  page,
  own,
  admin,
  adminApi,
}) => {
  test.setTimeout(300_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loggerhead-dbc-e2e-'));
  // A script error anywhere on the way fails the test with its message, not only a blank page.
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(`${e.message}\n${e.stack ?? ''}`));
  page.on('console', (m) => m.type() === 'error' && console.error('CONSOLE', m.text().slice(0, 3000)));
  page.on('response', (r) => r.status() >= 400 && console.error('HTTP', r.status(), r.url()));
  try {
    const good = path.join(dir, 'engine.dbc');
    const broken = path.join(dir, 'broken.dbc');
    const notDbc = path.join(dir, 'engine.txt');
    fs.writeFileSync(good, DBC);
    fs.writeFileSync(broken, BROKEN);
    fs.writeFileSync(notDbc, DBC);

    // A device to bind, seeded through the API.
    const self = await adminApi.get<{ tenant_id: string }>('/tenant/users/self');
    const types = await adminApi.get<{ id: string; name: string }[]>(`/things/tenants/${self.tenant_id}/device-types`);
    const deviceId = randomBytes(10).toString('hex').toUpperCase();
    const thing = await adminApi.post<{ id: string; things_key: string }>(`/things/tenants/${self.tenant_id}/things`, {
      third_things_id: deviceId,
      name: `DBC logger ${deviceId.slice(-4)}`,
      info_model_id: types.find((t) => t.name === 'CANDTU-200')?.id,
    });

    await loginThroughForm(page, admin);
    await page.goto('/Container/DBCManager');
    await expect(page.getByTestId('dbc-table')).toBeVisible();
    await shot(page, 'manager-empty-zh');

    // Upload: the selector refuses other formats; the server names the line and column of a parse error.
    await page.getByTestId('dbc-upload').click();
    const upload = page.getByRole('dialog', { name: '上传 DBC 文件' });
    await dialogOpened(upload);
    await upload.getByTestId('dbc-file-input').setInputFiles(notDbc);
    await expect(page.getByText('仅支持 .dbc 格式的文件')).toBeVisible();
    await upload.getByTestId('dbc-file-input').setInputFiles(broken);
    await expect(upload.getByTestId('dbc-file-chosen')).toContainText('broken.dbc');
    await upload.getByRole('button', { name: button('上传') }).click();
    await expect(upload.getByTestId('dbc-parse-error')).toContainText('第 10 行');
    await expect(upload.getByTestId('dbc-parse-error')).toContainText('列');
    await shot(page, 'upload-error-zh');
    await upload.getByTestId('dbc-file-input').setInputFiles(good);
    await expect(upload.getByTestId('dbc-parse-error')).toBeHidden();
    await upload.getByLabel('名称').fill('Engine DBC');
    await expect(upload.getByLabel('协议')).toHaveValue('2'); // spec §9: protocol defaults to 2
    await upload.getByRole('button', { name: button('上传') }).click();
    await expect(upload).toBeHidden();
    const row = page.getByTestId('dbc-table').getByRole('row', { name: /Engine DBC/ });
    await expect(row).toContainText('engine.dbc');

    // Its messages and signals.
    await row.getByTestId('dbc-name').click();
    const drawer = page.getByRole('dialog', { name: /Engine DBC/ });
    await expect(drawer.getByTestId('dbc-message-table')).toContainText('Engine');
    await expect(drawer.getByTestId('dbc-signal-table')).toContainText('Speed');
    await expect(drawer.getByTestId('dbc-signal-table')).toContainText('km/h');
    await shot(page, 'messages-zh');
    await page.keyboard.press('Escape');

    // The import page previews a large file before sending it; its tables render only the rows in view.
    const big = path.join(dir, 'vehicle.dbc');
    fs.writeFileSync(big, bigDbc());
    await page.getByTestId('dbc-import').click();
    await expect(page).toHaveURL(/DBCImportPage/);
    await page.getByTestId('dbc-import-file').setInputFiles(big);
    await expect(page.getByTestId('dbc-messages')).toContainText('400 个报文，3200 个信号');
    const rendered = await page.getByTestId('dbc-message-table').locator('.ant-table-row').count();
    expect(rendered).toBeGreaterThan(0);
    expect(rendered).toBeLessThan(60);
    await expect(page.getByTestId('dbc-import-name')).toHaveValue('vehicle');
    await shot(page, 'import-zh');
    await page.getByTestId('dbc-import-submit').click();
    await expect(page).toHaveURL(/DBCManager/);
    await expect(page.getByTestId('dbc-table').getByRole('row', { name: /vehicle/ })).toContainText('3200');

    // A signal strategy: the name rule is checked in the form.
    await page.getByRole('tab', { name: '信号策略' }).click();
    await page.getByTestId('strategy-add').click();
    const strategy = page.getByRole('dialog', { name: '新建信号策略' });
    await dialogOpened(strategy);
    await expect(strategy.getByLabel('策略名称')).toHaveValue(/^DBCSIG_/);
    await strategy.getByLabel('策略名称').fill('1speed');
    await strategy.getByRole('button', { name: button('确定') }).click();
    await expect(strategy.getByText('只能包含字母、数字和下划线，且不能以数字开头')).toBeVisible();
    await expect(strategy.getByText('请至少选择 1 个信号')).toBeVisible();
    await strategy.getByLabel('策略名称').fill('SPEED_ONLY');
    await strategy.getByLabel('关联 DBC').click();
    await page.getByTitle('Engine DBC').click();
    await strategy.getByTestId('strategy-signals').getByText('Engine.Speed', { exact: false }).first().click();
    // The first action button of the picker moves the ticked rows to the chosen side.
    await strategy.getByTestId('strategy-signals').locator('button.ant-btn').first().click();
    await shot(page, 'strategy-form-zh');
    await strategy.getByRole('button', { name: button('确定') }).click();
    await expect(strategy).toBeHidden();
    await expect(page.getByTestId('strategy-table')).toContainText('SPEED_ONLY');

    // Bind CAN0 of the device to the DBC; parsing starts.
    await page.goto(`/Container/HomePage/DeviceDetails?id=${thing.id}&tab=dbc`);
    const can0 = page.getByTestId('binding-CAN0');
    await expect(can0).toContainText('未绑定');
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

    // Real-time curve: one curve for Engine.Speed; a 1-character name is refused (2-32).
    await page.getByTestId('curve-add').click();
    const add = page.getByRole('dialog', { name: '添加曲线' });
    await dialogOpened(add);
    await pickOption(page, 'curve-signal', 'Engine.Speed');
    await add.getByTestId('curve-name').fill('V');
    await add.getByRole('button', { name: button('确定') }).click();
    await expect(add.getByText('曲线名称为 2-32 个字符')).toBeVisible();
    await add.getByTestId('curve-name').fill('车速');
    await add.getByRole('button', { name: button('确定') }).click();
    await expect(add).toBeHidden();
    await expect(page.getByTestId('curve-list')).toContainText('Engine.Speed');
    // The curve is fed by the live WebSocket, not by polling the curve endpoint.
    await expect(page.getByTestId('live-connection')).toHaveText('实时推送中');
    let curveCalls = 0;
    const countCurves = (r: { url(): string }) => {
      if (r.url().includes('/signals/curve')) curveCalls++;
    };
    page.on('request', countCurves);

    // The simulated logger sends its log; the decoded values arrive while the page watches.
    const logFile = path.join(dir, 'engine.log');
    fs.writeFileSync(logFile, writeLog(engineFrames(), 'candump'));
    const sim = await simulateDevice(own, deviceId, thing.things_key, ['--log', logFile, '--fast']);
    expect(sim.code, sim.output).toBe(0);
    const last = speedAt(COUNT - 1); // 109.5
    await expect(page.getByTestId('live-value')).toHaveText(String(last), { timeout: 30_000 });
    await expect(page.getByTestId('live-curve')).toHaveAttribute('data-points', /^[1-9]\d*$/);
    page.off('request', countCurves);
    expect(curveCalls).toBe(0);
    await shot(page, 'realtime-zh');

    // History curve over the last hour: answered from roll-ups (min/max kept), never more points
    // than the chart has pixels.
    await page.getByRole('tab', { name: '历史曲线' }).click();
    await pickOption(page, 'history-curve-signals', 'Engine.Speed');
    await page.getByTestId('history-curve-query').click();
    const info = page.getByTestId('history-curve-info');
    const stats = page.getByTestId('history-curve-stats');
    await expect(stats).toContainText(`最小 ${speedAt(0)}`);
    await expect(stats).toContainText(`最大 ${last}`);
    const figures = async () => {
      const text = (await info.textContent()) ?? '';
      return {
        points: Number(/(\d+) 点/.exec(text)?.[1]),
        width: Number(/(\d+) 像素/.exec(text)?.[1]),
        level: /精度 (\S+)/.exec(text)?.[1],
      };
    };
    const hour = await figures();
    expect(hour.width).toBeGreaterThan(200);
    expect(hour.points).toBeGreaterThan(0);
    expect(hour.points).toBeLessThanOrEqual(hour.width);
    await shot(page, 'history-curve-zh');
    // Dragging across the last 150 pixels (the last few minutes, where the samples are) zooms in and asks again.
    const plot = (await page.getByTestId('history-curve').locator('.u-over').boundingBox()) as {
      x: number;
      y: number;
      width: number;
      height: number;
    };
    await page.mouse.move(plot.x + plot.width - 150, plot.y + plot.height / 2);
    await page.mouse.down();
    await page.mouse.move(plot.x + plot.width - 1, plot.y + plot.height / 2, { steps: 5 });
    await page.mouse.up();
    // Zoomed in far enough for raw samples; how many fall inside depends on how long the steps above took.
    await expect(info).toContainText('精度 raw');
    const zoomed = await figures();
    expect(zoomed.points).toBeGreaterThan(0);
    expect(zoomed.points).toBeLessThanOrEqual(Math.min(COUNT, zoomed.width));
    await shot(page, 'history-curve-zoomed-zh');
    // Zooming back out asks again; the points still fit the width.
    await page.getByRole('button', { name: '缩小' }).click();
    await expect(page.getByTestId('history-curve-reset')).toBeEnabled();
    const out = await figures();
    expect(out.points).toBeLessThanOrEqual(out.width);

    // History data: the same 200 rows, first in time first, and the CSV holds them.
    await page.getByRole('tab', { name: '历史数据' }).click();
    await pickOption(page, 'history-data-signals', 'Engine.Speed');
    await page.getByTestId('history-data-query').click();
    await expect(page.getByTestId('paginator')).toContainText(`共 ${COUNT} 条`);
    await expect(page.getByTestId('data-value').first()).toHaveText(String(speedAt(0)));
    await expect(page.getByTestId('data-value').nth(1)).toHaveText(String(speedAt(1)));
    await shot(page, 'history-data-zh');
    const download = page.waitForEvent('download');
    await page.getByTestId('history-data-export').click();
    const csvPath = path.join(dir, 'signals.csv');
    await (await download).saveAs(csvPath);
    const csv = fs.readFileSync(csvPath, 'utf8').trim().split(/\r?\n/);
    expect(csv.length).toBe(COUNT + 1);
    expect(csv.at(-1)).toContain(String(last));

    // Playback at 16×: the trace and the value reach the end of the range.
    await page.getByRole('tab', { name: '数据回放' }).click();
    await pickOption(page, 'playback-signals', 'Engine.Speed');
    await page.getByTestId('playback-load').click();
    await page.getByTestId('playback-speed').click();
    await page.getByTitle('16×').click();
    await page.getByTestId('playback-play').click();
    await expect(page.getByTestId('playback-value')).toHaveText(String(last));
    await expect(page.getByText(`已回放 ${COUNT} / ${COUNT} 条`)).toBeVisible();
    await shot(page, 'playback-zh');

    // High-level functions: bus statistics per id, and the signal period (5 ms).
    await page.getByRole('tab', { name: '高级功能' }).click();
    await page.getByTestId('bus-stats-query').click();
    const bus = page.getByTestId('bus-stats');
    await expect(bus.getByRole('row', { name: /0x100/ })).toContainText(String(COUNT));
    await expect(bus.getByRole('row', { name: /0x100/ })).toContainText('Engine');
    await pickOption(page, 'period-signal', 'Engine.Speed');
    await page.getByTestId('period-query').click();
    await expect(page.getByTestId('period-result')).toContainText('5 ms');
    await shot(page, 'advanced-zh');

    // A bound DBC cannot be deleted: the server's refusal is shown.
    await page.goto('/Container/DBCManager');
    await page
      .getByTestId('dbc-table')
      .getByRole('row', { name: /Engine DBC/ })
      .getByTestId('dbc-delete')
      .click();
    const confirmDelete = page.getByRole('dialog').filter({ hasText: '确定删除' });
    await expect(confirmDelete).toBeVisible();
    // A click during the dialog's opening animation can land on the mask: click until it is taken.
    await expect(async () => {
      if (await confirmDelete.isVisible()) await confirmDelete.getByRole('button', { name: button('删除') }).click({ timeout: 2_000 });
      await expect(page.getByTestId('dbc-delete-error')).toContainText('DBC 文件正被设备通道使用', { timeout: 3_000 });
    }).toPass({ timeout: 20_000 });
    await expect(page.getByTestId('dbc-delete-error')).toContainText('当前绑定了 1 个设备通道');
    await shot(page, 'delete-refused-zh');
    await page.getByRole('button', { name: button('确定') }).click();

    // Pause, then unbind after confirming: the channel's decoded data is gone.
    await page.goto(`/Container/HomePage/DeviceDetails?id=${thing.id}&tab=dbc&sub=data`);
    await page.getByTestId('binding-CAN0').getByTestId('binding-pause').click();
    await expect(page.getByTestId('binding-CAN0').getByTestId('parsing-state')).toHaveText('已暂停');
    await page.getByTestId('binding-CAN0').getByTestId('binding-unbind').click();
    const confirm = page.getByRole('dialog', { name: '解绑 CAN0？' });
    await expect(confirm).toContainText('清除该通道的看板和已解析的数据');
    await confirm.getByRole('button', { name: button('解绑') }).click();
    await expect(page.getByTestId('binding-CAN0')).toContainText('未绑定');
    const after = await adminApi.get<{ total: number }>(
      `/data-mgmt/tenants/${self.tenant_id}/things/${thing.id}/signals/data?signals=Engine.Speed&channel=0&begin_time=0&end_time=${Date.now() + 60_000}`,
    );
    expect(after.total).toBe(0);
    // The channel's dashboard went too: the saved real-time curve of CAN0 is no longer in the user's list.
    const curvesKey = `dbc.curves.${thing.id.replace(/[^A-Za-z0-9_]/g, '_')}`;
    const saved = await adminApi.get<{ key: string; value: string }[]>(`/tenant/users/self/configs?keys=${curvesKey}`);
    expect(saved).toHaveLength(1);
    expect(JSON.parse(saved[0].value)).toEqual([]);

    if (process.env.SCREENSHOTS) {
      await page.getByTestId('language-switch').click();
      await page.getByRole('menuitem', { name: 'English' }).click();
      await page.goto('/Container/DBCManager');
      await expect(page.getByTestId('dbc-table')).toContainText('Engine DBC');
      await shot(page, 'manager-en');
      await page.goto('/Container/DBCImportPage');
      await page.getByTestId('dbc-import-file').setInputFiles(good);
      await expect(page.getByTestId('dbc-message-table')).toContainText('Engine');
      await shot(page, 'import-en');
      await page.getByTestId('dbc-import-file').setInputFiles(broken);
      await expect(page.getByTestId('dbc-parse-error')).toContainText('Line 10');
      await shot(page, 'import-error-en');
      await page.goto(`/Container/HomePage/DeviceDetails?id=${thing.id}&tab=dbc`);
      await expect(page.getByTestId('channel-bindings')).toBeVisible();
      await shot(page, 'device-tab-en');
      await page.getByTestId('language-switch').click();
      await page.getByRole('menuitem', { name: '中文' }).click();
    }
    expect(pageErrors).toEqual([]);
  } finally {
    if (pageErrors.length) console.error(pageErrors.join('\n\n'));
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
