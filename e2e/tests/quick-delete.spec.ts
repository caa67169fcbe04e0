import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CanFrame } from '@loggerhead/can/frame.ts';
import { writeLog } from '@loggerhead/can/logs/index.ts';
import { Api } from '../support/api.ts';
import { canFrame, registerTenant } from '../support/fixtures.ts';
import { simulateDevice, ownServerTest as test } from '../support/own-server.ts';
import { screenshots } from '../support/screenshots.ts';
import { dialogOpened, expect, loginThroughForm } from '../support/test.ts';

/**
 * Quick delete end to end: a simulated logger sends its frames over MQTT, the system manager
 * puts the device on the tenant's quick-delete list, and the tenant opens the cloud-disk pie,
 * sees the device's usage, quick-deletes its data after re-entering the password (a wrong one
 * first) and sees the usage drop. `SCREENSHOTS=1` keeps pictures in e2e/artifacts/quick-delete.
 */
const snap = screenshots('quick-delete');

function makeLog(count: number): CanFrame[] {
  const t0 = 1_600_000_000_000_000;
  return Array.from({ length: count }, (_, i) =>
    canFrame({ ts: t0 + i * 1000, id: 0x100 + (i % 16), data: Uint8Array.from({ length: 8 }, (_, k) => (i * 7 + k) & 0xff) }),
  );
}

test.describe('quick delete', () => {
  test('a tenant quick-deletes a simulated device’s data from the capacity pie and the usage drops', async ({ page, own, adminApi }) => {
    test.setTimeout(180_000);
    const tenant = await registerTenant(adminApi, 'qd');
    const api = new Api(adminApi.baseURL);
    await api.login(tenant);
    const types = await api.get<{ id: string; name: string }[]>(`/things/tenants/${tenant.tenantId}/device-types`);
    const deviceId = randomBytes(10).toString('hex').toUpperCase();
    const device = await api.post<{ id: string; things_key: string }>(`/things/tenants/${tenant.tenantId}/things`, {
      third_things_id: deviceId,
      name: 'Sweeper 3',
      info_model_id: types.find((x) => x.name === 'CANDTU-200')?.id,
    });
    // The system manager grants quick delete for this device (what an applied capacity request does).
    await adminApi.put(`/tenant/tenants/${tenant.tenantId}/specification`, {
      quick_delete_things_num: 1,
      special_storage: 2,
      quick_delete_things_list: [{ third_things_id: deviceId, info_model_name: 'CANDTU-200' }],
    });

    // The simulated logger sends its frames over MQTT.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lh-quick-delete-'));
    const logFile = path.join(dir, 'trip.log');
    fs.writeFileSync(logFile, writeLog(makeLog(3000), 'candump'));
    const sim = await simulateDevice(own, deviceId, device.things_key, ['--log', logFile, '--fast']);
    expect(sim.code, sim.output).toBe(0);
    fs.rmSync(dir, { recursive: true, force: true });

    // --- The tenant opens the cloud-disk pie: the device has a line with its usage.
    await loginThroughForm(page, tenant);
    await page.getByTestId('capacity-button').click();
    const dialog = page.getByTestId('capacity-dialog');
    const row = dialog.getByTestId('capacity-table').getByRole('row', { name: /Sweeper 3/ });
    await expect(row).toContainText(/KB|MB/);
    const used = dialog.getByTestId('capacity-used');
    await expect(used).toContainText(/KB|MB/);
    const usedBefore = (await used.textContent()) ?? '';
    await snap(page, '01-capacity');

    // --- Quick delete: the password first (a wrong one is refused), then the task's progress.
    await row.getByTestId('quick-delete').click();
    const confirm = page.getByRole('dialog', { name: /快速删除设备数据|Quick delete of a device/ });
    await expect(confirm).toContainText('Sweeper 3');
    await dialogOpened(confirm);
    // A time range may be chosen instead of everything; at least one end is asked for.
    await confirm.getByRole('radio', { name: /时间范围|A time range/ }).check();
    await confirm.getByTestId('quick-delete-password').fill('Wrong-password-9');
    await confirm.getByRole('button', { name: /^快速删除$|^Quick delete$/ }).click();
    await expect(confirm.getByText(/请至少选择开始或结束时间|Choose a start or an end time/)).toBeVisible();
    await snap(page, '02-range');
    await confirm.getByRole('radio', { name: /全部数据|All data/ }).check();
    await confirm.getByTestId('quick-delete-password').fill('Wrong-password-9');
    await confirm.getByRole('button', { name: /^快速删除$|^Quick delete$/ }).click();
    await expect(confirm.getByText(/密码错误|password/i)).toBeVisible();
    await snap(page, '03-wrong-password');
    await confirm.getByTestId('quick-delete-password').fill(tenant.password);
    await confirm.getByRole('button', { name: /^快速删除$|^Quick delete$/ }).click();
    await expect(confirm.getByTestId('quick-delete-progress')).toContainText(/删除完成|Deleted/);
    await snap(page, '04-done');
    await confirm.getByRole('button', { name: /^确\s*定$|^OK$/ }).click();
    await expect(confirm).toBeHidden();

    // --- The list is read again: the device's line is gone and the usage dropped to nothing.
    await expect(row).toHaveCount(0);
    await expect(used).not.toHaveText(usedBefore);
    await expect(used).toHaveText('0 B');
    await snap(page, '05-after');
    const usage = await api.get<{ total_disk_usage: number }>(`/data-mgmt/tenants/${tenant.tenantId}/usage`);
    expect(usage.total_disk_usage).toBe(0);
  });
});
