import { expect, test } from '../support/test.ts';

/**
 * Spec §2: the login page's experience-account button logs into a read-only demo tenant that the
 * first start seeds with devices and data. The shared server seeds it in the background at start.
 */
test('the experience account shows the demo devices with their history and curves', async ({ page }) => {
  await page.goto('/Login');
  await page.getByRole('button', { name: '体验账号登录' }).click();
  await expect(page).toHaveURL(/\/Container\/HomePage$/);

  // The seed may still be running right after the server started: reload until the devices are in.
  const table = page.getByTestId('device-table');
  await expect(async () => {
    await page.reload();
    await expect(table.getByTestId('device-name').filter({ hasText: '演示货车 3' })).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 60_000 });
  // The demo's names are read in the reader's language (decision 0178): the console's zh here.
  for (const name of ['演示卡车 1', '演示卡车 2', '演示货车 3']) {
    await expect(table.getByTestId('device-name').filter({ hasText: name })).toBeVisible();
  }
  // Read-only: the buttons of keys it lacks are hidden; looking and exporting stay.
  await expect(page.getByRole('button', { name: /导\s*出/ })).toBeVisible();
  await expect(page.getByTestId('add-device')).toHaveCount(0);
  await expect(page.getByTestId('import-devices')).toHaveCount(0);
  await expect(table.getByTestId('delete-device')).toHaveCount(0);

  // The first truck drove through the last hour: its raw frames are in the history.
  await table.getByTestId('device-name').filter({ hasText: '演示卡车 1' }).click();
  await expect(page).toHaveURL(/\/Container\/HomePage\/DeviceDetails\?id=/);
  await expect(page.getByTestId('device-title')).toHaveText('演示卡车 1');
  await page.getByRole('tab', { name: '设备数据' }).click();
  await page.getByRole('tab', { name: '历史数据' }).click();
  const history = page.getByTestId('history-table');
  await expect(history.getByTestId('history-id')).toHaveCount(10);
  await expect(page.getByTestId('device-details').getByTestId('paginator')).toContainText(/共 [\d,]+ 条/);

  // Its DBC decodes them: the vehicle speed curve of the last hour has points.
  await page.getByRole('tab', { name: 'DBC 数据' }).click();
  await page.getByRole('tab', { name: '历史曲线' }).click();
  // The list holds the DBC's twenty signals: search for the one wanted (the options load from the server).
  const signals = page.getByTestId('history-curve-signals');
  const speed = 'VEHICLE_DYNAMICS.VehicleSpeed';
  await expect(async () => {
    if (!(await signals.textContent())?.includes(speed)) {
      await signals.click();
      await signals.locator('input').fill('VehicleSpeed');
      await page.locator('.ant-select-dropdown:visible').getByTitle(speed, { exact: true }).click({ timeout: 3_000 });
    }
    await expect(signals).toContainText(speed, { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await page.keyboard.press('Escape');
  await page.getByTestId('history-curve-query').click();
  await expect(page.getByTestId('history-curve-info')).toContainText(/[1-9]\d* 点/);
  await expect(page.getByTestId('history-curve-stats')).toContainText('最大');

  // The dashboard shows the live truck at a glance, and a read-only visitor gets no editing controls.
  await page.getByTestId('top-menu').getByText('仪表盘', { exact: true }).click();
  await expect(page).toHaveURL(/\/Container\/Dashboard$/);
  await expect(page.getByTestId('panel')).toHaveCount(5);
  await expect(page.getByTestId('panel-name')).toHaveText(['车速', '电池 SOC', '冷却液温度', '车速与油门', '电池电流']);
  await expect(page.locator('[data-panel-name="车速"]')).toContainText('km/h');
  // The DBC's degC as a zh reader writes it.
  await expect(page.locator('[data-panel-name="冷却液温度"]')).toContainText('℃');
  await expect(page.getByTestId('panel-add')).toHaveCount(0);
  await expect(page.getByTestId('panel-edit')).toHaveCount(0);
  await expect(page.getByTestId('panel-delete')).toHaveCount(0);
});
