import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isolatedServerTest as test } from '../support/own-server.ts';
import { dialogOpened, expect, loginThroughForm } from '../support/test.ts';

/** A built console as a .tar.gz: an index.html that says which release it is. */
function bundle(dir: string, name: string): string {
  const src = fs.mkdtempSync(path.join(dir, 'src-'));
  fs.writeFileSync(
    path.join(src, 'index.html'),
    `<!doctype html><html><head><title>${name}</title></head><body><h1>${name}</h1></body></html>`,
  );
  const file = path.join(dir, `${name.replaceAll(' ', '-')}.tar.gz`);
  execFileSync('tar', ['-czf', file, '-C', src, 'index.html']);
  return file;
}

/**
 * Spec §7 /out-web: a system manager uploads two console versions in the system console, releases
 * the first (served at once in place of the built console), then the second, and rolls back: the
 * first is served again. A server of its own, stopped after it: a released version replaces the
 * console for every later test of the server.
 */
test('a system manager uploads a console version, releases it, and rolls back', async ({ page, admin, baseURL }) => {
  test.setTimeout(180_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lh-console-'));
  const served = async () =>
    (await (await page.request.get(`${baseURL}/Container/HomePage`)).text()).match(/<h1>(.*?)<\/h1>/)?.[1] ?? 'built';
  try {
    await loginThroughForm(page, admin);
    await page.goto('/Container/SystemManager/SystemSetting?tab=deploy');
    const panel = page.getByTestId('web-deploy-panel');
    await expect(panel).toBeVisible();
    expect(await served()).toBe('built');

    for (const [version, name] of [
      ['1.0.0', 'release one'],
      ['1.1.0', 'release two'],
    ]) {
      await panel.getByTestId('deploy-upload').click();
      const dialog = page.getByRole('dialog', { name: '上传版本' });
      await dialogOpened(dialog);
      await dialog.getByLabel('版本').fill(version);
      await dialog.getByLabel('说明').fill(name);
      await dialog.locator('input[type=file]').setInputFiles(bundle(dir, name));
      await dialog.getByRole('button', { name: /确\s*定|OK/ }).click();
      await expect(dialog).toBeHidden();
      await expect(panel.getByTestId('deploy-versions').getByRole('row').filter({ hasText: version })).toBeVisible();
    }

    const row = (version: string) => panel.getByTestId('deploy-versions').getByRole('row').filter({ hasText: version });
    await row('1.0.0')
      .getByRole('button', { name: /^发\s*布$/ })
      .click();
    await expect(row('1.0.0')).toContainText('使用中');
    // Served instead of the built console, without a restart (each copy looks again within seconds).
    await expect.poll(served, { timeout: 10_000 }).toBe('release one');

    await row('1.1.0')
      .getByRole('button', { name: /^发\s*布$/ })
      .click();
    await expect(row('1.1.0')).toContainText('使用中');
    await expect(row('1.0.0')).not.toContainText('使用中');
    await expect.poll(served, { timeout: 10_000 }).toBe('release two');

    await panel.getByTestId('deploy-rollback').click();
    await expect(row('1.0.0')).toContainText('使用中');
    await expect.poll(served, { timeout: 10_000 }).toBe('release one');

    // The deploy log names each step and who took it.
    const log = panel.getByTestId('deploy-log');
    await expect(log.getByRole('row').filter({ hasText: '回滚' })).toContainText(admin.username);
    await expect(log.getByRole('row').filter({ hasText: '上传' })).toHaveCount(2);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
