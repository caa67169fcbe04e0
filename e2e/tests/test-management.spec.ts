import { randomBytes } from 'node:crypto';
import { writeLog } from '@loggerhead/can/logs/index.ts';
import { canFrame } from '../support/fixtures.ts';
import { screenshots } from '../support/screenshots.ts';
import { button, expect, loginThroughForm, pickOption, test } from '../support/test.ts';

/**
 * Issue "Test management", the web screens: write a Groovy analysis script in the editor, validate
 * it (a compile error shown at its line, then valid), save it as version 1, make a routine that
 * collects and runs it, dry-run the routine over a device's stored history, follow the run to
 * "analyzed" and open its report: the metrics equal a computation here over the same frames.
 */
const shot = screenshots('screens', 'test-management-');

/** Byte 0 of each frame of id 0x100, written by hand. */
const VALUES = Array.from({ length: 40 }, (_, i) => (i * 37 + 11) % 180);

const BROKEN = `def vals = frames.findAll { it.id == 0x100 }.collect { it.data[0] }
metric('mean', vals.sum() / vals.size() +* 1)
`;
const SCRIPT = `def vals = frames.findAll { it.id == 0x100 }.collect { it.data[0] }
metric('count', vals.size())
metric('mean', vals.sum() / vals.size())
metric('max', vals.max())
check('max below limit', vals.max() < params.limit)
log("analysed \${vals.size()} frames")
`;

test('a script written and validated in the editor, a routine, a dry run over history, and its report', async ({
  page,
  admin,
  adminApi,
}) => {
  test.setTimeout(180_000);
  const runtime = await adminApi.get<{ state: string }>('/test-mgmt/runtime');
  expect(runtime.state, 'the Groovy runtime must be installed for this test').not.toBe('unavailable');

  // A device with 40 frames of id 0x100 (and 10 of another id) in its history, 20 minutes ago.
  const self = await adminApi.get<{ tenant_id: string }>('/tenant/users/self');
  const tenant = self.tenant_id;
  const types = await adminApi.get<{ id: string; name: string }[]>(`/things/tenants/${tenant}/device-types`);
  const suffix = randomBytes(2).toString('hex');
  const deviceName = `Test bench ${suffix}`;
  const thing = await adminApi.post<{ id: string }>(`/things/tenants/${tenant}/things`, {
    third_things_id: randomBytes(10).toString('hex').toUpperCase(),
    name: deviceName,
    info_model_id: types.find((t) => t.name === 'CANDTU-200')?.id,
  });
  const t0 = (Date.now() - 20 * 60_000) * 1000;
  const frames = [
    ...VALUES.map((v, i) => canFrame({ ts: t0 + i * 10_000, id: 0x100, data: Uint8Array.of(v, 0, 0, 0) })),
    ...Array.from({ length: 10 }, (_, i) => canFrame({ ts: t0 + i * 10_000 + 5000, id: 0x200, data: Uint8Array.of(250) })),
  ].sort((a, b) => a.ts - b.ts);
  const form = new FormData();
  form.append('file', new Blob([Buffer.from(writeLog(frames, 'candump'))]), 'bench.log');
  const up = await fetch(`${adminApi.baseURL}/v1/data-mgmt/tenants/${tenant}/things/${thing.id}/uploads`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminApi.token}` },
    body: form,
  });
  expect(up.status).toBe(200);

  await loginThroughForm(page, admin);
  await page.goto('/Container/TestManager');
  await expect(page.getByTestId('test-manager')).toBeVisible();
  await expect(page.getByTestId('runtime-notice')).toHaveCount(0);

  // The script: a compile error is shown at its line and marked in the editor; then it compiles.
  await page.getByTestId('script-new').click();
  const scriptName = `Byte stats ${suffix}`;
  await page.getByTestId('script-name').fill(scriptName);
  const editor = page.getByTestId('script-editor').locator('.cm-content');
  await expect(editor).toBeVisible();
  await editor.fill(BROKEN);
  await page.getByTestId('script-validate').click();
  await expect(page.getByTestId('validation-errors')).toBeVisible();
  await expect(page.getByTestId('validation-error-at').first()).toContainText('第 2 行');
  await expect(page.getByTestId('script-editor').locator('.cm-lint-marker-error')).toHaveCount(1);
  await shot(page, 'script-errors');
  await editor.fill(SCRIPT);
  await page.getByTestId('script-validate').click();
  await expect(page.getByTestId('validation-ok')).toBeVisible();
  await expect(page.getByTestId('script-editor').locator('.cm-lint-marker-error')).toHaveCount(0);
  await page.getByTestId('script-save').click();
  await expect(page.getByText('已保存（版本 v1）')).toBeVisible();
  await expect(page.getByTestId('script-versions')).toContainText('v1');
  await shot(page, 'script-saved');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('script-table')).toContainText(scriptName);
  await shot(page, 'scripts');

  // The routine: one collect step of 5 s, the script, a limit parameter.
  await page.getByTestId('test-tab-routines').click();
  await page.getByTestId('routine-new').click();
  const routineName = `Bench check ${suffix}`;
  await page.getByTestId('routine-name').fill(routineName);
  await expect(page.getByTestId('routine-step')).toHaveCount(1);
  await page.getByTestId('step-seconds').fill('5');
  await pickOption(page, 'routine-script', `${scriptName} (v1)`);
  await page.getByTestId('routine-params').fill('{"limit": 200}');
  await shot(page, 'routine-editor');
  await page.getByTestId('routine-save').click();
  await expect(page.getByText('流程已保存')).toBeVisible();
  const row = page.getByTestId('routine-table').locator('tr', { hasText: routineName });
  await expect(row).toContainText('采集数据');
  await shot(page, 'routines');

  // A dry run over the last hour of the device's history.
  await row.getByTestId('routine-start').click();
  // Found by its name: the routine drawer may still be sliding away, a second dialog for a moment.
  const dialog = page.getByRole('dialog', { name: new RegExp(routineName) });
  await expect(dialog).toBeVisible();
  await pickOption(page, 'run-devices', deviceName);
  await page.getByTestId('run-dry').click();
  await expect(page.getByTestId('run-range').first()).toBeVisible();
  await shot(page, 'start');
  await dialog.getByRole('button', { name: button('试运行') }).click();

  // The runs tab follows it to "analyzed".
  await expect(page.getByTestId('run-table')).toBeVisible();
  const runRow = page.getByTestId('run-table').locator('tr', { hasText: routineName });
  await expect
    .poll(
      async () => {
        const runs = await adminApi.get<{ list: { routine_name: string; state: string; reason: string | null }[] }>(
          `/test-mgmt/tenants/${tenant}/runs?things_id=${thing.id}`,
        );
        const r = runs.list.find((x) => x.routine_name === routineName);
        return `${r?.state} ${r?.reason ?? ''}`.trim();
      },
      { timeout: 90_000 },
    )
    .toBe('analyzed');
  await expect(runRow.getByTestId('run-state')).toHaveAttribute('data-state', 'analyzed', { timeout: 60_000 });
  await expect(runRow.getByTestId('run-verdict')).toHaveText('通过');
  await shot(page, 'runs');

  // The report: the same numbers as computed here.
  await runRow.getByTestId('run-report').click();
  const report = page.getByTestId('report');
  await expect(report).toBeVisible();
  const mean = VALUES.reduce((s, v) => s + v, 0) / VALUES.length;
  const max = Math.max(...VALUES);
  const metrics = report.getByTestId('report-metrics');
  await expect(metrics.locator('tr', { hasText: 'count' }).getByTestId('metric-value')).toHaveText(String(VALUES.length));
  await expect(metrics.locator('tr', { hasText: 'mean' }).getByTestId('metric-value')).toHaveText(String(Number(mean.toPrecision(8))));
  await expect(metrics.locator('tr', { hasText: 'max' }).getByTestId('metric-value')).toHaveText(String(max));
  await expect(report.getByTestId('report-check')).toHaveAttribute('data-passed', 'true');
  await expect(report.getByTestId('report-log')).toContainText(`analysed ${VALUES.length} frames`);
  await expect(report.getByTestId('report-script')).toHaveText(`${scriptName} v1`);
  await shot(page, 'report');
});
