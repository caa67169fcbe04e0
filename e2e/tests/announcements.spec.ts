import { randomBytes } from 'node:crypto';
import { registerTenant } from '../support/fixtures.ts';
import { button, dialogOpened, expect, loginThroughForm, signIn, test } from '../support/test.ts';

/** A local time as the console's date fields take it (YYYY-MM-DD HH:mm). */
function local(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

/**
 * The system manager writes an announcement and an upgrade notice for the extension platform in
 * the system console, previews and publishes them; a tenant of that platform then sees the notice
 * strip and the upgrade dialog with its window and change list. Withdrawn, the strip is gone.
 */
test('a system manager writes an announcement that a tenant then sees', async ({ page, browser, admin, adminApi }) => {
  test.setTimeout(180_000);
  const tenant = await registerTenant(adminApi, 'notice');
  // Aimed at the extension platform, the notices reach this tenant and none of the other tests'.
  await adminApi.put(`/tenant/tenants/${tenant.tenantId}`, { platform: 1 });
  const tag = randomBytes(3).toString('hex');
  const title = `Maintenance tonight ${tag}`;
  const upgradeTitle = `Upgrade to v9.${tag}`;
  const created: string[] = [];

  try {
    await signIn(page, admin, '/Container/SystemManager/SystemSetting?tab=notices');
    await expect(page.getByTestId('notice-table')).toBeVisible();

    // The announcement: written, previewed as the tenant's strip, published.
    await page.getByTestId('notice-new').click();
    let editor = page.getByRole('dialog', { name: '新建公告' });
    await dialogOpened(editor);
    await editor.getByLabel('标题').fill(title);
    await editor.getByLabel('内容').fill('The console pauses for ten minutes.');
    await editor.getByLabel('目标平台').click();
    await page.locator('.ant-select-dropdown:visible').getByTitle('扩展平台', { exact: true }).click();
    await editor.getByTestId('notice-preview-button').click();
    const preview = page.getByTestId('notice-preview');
    await expect(preview).toContainText(title);
    await expect(preview).toContainText('The console pauses for ten minutes.');
    await page.getByRole('dialog', { name: /预览/ }).locator('.ant-modal-close').click();
    await expect(preview).toBeHidden();
    await editor.getByTestId('notice-save').click();
    await expect(editor).toBeHidden();
    const row = page.getByTestId('notice-table').getByRole('row').filter({ hasText: title });
    await expect(row).toContainText('已发布');
    await expect(row).toContainText('扩展平台');

    // The upgrade notice: version, maintenance window and change list.
    await page.getByTestId('notice-new').click();
    editor = page.getByRole('dialog', { name: '新建公告' });
    await dialogOpened(editor);
    await editor.locator('label.ant-radio-button-wrapper').filter({ hasText: '升级通知' }).click();
    await editor.getByLabel('标题').fill(upgradeTitle);
    await editor.getByLabel('版本').fill(`v9.${tag}`);
    await editor.getByLabel('目标平台').click();
    await page.locator('.ant-select-dropdown:visible').getByTitle('扩展平台', { exact: true }).click();
    const start = new Date(Date.now() + 2 * 86_400_000);
    start.setHours(9, 0, 0, 0);
    const end = new Date(start.getTime() + 5 * 3_600_000);
    const range = editor.locator('.ant-picker-range');
    await range.locator('input').first().click();
    await range.locator('input').first().fill(local(start));
    await range.locator('input').first().press('Enter');
    await range.locator('input').nth(1).fill(local(end));
    await range.locator('input').nth(1).press('Enter');
    await editor.getByLabel('更新内容').fill('Faster history curves\nQuick delete');
    await editor.getByTestId('notice-save').click();
    await expect(editor).toBeHidden();
    const upgradeRow = page.getByTestId('notice-table').getByRole('row').filter({ hasText: upgradeTitle });
    await expect(upgradeRow).toContainText(`v9.${tag}`);
    await expect(upgradeRow).toContainText(`${local(start)} – ${local(end)}`);

    const list = await adminApi.get<{ list: { id: string; title: string; changes: string[]; platform: number | null }[] }>(
      '/out-web/notice?page_size=50',
    );
    for (const n of list.list) if (n.title === title || n.title === upgradeTitle) created.push(n.id);
    expect(created).toHaveLength(2);
    expect(list.list.find((n) => n.title === upgradeTitle)).toMatchObject({
      changes: ['Faster history curves', 'Quick delete'],
      platform: 1,
    });

    // The tenant signs in: the upgrade dialog and the strip.
    const ctx = await browser.newContext();
    const tp = await ctx.newPage();
    try {
      await loginThroughForm(tp, tenant);
      const upgrade = tp.getByRole('dialog', { name: upgradeTitle });
      await expect(upgrade).toBeVisible();
      await expect(upgrade).toContainText(`v9.${tag}`);
      await expect(upgrade).toContainText(`${local(start)} – ${local(end)}`);
      await expect(upgrade.getByRole('listitem')).toHaveText(['Faster history curves', 'Quick delete']);
      await upgrade.getByRole('button', { name: button('知道了') }).click();
      await expect(upgrade).toBeHidden();
      const strip = tp.getByRole('status').filter({ hasText: title });
      await expect(strip).toBeVisible();
      await expect(strip).toContainText('The console pauses for ten minutes.');

      // Withdrawn by the system manager, the strip is gone on the tenant's next visit.
      await page.getByTestId(`notice-toggle-${title}`).click();
      await expect(row).toContainText('未发布');
      const asked = tp.waitForResponse((r) => r.url().includes('/out-web/notice/user/') && r.ok());
      await tp.reload();
      const active = (await (await asked).json()) as { title: string }[];
      expect(active.map((n) => n.title)).toEqual([upgradeTitle]);
      await expect(tp.getByTestId('app-header')).toBeVisible();
      await expect(tp.getByText(title)).toBeHidden();
    } finally {
      await ctx.close();
    }
  } finally {
    // The notices would show to later tests' extension-platform tenants: removed.
    for (const id of created) await adminApi.delete(`/out-web/notice/${id}`);
  }
});
