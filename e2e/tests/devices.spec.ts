import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CanFrame } from '@loggerhead/can/frame.ts';
import { readLog, writeLog } from '@loggerhead/can/logs/index.ts';
import type { Page, WebSocket } from '@playwright/test';
import { ownServerTest, simulateDevice } from '../support/own-server.ts';
import { screenshots } from '../support/screenshots.ts';
import { button, dialogOpened, expect, loginThroughForm } from '../support/test.ts';

/**
 * Issue "Devices and raw CAN data", done when: a device added in the console receives frames
 * from the simulator (a real MQTT client), they arrive live in the trace, are found in the
 * history, and come back out of the export dialogs as candump and ASC files holding the same
 * frames. The test needs the broker's port, so it runs a server of its own.
 */
const test = ownServerTest;

/** Screenshots for a look by eye (SCREENSHOTS=1), like tests/screens.spec.ts. */
const shot = screenshots('screens', 'devices-', { fullPage: false });

/** The device page's paginator (the home page stays mounted, hidden, with its own). */
const pager = (page: Page) => page.getByTestId('device-details').getByTestId('paginator');

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex').toUpperCase();
const idText = (f: CanFrame) =>
  f.id
    .toString(16)
    .toUpperCase()
    .padStart(f.ext ? 8 : 3, '0');

/** A log of classic and FD frames on two channels, standard and extended ids, 0-64 bytes. */
function makeLog(count: number): CanFrame[] {
  const t0 = 1_600_000_000_000_000;
  return Array.from({ length: count }, (_, i) => {
    const ext = i % 5 === 4;
    const fd = i % 50 === 25;
    const len = fd ? (i % 100 === 25 ? 64 : 12) : i % 9;
    return {
      ts: t0 + i * 1000 + (i % 7),
      channel: i % 3 === 0 ? 1 : 0,
      id: ext ? 0x18daf100 + (i % 4) : 0x100 + (i % 16),
      ext,
      fd,
      brs: fd,
      esi: false,
      rtr: false,
      err: false,
      tx: false,
      data: Uint8Array.from({ length: len }, (_, j) => (i * 7 + j * 13) & 0xff),
    };
  });
}

/** What must survive the round trip: order, relative time to the µs, channel, id, kind and bytes. */
function comparable(frames: CanFrame[]) {
  const first = frames[0]?.ts ?? 0;
  return frames.map((f) => ({ dt: f.ts - first, channel: f.channel, id: f.id, ext: f.ext, fd: f.fd, data: hex(f.data) }));
}

async function exportAs(page: Page, format: 'candump' | 'asc', label: RegExp, dir: string): Promise<Uint8Array> {
  await page.getByTestId('history-export').click();
  const dialog = page.getByRole('dialog', { name: '导出数据' });
  await dialogOpened(dialog);
  if (format === 'candump') {
    // The format is required: OK without one names the problem (later exports start from the last choice).
    // A click while the dialog still zooms open can miss the moving button: click until it is taken.
    await expect(async () => {
      await dialog.getByRole('button', { name: '开始导出' }).click({ timeout: 2_000 });
      await expect(dialog.getByText('请选择文件格式')).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 20_000 });
  }
  await dialog.getByRole('radio', { name: label }).check();
  if (format === 'candump') await shot(page, 'export-dialog-zh');
  const download = page.waitForEvent('download');
  await dialog.getByRole('button', { name: '开始导出' }).click();
  const progress = page.getByTestId('download-progress');
  await expect(progress).toBeVisible();
  const file = await download;
  await expect(page.getByTestId('download-status')).toHaveText('已完成');
  if (format === 'candump') await shot(page, 'progress-done-zh');
  // Spec §4: the dialog closes by itself 2 s after 100 %.
  await expect(progress).toBeHidden({ timeout: 5_000 });
  const target = path.join(dir, file.suggestedFilename());
  await file.saveAs(target);
  return new Uint8Array(fs.readFileSync(target));
}

test('a device added in the console streams frames live, into history and out through the exports', async ({ page, own, admin }) => {
  test.setTimeout(240_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loggerhead-devices-e2e-'));
  try {
    const deviceId = randomBytes(10).toString('hex').toUpperCase();
    const name = `Logger ${deviceId.slice(-4)}`;
    await loginThroughForm(page, admin);
    // Every WebSocket the page opens from here on: the kinds of subscription it asked for, and of message it got.
    // (`last`: when it last sent or got a frame; a socket of the page left behind by the navigation
    // below may be reported closed late, but it has no traffic after it.)
    const sockets: { ws: WebSocket; asked: Set<string>; got: Set<string>; last: number }[] = [];
    page.on('websocket', (ws) => {
      const entry = { ws, asked: new Set<string>(), got: new Set<string>(), last: Date.now() };
      sockets.push(entry);
      ws.on('framesent', (f) => {
        entry.last = Date.now();
        const kind = /"kind":"([a-z-]+)"/.exec(String(f.payload))?.[1];
        if (kind) entry.asked.add(kind);
      });
      ws.on('framereceived', (f) => {
        entry.last = Date.now();
        const t = /"t":"([a-z-]+)"/.exec(String(f.payload))?.[1];
        if (t) entry.got.add(t);
      });
    });
    await page.goto('/Container/HomePage');
    await expect(page.getByTestId('device-table')).toBeVisible();
    const loaded = Date.now();

    // Add the device; the form checks the ID before the server sees it.
    await page.getByTestId('add-device').click();
    const add = page.getByRole('dialog', { name: '添加设备' });
    await add.getByLabel('设备 ID').fill('XYZ');
    await add.getByRole('button', { name: button('确定') }).click();
    await expect(add.getByText('设备 ID 须为 20 位大写十六进制字符')).toBeVisible();
    await expect(add.getByText('请输入设备名称')).toBeVisible();
    await add.getByLabel('设备 ID').fill(deviceId.toLowerCase()); // typed in lower case, sent upper case
    await add.getByLabel('设备名称').fill(name);
    await add.locator('#add-device_info_model_id').click();
    await page.getByTitle('CANDTU-200').click();
    await shot(page, 'add-device-zh');
    await add.getByRole('button', { name: button('确定') }).click();

    // The key is shown once the device exists, with copy and regenerate.
    const keyDialog = page.getByRole('dialog', { name: '设备接入密钥' });
    await expect(keyDialog.getByTestId('key-device-id')).toHaveText(deviceId);
    const firstKey = (await keyDialog.getByTestId('things-key').textContent()) ?? '';
    expect(firstKey).toMatch(/^[0-9a-f]{32}$/);
    await keyDialog.getByTestId('regenerate-key').click();
    await page
      .getByRole('tooltip')
      .getByRole('button', { name: button('确定') })
      .click();
    await expect(keyDialog.getByTestId('things-key')).not.toHaveText(firstKey);
    const key = (await keyDialog.getByTestId('things-key').textContent()) ?? '';
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    await keyDialog.getByTestId('copy-key').click();
    await expect(page.getByText('已复制')).toBeVisible();
    await shot(page, 'key-dialog-zh');
    await keyDialog
      .getByRole('button', { name: button('关闭') })
      .last()
      .click();

    // The same ID again: the server's things.duplicate-id, translated, on the field.
    await page.getByTestId('add-device').click();
    await add.getByLabel('设备 ID').fill(deviceId);
    await add.getByLabel('设备名称').fill('Second');
    await add.getByRole('button', { name: button('确定') }).click();
    await expect(add.getByText('已存在相同 ID 的设备')).toBeVisible();
    await add.getByRole('button', { name: button('取消') }).click();

    // The list shows it, numbered, never connected, with empty cells as "--".
    const row = page.getByTestId('device-table').getByRole('row', { name: new RegExp(deviceId) });
    await expect(row).toContainText('从未连接');
    await expect(row).toContainText('--');
    await shot(page, 'home-zh');
    await row.getByTestId('device-name').click();
    await expect(page).toHaveURL(/\/Container\/HomePage\/DeviceDetails\?id=/);
    await expect(page.getByTestId('device-title')).toHaveText(name);

    // Live trace: subscribe first, then let the simulator send its log.
    await page.getByRole('tab', { name: '设备数据' }).click();
    await expect(page.getByTestId('live-stats')).toContainText('实时');
    const sent = makeLog(400);
    const logFile = path.join(dir, 'sent.log');
    fs.writeFileSync(logFile, writeLog(sent, 'candump'));
    const sim = await simulateDevice(own, deviceId, key, ['--log', logFile, '--fast']);
    expect(sim.code, sim.output).toBe(0);
    expect(sim.output).toContain('400 frames');
    await expect(page.getByTestId('live-received')).toContainText('400');
    // The newest frame is in view (the list follows the stream) with its id and bytes.
    const last = sent[sent.length - 1];
    await expect(page.getByTestId('live-id').last()).toHaveText(idText(last));
    await expect(page.getByTestId('live-data').last()).toHaveText(hex(last.data).replace(/(..)(?!$)/g, '$1 '));
    // One WebSocket for the tab: the live trace and the message bell share it.
    const open = sockets.filter((x) => !x.ws.isClosed() && x.last >= loaded);
    expect(open.map((x) => new URL(x.ws.url()).pathname)).toEqual(['/api/live']);
    expect([...open[0].asked].sort()).toEqual(['frames', 'messages']);
    expect(open[0].got.has('frames')).toBe(true);
    // Only the rows in view are in the page, not all 400.
    expect(await page.getByTestId('live-row').count()).toBeLessThan(60);
    await shot(page, 'live-zh');
    await page.getByTestId('live-pause').click();
    await expect(page.getByTestId('live-stats')).toContainText('已暂停');

    // History: all 400 frames in the last hour, in order; a channel filter narrows them.
    await page.getByRole('tab', { name: '历史数据' }).click();
    const history = page.getByTestId('history-table');
    await expect(pager(page)).toContainText('共 400 条');
    await expect(history.getByTestId('history-id').first()).toHaveText(idText(sent[0]));
    await expect(history.getByTestId('history-id')).toHaveCount(10);
    await shot(page, 'history-zh');
    await page.getByTestId('channel-filter').click();
    await page.getByTitle('CAN1', { exact: true }).click();
    await page.keyboard.press('Escape');
    await page.getByTestId('history-query').click();
    const onCan1 = sent.filter((f) => f.channel === 1).length;
    await expect(pager(page)).toContainText(`共 ${onCan1} 条`);
    await page.reload(); // back to no filter
    await expect(pager(page)).toContainText('共 400 条');

    // Exports: the same frames come back as candump and as ASC.
    const candump = readLog(await exportAs(page, 'candump', /candump/, dir), 'candump');
    expect(candump.error).toBeUndefined();
    expect(comparable(candump.frames)).toEqual(comparable(sent));
    // Times moved to "now" when sent, all by the same amount.
    expect(Math.abs(candump.frames[0].ts / 1000 - Date.now())).toBeLessThan(10 * 60_000);
    const asc = readLog(await exportAs(page, 'asc', /ASC/, dir), 'asc');
    expect(asc.error).toBeUndefined();
    expect(comparable(asc.frames)).toEqual(comparable(sent));

    // A fast stream: the trace keeps painting and holds at most 10000 rows, of which only
    // those in view are in the page.
    await page.getByRole('tab', { name: '实时数据' }).click();
    await expect(page.getByTestId('live-stats')).toContainText('实时');
    const paints = page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          let n = 0;
          const started = performance.now();
          const step = () => {
            n++;
            if (performance.now() - started < 4000) requestAnimationFrame(step);
            else resolve((n * 1000) / (performance.now() - started));
          };
          requestAnimationFrame(step);
        }),
    );
    const fleet = await simulateDevice(own, deviceId, key, ['--devices', '1', '--rate', '5000', '--duration', '6']);
    expect(fleet.code, fleet.output).toBe(0);
    const fps = await paints;
    console.log(`live trace at 5000 frames/s: ${fps.toFixed(1)} paints/s; simulator: ${fleet.output.trim()}`);
    expect(fps).toBeGreaterThan(10);
    await expect(page.getByTestId('live-stats')).toContainText('列表 10,000 / 10,000');
    expect(await page.getByTestId('live-row').count()).toBeLessThan(60);
    await shot(page, 'live-fast-zh');

    // Management: the device reported in, and its log holds the connection.
    await page.getByRole('tab', { name: '设备管理' }).click();
    await expect(page.getByTestId('frames-stored')).not.toHaveText('--');
    await expect(page.getByTestId('event-log')).toContainText('上线');
    await shot(page, 'management-zh');

    if (process.env.SCREENSHOTS) {
      await page.getByTestId('language-switch').click();
      await page.getByRole('menuitem', { name: 'English' }).click();
      await expect(page.getByRole('tab', { name: 'Device management' })).toBeVisible();
      await shot(page, 'management-en');
      await page.getByRole('tab', { name: 'Device data' }).click();
      await page.getByRole('tab', { name: 'History' }).click();
      await expect(pager(page)).toContainText('30,900 in total');
      await shot(page, 'history-en');
      await page.getByRole('tab', { name: 'Real-time' }).click();
      await shot(page, 'live-en');
      await page.goto('/Container/HomePage');
      await expect(page.getByTestId('device-table')).toContainText(deviceId);
      await shot(page, 'home-en');
      await page.getByTestId('column-chooser-button').click();
      await shot(page, 'column-chooser-en');
      await page.keyboard.press('Escape');
      await page.getByTestId('add-device').click();
      await page.getByRole('dialog', { name: 'Add device' }).getByRole('button', { name: 'OK' }).click();
      await shot(page, 'add-device-en');
      await page.getByRole('dialog', { name: 'Add device' }).getByRole('button', { name: 'Cancel' }).click();
      await page.getByTestId('language-switch').click();
      await page.getByRole('menuitem', { name: '中文' }).click();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('vehicles bind their channels to device CAN channels', async ({ page, admin, adminApi }) => {
  const self = await adminApi.get<{ tenant_id: string }>('/tenant/users/self');
  const types = await adminApi.get<{ id: string; name: string }[]>(`/things/tenants/${self.tenant_id}/device-types`);
  const deviceId = randomBytes(10).toString('hex').toUpperCase();
  await adminApi.post(`/things/tenants/${self.tenant_id}/things`, {
    third_things_id: deviceId,
    name: `Car logger ${deviceId.slice(-4)}`,
    info_model_id: types.find((t) => t.name === 'CANDTU-200')?.id,
  });
  await loginThroughForm(page, admin);
  await page.goto('/Container/CarManager');
  await page.getByTestId('add-vehicle').click();
  const form = page.getByRole('dialog', { name: '添加车辆' });
  await form.getByLabel('车辆名称').fill('Test truck');
  await form.getByLabel('VIN').fill('1HGCM82633A00435I'); // I is not allowed in a VIN
  await form.getByRole('button', { name: '添加通道' }).click();
  await form.getByRole('combobox', { name: '设备', exact: true }).click();
  await page.getByTitle(new RegExp(deviceId)).click();
  await form.getByRole('combobox', { name: '设备通道' }).click();
  await page.getByTitle('CAN1', { exact: true }).click();
  await form.getByRole('button', { name: button('确定') }).click();
  await expect(form.getByText('VIN 须为 17 位数字和字母（不含 I、O、Q）')).toBeVisible();
  await form.getByLabel('VIN').fill('1hgcm82633a004352');
  await shot(page, 'car-form-zh');
  await form.getByRole('button', { name: button('确定') }).click();
  await expect(form).toBeHidden();
  const row = page.getByTestId('vehicle-table').getByRole('row', { name: /Test truck/ });
  await expect(row).toContainText('1HGCM82633A004352');
  await expect(row).toContainText('CAN0 → CAN1');
  await shot(page, 'car-manager-zh');
  await row.getByText('Test truck').click();
  await expect(page).toHaveURL(/CarDetails\?id=/);
  await expect(page.getByRole('cell', { name: deviceId })).toBeVisible();
  await shot(page, 'car-details-zh');
});

test('the device list keeps favourites and column choices, and deletes after confirmation', async ({ page, admin, adminApi }) => {
  const self = await adminApi.get<{ tenant_id: string }>('/tenant/users/self');
  const types = await adminApi.get<{ id: string; name: string }[]>(`/things/tenants/${self.tenant_id}/device-types`);
  const deviceId = randomBytes(10).toString('hex').toUpperCase();
  const name = `Fav ${deviceId.slice(-4)}`;
  await adminApi.post(`/things/tenants/${self.tenant_id}/things`, { third_things_id: deviceId, name, info_model_id: types[0].id });
  await loginThroughForm(page, admin);
  await page.goto('/Container/HomePage');
  const table = page.getByTestId('device-table');
  const row = table.getByRole('row', { name: new RegExp(deviceId) });

  // Favourite: only favourites are listed when asked.
  await row.getByTestId('collect-toggle').click();
  await expect(row.getByTestId('collect-toggle')).toHaveAttribute('aria-pressed', 'true');
  await page.getByRole('checkbox', { name: '只看收藏' }).check();
  await expect(table.getByRole('row', { name: new RegExp(deviceId) })).toBeVisible();
  await page.getByRole('checkbox', { name: '只看收藏' }).uncheck();

  // Columns: hide the firmware column, add the description; the choice survives a reload.
  await page.getByTestId('column-chooser-button').click();
  const chooser = page.getByTestId('column-chooser');
  await chooser.getByRole('checkbox', { name: '固件版本' }).uncheck();
  await chooser.getByRole('checkbox', { name: '描述' }).check();
  await chooser.getByRole('button', { name: button('保存') }).click();
  await expect(page.getByText('保存成功')).toBeVisible();
  await page.reload();
  await expect(table.getByRole('columnheader', { name: '描述' })).toBeVisible();
  await expect(table.getByRole('columnheader', { name: '固件版本' })).toHaveCount(0);
  await expect(table.getByRole('columnheader', { name: '序号' })).toBeVisible();

  // Delete asks first; cancelling keeps the device.
  await row.getByRole('button', { name: button('删除') }).click();
  await dialogOpened(page.getByRole('dialog'));
  await page
    .getByRole('dialog')
    .getByRole('button', { name: button('取消') })
    .click();
  await expect(row).toBeVisible();
  // Wait until the cancelled dialog has closed, so the next dialog is the only one to click in.
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await row.getByRole('button', { name: button('删除') }).click();
  await expect(page.getByRole('dialog')).toContainText(name);
  await dialogOpened(page.getByRole('dialog'));
  await page
    .getByRole('dialog')
    .getByRole('button', { name: button('删除') })
    .click();
  await expect(row).toHaveCount(0);
});
