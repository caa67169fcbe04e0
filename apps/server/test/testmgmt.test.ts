import fs from 'node:fs';
import path from 'node:path';
import { GROOVY_ENABLE_COMMAND, MENU_GRANTS } from '@loggerhead/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { locateGroovy } from '../src/modules/testmgmt/runtime/groovy-runtime.ts';
import { mobile } from './accounts.factory.ts';
import { createTestApp, login, type TestApp, testConfig } from './helper.ts';
import { multipart } from './signals.fixtures.ts';
import { MEAN_MAX_SCRIPT, testApi } from './testmgmt.helpers.ts';
import { makeDevice, makeSubUser, makeTenant, type TenantFixture } from './things.fixtures.ts';

/**
 * Test management, scripts and routines: validation on a real Groovy (line and column), versions on
 * save, delete refused while in use, import and export, tenants, permissions, the package quota, and
 * the runtime's state with and without Groovy.
 */

let t: TestApp;
let a: TenantFixture;
let b: TenantFixture;

beforeAll(async () => {
  t = await createTestApp({ groovy: { ...testConfig().groovy, workers: 1 } });
  a = await makeTenant(t);
  b = await makeTenant(t);
});
afterAll(async () => {
  await t?.close();
});

const collect = (over: Record<string, unknown> = {}) => ({ type: 'collect', seconds: 2, signals: ['Value'], ...over });

describe('analysis scripts', () => {
  it('validates on the Groovy runtime: compile errors and sandbox refusals with line and column', async () => {
    const api = testApi(t, a);
    const ok = await api.call('POST', '/scripts/validate', { content: MEAN_MAX_SCRIPT });
    expect(ok.json()).toEqual({ valid: true, errors: [] });

    // the stray ")" is the 7th character of line 2
    const syntax = await api.call('POST', '/scripts/validate', { content: 'log(1)\nlog(2))\nlog(3)\n' });
    expect(syntax.json().valid).toBe(false);
    expect(syntax.json().errors[0]).toMatchObject({ line: 2, column: 7 });

    const file = await api.call('POST', '/scripts/validate', { content: "log('x')\n  def t = new File('/etc/passwd').text\n" });
    expect(file.json().valid).toBe(false);
    expect(file.json().errors).toEqual(
      expect.arrayContaining([
        { line: 2, column: 11, message: expect.stringMatching(/java\.io\.File is not allowed/) },
        { line: 2, column: expect.any(Number), message: "property 'text' is not allowed" },
      ]),
    );
    const exit = await api.call('POST', '/scripts/validate', { content: 'System.exit(0)' });
    expect(exit.json().errors).toContainEqual({ line: 1, column: 1, message: expect.stringMatching(/java\.lang\.System is not allowed/) });

    const status = (await t.app.inject({ method: 'GET', url: '/v1/test-mgmt/runtime', headers: { authorization: a.auth } })).json();
    expect(status).toMatchObject({
      state: 'available',
      enable_command: GROOVY_ENABLE_COMMAND,
      groovy_version: expect.stringMatching(/^\d+\.\d+/),
    });
  });

  it('compiles every example of the script API in docs/test-management.md (zh and en)', async () => {
    const doc = fs.readFileSync(path.join(import.meta.dirname, '../../../docs/test-management.md'), 'utf8');
    const examples = [...doc.matchAll(/```groovy\n([\s\S]*?)```/g)].map((m) => m[1]);
    expect(examples.length).toBeGreaterThanOrEqual(8);
    for (const content of examples) {
      const r = await testApi(t, a).call('POST', '/scripts/validate', { content });
      expect(r.json(), content).toEqual({ valid: true, errors: [] });
    }
  });

  it('keeps a version for every saved content; a change of name or notes alone keeps the version', async () => {
    const api = testApi(t, a);
    const s = await api.script('speed check', 'metric("n", 1)', 'first');
    expect(s.version).toBe(1);
    const saved = await api.call('PUT', `/scripts/${s.id}`, { name: 'speed check', content: 'metric("n", 2)', notes: 'second' });
    expect(saved.json()).toMatchObject({ version: 2, content: 'metric("n", 2)', notes: 'second' });
    const renamed = await api.call('PUT', `/scripts/${s.id}`, { name: 'speed check v2', content: 'metric("n", 2)', notes: 'renamed' });
    expect(renamed.json()).toMatchObject({ version: 2, name: 'speed check v2' });

    const versions = (await api.call('GET', `/scripts/${s.id}/versions`)).json();
    expect(versions.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    expect((await api.call('GET', `/scripts/${s.id}/versions/1`)).json()).toMatchObject({
      version: 1,
      content: 'metric("n", 1)',
      notes: 'first',
    });
    expect((await api.call('GET', `/scripts/${s.id}/versions/3`)).statusCode).toBe(404);

    const dup = await api.call('POST', '/scripts', { name: 'speed check v2', content: '' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({ code: 'test.script-name-used', field: 'name' });
  });

  it('refuses to delete a script while a routine uses it', async () => {
    const api = testApi(t, a);
    const s = await api.script('in use', MEAN_MAX_SCRIPT);
    const r = await api.routine({ name: 'uses it', steps: [collect()], script_id: s.id, params: { limit: 100 } });
    expect((await api.call('GET', `/scripts/${s.id}`)).json().routines).toBe(1);

    const refused = await api.call('DELETE', `/scripts/${s.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'test.script-in-use' });

    expect((await api.call('DELETE', `/routines/${r.id}`)).statusCode).toBe(200);
    expect((await api.call('DELETE', `/scripts/${s.id}`)).statusCode).toBe(200);
    expect((await api.call('GET', `/scripts/${s.id}`)).statusCode).toBe(404);
  });

  it('exports a script and imports it back (and a plain .groovy file); refuses a file that is neither', async () => {
    const api = testApi(t, a);
    const s = await api.script('exported', MEAN_MAX_SCRIPT, 'notes to keep');
    const file = await api.call('GET', `/scripts/${s.id}/export`);
    expect(file.headers['content-disposition']).toMatch(/attachment; filename="exported\.json"/);
    const body = JSON.parse(file.body);
    expect(body).toMatchObject({ format: 'loggerhead-test-script/1', name: 'exported', notes: 'notes to keep', content: MEAN_MAX_SCRIPT });

    const up = async (name: string, content: string) => {
      const m = multipart({}, { name, content });
      return t.app.inject({
        method: 'POST',
        url: `${api.base}/scripts/import`,
        headers: { authorization: a.auth, ...m.headers },
        payload: m.payload,
      });
    };
    const back = await up('exported.json', file.body);
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json()).toMatchObject({ name: 'exported (2)', notes: 'notes to keep', content: MEAN_MAX_SCRIPT, version: 1 });

    const groovy = await up('brake-test.groovy', 'check("ok", true)\n');
    expect(groovy.json()).toMatchObject({ name: 'brake-test', content: 'check("ok", true)\n' });

    const bad = await up('x.json', '{"format":"something else"}');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'test.bad-import' });
  });
});

describe('routines', () => {
  it('validates the steps: a collect step, collect seconds a positive integer, a known script', async () => {
    const api = testApi(t, a);
    const s = await api.script('for routines', MEAN_MAX_SCRIPT);
    const noCollect = await api.call('POST', '/routines', { name: 'r1', steps: [{ type: 'wait', seconds: 1 }], script_id: s.id });
    expect(noCollect.statusCode).toBe(400);
    expect(JSON.stringify(noCollect.json())).toMatch(/at least one collect step/);
    for (const seconds of [0, 1.5, -3]) {
      const bad = await api.call('POST', '/routines', { name: 'r2', steps: [collect({ seconds })], script_id: s.id });
      expect(bad.statusCode, `seconds ${seconds}`).toBe(400);
      expect(JSON.stringify(bad.json())).toMatch(/please enter positive integer/);
    }
    const badFrame = await api.call('POST', '/routines', {
      name: 'r3',
      steps: [{ type: 'send_can', params: { frames: [{ id: '0x900', data: '00' }] } }, collect()],
      script_id: s.id,
    });
    expect(badFrame.statusCode).toBe(400);
    const unknown = await api.call('POST', '/routines', {
      name: 'r4',
      steps: [collect()],
      script_id: '3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b',
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ field: 'script_id' });

    const good = await api.routine({
      name: 'brake check',
      description: 'send, wait, collect',
      steps: [
        { type: 'send_can', params: { frames: [{ id: '0x321', data: 'DEADBEEF' }] } },
        { type: 'wait', seconds: 1 },
        collect({ seconds: 3 }),
      ],
      script_id: s.id,
      params: { limit: 50 },
    });
    const got = (await api.call('GET', `/routines/${good.id}`)).json();
    expect(got).toMatchObject({ name: 'brake check', script_name: 'for routines', duration_seconds: 4, params: { limit: 50 } });
    expect(got.steps[2]).toEqual({ type: 'collect', seconds: 3, channels: [], ids: [], signals: ['Value'] });
    const dup = await api.call('POST', '/routines', { name: 'brake check', steps: [collect()], script_id: s.id });
    expect(dup.json()).toMatchObject({ code: 'test.routine-name-used' });
    const list = (await api.call('GET', `/routines?script_id=${s.id}`)).json();
    expect(list.list.map((r: { name: string }) => r.name)).toEqual(['brake check']);
  });
});

describe('runs', () => {
  it('lists runs filtered by routine, device and start-time range', async () => {
    const c = await makeTenant(t);
    const api = testApi(t, c);
    const s = await api.script('for filters', 'log(1)');
    const r1 = await api.routine({ name: 'filter one', steps: [collect()], script_id: s.id });
    const r2 = await api.routine({ name: 'filter two', steps: [collect()], script_id: s.id });
    const d1 = await makeDevice(t, c);
    const d2 = await makeDevice(t, c);
    const range = { begin_time: Date.now() - 60_000, end_time: Date.now() };
    const pause = () => new Promise((res) => setTimeout(res, 50));
    const [early] = await api.start({ routine_id: r1.id, things_ids: [d1.id], dry_run: range });
    await pause();
    const between = Date.now();
    await pause();
    const [late1] = await api.start({ routine_id: r2.id, things_ids: [d1.id], dry_run: range });
    const [late2] = await api.start({ routine_id: r1.id, things_ids: [d2.id], dry_run: range });
    const ids = async (query: string) => {
      const res = await api.call('GET', `/runs?page_size=100${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().list as { id: string }[]).map((x) => x.id).sort();
    };
    const sorted = (...xs: { id: string }[]) => xs.map((x) => x.id).sort();
    expect(await ids('')).toEqual(sorted(early, late1, late2));
    expect(await ids(`&routine_id=${r1.id}`)).toEqual(sorted(early, late2));
    expect(await ids(`&things_id=${d1.id}`)).toEqual(sorted(early, late1));
    expect(await ids(`&routine_id=${r1.id}&things_id=${d1.id}`)).toEqual(sorted(early));
    expect(await ids(`&begin_time=${between}`)).toEqual(sorted(late1, late2));
    expect(await ids(`&end_time=${between}`)).toEqual(sorted(early));
    expect(await ids(`&begin_time=${between}&things_id=${d2.id}`)).toEqual(sorted(late2));
    expect((await api.call('GET', '/runs?routine_id=nope')).statusCode).toBe(400);
    expect((await api.call('GET', '/runs?begin_time=yesterday')).statusCode).toBe(400);
  });

  it("starts a routine with parameters over the routine's own, and the report records them", async () => {
    const c = await makeTenant(t);
    const api = testApi(t, c);
    const s = await api.script(
      'params echo',
      "metric('limit', params.limit)\nmetric('gain', params.gain)\ncheck('under limit', 7 < params.limit)\n",
    );
    const r = await api.routine({ name: 'params routine', steps: [collect()], script_id: s.id, params: { limit: 10, gain: 3 } });
    const d = await makeDevice(t, c);
    const range = { begin_time: Date.now() - 60_000, end_time: Date.now() };
    const [plain] = await api.start({ routine_id: r.id, things_ids: [d.id], dry_run: range });
    const [over] = await api.start({ routine_id: r.id, things_ids: [d.id], dry_run: range, params: { limit: 5 } });
    expect(over.params).toEqual({ limit: 5, gain: 3 });
    await api.finished(plain.id);
    await api.finished(over.id);
    const plainReport = await api.report(plain.id);
    const overReport = await api.report(over.id);
    expect(plainReport).toMatchObject({ verdict: 'pass', params: { limit: 10, gain: 3 } });
    expect(plainReport.metrics.map((m) => m.value)).toEqual([10, 3]);
    expect(overReport).toMatchObject({ verdict: 'fail', params: { limit: 5, gain: 3 } });
    expect(overReport.metrics.map((m) => m.value)).toEqual([5, 3]);
    // the routine's own parameters are unchanged
    expect((await api.call('GET', `/routines/${r.id}`)).json().params).toEqual({ limit: 10, gain: 3 });
    const bad = await api.call('POST', '/runs', { routine_id: r.id, things_ids: [d.id], dry_run: range, params: [1, 2] });
    expect(bad.statusCode).toBe(400);
  });
});

describe('report comparison', () => {
  it('compares two reports by name on the server: metrics with B − A, checks, parameters, verdicts', async () => {
    const m = await makeTenant(t);
    const api = testApi(t, m);
    const s = await api.script(
      'for comparing',
      "metric('limit', params.limit, 'km/h')\nmetric('gain', params.gain)\nif (params.extra) metric('extra', 1)\ncheck('under limit', 7 < params.limit)\n",
    );
    const r = await api.routine({ name: 'compare routine', steps: [collect()], script_id: s.id, params: { limit: 10, gain: 3 } });
    const d = await makeDevice(t, m);
    const range = { begin_time: Date.now() - 60_000, end_time: Date.now() };
    const [ra] = await api.start({ routine_id: r.id, things_ids: [d.id], dry_run: range });
    const [rb] = await api.start({ routine_id: r.id, things_ids: [d.id], dry_run: range, params: { limit: 5, extra: true } });
    expect((await api.finished(ra.id)).state).toBe('analyzed');
    expect((await api.finished(rb.id)).state).toBe('analyzed');

    const res = await api.call('GET', `/reports/compare?a=${ra.id}&b=${rb.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const c = res.json();
    expect(c.a.run_id).toBe(ra.id);
    expect(c.b.run_id).toBe(rb.id);
    expect(c.verdicts).toEqual({ a: 'pass', b: 'fail', same: false });
    expect(c.metrics).toEqual([
      { name: 'limit', unit: 'km/h', a: 10, b: 5, diff: -5 },
      { name: 'gain', unit: null, a: 3, b: 3, diff: 0 },
      { name: 'extra', unit: null, a: null, b: 1, diff: null },
    ]);
    expect(c.checks).toEqual([{ name: 'under limit', a: true, b: false, same: false }]);
    expect(c.params).toEqual([
      { name: 'extra', a: null, b: true, same: false },
      { name: 'gain', a: 3, b: 3, same: true },
      { name: 'limit', a: 10, b: 5, same: false },
    ]);

    // Refused: the same run twice, not a run id, a run that does not exist or is another tenant's.
    const status = async (q: string, caller = api) => (await caller.call('GET', `/reports/compare?${q}`)).statusCode;
    expect(await status(`a=${ra.id}&b=${ra.id}`)).toBe(400);
    expect(await status(`a=${ra.id}&b=nope`)).toBe(400);
    expect(await status(`a=${ra.id}`)).toBe(400);
    expect(await status(`a=${ra.id}&b=3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b`)).toBe(404);
    const other = testApi(t, b);
    const ob = await other.script('other tenant', 'log(1)');
    const or = await other.routine({ name: 'other routine', steps: [collect()], script_id: ob.id });
    const [orun] = await other.start({ routine_id: or.id, things_ids: [(await makeDevice(t, b)).id], dry_run: range });
    await other.finished(orun.id);
    expect(await status(`a=${ra.id}&b=${orun.id}`)).toBe(404);
    // A sub-user: the key, and read access to both devices.
    const none = await makeSubUser(t, m, [], [{ thingsId: d.id, access: 'read' }]);
    expect(await status(`a=${ra.id}&b=${rb.id}`, testApi(t, m, none.auth))).toBe(403);
    const reader = await makeSubUser(t, m, ['test-mgmt:run:query'], [{ thingsId: d.id, access: 'read' }]);
    expect(await status(`a=${ra.id}&b=${rb.id}`, testApi(t, m, reader.auth))).toBe(200);
    const [elsewhere] = await api.start({ routine_id: r.id, things_ids: [(await makeDevice(t, m)).id], dry_run: range });
    await api.finished(elsewhere.id);
    expect(await status(`a=${ra.id}&b=${elsewhere.id}`, testApi(t, m, reader.auth))).toBe(404);
  });
});

describe('tenants, permissions and quota', () => {
  it("keeps each tenant's scripts and routines to itself", async () => {
    const mine = await testApi(t, a).script('private to a', 'log(1)');
    const other = testApi(t, b);
    expect((await other.call('GET', `/scripts/${mine.id}`)).statusCode).toBe(404);
    expect((await other.call('PUT', `/scripts/${mine.id}`, { name: 'taken', content: '' })).statusCode).toBe(404);
    expect((await other.call('DELETE', `/scripts/${mine.id}`)).statusCode).toBe(404);
    expect((await other.call('GET', '/scripts')).json().list.map((s: { id: string }) => s.id)).not.toContain(mine.id);
    // b's token on a's paths
    const cross = await t.app.inject({ method: 'GET', url: `${testApi(t, a).base}/scripts`, headers: { authorization: b.auth } });
    expect(cross.statusCode).toBe(403);
    // a routine cannot name another tenant's script
    const r = await other.call('POST', '/routines', { name: 'steal', steps: [collect()], script_id: mine.id });
    expect(r.statusCode).toBe(400);
  });

  it('checks the permission keys of sub-users', async () => {
    const none = await makeSubUser(t, a, []);
    expect((await testApi(t, a, none.auth).call('GET', '/scripts')).statusCode).toBe(403);
    const reader = await makeSubUser(t, a, ['test-mgmt:script:query', 'test-mgmt:routine:query']);
    const ra = testApi(t, a, reader.auth);
    expect((await ra.call('GET', '/scripts')).statusCode).toBe(200);
    expect((await ra.call('POST', '/scripts', { name: 'nope', content: '' })).statusCode).toBe(403);
    expect((await ra.call('POST', '/scripts/validate', { content: 'log(1)' })).statusCode).toBe(403);
    expect(
      (await ra.call('POST', '/routines', { name: 'nope', steps: [collect()], script_id: '3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b' }))
        .statusCode,
    ).toBe(403);
    const writer = await makeSubUser(t, a, ['test-mgmt:script:create', 'test-mgmt:script:validate']);
    const wa = testApi(t, a, writer.auth);
    expect((await wa.call('POST', '/scripts', { name: 'by a sub-user', content: 'log(1)' })).statusCode).toBe(200);
    expect((await wa.call('POST', '/scripts/validate', { content: 'log(1)' })).json().valid).toBe(true);
  });

  it('opens the Tests menu to a sub-user given its keys by the manager, and refuses it without them', async () => {
    const m = await makeTenant(t);
    const api = testApi(t, m);
    const script = await api.script('for the menu', 'log(1)');
    const routine = await api.routine({ name: 'menu routine', steps: [collect()], script_id: script.id });
    const d = await makeDevice(t, m);
    const [run] = await api.start({
      routine_id: routine.id,
      things_ids: [d.id],
      dry_run: { begin_time: Date.now() - 60_000, end_time: Date.now() },
    });
    expect((await api.finished(run.id)).state).toBe('analyzed');

    // The manager binds the menu and the device, but no keys yet.
    const users = `/v1/tenant/tenants/${m.tenantId}/users`;
    const manager = (method: 'POST' | 'PUT', url: string, payload: object) =>
      t.app.inject({ method, url, headers: { authorization: m.auth }, payload });
    const password = 'Menu-Pass-1234';
    const created = await manager('POST', users, {
      username: `tester${Date.now() % 100_000}`,
      mobile: mobile(),
      password,
      menus: ['test'],
      devices: [{ things_id: d.id, access: 'read' }],
    });
    expect(created.statusCode, created.body).toBe(201);
    const sub = created.json() as { id: string; login_name: string };
    const reads = [
      '/scripts',
      `/scripts/${script.id}`,
      '/routines',
      `/routines/${routine.id}`,
      '/runs',
      `/runs/${run.id}`,
      `/runs/${run.id}/report`,
    ];
    const statuses = async (auth: string) => Promise.all(reads.map(async (p) => (await testApi(t, m, auth).call('GET', p)).statusCode));
    const before = await login(t.app, sub.login_name, password);
    expect(await statuses(before)).toEqual(reads.map(() => 403));

    // The menu's keys, as the console adds them when the menu is bound.
    const granted = await manager('PUT', `${users}/${sub.id}`, { grants: [...(MENU_GRANTS.test ?? [])] });
    expect(granted.statusCode, granted.body).toBe(200);
    const auth = await login(t.app, sub.login_name, password);
    expect(await statuses(auth)).toEqual(reads.map(() => 200));
    const privileges = (await t.app.inject({ method: 'GET', url: '/v1/control/privileges/self', headers: { authorization: auth } })).json();
    expect(privileges.menus).toContain('test');
    const sa = testApi(t, m, auth);
    expect((await sa.call('GET', '/runs')).json().list.map((r: { id: string }) => r.id)).toContain(run.id);
    expect((await sa.call('GET', '/scripts')).json().list.map((s: { id: string }) => s.id)).toContain(script.id);
    // The menu reads; writing and starting stay keys of their own.
    expect((await sa.call('POST', '/scripts', { name: 'not mine to write', content: 'log(1)' })).statusCode).toBe(403);
    expect(
      (await sa.call('POST', '/runs', { routine_id: routine.id, things_ids: [d.id], dry_run: { begin_time: 0, end_time: 1000 } }))
        .statusCode,
    ).toBe(403);
  });

  it("bounds a tenant's analysis scripts by its package's data_analysis", async () => {
    const c = await makeTenant(t);
    await t.database.raw.query('update tenant_packages set data_analysis = 2 where tenant_id = $1', [c.tenantId]);
    const api = testApi(t, c);
    await api.script('one', 'log(1)');
    await api.script('two', 'log(2)');
    const third = await api.call('POST', '/scripts', { name: 'three', content: 'log(3)' });
    expect(third.statusCode).toBe(403);
    expect(third.json()).toMatchObject({ code: 'quota.limit-reached', details: { resource: 'data_analysis', limit: 2, current: 2 } });
  });

  it('refuses a dry run on a device the sub-user may not read', async () => {
    const api = testApi(t, a);
    const s = await api.script('for permissions', 'log(1)');
    const r = await api.routine({ name: 'perm routine', steps: [collect()], script_id: s.id });
    const d = await makeDevice(t, a);
    const sub = await makeSubUser(t, a, ['test-mgmt:run:execute', 'test-mgmt:run:query']);
    const res = await testApi(t, a, sub.auth).call('POST', '/runs', {
      routine_id: r.id,
      things_ids: [d.id],
      dry_run: { begin_time: Date.now() - 60_000, end_time: Date.now() },
    });
    expect(res.statusCode).toBe(404);
  });
});

describe('settings', () => {
  it('has the documented GROOVY_* defaults and refuses a wrong value naming the variable', () => {
    expect(loadConfig({}, '/srv').groovy).toEqual({
      workers: 2,
      heapMb: 256,
      cpuSeconds: 20,
      wallSeconds: 60,
      outputKb: 1024,
      maxFrames: 200_000,
      warm: true,
      sandbox: 'bwrap',
      sandboxUid: 64930,
    });
    expect(loadConfig({ GROOVY_WORKERS: '0', GROOVY_WARM: 'off' }, '/srv').groovy).toMatchObject({ workers: 0, warm: false });
    expect(() => loadConfig({ GROOVY_HEAP_MB: 'lots' }, '/srv')).toThrow(/^GROOVY_HEAP_MB: /);
    // The containment is on unless switched off by name; anything else is a mistake, not "off".
    expect(loadConfig({ GROOVY_SANDBOX: 'off', GROOVY_SANDBOX_UID: '65000' }, '/srv').groovy).toMatchObject({
      sandbox: 'off',
      sandboxUid: 65000,
    });
    expect(() => loadConfig({ GROOVY_SANDBOX: 'false' }, '/srv')).toThrow(/^GROOVY_SANDBOX: expected bwrap or off/);
  });
});

describe('without Groovy', () => {
  it('finds no runtime where there is no Java or Groovy, and says why', () => {
    expect(locateGroovy({ PATH: '/nonexistent' })).toEqual({ reason: 'Java is not installed' });
    expect(locateGroovy({ PATH: '/usr/bin:/bin', GROOVY_HOME: '/nonexistent' })).toEqual({ reason: 'no Groovy jars in /nonexistent/lib' });
  });

  it('still serves: the runtime says how to enable it, validation and runs are refused with a clear code', async () => {
    const off = await createTestApp({ groovy: { ...testConfig().groovy, workers: 0 } });
    try {
      const c = await makeTenant(off);
      const api = testApi(off, c);
      const status = await off.app.inject({ method: 'GET', url: '/v1/test-mgmt/runtime', headers: { authorization: c.auth } });
      expect(status.json()).toMatchObject({
        state: 'unavailable',
        enable_command: 'apt-get install -y groovy',
        reason: expect.any(String),
      });
      const v = await api.call('POST', '/scripts/validate', { content: 'log(1)' });
      expect(v.statusCode).toBe(503);
      expect(v.json()).toMatchObject({ code: 'test.runtime-unavailable', message: expect.stringContaining('apt-get install -y groovy') });
      // Scripts and routines can still be written; runs cannot start.
      const s = await api.script('offline', 'log(1)');
      const r = await api.routine({ name: 'offline routine', steps: [collect()], script_id: s.id });
      const d = await makeDevice(off, c);
      const run = await api.call('POST', '/runs', { routine_id: r.id, things_ids: [d.id], dry_run: { begin_time: 0, end_time: 1000 } });
      expect(run.statusCode).toBe(503);
      expect(run.json()).toMatchObject({ code: 'test.runtime-unavailable' });
    } finally {
      await off.close();
    }
  });
});
