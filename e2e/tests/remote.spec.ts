import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { Api } from '../support/api.ts';
import { screenshots } from '../support/screenshots.ts';
import { ROOT, type RunningServer, startServer } from '../support/server.ts';
import { test as base, button, dialogOpened, expect, loginThroughForm, pickOption } from '../support/test.ts';

/**
 * Issue "Remote operations", done when: with the console and a simulated logger, a CAN command
 * is answered, a configuration is written and read back, a file on the SD card is recalled and
 * downloaded (bytes equal), firmware is upgraded to flash success, DTCs are read and cleared, and
 * an ECU image is flashed that the simulated ECU verifies (its check routine compares the CRC).
 * One server and one simulated logger per worker; the steps run in order.
 */

/** The unlock algorithm the simulated ECU and the uploaded unlock file share. */
const UNLOCK = {
  format: 'loggerhead-unlock/1',
  level: 1,
  steps: [
    { op: 'xor', hex: '5A3C96E1' },
    { op: 'add', hex: '01020304' },
    { op: 'rotl', bits: 11 },
  ],
};

interface Rig {
  server: RunningServer;
  tenantId: string;
  thing: { id: string; third_things_id: string; things_key: string };
  dir: string;
  /** The file on the logger's SD card, and its bytes. */
  sdName: string;
  sdBytes: Buffer;
  /** Starts the simulated logger (`loggerhead remote-device`) and waits until the server sees it online. */
  startDevice: () => Promise<void>;
  /** Stops it (Ctrl-C). */
  stopDevice: () => Promise<void>;
  isOnline: () => Promise<boolean>;
}

function mqttPort(server: RunningServer): number {
  const m = /MQTT:\s+mqtt:\/\/[^:]+:(\d+)/.exec(server.output());
  if (!m) throw new Error(`no MQTT port in the server banner:\n${server.output()}`);
  return Number(m[1]);
}

const test = base.extend<object, { rig: Rig }>({
  rig: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads fixture dependencies from this pattern.
    async ({}, use) => {
      const server = await startServer();
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loggerhead-remote-e2e-'));
      const api = new Api(server.baseURL);
      await api.login(server.admin);
      const self = await api.get<{ tenant_id: string }>('/tenant/users/self');
      const types = await api.get<{ id: string; name: string }[]>(`/things/tenants/${self.tenant_id}/device-types`);
      const deviceId = randomBytes(10).toString('hex').toUpperCase();
      const thing = await api.post<Rig['thing']>(`/things/tenants/${self.tenant_id}/things`, {
        third_things_id: deviceId,
        name: `Remote logger ${deviceId.slice(-4)}`,
        info_model_id: types.find((t) => t.name === 'CANDTU-200')?.id,
      });

      // The SD card: one log file of random bytes, written now (inside the default 7-day filter).
      const sd = path.join(dir, 'sd');
      fs.mkdirSync(sd);
      const sdName = 'REC_0001.asc';
      const sdBytes = randomBytes(300 * 1024);
      fs.writeFileSync(path.join(sd, sdName), sdBytes);
      // A second, smaller file for the batch recall.
      fs.writeFileSync(path.join(sd, 'REC_0002.asc'), randomBytes(20 * 1024));
      // One ECU behind the logger: BMS on 7E0/7E8 with two stored DTCs.
      const ecus = path.join(dir, 'ecus.json');
      fs.writeFileSync(
        ecus,
        JSON.stringify([
          {
            name: 'BMS',
            request_id: '7E0',
            response_id: '7E8',
            functional_id: '7DF',
            channel: 0,
            unlock: UNLOCK,
            dtcs: [
              { code: 'P0A80-13', status: 9 },
              { code: 'U0100-87', status: 8 },
            ],
            dids: { F190: Buffer.from('LH0SIMVIN00000001').toString('hex') },
          },
        ]),
      );

      let device: ChildProcess | null = null;
      let output = '';
      const isOnline = async () =>
        (await api.get<{ is_online: boolean }>(`/things/tenants/${self.tenant_id}/things/${thing.id}`)).is_online;
      const startDevice = async () => {
        output = '';
        const child = spawn(
          process.execPath,
          [
            path.join(ROOT, 'apps/server/bin/loggerhead.mjs'),
            'remote-device',
            '--broker',
            `mqtt://127.0.0.1:${mqttPort(server)}`,
            '--device',
            thing.third_things_id,
            '--key',
            thing.things_key,
            '--sd',
            sd,
            '--ecus',
            ecus,
          ],
          { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
        );
        device = child;
        child.stdout?.setEncoding('utf8').on('data', (d: string) => (output += d));
        child.stderr?.setEncoding('utf8').on('data', (d: string) => (output += d));
        await expect
          .poll(() => (child.exitCode === null ? output : `exited ${child.exitCode}: ${output}`), { timeout: 60_000 })
          .toContain('connected as');
        await expect.poll(isOnline, { timeout: 30_000 }).toBe(true);
      };
      const stopDevice = async () => {
        const child = device;
        device = null;
        if (!child || child.exitCode !== null) return;
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGINT');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      };
      await startDevice();

      await use({ server, tenantId: self.tenant_id, thing, dir, sdName, sdBytes, startDevice, stopDevice, isOnline });

      await stopDevice();
      await server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
    { scope: 'worker', timeout: 180_000 },
  ],
  baseURL: async ({ rig }, use) => use(rig.server.baseURL),
  admin: async ({ rig }, use) => use(rig.server.admin),
  adminApi: async ({ rig }, use) => {
    const api = new Api(rig.server.baseURL);
    await api.login(rig.server.admin);
    await use(api);
  },
});

test.describe.configure({ mode: 'serial' });

const shot = screenshots('screens', 'remote-');

/** Fails the test with the page's own error instead of a timeout somewhere later. */
function watch(page: Page) {
  page.on('pageerror', (e) => console.error('PAGE ERROR', e.message, e.stack ?? ''));
  // The last known config answers 404 until one was read or written: expected, not worth a line.
  page.on('response', (r) => {
    if (r.status() >= 400 && !(r.status() === 404 && r.url().endsWith('/config')))
      console.error('HTTP', r.status(), r.request().method(), r.url());
  });
}

const details = (rig: Rig, tab: string, sub?: string) =>
  `/Container/HomePage/DeviceDetails?id=${rig.thing.id}&tab=${tab}${sub ? `&sub=${sub}` : ''}`;

test('a CAN command reaches the logger and is answered', async ({ page, rig, admin, adminApi }) => {
  watch(page);
  await loginThroughForm(page, admin);
  await page.goto(details(rig, 'management'));
  const sender = page.getByTestId('command-sender');
  await expect(sender).toBeVisible();
  await sender.getByLabel('ID（十六进制）').fill('1A0');
  await sender.getByLabel('数据（十六进制）').fill('11 22 33 4');
  await expect(sender.getByText('数据须为偶数个十六进制字符')).toBeVisible();
  await expect(sender.getByRole('button', { name: button('发送') })).toBeDisabled();
  await sender.getByLabel('数据（十六进制）').fill('11 22 33 44');
  await sender.getByRole('button', { name: button('发送') }).click();
  await expect(page.getByText('指令已提交')).toBeVisible();

  const row = page.getByTestId('command-list').getByRole('row', { name: /common_fn\.send_can/ });
  await expect(row).toContainText('已应答', { timeout: 30_000 });
  await shot(page, 'commands-zh');

  // The server's record agrees with what the list shows: answered with code 0, sent before answered.
  const list = await adminApi.get<{ list: { operation_name: string; state: string; code: number | null; sent_at: number | null }[] }>(
    `/things/tenants/${rig.tenantId}/things/${rig.thing.id}/messages?current_page=1&page_size=10`,
  );
  const sent = list.list.find((c) => c.operation_name === 'common_fn.send_can');
  expect(sent).toMatchObject({ state: 'answered', code: 0 });
  expect(sent?.sent_at).not.toBeNull();
});

test('a configuration written to the logger is read back from it', async ({ page, rig, admin, adminApi }) => {
  watch(page);
  await loginThroughForm(page, admin);
  await page.goto(details(rig, 'management'));
  const editor = page.getByTestId('config-editor');
  await expect(editor).toBeVisible();
  // Out of range: the form says so and nothing is written.
  await editor.getByLabel('定时周期（ms）').fill('5');
  await editor.getByRole('button', { name: button('写入设备') }).click();
  await expect(editor.getByText('范围 10–86400000 的整数')).toBeVisible();

  await editor.getByLabel('定时周期（ms）').fill('2500');
  await editor.getByLabel('记录文件大小（MB）').fill('64');
  await editor.getByLabel('GPS 记录周期（s）').fill('30');
  await editor
    .getByRole('button', { name: /添加过滤/ })
    .first()
    .click();
  await editor.getByLabel('开始').first().fill('08:00');
  await editor.getByLabel('结束').first().fill('18:30');
  await editor.getByRole('button', { name: button('写入设备') }).click();
  await expect(page.getByText('配置已写入设备')).toBeVisible({ timeout: 30_000 });
  await expect(editor).toContainText('上次写入设备');

  // Change the form without writing, then read from the logger: its values come back.
  await editor.getByLabel('定时周期（ms）').fill('999');
  await editor.getByLabel('记录文件大小（MB）').fill('1');
  await editor.getByRole('button', { name: button('从设备读取') }).click();
  await expect(page.getByText('已读取设备配置')).toBeVisible({ timeout: 30_000 });
  await expect(editor.getByLabel('定时周期（ms）')).toHaveValue('2500');
  await expect(editor.getByLabel('记录文件大小（MB）')).toHaveValue('64');
  await expect(editor.getByLabel('GPS 记录周期（s）')).toHaveValue('30');
  await expect(editor.getByLabel('开始').first()).toHaveValue('08:00');
  await expect(editor).toContainText('上次从设备读取');
  await shot(page, 'config-zh');

  // Export: the file holds what the form shows. Import: out-of-range values are refused, good ones fill the form.
  const exported = page.waitForEvent('download');
  await editor.getByRole('button', { name: /导出 JSON/ }).click();
  const file = JSON.parse(fs.readFileSync(await (await exported).path(), 'utf8'));
  expect(file.config).toMatchObject({ timer_period_ms: 2500, record_file_size_mb: 64, gps_record_period_s: 30 });
  const bad = path.join(rig.dir, 'bad-config.json');
  fs.writeFileSync(bad, JSON.stringify({ config: { ...file.config, record_file_size_mb: 513 } }));
  await editor.locator('input[type=file]').setInputFiles(bad);
  await expect(page.getByText('配置文件中有超出范围的值')).toBeVisible();
  await expect(editor.getByLabel('记录文件大小（MB）')).toHaveValue('64');
  const good = path.join(rig.dir, 'config.json');
  fs.writeFileSync(good, JSON.stringify({ config: { ...file.config, record_file_size_mb: 128 } }));
  await editor.locator('input[type=file]').setInputFiles(good);
  await expect(page.getByText('已导入配置文件，确认后写入设备')).toBeVisible();
  await expect(editor.getByLabel('记录文件大小（MB）')).toHaveValue('128');
  await editor.getByRole('button', { name: button('写入设备') }).click();
  // The source line turns from "last read" to "last written" once the logger took it.
  await expect(editor).toContainText('上次写入设备', { timeout: 30_000 });

  // The logger itself holds them (read through the API, not the form).
  const fromDevice = await adminApi.get<{ config: Record<string, unknown> }>(
    `/things/tenants/${rig.tenantId}/things/${rig.thing.id}/config/device`,
  );
  expect(fromDevice.config).toMatchObject({
    timer_period_ms: 2500,
    record_file_size_mb: 128,
    gps_record_period_s: 30,
    time_filters: [{ begin: '08:00', end: '18:30', enabled: true }],
  });
});

test('a file on the SD card is recalled and downloaded with the same bytes', async ({ page, rig, admin }) => {
  test.setTimeout(120_000);
  watch(page);
  await loginThroughForm(page, admin);
  await page.goto(details(rig, 'data', 'storage'));
  const storage = page.getByTestId('storage-files');
  await expect(storage).toBeVisible();
  await storage.getByRole('button', { name: button('查询') }).click();
  const row = storage.getByRole('row', { name: new RegExp(rig.sdName.replace('.', '\\.')) });
  await expect(row).toBeVisible({ timeout: 30_000 });
  await expect(row).toContainText('300'); // 300 KB, the spec's units
  await shot(page, 'storage-list-zh');

  // Recall: the progress dialog follows the task, and the browser downloads the file when it is done.
  const download = page.waitForEvent('download', { timeout: 90_000 });
  await row.getByRole('button', { name: button('回传') }).click();
  const dialog = page.getByRole('dialog', { name: `回传 ${rig.sdName}` });
  await expect(dialog).toBeVisible();
  const file = await download;
  expect(fs.readFileSync(await file.path()).equals(rig.sdBytes)).toBe(true);
  await expect(dialog).toBeHidden({ timeout: 10_000 });

  // The recalled file is listed and downloads again with the same bytes.
  const recalled = page.getByTestId('recalled-files').getByRole('row', { name: new RegExp(rig.sdName.replace('.', '\\.')) });
  await expect(recalled).toBeVisible({ timeout: 20_000 });
  await shot(page, 'storage-recalled-zh');
  const again = page.waitForEvent('download');
  await recalled.getByRole('button', { name: button('下载') }).click();
  expect(fs.readFileSync(await (await again).path()).equals(rig.sdBytes)).toBe(true);

  // Batch recall of the ticked files (the package's limit is shown on the button).
  const second = storage.getByRole('row', { name: /REC_0002\.asc/ });
  await second.getByRole('checkbox').check();
  await storage.getByRole('button', { name: /批量回传（1 \/ \d+）/ }).click();
  await expect(page.getByText('已开始回传 1 个文件')).toBeVisible();
  await expect(page.getByTestId('recalled-files').getByRole('row', { name: /REC_0002\.asc/ })).toContainText('20.00 KB', {
    timeout: 30_000,
  });

  // Delete the first on the card: once the logger answered, the card is listed again without it.
  await row.getByRole('button', { name: button('删除') }).click();
  await expect(page.getByText(`确定删除 ${rig.sdName}？`)).toBeVisible();
  await page
    .getByRole('tooltip')
    .getByRole('button', { name: button('确定') })
    .click();
  await expect(page.getByText('已从设备删除')).toBeVisible({ timeout: 30_000 });
  await expect(row).toBeHidden();
  await expect(second).toBeVisible();
  // The recalled copy stays.
  await expect(recalled).toBeVisible();
});

test('firmware uploaded in the console upgrades the logger to flash success', async ({ page, rig, admin, adminApi }) => {
  test.setTimeout(120_000);
  watch(page);
  const image = path.join(rig.dir, 'candtu-200-2.1.7.bin');
  fs.writeFileSync(image, randomBytes(96 * 1024));
  await loginThroughForm(page, admin);
  await page.goto(details(rig, 'management'));
  const section = page.getByTestId('firmware-section');
  await section.getByRole('button', { name: button('上传固件') }).click();
  const dialog = page.getByRole('dialog', { name: '上传固件' });
  await dialogOpened(dialog);
  await dialog.getByLabel('版本').fill('2.1.700');
  await dialog.getByRole('button', { name: button('上传固件') }).click();
  await expect(dialog.getByText('固件版本须为 xx.xx.xx（每段 1–2 位数字）')).toBeVisible();
  await dialog.getByLabel('版本').fill('02.01.07');
  await dialog.getByLabel('描述').fill('CAN FD filter fix');
  await dialog.locator('input[type=file]').setInputFiles(image);
  await expect(dialog).toContainText('candtu-200-2.1.7.bin');
  await shot(page, 'firmware-upload-zh');
  await dialog.getByRole('button', { name: button('上传固件') }).click();
  await expect(dialog).toBeHidden();

  const row = section.getByRole('row', { name: /02\.01\.07/ });
  await expect(row).toContainText('candtu-200-2.1.7.bin');
  await row.getByRole('button', { name: button('升级本设备') }).click();
  await expect(page.getByText('立即将本设备升级到 02.01.07？')).toBeVisible();
  await page
    .getByRole('tooltip')
    .getByRole('button', { name: button('确定') })
    .click();
  const state = section.getByTestId('upgrade-state');
  await expect(state).toContainText('02.01.07');
  await expect(state).toContainText('烧写成功', { timeout: 60_000 });
  await shot(page, 'firmware-zh');

  // The logger reports its new version, in the status above and through the API.
  await expect(page.locator('.ant-descriptions-item', { hasText: '固件版本' })).toContainText('02.01.07');
  await expect
    .poll(async () => (await adminApi.get<{ firmware: string | null }>(`/things/tenants/${rig.tenantId}/things/${rig.thing.id}`)).firmware)
    .toBe('02.01.07');
});

test('ECUs and fault-code files are set up, DTCs read with their names and cleared', async ({ page, rig, admin }) => {
  test.setTimeout(120_000);
  watch(page);
  const codes = path.join(rig.dir, 'bms-codes.csv');
  fs.writeFileSync(codes, 'code,name\nP0A80,Replace hybrid battery pack\nU0100,Lost communication with ECM\n');
  const unlock = path.join(rig.dir, 'bms-unlock.json');
  fs.writeFileSync(unlock, JSON.stringify(UNLOCK));
  const ecuImage = path.join(rig.dir, 'bms-app-3.0.bin');
  fs.writeFileSync(ecuImage, randomBytes(20_000));
  await loginThroughForm(page, admin);

  // BreakdownCodeManager: import the fault-code file and look at its codes.
  await page.goto('/Container/BreakdownCodeManager');
  const dtcFiles = page.getByTestId('ecu-files-dtc');
  await dtcFiles.locator('input[type=file]').setInputFiles(codes);
  const dtcRow = dtcFiles.getByRole('row', { name: /bms-codes\.csv/ });
  await expect(dtcRow).toContainText('2');
  await dtcRow.getByRole('button', { name: button('查看故障码') }).click();
  const codeDialog = page.getByRole('dialog', { name: 'bms-codes.csv' });
  await dialogOpened(codeDialog);
  await expect(codeDialog).toContainText('Replace hybrid battery pack');
  await expect(codeDialog).toContainText('U0100');
  await shot(page, 'fault-codes-zh');
  await page.keyboard.press('Escape');

  // ECUManager: the flash image and the unlock file, then the ECU with its three files.
  await page.goto('/Container/ECUManager');
  await page.getByTestId('ecu-files-firmware').locator('input[type=file]').setInputFiles(ecuImage);
  await expect(page.getByTestId('ecu-files-firmware')).toContainText('bms-app-3.0.bin');
  await page.getByTestId('ecu-files-unlock').locator('input[type=file]').setInputFiles(unlock);
  await expect(page.getByTestId('ecu-files-unlock')).toContainText('bms-unlock.json');
  await page.getByRole('button', { name: button('新建 ECU') }).click();
  const dialog = page.getByRole('dialog', { name: '新建 ECU' });
  await dialogOpened(dialog);
  await dialog.getByLabel('名称').fill('BMS');
  await dialog.getByLabel('物理地址').fill('800');
  await dialog.getByRole('button', { name: button('确定') }).click();
  await expect(dialog.getByText('标准帧地址为十六进制，最大 7FF')).toBeVisible();
  await dialog.getByLabel('物理地址').fill('7E0');
  await dialog.getByLabel('响应地址').fill('7E8');
  await dialog.getByLabel('功能地址').fill('7DF');
  for (const [label, file] of [
    ['故障码文件', 'bms-codes.csv'],
    ['固件包', 'bms-app-3.0.bin'],
    ['解锁文件', 'bms-unlock.json'],
  ]) {
    await dialog.getByLabel(label).click();
    await page.getByTitle(`${file} (${file})`).click();
  }
  await shot(page, 'ecu-dialog-zh');
  await dialog.getByRole('button', { name: button('确定') }).click();
  await expect(dialog).toBeHidden();
  const ecuRow = page.getByTestId('ecu-list').getByRole('row', { name: /BMS/ });
  await expect(ecuRow).toContainText('7E0');
  await expect(ecuRow).toContainText('bms-codes.csv');
  await shot(page, 'ecu-manager-zh');

  // UDS tab: a raw request, then the DTCs with names from the file, then clear them.
  await page.goto(details(rig, 'uds'));
  await page.getByRole('combobox', { name: /^\*?\s*ECU$/ }).click();
  await page.getByTitle('BMS', { exact: true }).click();
  // The ECU's addresses are shown with it.
  await expect(page.getByLabel('请求地址')).toHaveValue('7E0');
  await expect(page.getByLabel('响应地址')).toHaveValue('7E8');
  await page.getByLabel('原始请求').fill('22 F1 90');
  await page
    .getByTestId('uds-services')
    .getByRole('button', { name: button('发送') })
    .last()
    .click();
  const log = page.getByTestId('uds-log');
  await expect(log).toContainText('肯定响应');
  await expect(log).toContainText(`62 F1 90 ${Buffer.from('LH0SIMVIN00000001').toString('hex').toUpperCase().match(/../g)?.join(' ')}`);

  await page.getByRole('button', { name: button('读取故障码') }).click();
  const dtcs = page.getByTestId('uds-dtcs');
  await expect(dtcs.getByRole('row', { name: /P0A80-13/ })).toContainText('Replace hybrid battery pack');
  await expect(dtcs.getByRole('row', { name: /U0100-87/ })).toContainText('Lost communication with ECM');
  await shot(page, 'uds-zh');
  await page.getByRole('button', { name: button('清除故障码') }).click();
  await page
    .getByRole('tooltip')
    .getByRole('button', { name: button('确定') })
    .click();
  await expect(page.getByText('故障码已清除')).toBeVisible();
  await page.getByRole('button', { name: button('读取故障码') }).click();
  await expect(dtcs).toContainText('没有故障码');
});

test('an ECU image is flashed through the logger and verified by the ECU', async ({ page, rig, admin }) => {
  test.setTimeout(180_000);
  watch(page);
  await loginThroughForm(page, admin);
  await page.goto(details(rig, 'ecu'));
  await page.getByRole('combobox', { name: /^\*?\s*ECU$/ }).click();
  await page.getByTitle('BMS', { exact: true }).click();
  await page.getByLabel('固件包').click();
  await page.getByTitle('bms-app-3.0.bin (bms-app-3.0.bin)').click();
  await page.getByRole('textbox', { name: '下载地址' }).fill('8000');
  await page.getByRole('button', { name: button('开始升级') }).click();
  const job = page.getByTestId('ecu-flash-job');
  await expect(job).toBeVisible();
  await expect(job).toContainText('完成', { timeout: 150_000 });
  await shot(page, 'ecu-upgrade-zh');

  // The job ran every step; the ECU's check routine accepted the CRC (a mismatch fails at "check").
  await expect(job.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
  await expect(job).not.toContainText('升级失败');
  // The job is found again after a reload.
  await expect(page).toHaveURL(/[?&]job=/);
  await page.reload();
  await expect(page.getByTestId('ecu-flash-job')).toContainText('完成');

  // Flashing relayed many UDS requests; the operation filter finds the one CAN command among them.
  await page.goto(details(rig, 'management'));
  const list = page.getByTestId('command-list');
  await expect(list).toContainText('uds.request');
  // pickOption retries: a click while the dropdown still slides open can miss the option.
  await pickOption(page, 'command-operation-filter', 'common_fn.send_can');
  await expect(list.getByRole('row').filter({ hasText: 'common_fn.' })).toHaveCount(1);
  await expect(list).not.toContainText('uds.request');

  // The same screens in English.
  await page.getByTestId('language-switch').click();
  await page.getByRole('menuitem', { name: 'English' }).click();
  await page.goto(details(rig, 'management'));
  await expect(page.getByTestId('firmware-section')).toContainText('Flash success');
  await shot(page, 'management-en');
  await page.goto(details(rig, 'uds'));
  await expect(page.getByTestId('uds-services')).toBeVisible();
  await shot(page, 'uds-en');
  await page.goto(details(rig, 'ecu'));
  await shot(page, 'ecu-upgrade-en');
  await page.goto(details(rig, 'data', 'storage'));
  await expect(page.getByTestId('recalled-files')).toContainText(rig.sdName);
  await shot(page, 'storage-en');
  await page.goto('/Container/ECUManager');
  await expect(page.getByTestId('ecu-list')).toContainText('BMS');
  await shot(page, 'ecu-manager-en');
});

test('a command to an offline logger is queued, shown as such, and answered once the logger is back', async ({ page, rig, admin }) => {
  test.setTimeout(150_000);
  watch(page);
  await rig.stopDevice();
  await expect.poll(rig.isOnline, { timeout: 60_000 }).toBe(false);
  await loginThroughForm(page, admin);
  await page.goto(details(rig, 'management'));
  const sender = page.getByTestId('command-sender');
  await sender.getByLabel('ID（十六进制）').fill('2B0');
  await sender.getByLabel('数据（十六进制）').fill('AA 55');
  await sender.getByRole('button', { name: button('发送') }).click();
  const list = page.getByTestId('command-list');
  const queued = list.getByRole('row').filter({ hasText: '排队中' });
  await expect(queued).toHaveCount(1);
  await expect(queued).toContainText('common_fn.send_can');
  await expect(list.getByRole('row', { name: /^1\b/ })).toContainText('排队中');
  await shot(page, 'queued-zh');

  await rig.startDevice();
  await expect(list.getByRole('row', { name: /^1\b/ })).toContainText('已应答', { timeout: 60_000 });
  await expect(list.getByRole('row').filter({ hasText: '排队中' })).toHaveCount(0);
});
