import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CanFrame } from '@loggerhead/can/frame.ts';
import { writeLog } from '@loggerhead/can/logs/index.ts';
import { canFrame } from '../support/fixtures.ts';
import { ownServerTest, simulateDevice } from '../support/own-server.ts';
import { screenshots } from '../support/screenshots.ts';
import { button, expect, loginThroughForm, pickOption } from '../support/test.ts';

/**
 * DBC parsing start with back-fill: a channel that already holds raw frames starts parsing with
 * "also decode the stored frames" ticked; the frames are decoded in the background with progress,
 * and their values are found in the history data. The simulator needs the broker's port, so the
 * test runs a server of its own.
 */
const test = ownServerTest;

const shot = screenshots('screens', 'dbc-backfill-');

const DBC = `VERSION ""

BU_: ECU

BO_ 256 Engine: 8 ECU
 SG_ Speed : 0|16@1+ (0.1,0) [0|6553.5] "km/h" Vector__XXX
 SG_ Temp : 16|8@1- (1,-40) [-40|87] "degC" Vector__XXX
`;

const COUNT = 300;
/** Speed 20.0, 20.5 … km/h, written by hand into the bytes (not by the decoder under test). */
const speedAt = (i: number) => 20 + i * 0.5;

function frames(): CanFrame[] {
  return Array.from({ length: COUNT }, (_, i) => {
    const raw = Math.round(speedAt(i) * 10);
    const data = new Uint8Array(8);
    data[0] = raw & 0xff;
    data[1] = raw >> 8;
    data[2] = 60;
    return canFrame({ ts: 1_600_000_000_000_000 + i * 10_000, id: 0x100, data });
  });
}

test('starting DBC parsing on a channel with stored frames can decode them in the background', async ({ page, own, admin, adminApi }) => {
  test.setTimeout(180_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loggerhead-backfill-e2e-'));
  page.on('pageerror', (e) => console.error('PAGE', e.message));
  try {
    const self = await adminApi.get<{ tenant_id: string }>('/tenant/users/self');
    const tenant = self.tenant_id;
    const types = await adminApi.get<{ id: string; name: string }[]>(`/things/tenants/${tenant}/device-types`);
    const deviceId = randomBytes(10).toString('hex').toUpperCase();
    const thing = await adminApi.post<{ id: string; things_key: string }>(`/things/tenants/${tenant}/things`, {
      third_things_id: deviceId,
      name: `Backfill logger ${deviceId.slice(-4)}`,
      info_model_id: types.find((t) => t.name === 'CANDTU-200')?.id,
    });
    const form = new FormData();
    form.append('name', `Engine ${deviceId.slice(-4)}`);
    form.append('file', new Blob([DBC]), 'engine.dbc');
    const up = await fetch(`${adminApi.baseURL}/v1/mapping-mgmt/tenants/${tenant}/dbc-files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminApi.token}` },
      body: form,
    });
    expect(up.status).toBe(200);
    const dbc = (await up.json()) as { id: string };
    // Bound but paused: the frames the logger sends stay raw.
    await adminApi.put(`/mapping-mgmt/tenants/${tenant}/things/${thing.id}/channels/0/dbc-binding`, { dbc_id: dbc.id, state: 'paused' });

    const logFile = path.join(dir, 'engine.log');
    fs.writeFileSync(logFile, writeLog(frames(), 'candump'));
    const sim = await simulateDevice(own, deviceId, thing.things_key, ['--log', logFile, '--fast']);
    expect(sim.code, sim.output).toBe(0);
    const now = Date.now();
    await expect
      .poll(
        async () =>
          (
            await adminApi.get<{ total: number }>(
              `/data-mgmt/tenants/${tenant}/things/${thing.id}/frames?begin_time=${now - 3_600_000}&end_time=${now + 60_000}`,
            )
          ).total,
      )
      .toBe(COUNT);
    const series = await adminApi.get<unknown[]>(`/data-mgmt/tenants/${tenant}/things/${thing.id}/signals`);
    expect(series).toEqual([]);

    await loginThroughForm(page, admin);
    await page.goto(`/Container/HomePage/DeviceDetails?id=${thing.id}&tab=dbc`);
    const can0 = page.getByTestId('binding-CAN0');
    await expect(can0.getByTestId('parsing-state')).toHaveText('已暂停');
    await can0.getByTestId('binding-start').click();
    const start = page.getByRole('dialog', { name: '开始解析 CAN0' });
    // The option is off by default; ticked, it offers the last 24 hours.
    const option = start.getByRole('checkbox', { name: '同时解析该通道已存储的报文' });
    await expect(option).not.toBeChecked();
    await option.check();
    await expect(start.getByRole('textbox', { name: '开始时间' })).toBeVisible();
    await expect(start.getByRole('textbox', { name: '结束时间' })).toBeVisible();
    await shot(page, 'start-zh');
    await start.getByRole('button', { name: button('开始解析') }).click();
    await expect(start).toBeHidden();
    await expect(can0.getByTestId('parsing-state')).toHaveText('解析中');
    const status = can0.getByTestId('backfill-status');
    await expect(status).toHaveAttribute('data-state', 'done', { timeout: 30_000 });
    // 300 frames read, Speed and Temp stored for each.
    await expect(status).toContainText(`${COUNT} 帧`);
    await expect(status).toContainText(`${COUNT * 2} 个信号值`);
    await shot(page, 'done-zh');

    // The decoded values are in the history data.
    await page.getByRole('tab', { name: '历史数据' }).click();
    // The signal list loads from the server: pick until the select shows it.
    await pickOption(page, 'history-data-signals', 'Engine.Speed');
    await page.getByTestId('history-data-query').click();
    await expect(page.getByTestId('paginator')).toContainText(`共 ${COUNT} 条`);
    await expect(page.getByTestId('data-value').first()).toHaveText(String(speedAt(0)));
    await expect(page.getByTestId('data-value').nth(1)).toHaveText(String(speedAt(1)));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
