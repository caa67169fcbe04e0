import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { writeLog } from '@loggerhead/can/logs/index.ts';
import { canFrame } from '../support/fixtures.ts';
import { screenshots } from '../support/screenshots.ts';
import { dialogOpened, expect, signIn, test } from '../support/test.ts';

/**
 * Issue "Real logs": log files go into a device's history from the console — several at once,
 * each with its progress and then its result: the frames stored and the lines skipped with their
 * numbers, or why the file was refused (with the byte where nothing could be read). The frames are
 * then found in the history.
 */
const shot = screenshots('screens', 'log-upload-', { fullPage: false });

test('log files uploaded in the history tab report frames stored and lines skipped, and show in history', async ({
  page,
  admin,
  adminApi,
}) => {
  test.setTimeout(120_000);
  const self = await adminApi.get<{ tenant_id: string }>('/tenant/users/self');
  const tenant = self.tenant_id;
  const types = await adminApi.get<{ id: string; name: string }[]>(`/things/tenants/${tenant}/device-types`);
  const deviceId = randomBytes(10).toString('hex').toUpperCase();
  const thing = await adminApi.post<{ id: string }>(`/things/tenants/${tenant}/things`, {
    third_things_id: deviceId,
    name: `Upload logger ${deviceId.slice(-4)}`,
    info_model_id: types.find((t) => t.name === 'CANDTU-200')?.id,
  });

  // 30 frames in the last half hour, and a broken third line; gzip-compressed.
  const t0 = (Date.now() - 30 * 60_000) * 1000;
  const lines = new TextDecoder()
    .decode(
      writeLog(
        Array.from({ length: 30 }, (_, i) => canFrame({ ts: t0 + i * 1000, id: 0x100 + i, data: Uint8Array.of(i) })),
        'candump',
      ),
    )
    .split('\n');
  lines.splice(2, 0, '(1700000000.000000) can0 12#0');
  const good = gzipSync(lines.join('\n'));
  // A BLF whose only object claims 0xFFFFFFF0 bytes: nothing can be read.
  const blf = writeLog([], 'blf').slice(0, 144);
  const obj = new Uint8Array(64);
  obj.set(new TextEncoder().encode('LOBJ'));
  new DataView(obj.buffer).setUint32(8, 0xfffffff0, true);
  const broken = new Uint8Array([...blf, ...obj]);

  await signIn(page, admin, `/Container/HomePage/DeviceDetails?id=${thing.id}&tab=data&sub=history`);
  await page.getByTestId('history-upload').click();
  const dialog = page.getByRole('dialog', { name: '导入日志到历史数据' });
  await dialogOpened(dialog);
  await dialog.locator('input[type=file]').setInputFiles([
    { name: 'trip.log.gz', mimeType: 'application/gzip', buffer: Buffer.from(good) },
    { name: 'broken.blf', mimeType: 'application/octet-stream', buffer: Buffer.from(broken) },
  ]);

  const items = dialog.getByTestId('upload-item');
  await expect(items).toHaveCount(2);
  await expect(items.nth(0)).toHaveAttribute('data-state', 'done');
  await expect(items.nth(0).getByTestId('upload-stored')).toHaveText('已存储 30 帧');
  await expect(items.nth(0).getByTestId('upload-skipped')).toContainText('跳过 1 行');
  await expect(items.nth(0).getByTestId('upload-skipped')).toContainText('第 3 行');
  await expect(items.nth(1)).toHaveAttribute('data-state', 'failed');
  await expect(items.nth(1).getByTestId('upload-status')).toContainText('文件不是支持的日志格式');
  await expect(items.nth(1).getByTestId('upload-status')).toContainText('字节 144');

  // For a look by eye (SCREENSHOTS=1), like tests/screens.spec.ts.
  await shot(page, 'zh');
  await dialog.getByTestId('upload-close').click();
  await expect(dialog).toBeHidden();
  await page.getByTestId('history-query').click();
  await expect(page.getByTestId('device-details').getByTestId('paginator')).toContainText('共 30 条');
});
