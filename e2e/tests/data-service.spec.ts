import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { CanFrame } from '@loggerhead/can/frame.ts';
import { writeLog } from '@loggerhead/can/logs/index.ts';
import type { Download } from '@playwright/test';
import { Api } from '../support/api.ts';
import { canFrame, registerTenant } from '../support/fixtures.ts';
import { screenshots } from '../support/screenshots.ts';
import { button, dialogOpened, expect, pickOption, routePage, signIn, test } from '../support/test.ts';

/**
 * Issue "Data out", the data service page: a tenant manager saves a download template (one device,
 * two frame ids, the last 24 hours), runs it and gets a CSV holding exactly the frames of those ids;
 * saves a clean task keeping 2 days and runs it, and the frames older than that are gone; then picks
 * an export plugin in the device's export dialog and gets the file in the plugin's format.
 * `SCREENSHOTS=1` keeps pictures of each screen in e2e/artifacts/data-service.
 */
const snap = screenshots('data-service');

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex').toUpperCase();
const textOf = async (d: Download) => fs.readFileSync(await d.path()).toString('utf8');

test('a manager runs a download template, a clean task and a plugin export from the console', async ({ page, adminApi }) => {
  test.setTimeout(90_000);
  const tenant = await registerTenant(adminApi, 'ds');
  const api = new Api(adminApi.baseURL);
  await api.login(tenant);
  const t = tenant.tenantId;
  const types = await api.get<{ id: string; name: string }[]>(`/things/tenants/${t}/device-types`);
  const third = randomBytes(10).toString('hex').toUpperCase();
  const name = `Data van ${third.slice(-4)}`;
  const thing = await api.post<{ id: string }>(`/things/tenants/${t}/things`, {
    third_things_id: third,
    name,
    info_model_id: types.find((x) => x.name === 'CANDTU-200')?.id,
  });

  // 12 frames in the last half hour on ids 100–103, and 5 frames three days old.
  const now = Date.now();
  const recent: CanFrame[] = Array.from({ length: 12 }, (_, i) =>
    canFrame({ ts: (now - 30 * 60_000 + i * 1000) * 1000, id: 0x100 + (i % 4), data: Uint8Array.of(i, (i * 37) & 0xff) }),
  );
  const old: CanFrame[] = Array.from({ length: 5 }, (_, i) =>
    canFrame({ ts: (now - 3 * 86_400_000 + i * 1000) * 1000, id: 0x300, data: Uint8Array.of(0xaa, i) }),
  );
  for (const [file, frames] of [
    ['old.log', old],
    ['recent.log', recent],
  ] as const) {
    const form = new FormData();
    form.append('file', new Blob([Buffer.from(writeLog(frames, 'candump'))]), file);
    const up = await fetch(`${adminApi.baseURL}/v1/data-mgmt/tenants/${t}/things/${thing.id}/uploads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${api.token}` },
      body: form,
    });
    expect(up.status, await up.clone().text()).toBe(200);
    expect(((await up.json()) as { frames: number }).frames).toBe(frames.length);
  }
  // An export plugin writing each row as "id;data" under its own header.
  await api.post(`/data-mgmt/tenants/${t}/plugins`, {
    name: 'id-data',
    type: 'export',
    expression: 'id & ";" & data',
    header: 'id;data',
    file_extension: 'txt',
  });

  await signIn(page, tenant, '/Container/PluginManager?tab=templates');
  await expect(page).toHaveTitle(/^数据服务 - /);
  const view = routePage(page, '/Container/PluginManager');

  // --- A download template: the device, ids 100 and 101, CSV, the last 24 hours.
  await view.getByTestId('add-template').click();
  const form = page.getByRole('dialog', { name: '新建下载模板' });
  await dialogOpened(form);
  await form.getByTestId('template-name').fill('Two ids');
  await pickOption(page, 'template-devices', `${name} (${third})`);
  await form.getByTestId('template-ids').fill('100, 0x101');
  await snap(page, '02-template-dialog');
  await form.getByRole('button', { name: button('确定') }).click();
  await expect(form).toBeHidden();
  const row = view.getByTestId('template-table').locator('tbody tr.ant-table-row').filter({ hasText: 'Two ids' });
  await expect(row).toContainText(name);
  await expect(row).toContainText('最近 24 小时');
  await snap(page, '01-templates');

  const templateFile = page.waitForEvent('download');
  await row.getByTestId('template-run-start').click();
  const run = page.getByTestId('template-run');
  await expect(run).toBeVisible();
  const csv = await textOf(await templateFile);
  await expect(run.getByTestId('template-run-row')).toHaveAttribute('data-phase', 'done');
  await snap(page, '03-template-run');
  const lines = csv.trim().split('\n');
  const header = lines[0].split(',');
  const [idCol, dataCol] = [header.indexOf('id'), header.indexOf('data')];
  expect(idCol).toBeGreaterThanOrEqual(0);
  const got = lines.slice(1).map((l) => {
    const c = l.split(',');
    return `${c[idCol]}:${c[dataCol]}`;
  });
  const expected = recent.filter((f) => f.id === 0x100 || f.id === 0x101).map((f) => `${f.id.toString(16)}:${hex(f.data)}`);
  expect(got).toEqual(expected);
  await page
    .getByRole('dialog')
    .locator('.ant-modal-footer')
    .getByRole('button', { name: button('关闭') })
    .click();
  await expect(run).toBeHidden();

  // --- A clean task keeping 2 days: run now, the five old frames go, the recent ones stay.
  await view.getByTestId('tab-clean').click();
  await view.getByTestId('add-clean-task').click();
  const clean = page.getByRole('dialog', { name: '新建清理任务' });
  await dialogOpened(clean);
  await clean.getByTestId('clean-name').fill('Keep two days');
  await pickOption(page, 'clean-device', `${name} (${third})`);
  await clean.getByTestId('clean-keep-days').fill('2');
  await snap(page, '05-clean-dialog');
  await clean.getByRole('button', { name: button('确定') }).click();
  await expect(clean).toBeHidden();
  const task = view.getByTestId('clean-table').locator('tbody tr.ant-table-row').filter({ hasText: 'Keep two days' });
  await expect(task.getByTestId('clean-status')).toHaveText('启用');
  await task.getByTestId('clean-run').click();
  await expect(task.getByTestId('clean-last-deleted')).toHaveText(`删除 ${old.length} 行`);
  await task.getByRole('button', { name: button('停用') }).click();
  await expect(task.getByTestId('clean-status')).toHaveText('停用');
  await snap(page, '04-clean-tasks');
  const left = await api.get<{ list: { id: number }[] }>(
    `/data-mgmt/tenants/${t}/things/${thing.id}/frames?begin_time=${now - 4 * 86_400_000}&end_time=${now}&page_size=50&current_page=1`,
  );
  expect(left.list.map((f) => f.id).sort()).toEqual(recent.map((f) => f.id).sort());

  // --- The device's export dialog: CSV through the export plugin gives the plugin's format.
  await page.goto(`/Container/HomePage/DeviceDetails?id=${thing.id}&tab=data&sub=history`);
  await page.getByTestId('history-export').click();
  const dialog = page.getByRole('dialog', { name: '导出数据' });
  await dialogOpened(dialog);
  await dialog.getByRole('radio', { name: /CSV/ }).check();
  await pickOption(page, 'export-plugin', 'id-data (.txt)');
  await snap(page, '06-export-plugin');
  const pluginFile = page.waitForEvent('download');
  await dialog.getByRole('button', { name: '开始导出' }).click();
  const file = await pluginFile;
  expect(file.suggestedFilename()).toMatch(/\.txt$/);
  expect((await textOf(file)).trim().split('\n')).toEqual(['id;data', ...recent.map((f) => `${f.id.toString(16)};${hex(f.data)}`)]);
});
