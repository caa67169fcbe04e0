import http from 'node:http';
import type net from 'node:net';
import { seedDevice } from '../support/devices.ts';
import { mqttPort, runCli, ownServerTest as test } from '../support/own-server.ts';
import { button, dialogOpened, expect, loginThroughForm } from '../support/test.ts';

/**
 * Issue "Data out", forwarding: a manager adds a webhook rule in the console, tests the connection
 * (the receiver gets the test message), saves it, a simulated logger sends frames and the rule's
 * delivered counter shows what the receiver got; the rule is paused from the list.
 */
test('a manager forwards a simulated logger’s frames to a webhook set up in the console', async ({ page, admin, adminApi, own }) => {
  test.setTimeout(180_000);
  const received: { kind: string; things_id: string | null; data: { frames?: unknown[] } }[] = [];
  /** Deliveries of the second rule, whose transform plugin drops every message: there must be none. */
  let filteredPosts = 0;
  const receiver = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => {
      raw += c;
    });
    req.on('end', () => {
      if (req.url === '/filtered') filteredPosts++;
      else received.push(...(JSON.parse(raw) as { messages: typeof received }).messages);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as net.AddressInfo).port}/hook`;
  try {
    const { tenant_id: tenant } = await adminApi.get<{ tenant_id: string }>('/tenant/users/self');
    const device = await seedDevice(adminApi, tenant, `Forwarded van ${Math.random().toString(36).slice(2, 6)}`);
    const name = `webhook-${Math.random().toString(36).slice(2, 6)}`;

    await loginThroughForm(page, admin);
    await page.goto('/Container/ForwardManager');
    await page.getByTestId('add-forward-rule').click();
    const form = page.getByRole('dialog', { name: '添加转发规则' });
    await dialogOpened(form);
    await form.getByTestId('forward-name').fill(name);
    await form.getByRole('checkbox', { name: '原始报文' }).check();
    await form.getByRole('checkbox', { name: '解析信号' }).uncheck();
    await form.getByTestId('forward-url').fill(url);
    await form.getByTestId('forward-test').click();
    await expect(form.getByTestId('forward-test-result')).toContainText('连接成功');
    expect(received.some((m) => m.kind === 'test')).toBe(true);
    await form.getByRole('button', { name: button('确定') }).click();
    await expect(form).toBeHidden();
    const row = page.getByTestId('forward-table').locator('tbody tr.ant-table-row').filter({ hasText: name });
    await expect(row.getByTestId('forward-status')).toHaveText('启用');

    // A second rule on the same frames, through a transform plugin that keeps nothing: its messages
    // are counted as filtered, none is delivered.
    const dropAll = await adminApi.post<{ id: string }>(`/data-mgmt/tenants/${tenant}/plugins`, {
      name: `drop-all-${Math.random().toString(36).slice(2, 6)}`,
      type: 'transform',
      expression: 'false',
    });
    const filteredName = `dropped-${Math.random().toString(36).slice(2, 6)}`;
    await adminApi.post(`/alert-mgmt/tenants/${tenant}/things-forward-rules`, {
      name: filteredName,
      data_kinds: ['frames'],
      destination: { kind: 'http', url: url.replace(/\/hook$/, '/filtered') },
      transform_plugin_id: dropAll.id,
    });
    await page.reload();
    const filteredRow = page.getByTestId('forward-table').locator('tbody tr.ant-table-row').filter({ hasText: filteredName });
    await expect(filteredRow.getByTestId('counter-filtered')).toHaveText('0');

    const sim = await runCli('simulate', [
      '--broker',
      `mqtt://127.0.0.1:${mqttPort(own)}`,
      '--device',
      device.third_things_id,
      '--key',
      device.things_key,
      '--devices',
      '1',
      '--rate',
      '1000',
      '--duration',
      '1',
    ]);
    expect(sim.code, sim.output).toBe(0);
    await expect.poll(() => received.filter((m) => m.things_id === device.id).length, { timeout: 30_000 }).toBeGreaterThan(0);
    // The list reads its counters every 5 s: the delivered count reaches what the receiver got.
    await expect
      .poll(async () => Number(await row.getByTestId('counter-delivered').textContent()), { timeout: 30_000 })
      .toBeGreaterThanOrEqual(received.filter((m) => m.things_id === device.id).length);

    // Every message of this device the first rule delivered, the second one filtered out (the rule takes
    // every device of the tenant, so possibly more); nothing reached its destination.
    await expect
      .poll(async () => Number(await filteredRow.getByTestId('counter-filtered').textContent()), { timeout: 30_000 })
      .toBeGreaterThanOrEqual(received.filter((m) => m.things_id === device.id).length);
    expect(Number(await filteredRow.getByTestId('counter-delivered').textContent())).toBe(0);
    expect(filteredPosts).toBe(0);

    await row.getByRole('button', { name: button('暂停') }).click();
    await expect(row.getByTestId('forward-status')).toHaveText('暂停');
  } finally {
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  }
});
