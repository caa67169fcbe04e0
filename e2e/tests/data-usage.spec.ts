import { seedDevice } from '../support/devices.ts';
import { simulateDevice, ownServerTest as test } from '../support/own-server.ts';
import { expect, pickOption, routePage, signIn } from '../support/test.ts';

interface Flow {
  total: { messages: number; frames: number; bytes: number };
}

/**
 * Issue "Data out", the data service's tenant flow, ranking and usage: a simulated logger sends
 * frames; on the data usage page the manager sees the frames received in the totals and the chart,
 * the device first in the ranking, and storage used against the package's quota.
 */
test('a manager sees the flow of a simulated logger, its rank and the storage against the quota', async ({
  page,
  admin,
  adminApi,
  own,
}) => {
  test.setTimeout(180_000);
  const { tenant_id: tenant } = await adminApi.get<{ tenant_id: string }>('/tenant/users/self');
  const name = `Flow truck ${Math.random().toString(36).slice(2, 6)}`;
  const device = await seedDevice(adminApi, tenant, name);
  const sim = await simulateDevice(own, device.third_things_id, device.things_key, ['--devices', '1', '--rate', '2000', '--duration', '2']);
  expect(sim.code, sim.output).toBe(0);

  // Every message was counted before its PUBACK; the counts reach the table at the next flush (every 5 s):
  // wait until it holds every frame the simulator had acknowledged.
  const acknowledged = Number(/(\d+) frames in \d+ batches acknowledged/.exec(sim.output)?.[1]);
  expect(acknowledged, sim.output).toBeGreaterThan(0);
  const hour = Math.floor(Date.now() / 3_600_000) * 3_600_000;
  const own_ = `/data-mgmt/tenants/${tenant}/flow?begin_time=${hour - 86_400_000}&end_time=${hour + 3_600_000}&things_id=${device.id}`;
  await expect.poll(async () => (await adminApi.get<Flow>(own_)).total.frames, { timeout: 30_000 }).toBe(acknowledged);
  const sent = (await adminApi.get<Flow>(own_)).total;

  await signIn(page, admin, '/Container/DataUsage');
  await expect(page).toHaveTitle(/^数据流量 - /);
  const view = routePage(page, '/Container/DataUsage');
  await expect(view.getByTestId('data-usage-chart')).toBeVisible();
  const ranking = view.getByTestId('data-usage-ranking');
  const row = ranking.locator('tbody tr.ant-table-row').filter({ hasText: name });
  await expect(row).toContainText(device.third_things_id);
  await expect(row).toContainText(sent.frames.toLocaleString('zh-CN'));
  // Ranked by frames: most first.
  await pickOption(page, 'data-usage-order', '按帧数排序');
  await expect(row).toBeVisible();
  const frames = (await ranking.locator('tbody tr.ant-table-row td:nth-child(5)').allTextContents()).map((s) =>
    Number(s.replaceAll(',', '')),
  );
  expect(frames.length).toBeGreaterThan(0);
  expect(frames).toEqual([...frames].sort((x, y) => y - x));

  // Storage: used against the package's quota, and the device among the devices storing data.
  await expect(view.getByTestId('data-usage-quota')).toContainText(/已用 .+ \/ 共 .+/);
  await expect(view.getByTestId('data-usage-storage')).toContainText(name);
});
