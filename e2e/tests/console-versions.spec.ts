import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isolatedServerTest as test } from '../support/own-server.ts';
import { button, dialogOpened, expect, loginThroughForm } from '../support/test.ts';

/**
 * A built console as a .tar.gz made as docs/web-deploy.md says (`tar czf ../console.tar.gz .` in
 * the folder, so with `./` and `assets/` entries): an index.html that says which release it is,
 * with `extra` lines in its head, and a script under assets/.
 */
function bundle(dir: string, name: string, extra = ''): string {
  const src = fs.mkdtempSync(path.join(dir, 'src-'));
  fs.mkdirSync(path.join(src, 'assets'));
  fs.writeFileSync(
    path.join(src, 'index.html'),
    `<!doctype html>\n<html>\n<head>\n<title>${name}</title>\n${extra ? `${extra}\n` : ''}</head>\n<body><h1>${name}</h1></body>\n</html>\n`,
  );
  fs.writeFileSync(path.join(src, 'assets', `${name.replaceAll(' ', '-')}.js`), `console.log(${JSON.stringify(name)})`);
  const file = path.join(dir, `${name.replaceAll(' ', '-')}.tar.gz`);
  execFileSync('sh', ['-c', `tar czf ${JSON.stringify(file)} .`], { cwd: src });
  return file;
}

/**
 * Spec §7 /out-web, decision 0206: a system manager uploads a console version in the system
 * console; a web-deploy user uploads one with an extra script through the API and cannot release
 * it. The manager's release dialog shows each version's files, who uploaded it and what changes in
 * index.html, and releases only with the manager's password; a rollback and "serve the built-in
 * console" bring the earlier console back. A server of its own, stopped after it: a released version
 * replaces the console for every later test of the server.
 */
test('a system manager reviews and releases console versions with the password, and goes back to the built console', async ({
  page,
  admin,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lh-console-'));
  const served = async () =>
    (await (await page.request.get(`${baseURL}/Container/HomePage`)).text()).match(/<h1>(.*?)<\/h1>/)?.[1] ?? 'built';
  const EXTRA = '<script src="https://listener.example/take.js"></script>';
  try {
    await loginThroughForm(page, admin);
    await page.goto('/Container/SystemManager/SystemSetting?tab=deploy');
    const panel = page.getByTestId('web-deploy-panel');
    await expect(panel).toBeVisible();
    expect(await served()).toBe('built');

    await panel.getByTestId('deploy-upload').click();
    const upload = page.getByRole('dialog', { name: '上传版本' });
    await dialogOpened(upload);
    await upload.getByLabel('版本').fill('1.0.0');
    await upload.getByLabel('说明').fill('release one');
    await upload.locator('input[type=file]').setInputFiles(bundle(dir, 'release one'));
    await upload.getByRole('button', { name: button('确定') }).click();
    await expect(upload).toBeHidden();

    // A web-deploy user stages a version with one extra script; releasing it is not its to do.
    const managerToken = (await (await page.request.post(`${baseURL}/v1/control/sessions`, { data: { ...admin, type: 1 } })).json()).token;
    const created = await page.request.post(`${baseURL}/v1/out-web/user/create`, {
      headers: { authorization: `Bearer ${managerToken}` },
      data: { username: 'stager', password: 'Deploy-Pass-42' },
    });
    expect(created.status()).toBe(201);
    const stager = `Bearer ${(await (await page.request.post(`${baseURL}/v1/out-web/user/login`, { data: { username: 'stager', password: 'Deploy-Pass-42' } })).json()).token}`;
    const file = bundle(dir, 'release two', EXTRA);
    const staged = await page.request.post(`${baseURL}/v1/out-web/deploy/web/save?version=1.1.0`, {
      headers: { authorization: stager },
      multipart: { file: { name: 'console.tar.gz', mimeType: 'application/gzip', buffer: fs.readFileSync(file) } },
    });
    expect(staged.status(), await staged.text()).toBe(201);
    const own = await page.request.post(`${baseURL}/v1/out-web/deploy/web/release`, {
      headers: { authorization: stager },
      data: { id: (await staged.json()).id, password: 'Deploy-Pass-42' },
    });
    expect(own.status()).toBe(403);
    expect((await own.json()).code).toBe('web.manager-only');
    expect(await served()).toBe('built');

    await page.reload();
    const row = (version: string) => panel.getByTestId('deploy-versions').getByRole('row').filter({ hasText: version });
    await expect(row('1.1.0')).toBeVisible();
    const releaseDialog = (version: string) => page.getByRole('dialog', { name: `发布版本 ${version}` });

    // The first release: compared with the built console, released with the password.
    await row('1.0.0')
      .getByRole('button', { name: button('发布') })
      .click();
    let dialog = releaseDialog('1.0.0');
    await dialogOpened(dialog);
    await expect(dialog.getByTestId('deploy-release-files')).toContainText('assets/release-one.js');
    await expect(dialog).toContainText('随服务器构建的控制台');
    await expect(
      dialog.getByTestId('deploy-release-diff').locator('[data-op="+"]').filter({ hasText: '<title>release one</title>' }),
    ).toBeVisible();
    await dialog.getByLabel('您的密码').fill(admin.password);
    await dialog.getByRole('button', { name: button('发布') }).click();
    await expect(dialog).toBeHidden();
    await expect(row('1.0.0')).toContainText('使用中');
    // Served instead of the built console, without a restart (each copy looks again within seconds).
    await expect.poll(served, { timeout: 10_000 }).toBe('release one');

    // The web-deploy user's version: its uploader, its files and the script it adds are shown first.
    await row('1.1.0')
      .getByRole('button', { name: button('发布') })
      .click();
    dialog = releaseDialog('1.1.0');
    await dialogOpened(dialog);
    await expect(dialog).toContainText('stager');
    await expect(dialog.getByTestId('deploy-release-files').getByRole('row').filter({ hasText: 'assets/release-two.js' })).toContainText(
      '新增',
    );
    await expect(dialog.getByTestId('deploy-release-files').getByRole('row').filter({ hasText: 'index.html' })).toContainText('有改动');
    const diff = dialog.getByTestId('deploy-release-diff');
    await expect(diff.locator('[data-op="+"]').filter({ hasText: EXTRA })).toBeVisible();
    await expect(diff.locator('[data-op="-"]').filter({ hasText: '<title>release one</title>' })).toBeVisible();
    await expect(diff.locator('[data-op="="]').filter({ hasText: '<!doctype html>' })).toBeVisible();
    // A wrong password releases nothing.
    await dialog.getByLabel('您的密码').fill('Not-The-Password-1');
    await dialog.getByRole('button', { name: button('发布') }).click();
    await expect(dialog).toContainText('密码错误');
    await expect(dialog).toBeVisible();
    expect(await served()).toBe('release one');
    await dialog.getByLabel('您的密码').fill(admin.password);
    await dialog.getByRole('button', { name: button('发布') }).click();
    await expect(dialog).toBeHidden();
    await expect(row('1.1.0')).toContainText('使用中');
    await expect(row('1.0.0')).not.toContainText('使用中');
    await expect.poll(served, { timeout: 10_000 }).toBe('release two');

    await panel.getByTestId('deploy-rollback').click();
    await expect(row('1.0.0')).toContainText('使用中');
    await expect.poll(served, { timeout: 10_000 }).toBe('release one');

    // Back to the console built with the server: one action.
    await panel.getByTestId('deploy-built-in').click();
    await page
      .getByRole('tooltip')
      .getByRole('button', { name: button('确定') })
      .click();
    await expect(row('1.0.0')).not.toContainText('使用中');
    await expect.poll(served, { timeout: 10_000 }).toBe('built');

    // The deploy log names each step and who took it.
    const log = panel.getByTestId('deploy-log');
    await expect(log.getByRole('row').filter({ hasText: '恢复内置控制台' })).toContainText(admin.username);
    await expect(log.getByRole('row').filter({ hasText: '回滚' })).toContainText(admin.username);
    await expect(log.getByRole('row').filter({ hasText: '上传' }).filter({ hasText: 'stager' })).toHaveCount(1);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
