import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeLog } from '@loggerhead/can/logs/index.ts';
import { bindDbc, seedDevice, startRemoteDevice, storedFrames } from '../support/devices.ts';
import { canFrame } from '../support/fixtures.ts';
import { ownServerTest as test } from '../support/own-server.ts';
import { screenshots } from '../support/screenshots.ts';
import { button, dialogOpened, expect, loginThroughForm, pickOption } from '../support/test.ts';

/**
 * Issue "Test management", done when: a script computing the mean and maximum of a DBC signal with
 * a threshold check, written in the console; a routine that sends a CAN frame, collects 5 s and runs
 * the script; started on a simulated logger (`loggerhead remote-device` replaying a log) with this
 * start's own limit; its states followed in the runs list; its report opened. The report's numbers
 * equal a computation here over the same frames, read back through the history API and decoded by
 * hand (not by the server's decoder).
 */
const shot = screenshots('screens', 'test-management-device-');

/** Speed: 16 bits, Intel, unsigned, × 0.25 + 5 km/h. */
const DBC = `VERSION ""

NS_ :

BS_:

BU_: ECU

BO_ 256 DRIVE: 8 ECU
 SG_ Speed : 0|16@1+ (0.25,5) [5|16388.75] "km/h" ECU

BO_ 512 OTHER: 8 ECU
 SG_ Level : 0|8@1+ (1,0) [0|255] "" ECU
`;
const speedOf = (data: string) => {
  const b = Buffer.from(data, 'hex');
  return (b[0] | (b[1] << 8)) * 0.25 + 5;
};

/** The logger's log: 20 DRIVE frames 100 ms apart (raw speeds written by hand) and a few OTHER frames. */
const RAWS = Array.from({ length: 20 }, (_, i) => (i * 83 + 31) % 700);
function driveLog(): Uint8Array {
  const t0 = 1_700_000_000_000_000;
  const frames = [
    ...RAWS.map((raw, i) => canFrame({ ts: t0 + i * 100_000, id: 0x100, data: Uint8Array.of(raw & 0xff, raw >> 8, 0, 0, 0, 0, 0, 0) })),
    ...[0, 1, 2].map((i) => canFrame({ ts: t0 + i * 600_000 + 50_000, id: 0x200, data: Uint8Array.of(200 + i) })),
  ].sort((a, b) => a.ts - b.ts);
  return writeLog(frames, 'candump');
}

const SCRIPT = `def s = signal('Speed')
double mean = s.values.sum() / s.values.size()
double max = s.values.max()
metric('mean', mean, s.unit)
metric('max', max, s.unit)
metric('samples', s.values.size())
check('max below limit', max < params.limit)
log("analysed \${s.values.size()} samples of \${s.message}.\${s.name}")
`;

const ORDER = ['queued', 'sending', 'collecting', 'analyzing', 'analyzed'];

test('a routine sends a frame, collects 5 s from a simulated logger and analyses it; the report equals the stored frames', async ({
  page,
  own,
  admin,
  adminApi,
}) => {
  test.setTimeout(90_000);
  const runtime = await adminApi.get<{ state: string }>('/test-mgmt/runtime');
  expect(runtime.state, 'the Groovy runtime must be installed for this test').not.toBe('unavailable');

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loggerhead-testmgmt-e2e-'));
  const { tenant_id: tenant } = await adminApi.get<{ tenant_id: string }>('/tenant/users/self');
  const suffix = Math.random().toString(36).slice(2, 6);
  const device = await seedDevice(adminApi, tenant, `Bench logger ${suffix}`);
  await bindDbc(adminApi, tenant, device.id, DBC);
  const log = path.join(dir, 'drive.log');
  fs.writeFileSync(log, driveLog());
  const logger = await startRemoteDevice(own, adminApi, tenant, device, { replay: log });
  try {
    await loginThroughForm(page, admin);
    await page.goto('/Container/TestManager');
    await expect(page.getByTestId('test-manager')).toBeVisible();

    // The script.
    await page.getByTestId('script-new').click();
    const scriptName = `Speed stats ${suffix}`;
    await page.getByTestId('script-name').fill(scriptName);
    const editor = page.getByTestId('script-editor').locator('.cm-content');
    await expect(editor).toBeVisible();
    await editor.fill(SCRIPT);
    await page.getByTestId('script-validate').click();
    await expect(page.getByTestId('validation-ok')).toBeVisible();
    await page.getByTestId('script-save').click();
    await expect(page.getByText('已保存（版本 v1）')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('script-table')).toContainText(scriptName);

    // The routine: send a frame, then collect 5 s of Speed; the routine's own limit is low.
    await page.getByTestId('test-tab-routines').click();
    await page.getByTestId('routine-new').click();
    const routineName = `Drive check ${suffix}`;
    await page.getByTestId('routine-name').fill(routineName);
    await page.getByTestId('routine-add-step').hover();
    await page.getByRole('menuitem', { name: '发送 CAN 报文' }).click();
    const steps = page.getByTestId('routine-step');
    await expect(steps).toHaveCount(2);
    await steps.nth(1).getByRole('button', { name: '上移' }).click();
    await expect(steps.nth(0)).toContainText('发送 CAN 报文');
    // The send step takes its frames in the command sender's table, with its checks.
    const sendFrames = steps.nth(0).getByTestId('step-frames');
    await sendFrames.getByLabel('ID（十六进制）').fill('321');
    await sendFrames.getByLabel('数据（十六进制）').fill('DE AD BE E');
    await expect(sendFrames.getByText('数据须为偶数个十六进制字符')).toBeVisible();
    await sendFrames.getByLabel('数据（十六进制）').fill('DE AD BE EF');
    await expect(sendFrames.getByText('数据须为偶数个十六进制字符')).toHaveCount(0);
    await steps.nth(1).getByTestId('step-seconds').fill('5');
    await steps.nth(1).getByTestId('step-signals').click();
    await page.keyboard.type('Speed');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    await pickOption(page, 'routine-script', `${scriptName} (v1)`);
    await page.getByTestId('routine-params').fill('{"limit": 10}');
    await shot(page, 'routine');
    await page.getByTestId('routine-save').click();
    await expect(page.getByText('流程已保存')).toBeVisible();
    const row = page.getByTestId('routine-table').locator('tr', { hasText: routineName });
    await expect(row).toContainText('发送 CAN 报文');

    // Start it on the logger with this start's limit over the routine's.
    // (The routine's drawer may still be sliding away while the start dialog opens: name the dialog.)
    await row.getByTestId('routine-start').click();
    const dialog = page.getByRole('dialog', { name: new RegExp(`${routineName}`) });
    await dialogOpened(dialog);
    await pickOption(page, 'run-devices', device.name);
    await expect(page.getByTestId('run-params')).toHaveValue(/"limit": 10/);
    await page.getByTestId('run-params').fill('{"limit": 500}');
    await shot(page, 'start');
    await dialog.getByRole('button', { name: button('执行') }).click();

    // The runs list, narrowed to the device, follows the states live.
    await expect(page.getByTestId('run-table')).toBeVisible();
    await pickOption(page, 'runs-filter-device', device.name);
    const runRow = page.getByTestId('run-table').locator('tr', { hasText: routineName });
    const state = runRow.getByTestId('run-state');
    const seen: string[] = [];
    await expect
      .poll(
        async () => {
          const s = (await state.getAttribute('data-state', { timeout: 1000 }).catch(() => null)) ?? '';
          if (s && seen[seen.length - 1] !== s) seen.push(s);
          return s;
        },
        { timeout: 45_000, intervals: [100] },
      )
      .toMatch(/^(analyzed|failed|cancelled)$/);
    expect(seen[seen.length - 1], seen.join(' → ')).toBe('analyzed');
    expect(seen, 'the list showed the collection').toContain('collecting');
    expect(
      seen.map((s) => ORDER.indexOf(s)),
      `states in order: ${seen.join(' → ')}`,
    ).toEqual([...seen.map((s) => ORDER.indexOf(s))].sort((a, b) => a - b));
    await shot(page, 'runs');

    // The run, and the frames stored in its window, read back through the API.
    const runs = await adminApi.get<{ list: { id: string; routine_name: string; windows: { from: number; to: number }[] }[] }>(
      `/test-mgmt/tenants/${tenant}/runs?things_id=${device.id}`,
    );
    const run = runs.list.find((r) => r.routine_name === routineName);
    expect(run?.windows).toHaveLength(1);
    const window = (run as NonNullable<typeof run>).windows[0];
    expect(window.to - window.from).toBeGreaterThanOrEqual(5000);
    const frames = await storedFrames(adminApi, tenant, device.id, { begin_time: window.from, end_time: window.to });
    const drive = frames.filter((f) => f.id === 0x100 && f.channel === 0 && !f.tx);
    const speeds = drive.map((f) => speedOf(f.data));
    // 5 s of a 20-frame log that repeats every 2.9 s
    expect(speeds.length).toBeGreaterThanOrEqual(20);
    const mean = speeds.reduce((s, v) => s + v, 0) / speeds.length;
    const max = Math.max(...speeds);
    // The frame the routine sent is on the bus (the logger reports it as transmitted).
    const sent = await storedFrames(adminApi, tenant, device.id, { begin_time: window.from - 10_000, end_time: window.to, ids: [0x321] });
    expect(sent.map((f) => [f.tx, f.data])).toEqual([[true, 'DEADBEEF']]);

    // The report: the same numbers, the start's limit used and recorded.
    await runRow.getByTestId('run-report').click();
    const report = page.getByTestId('report');
    await expect(report).toBeVisible();
    const metric = (name: string) => report.getByTestId('report-metrics').locator('tr', { hasText: name }).getByTestId('metric-value');
    const shown = (v: number) => (Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(8))));
    await expect(metric('mean')).toHaveText(shown(mean));
    await expect(metric('max')).toHaveText(shown(max));
    await expect(metric('samples')).toHaveText(String(speeds.length));
    expect(max).toBeGreaterThan(10);
    await expect(report.getByTestId('report-check')).toHaveAttribute('data-passed', String(max < 500));
    await expect(report.getByTestId('report-params')).toHaveText('{"limit":500}');
    await expect(report.getByTestId('report-log')).toContainText(`analysed ${speeds.length} samples of DRIVE.Speed`);
    await shot(page, 'report');
    // Exactly, through the API.
    const full = await adminApi.get<{ metrics: { name: string; value: number }[] }>(`/test-mgmt/tenants/${tenant}/runs/${run?.id}/report`);
    expect(full.metrics.map((m) => [m.name, m.value])).toEqual([
      ['mean', mean],
      ['max', max],
      ['samples', speeds.length],
    ]);

    // A dry run over the same window with the routine's own limit, compared with the run on the server.
    await page.keyboard.press('Escape');
    const [dry] = (
      await adminApi.post<{ runs: { id: string }[] }>(`/test-mgmt/tenants/${tenant}/runs`, {
        routine_id: (
          await adminApi.get<{ list: { id: string; name: string }[] }>(`/test-mgmt/tenants/${tenant}/routines`)
        ).list.find((r) => r.name === routineName)?.id,
        things_ids: [device.id],
        dry_run: { begin_time: window.from, end_time: window.to },
      })
    ).runs;
    const rows = page.getByTestId('run-table').locator('tr', { hasText: routineName });
    const dryRow = rows.filter({ hasText: '试运行' });
    await expect(dryRow.getByTestId('run-state')).toHaveAttribute('data-state', 'analyzed', { timeout: 30_000 });
    await rows.filter({ hasNotText: '试运行' }).locator('.ant-checkbox-input').check();
    await dryRow.locator('.ant-checkbox-input').check();
    await page.getByTestId('runs-compare').click();
    const compare = page.getByTestId('report-compare');
    await expect(compare).toBeVisible();
    const cmp = await adminApi.get<{ a: { run_id: string }; b: { run_id: string } }>(
      `/test-mgmt/tenants/${tenant}/reports/compare?a=${run?.id}&b=${dry.id}`,
    );
    expect([cmp.a.run_id, cmp.b.run_id]).toEqual([run?.id, dry.id]);
    // The same frames: every metric the same (B − A = 0); the limits differ, and so does the check.
    for (const name of ['mean', 'max', 'samples'])
      await expect(compare.getByTestId('compare-metrics').locator('tr', { hasText: name }).getByTestId('compare-diff')).toHaveText('0');
    await expect(compare.getByTestId('compare-params')).toContainText('500');
    await expect(compare.getByTestId('compare-params')).toContainText('10');
    await expect(compare.getByTestId('compare-checks').locator('.anticon-check-circle')).toHaveCount(1);
    await expect(compare.getByTestId('compare-checks').locator('.anticon-close-circle')).toHaveCount(1);
    await shot(page, 'compare');
  } finally {
    await logger.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
