import { randomBytes } from 'node:crypto';
import { Api } from '../support/api.ts';
import { registerTenant } from '../support/fixtures.ts';
import { screenshots } from '../support/screenshots.ts';
import { button, dialogOpened, expect, loginThroughForm, routePage, test } from '../support/test.ts';

/**
 * The work-order issue end to end: a tenant raises a work order in the console (with a
 * screenshot attached), the system manager takes and answers it in the console, the
 * initiator sees the in-app message (bell count and list) and confirms; then the
 * cloud-disk capacity pie. `SCREENSHOTS=1` keeps a picture of each step in
 * e2e/artifacts/workorders.
 */
const snap = screenshots('workorders');

// A 1×1 PNG: the server accepts images by their content, not their name.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

test.describe('work orders', () => {
  test('a tenant raises a work order, the system manager handles it, the initiator is told and confirms', async ({
    page,
    browser,
    admin,
    adminApi,
  }) => {
    test.setTimeout(180_000);
    const tenant = await registerTenant(adminApi, 'wo');
    const title = `Live trace stops ${randomBytes(2).toString('hex')}`;

    // --- The tenant raises the order in the console.
    await loginThroughForm(page, tenant);
    await page.goto('/Container/WorkOrderList');
    const list = routePage(page, '/Container/WorkOrderList');
    await list.getByTestId('new-workorder').click();
    const dialog = page.getByRole('dialog');
    // The contact phone starts as the user's own mobile.
    await expect(page.locator('#workorder_phone')).toHaveValue(tenant.mobile);
    await page.locator('#workorder_phone').fill('');
    await dialog.getByTestId('workorder-submit').click();
    await expect(dialog.getByText(/请输入工单名称|Enter a title/)).toBeVisible();
    await expect(dialog.getByText(/请输入联系电话|Enter a contact phone/)).toBeVisible();
    await page.locator('#workorder_name').fill(title);
    await page.locator('#workorder_phone').fill('12');
    await expect(dialog.getByText(/4-20/)).toBeVisible();
    await page.locator('#workorder_phone').fill('+86 139 0000 1234');
    await page.locator('#workorder_description').fill('The live trace of device 00A1 stops after about ten minutes.');
    await dialog.locator('input[type=file]').setInputFiles({ name: 'trace.png', mimeType: 'image/png', buffer: PNG });
    await expect(dialog.locator('.ant-upload-list-item-done, .ant-upload-list-item:not(.ant-upload-list-item-uploading)')).toHaveCount(1);
    await snap(page, '01-create');
    await dialog.getByTestId('workorder-submit').click();
    await expect(dialog).toBeHidden();
    const row = list.getByTestId('workorder-table').getByRole('row', { name: new RegExp(title) });
    await expect(row).toBeVisible();
    await expect(row.getByTestId('workorder-status')).toHaveAttribute('data-status', 'pending');
    await snap(page, '02-list');

    // --- The system manager takes it and answers, in a browser of its own.
    const adminContext = await browser.newContext();
    const adminPage = await adminContext.newPage();
    await loginThroughForm(adminPage, admin);
    await adminPage.goto('/Container/WorkOrderList');
    const adminRow = routePage(adminPage, '/Container/WorkOrderList').getByRole('row', { name: new RegExp(title) });
    await adminRow.getByTestId('handle-order').click();
    const handle = routePage(adminPage, '/Container/HandleWorkOrder');
    await expect(handle.getByTestId('workorder-detail')).toContainText(title);
    await expect(handle.getByTestId('workorder-detail').locator('img')).toHaveCount(1);
    // A pending order offers the handler exactly: take, refuse.
    await expect(handle.getByTestId('workorder-moves').getByRole('button')).toHaveCount(2);
    await handle.getByTestId('move-process').click();
    await adminPage.getByTestId('move-remark').fill('Looking into it.');
    await snap(adminPage, '03-take');
    await adminPage.getByTestId('move-ok').click();
    await expect(handle.getByTestId('workorder-status')).toHaveAttribute('data-status', 'process');
    // While handling, the handler writes to the initiator without changing the status.
    await handle.getByTestId('workorder-reply').fill('Which firmware does 00A1 run?');
    await handle.getByRole('button', { name: /发送回复|Send reply/ }).click();
    await expect(handle.getByTestId('workorder-history')).toContainText('Which firmware does 00A1 run?');
    await expect(handle.getByTestId('workorder-status')).toHaveAttribute('data-status', 'process');
    await handle.getByTestId('move-wait').click();
    await adminPage.getByTestId('move-remark').fill('Fixed in the hub: reconnects now keep the subscription.');
    await adminPage.getByTestId('move-ok').click();
    await expect(handle.getByTestId('workorder-status')).toHaveAttribute('data-status', 'wait');
    await expect(handle.getByTestId('workorder-history')).toContainText('Fixed in the hub');
    await snap(adminPage, '04-handled');
    await adminContext.close();

    // --- The initiator sees the messages: the bell counts them and lists them.
    await page.reload();
    const bell = page.getByTestId('message-bell');
    await expect(page.locator('.ant-badge').filter({ has: bell }).locator('.ant-scroll-number')).toHaveAttribute('title', /^[1-9]/);
    await bell.click();
    const messages = page.getByTestId('message-list');
    // In the reader's console language (Chinese here): the last change asks for the initiator's confirmation.
    await expect(messages).toContainText(/工单 WO\S+ 待您确认/);
    await snap(page, '05-bell');
    await page.keyboard.press('Escape');

    // The initiator confirms the answer from the detail page.
    await row.click();
    const detail = routePage(page, '/Container/WorkOrderDetail');
    await expect(detail.getByTestId('workorder-status')).toHaveAttribute('data-status', 'wait');
    // A nested page: the tab names it, a breadcrumb leads back to the list.
    await expect(page).toHaveTitle(/^(工单详情|Work order details) - /);
    await expect(detail.getByTestId('breadcrumb').getByRole('link', { name: /^(工单|Work orders)$/ })).toBeVisible();
    await expect(detail.getByTestId('workorder-history')).toContainText('Which firmware does 00A1 run?');
    // The initiator answers before confirming; the answer joins the history.
    await detail.getByTestId('workorder-reply').fill('Version 2.4.1 on all of them.');
    await detail.getByRole('button', { name: /发送回复|Send reply/ }).click();
    await expect(detail.getByTestId('workorder-history')).toContainText('Version 2.4.1 on all of them.');
    await expect(detail.getByTestId('workorder-history')).toContainText(/回复|Reply/);
    await snap(page, '06-reply');
    await detail.getByTestId('move-done').click();
    await page.getByTestId('move-ok').click();
    await expect(detail.getByTestId('workorder-status')).toHaveAttribute('data-status', 'done');
    await expect(detail.getByTestId('workorder-moves')).toHaveCount(0);
    await snap(page, '06-confirmed');

    // --- The cloud-disk capacity pie.
    await page.getByTestId('capacity-button').click();
    const pie = page.getByRole('dialog');
    await expect(pie).toBeVisible();
    await expect(pie.getByTestId('capacity-pie')).toBeVisible();
    await expect(pie).toContainText('2.00 GB');
    await snap(page, '07-capacity');
  });
});

test.describe('device types, capacity request, help and the monitor screen', () => {
  test('a tenant manager sets up a device type schema, asks for capacity, reads the help and opens the monitor', async ({
    page,
    adminApi,
  }) => {
    test.setTimeout(180_000);
    const tenant = await registerTenant(adminApi, 'wo');
    const api = new Api(adminApi.baseURL);
    await api.login(tenant);
    const types = await api.get<{ id: string; name: string }[]>(`/things/tenants/${tenant.tenantId}/device-types`);
    const candtu = types.find((x) => x.name === 'CANDTU-200');
    const vanId = randomBytes(10).toString('hex').toUpperCase();
    const van = await api.post<{ id: string }>(`/things/tenants/${tenant.tenantId}/things`, {
      third_things_id: vanId,
      name: 'Test van 7',
      info_model_id: candtu?.id,
    });
    // A recorded log uploaded for the van gives it a line in the capacity table.
    const now = Date.now() / 1000;
    const log = Array.from(
      { length: 500 },
      (_, i) => `(${(now - 60 + i * 0.01).toFixed(6)}) can0 1${String(i % 10)}0#DEADBEEF0000${String(i % 100).padStart(4, '0')}`,
    ).join('\n');
    const upload = new FormData();
    upload.append('file', new Blob([`${log}\n`]), 'trip.log');
    const up = await fetch(`${api.baseURL}/v1/data-mgmt/tenants/${tenant.tenantId}/things/${van.id}/uploads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${api.token}` },
      body: upload,
    });
    expect(up.status, await up.text()).toBe(200);

    await loginThroughForm(page, tenant);

    // --- Device type with a data group and a field.
    await page.goto('/Container/DeviceTypeList');
    const list = routePage(page, '/Container/DeviceTypeList');
    await list.getByTestId('add-device-type').click();
    await dialogOpened(page.getByRole('dialog'));
    const typeName = `TEMP-${randomBytes(2).toString('hex').toUpperCase()}`;
    await page.locator('#device-type_name').fill(typeName);
    await page
      .getByRole('dialog')
      .getByText(/普通物联网设备|Plain IoT device/)
      .click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: button('确定') })
      .click();
    await list.getByRole('row', { name: new RegExp(typeName) }).click();
    const details = routePage(page, '/Container/DeviceTypeDetails');
    await details.getByTestId('add-group').click();
    await dialogOpened(page.getByRole('dialog'));
    await page.locator('#data-group_name').fill('engine');
    await page
      .getByRole('dialog')
      .getByRole('button', { name: button('确定') })
      .click();
    await details.getByTestId('add-field').click();
    const fieldDialog = page.getByRole('dialog');
    await dialogOpened(fieldDialog);
    await page.locator('#data-field_name').fill('1rpm');
    await expect(fieldDialog.getByText(/不能以数字开头|not starting with a digit/)).toBeVisible();
    await page.locator('#data-field_name').fill('rpm');
    await fieldDialog.getByTestId('field-format').click();
    await page.getByTitle(/精度（固定小数位）|Accuracy/).click();
    await page.locator('#data-field_accuracy').fill('1');
    await expect(fieldDialog.getByTestId('field-preview')).toContainText('3.1');
    await snap(page, '08-field-dialog');
    await fieldDialog.getByRole('button', { name: button('确定') }).click();
    await expect(details.getByTestId('fields-engine')).toContainText('rpm');
    await snap(page, '09-device-type');

    // --- Capacity request from the header: the spec's rules, then a capacity work order.
    await page.getByRole('button', { name: /容量申请|Capacity request/ }).click();
    const form = page.getByTestId('capacity-request');
    await expect(page.locator('#capacity_things_num')).toHaveValue('10');
    await page.locator('#capacity_things_num').fill('1');
    await page.locator('#capacity_max_batch_recall_size').fill('51');
    await page.getByRole('button', { name: /提交申请|Submit request/ }).click();
    await expect(form.getByText(/不能小于当前套餐值 2|At least the current value, 2/)).toBeVisible();
    await expect(form.getByText(/批量召回数不能超过 50|Batch recall is at most 50/)).toBeVisible();
    await page.locator('#capacity_things_num').fill('20');
    await page.locator('#capacity_max_batch_recall_size').fill('20');
    await page.locator('#capacity_quick_delete_things_num').fill('1');
    await form.getByRole('radio', { name: /设备快速删除|Device quick delete/ }).check();
    await form.getByTestId('quick-delete-picker').getByRole('checkbox').first().check();
    await snap(page, '10-capacity-request');
    await page.getByRole('button', { name: /提交申请|Submit request/ }).click();
    await expect(page.getByText(/已生成容量申请工单 WO\S+|Capacity work order WO\S+ was created/)).toBeVisible();
    await page.getByRole('button', { name: /查看工单|Open work order/ }).click();
    const order = routePage(page, '/Container/WorkOrderDetail');
    await expect(order.getByTestId('workorder-detail')).toContainText(/容量申请|Capacity request/);
    // The request carries the storage mode and the chosen device, shown by name and ID.
    await expect(order.getByTestId('workorder-detail')).toContainText(/设备快速删除|Device quick delete/);
    await expect(order.getByTestId('workorder-detail')).toContainText(vanId);
    await snap(page, '11-capacity-order');

    // --- Help pages.
    await page.goto('/doc?type=help');
    await expect(page.getByTestId('doc')).toHaveAttribute('data-type', 'help');
    await snap(page, '12-help');
    await page.goto('/doc?type=quickDelete');
    await expect(page.getByTestId('doc')).toContainText(/输入登录密码确认|Confirm with your login password/);
    await page.getByRole('menuitem', { name: /更新日志|Update log/ }).click();
    await expect(page.getByTestId('update-log')).toContainText('v0.1.0');

    // --- The monitor screen, as the header opens it: one device, offline, no alarms.
    await page.goto(`/Watch?tenantId=${tenant.tenantId}`);
    await expect(page.getByTestId('kpi-devices')).toContainText('1');
    await expect(page.getByTestId('kpi-offline')).toContainText('1');
    await expect(page.getByTestId('watch-devices')).toContainText('Test van 7');
    await expect(page.getByTestId('watch-map')).toBeVisible();
    await snap(page, '13-watch');

    // --- The same screens in English.
    await page.getByTestId('language-switch').click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await expect(page.getByTestId('kpi-devices')).toContainText('Devices');
    await snap(page, '14-watch-en');
    await page.goto('/Container/WorkOrderList');
    await page.getByTestId('capacity-button').click();
    await expect(page.getByTestId('capacity-dialog')).toContainText('Usage per device');
    const usageRow = page.getByTestId('capacity-table').getByRole('row', { name: /Test van 7/ });
    await expect(usageRow).toContainText(/KB|MB/);
    // The van is not in the package's quick-delete list (the request above is not applied yet).
    await expect(usageRow.getByTestId('quick-delete')).toBeDisabled();
    await snap(page, '15-capacity-en');
    await page.getByTestId('capacity-request-open').click();
    await expect(page.getByTestId('capacity-request')).toContainText('Storage mode');
    await snap(page, '16-capacity-request-en');

    // The TPS estimator in the form: the worked example of the estimator's documentation.
    await page.getByText('TPS estimator').click();
    await page.locator('#tps_things_num').fill('1000');
    await page.locator('#tps_msg_interval').fill('10');
    await page.locator('#tps_msg_size').fill('100');
    await page.getByTestId('tps-assess').click();
    await expect(page.getByTestId('tps-result')).toContainText('1,000 / 100 / 100');
    await expect(page.getByTestId('tps-result')).toContainText('1,200 / 150 / 150');
    await page.locator('#tps_msg_interval').fill('0');
    await page.getByTestId('tps-assess').click();
    await expect(page.getByTestId('tps-estimator')).toContainText('From 1 to 604,800');
    await snap(page, '17-tps-en');
  });
});
