import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CanFrame } from '@loggerhead/can/frame.ts';
import { writeLog } from '@loggerhead/can/logs/index.ts';
import type { Locator } from '@playwright/test';
import { canFrame } from '../support/fixtures.ts';
import { ownServerTest, simulateDevice } from '../support/own-server.ts';
import { screenshots } from '../support/screenshots.ts';
import { button, dialogOpened, expect, loginThroughForm } from '../support/test.ts';

/**
 * Issue "Alarms, messages, GPS tracks and electronic fences", done when: a DBC-signal trigger rule
 * created in the console fires when a simulated logger drives the signal over the threshold — the
 * alert event, the bell's unread count and the message show; a fence drawn in the fence editor and
 * a GPS track replayed by the simulator show on the device's GPS tab, with the fence's enter and
 * leave events. The test needs the broker's port, so it runs a server of its own.
 */
const test = ownServerTest;

const shot = screenshots('screens', 'alarms-');

/** Clicks the label of an antd radio (its input is hidden under the label). */
async function choose(scope: Locator, name: string) {
  await scope.locator('label', { has: scope.page().getByRole('radio', { name, exact: true }) }).click();
}

/** Message 0x100 "Engine" with Speed (16 bit, 0.1 km/h). */
const DBC = `VERSION ""

NS_ :

BS_:

BU_: ECU

BO_ 256 Engine: 8 ECU
 SG_ Speed : 0|16@1+ (0.1,0) [0|6553.5] "km/h" Vector__XXX
`;

/** Speed 60, 62 … 138 km/h, one frame every 10 ms: over 100 from the 21st frame on. */
const speedAt = (i: number) => 60 + i * 2;
function engineFrames(): CanFrame[] {
  return Array.from({ length: 40 }, (_, i) => {
    const raw = speedAt(i) * 10;
    const data = new Uint8Array(8);
    data[0] = raw & 0xff;
    data[1] = raw >> 8;
    return canFrame({ ts: 1_600_000_000_000_000 + i * 10_000, id: 0x100, data });
  });
}

/** The fence: a square of 0.004° around (31.234, 121.477). */
const SQUARE = [
  { lat: 31.232, lon: 121.475 },
  { lat: 31.232, lon: 121.479 },
  { lat: 31.236, lon: 121.479 },
  { lat: 31.236, lon: 121.475 },
];
/** A drive north along 121.477 from 31.228 to 31.2397: in the square from the 14th fix to the 27th. */
const DRIVE = Array.from({ length: 40 }, (_, i) => ({ t: 1_767_600_000 + i * 5, lat: 31.228 + i * 0.0003, lon: 121.477 }));

test('a DBC-signal rule fires from simulated frames (event, bell, message); a drawn fence and a replayed track show with their events', async ({
  page,
  own,
  admin,
  adminApi,
}) => {
  test.setTimeout(300_000);
  page.setDefaultTimeout(20_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loggerhead-alarms-e2e-'));
  const pageErrors: string[] = [];
  const offsite: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(`${e.message}\n${e.stack ?? ''}`));
  page.on('console', (m) => m.type() === 'error' && console.error('CONSOLE', m.text().slice(0, 3000)));
  page.on('response', (r) => r.status() >= 400 && console.error('HTTP', r.status(), r.url()));
  // The map draws an offline grid unless tiles are configured: nothing is fetched from elsewhere.
  page.on('request', (r) => {
    if (!r.url().startsWith(own.baseURL) && !r.url().startsWith('data:') && !r.url().startsWith('blob:')) offsite.push(r.url());
  });
  try {
    // A device with CAN0 bound to the DBC, seeded through the API.
    const self = await adminApi.get<{ tenant_id: string }>('/tenant/users/self');
    const tenant = self.tenant_id;
    const types = await adminApi.get<{ id: string; name: string }[]>(`/things/tenants/${tenant}/device-types`);
    const deviceId = randomBytes(10).toString('hex').toUpperCase();
    const deviceName = `Alarm logger ${deviceId.slice(-4)}`;
    const thing = await adminApi.post<{ id: string; things_key: string }>(`/things/tenants/${tenant}/things`, {
      third_things_id: deviceId,
      name: deviceName,
      info_model_id: types.find((t) => t.name === 'CANDTU-200')?.id,
    });
    const form = new FormData();
    form.append('file', new Blob([DBC]), 'engine.dbc');
    form.append('name', 'Engine');
    const up = await fetch(`${own.baseURL}/v1/mapping-mgmt/tenants/${tenant}/dbc-files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminApi.token}` },
      body: form,
    });
    expect(up.status, await up.clone().text()).toBe(200);
    const dbc = (await up.json()) as { id: string };
    await adminApi.put(`/mapping-mgmt/tenants/${tenant}/things/${thing.id}/channels/0/dbc-binding`, { dbc_id: dbc.id });
    const details = (tab: string) => `/Container/HomePage/DeviceDetails?id=${thing.id}&tab=${tab}`;

    await loginThroughForm(page, admin);

    // --- A DBC-signal rule, created in the console. A name with markup shows as text.
    const ruleName = 'Speed <b>over</b> 100';
    await page.goto(details('trigger'));
    await page.getByTestId('trigger-add').click();
    const editor = page.getByTestId('edit-trigger-rule');
    await expect(editor).toBeVisible();
    await editor.getByTestId('trigger-name').fill(ruleName);
    await choose(editor, 'DBC 信号');
    // Switching to a signal rule turns the first condition into a signal condition.
    const cond = editor.getByTestId('trigger-condition');
    await expect(cond).toHaveCount(1);
    // CAN1 has no DBC: the editor says so before the server would refuse the rule.
    await editor.getByLabel('CAN 通道').fill('1');
    await expect(editor.getByTestId('trigger-not-bound')).toContainText('DBC 信号规则要求该 CAN 通道已绑定 DBC 文件');
    await editor.getByLabel('CAN 通道').fill('0');
    await expect(editor.getByTestId('trigger-not-bound')).toBeHidden();
    // Message and signal names are offered from the DBC bound to CAN0.
    await cond.getByLabel('报文名').fill('Eng');
    await page.locator('.ant-select-item-option', { hasText: 'Engine (0x100)' }).click();
    await cond.getByLabel('信号名').click();
    await page.locator('.ant-select-item-option', { hasText: 'Speed (km/h)' }).click();
    await expect(cond.getByLabel('信号名')).toHaveValue('Speed');
    await cond.getByLabel('值', { exact: true }).fill('100');
    await shot(page, 'rule-editor-zh');
    await editor.getByTestId('trigger-save').click();
    await expect(page).toHaveURL(/tab=trigger/);
    const rules = page.getByTestId('trigger-rules');
    await expect(rules.getByRole('row', { name: /Speed <b>over<\/b> 100/ })).toContainText('DBC 信号');
    await shot(page, 'rules-zh');

    // --- The simulated logger drives Speed over 100.
    const logFile = path.join(dir, 'engine.log');
    fs.writeFileSync(logFile, writeLog(engineFrames(), 'candump'));
    const sim = await simulateDevice(own, deviceId, thing.things_key, ['--log', logFile, '--fast']);
    expect(sim.code, sim.output).toBe(0);

    // The event (once: the signal stays over the threshold), the bell's count and the message.
    await page.getByRole('tab', { name: '告警事件' }).click();
    const events = page.getByTestId('alert-events');
    await expect(async () => {
      await page.getByTestId('events-refresh').click();
      await expect(events.getByRole('row', { name: /Speed <b>over<\/b> 100/ })).toHaveCount(1, { timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
    // The first frame over the threshold: 60 + 2 × 21 km/h.
    await expect(events.getByRole('row', { name: /Speed <b>over<\/b> 100/ })).toContainText(`CAN0 0x100 = ${speedAt(21)}`);
    await shot(page, 'events-zh');
    const bell = page.getByTestId('message-bell');
    // The badge's count (antd keeps it in the title while the digits scroll).
    const unread = page.locator('.ant-badge', { has: bell }).locator('sup.ant-badge-count');
    await expect(unread).toHaveAttribute('title', '1', { timeout: 30_000 });
    await bell.click();
    const inbox = page.getByTestId('message-list');
    const item = inbox.getByText(ruleName, { exact: false });
    await expect(item).toBeVisible();
    await shot(page, 'bell-zh');
    await item.click();
    const dialog = page.getByRole('dialog').filter({ hasText: ruleName });
    await expect(dialog).toContainText(deviceName);
    await shot(page, 'message-zh');
    await dialog
      .locator('.ant-modal-footer')
      .getByRole('button', { name: button('关闭') })
      .click();
    await expect(unread).toBeHidden();

    // --- A fence drawn in the editor: four clicks on the map, then exact corners typed in.
    await page.goto('/Container/EFenceManager');
    await expect(page.getByTestId('efence-manager')).toBeVisible();
    await page.getByTestId('efence-add').click();
    const fenceEditor = page.getByTestId('efence-editor');
    await expect(fenceEditor).toContainText('新增电子围栏');
    await fenceEditor.getByTestId('efence-name').fill('Square <i>A</i>');
    const map = fenceEditor.getByTestId('efence-map');
    const box = (await map.boundingBox()) as { x: number; y: number; width: number; height: number };
    for (const [fx, fy] of [
      [0.3, 0.3],
      [0.7, 0.3],
      [0.7, 0.7],
      [0.3, 0.7],
    ])
      await page.mouse.click(box.x + box.width * fx, box.y + box.height * fy);
    const coords = fenceEditor.getByRole('spinbutton');
    await expect(coords).toHaveCount(8);
    await expect(map.locator('path.leaflet-interactive').first()).toBeAttached();
    for (let i = 0; i < 4; i++) {
      await coords.nth(2 * i).fill(String(SQUARE[i].lat));
      await coords.nth(2 * i + 1).fill(String(SQUARE[i].lon));
    }
    await fenceEditor.getByTestId('efence-name').click();
    // Typed corners bring the fence into view: the square is drawn large, not as a dot.
    await expect(async () => {
      const drawn = await map.locator('path.leaflet-interactive').first().boundingBox();
      expect(drawn?.width ?? 0).toBeGreaterThan(100);
    }).toPass({ timeout: 10_000 });
    await shot(page, 'fence-editor-zh');
    await fenceEditor.getByTestId('efence-save').click();
    await expect(page).toHaveURL(/EFenceManager$/);
    const fenceRow = page.getByTestId('efence-manager').getByRole('row', { name: /Square <i>A<\/i>/ });
    await expect(fenceRow).toContainText('多边形');
    const fences = await adminApi.get<{ list: { name: string; region: { points: { lat: number; lon: number }[] } }[] }>(
      `/fence/tenants/${tenant}/fences?current_page=1&page_size=10`,
    );
    expect(fences.list.find((f) => f.name === 'Square <i>A</i>')?.region.points).toEqual(SQUARE);

    // Bound to the device.
    await fenceRow.getByTestId('efence-bind').click();
    const bind = page.getByRole('dialog', { name: /绑定设备/ });
    await dialogOpened(bind);
    await bind.getByTestId('efence-bind-devices').click();
    await page.keyboard.type(deviceName);
    await expect(page.getByRole('option', { name: deviceName })).toBeAttached();
    await page.keyboard.press('Enter');
    // Close the option list (Escape would close the dialog too).
    await bind.locator('.ant-modal-title').click();
    await bind.getByRole('button', { name: button('确定') }).click();
    await expect(bind).toBeHidden();
    await expect(fenceRow.getByRole('cell', { name: '1', exact: true }).first()).toBeVisible();
    await shot(page, 'fences-zh');

    // Two fence rules on the device: entering and leaving.
    for (const [name, rule] of [
      ['Into square', '进入围栏'],
      ['Out of square', '离开围栏'],
    ]) {
      await page.goto(details('trigger'));
      await page.getByTestId('trigger-add').click();
      await editor.getByTestId('trigger-name').fill(name);
      await choose(editor, '电子围栏');
      await editor.getByRole('combobox', { name: '电子围栏' }).click();
      await page.getByTitle('Square <i>A</i>').click();
      await choose(editor, rule);
      if (name === 'Into square') await shot(page, 'fence-rule-zh');
      await editor.getByTestId('trigger-save').click();
      await expect(rules.getByRole('row', { name: new RegExp(name) })).toContainText('电子围栏');
    }

    // --- The simulator replays a GPS track that crosses the square.
    const track = path.join(dir, 'drive.csv');
    fs.writeFileSync(track, ['time,lat,lon,speed', ...DRIVE.map((f) => `${f.t},${f.lat.toFixed(4)},${f.lon},36`)].join('\n'));
    const gps = await simulateDevice(own, deviceId, thing.things_key, ['--gps', track]);
    expect(gps.code, gps.output).toBe(0);
    expect(gps.output).toContain('40 GPS fixes');

    // The track on the GPS tab: all fixes, the line on the map, about 1.3 km.
    await page.goto(details('gps'));
    await page.getByTestId('gps-query').click();
    const stats = page.getByTestId('gps-stats');
    await expect(stats).toContainText('40');
    await expect(stats).toContainText(/1\.3\d/);
    await expect(page.getByTestId('gps-map').locator('path.leaflet-interactive').first()).toBeAttached();
    await expect(page.getByTestId('gps-replay')).toBeVisible();
    // The fence bound to the device is drawn under the track.
    await expect(page.getByTestId('gps-map').locator('path.lh-fence')).toHaveCount(1);
    await shot(page, 'gps-zh');

    // Entering and leaving fired once each.
    await page.goto(details('trigger'));
    await page.getByRole('tab', { name: '告警事件' }).click();
    await expect(async () => {
      await page.getByTestId('events-refresh').click();
      await expect(events.getByRole('row', { name: /Into square/ })).toHaveCount(1, { timeout: 2_000 });
      await expect(events.getByRole('row', { name: /Out of square/ })).toHaveCount(1, { timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
    await expect(events.getByRole('row', { name: /Into square/ })).toContainText('进入围栏 Square <i>A</i>');
    await expect(events.getByRole('row', { name: /Out of square/ })).toContainText('离开围栏 Square <i>A</i>');
    await expect(unread).toHaveAttribute('title', '2', { timeout: 30_000 });
    await shot(page, 'fence-events-zh');

    if (process.env.SCREENSHOTS) {
      await page.getByTestId('language-switch').click();
      await page.getByRole('menuitem', { name: 'English' }).click();
      await expect(page.getByRole('tab', { name: 'Alert events' })).toBeVisible();
      await shot(page, 'events-en');
      await page.goto(details('gps'));
      await page.getByTestId('gps-query').click();
      await expect(page.getByTestId('gps-stats')).toContainText('40');
      await shot(page, 'gps-en');
      await page.goto('/Container/EFenceManager');
      await page.getByTestId('efence-manager').getByRole('link', { name: 'Square <i>A</i>' }).click();
      await expect(page.getByTestId('efence-editor').getByRole('spinbutton')).toHaveCount(8);
      await shot(page, 'fence-editor-en');
      await page.goto(details('trigger'));
      await page.getByTestId('trigger-rules').getByRole('link', { name: ruleName }).click();
      await expect(page.getByTestId('edit-trigger-rule').getByTestId('trigger-name')).toHaveValue(ruleName);
      await shot(page, 'rule-editor-en');
      await page.getByTestId('language-switch').click();
      await page.getByRole('menuitem', { name: '中文' }).click();
    }
    expect(offsite).toEqual([]);
    expect(pageErrors).toEqual([]);
  } finally {
    if (pageErrors.length) console.error(pageErrors.join('\n\n'));
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
