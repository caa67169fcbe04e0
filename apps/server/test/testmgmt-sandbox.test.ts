import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testConfig } from './helper.ts';
import { poll } from './poll.ts';
import { bind, ingestFrames, rampFrame, testDbc } from './signals.fixtures.ts';
import { testApi } from './testmgmt.helpers.ts';
import { makeDevice, makeTenant, type TenantFixture } from './things.fixtures.ts';

/**
 * Scripts that try to get out of the sandbox or past its limits: each run ends as "error" with the
 * reason, a worker that broke a limit is replaced, and the server and the other runs go on unharmed.
 * Dry runs over a few stored frames keep it quick.
 */

/** A heap size no other test file uses, so this file's worker JVMs can be told apart in `ps`. */
const HEAP_MB = 131;

let t: TestApp;
let a: TenantFixture;
let thingsId: string;
const range = { begin_time: 0, end_time: 0 };

beforeAll(async () => {
  t = await createTestApp({
    groovy: { ...testConfig().groovy, workers: 2, heapMb: HEAP_MB, cpuSeconds: 3, wallSeconds: 10, outputKb: 64 },
  });
  a = await makeTenant(t);
  // Many scripts here: past the package's default of 10 (data_analysis).
  await t.database.raw.query('update tenant_packages set data_analysis = null where tenant_id = $1', [a.tenantId]);
  const d = await makeDevice(t, a);
  thingsId = d.id;
  await bind(t, a, thingsId, 0, { dbc_id: await testDbc(t, a) });
  const t0 = Date.now() - 10_000;
  await ingestFrames(
    t,
    a.tenantId,
    thingsId,
    [1, 2, 3, 4, 5].map((raw, i) => rampFrame((t0 + i * 100) * 1000, raw)),
    1,
  );
  range.begin_time = t0 - 1000;
  range.end_time = t0 + 1000;
});
afterAll(async () => {
  await t?.close();
});

/** Process ids of this file's worker JVMs. */
/** This process's Groovy worker JVMs (not another test run's on the same machine): the descendants of this process running the worker. */
function workerPids(): number[] {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .filter((f) => f.length >= 3)
    .map(([pid, ppid, ...args]) => ({ pid: Number(pid), ppid: Number(ppid), args: args.join(' ') }));
  const parent = new Map(rows.map((r) => [r.pid, r.ppid]));
  const ours = (pid: number) => {
    for (let p = parent.get(pid), hops = 0; p !== undefined && p > 1 && hops < 16; p = parent.get(p), hops++) {
      if (p === process.pid) return true;
    }
    return false;
  };
  // The JVM itself, not the bubblewrap processes around it (their command lines hold the JVM's too).
  const jvm = (args: string) => args.includes('worker.groovy') && args.includes(`-Xmx${HEAP_MB}m`) && !args.includes('--die-with-parent');
  return rows.filter((r) => jvm(r.args) && ours(r.pid)).map((r) => r.pid);
}

let n = 0;
/** Starts a dry run of `content` over the stored frames; returns the run id. */
async function dryRun(content: string): Promise<string> {
  const api = testApi(t, a);
  const s = await api.script(`script ${++n}`, content);
  const r = await api.routine({ name: `routine ${n}`, steps: [{ type: 'collect', seconds: 1, signals: ['Value'] }], script_id: s.id });
  const [run] = await api.start({ routine_id: r.id, things_ids: [thingsId], dry_run: range });
  return run.id;
}

const HEALTHY = "def v = signal('Value').values\nmetric('sum', v.sum())\ncheck('five samples', v.size() == 5)";

async function expectHealthy() {
  const api = testApi(t, a);
  expect((await t.app.inject({ method: 'GET', url: '/v1/health' })).statusCode).toBe(200);
  const id = await dryRun(HEALTHY);
  const done = await api.finished(id);
  expect(done).toMatchObject({ state: 'analyzed', verdict: 'pass' });
  // RAMP raw 1..5 → physical raw × 0.5 − 10
  expect((await api.report(id)).metrics).toEqual([
    { name: 'sum', value: [1, 2, 3, 4, 5].reduce((s, r) => s + (r * 0.5 - 10), 0), unit: null },
  ]);
}

describe('escapes refused at compile time, with the line', () => {
  it.each([
    ['a file read', "log('start')\nlog(new File('/etc/passwd').text)", 2, /java\.io\.File is not allowed/],
    ['System.exit', 'System.exit(0)', 1, /java\.lang\.System is not allowed/],
    ['Runtime.exec', "Runtime.getRuntime().exec('id')", 1, /java\.lang\.Runtime is not allowed/],
    ['a process from a string', "def cmd = 'id'\ncmd.execute()", 2, /method 'execute' is not allowed/],
    ['a thread', 'Thread.start { }', 1, /java\.lang\.Thread is not allowed/],
    ['a URL', "log('http://127.0.0.1:1/'.toURL().text)", 1, /method 'toURL' is not allowed/],
    ['reflection', "log(''.getClass().forName('java.io.File'))", 1, /method 'getClass' is not allowed/],
    [
      'compile-time code (an AST transformation)',
      '@groovy.transform.ASTTest(value = { System.exit(1) })\ndef x = 1',
      1,
      /annotations are not allowed/,
    ],
    ['a Grape download', "@Grab('org.example:evil:1.0')\nimport org.example.Evil\nlog(1)", 1, /annotations are not allowed/],
  ])('%s', async (_what, content, line, message) => {
    const api = testApi(t, a);
    const id = await dryRun(content);
    const done = await api.finished(id);
    expect(done).toMatchObject({ state: 'analyzed', verdict: 'error', reason_code: 'test.script-rejected' });
    const report = await api.report(id);
    expect(report.error).toMatchObject({ kind: 'compile', line });
    expect(report.error?.message).toMatch(message);
  });
});

describe('escapes refused at run time', () => {
  it('refuses what dynamic names reach past the compile-time checks (the run-time guard)', async () => {
    const api = testApi(t, a);
    // 'class' and 'protectionDomain' built at run time: the compiler cannot see them.
    const id = await dryRun("def c = 'cla' + 'ss'\ndef pd = 'protection' + 'Domain'\nlog(this[c][pd])");
    const done = await api.finished(id);
    expect(done).toMatchObject({ state: 'analyzed', verdict: 'error', reason_code: 'test.script-rejected' });
    const report = await api.report(id);
    expect(report.error).toMatchObject({ kind: 'forbidden', line: 3 });
    expect(report.error?.message).toMatch(/property 'class' is not allowed/);
  });
});

describe('limits', () => {
  it('ends an endless loop at the CPU or wall limit, replaces its worker, and other runs go on meanwhile', async () => {
    const api = testApi(t, a);
    await api.call('POST', '/scripts/validate', { content: 'log(1)' });
    await expectHealthy();
    const before = workerPids();
    expect(before).toHaveLength(2);
    const loop = await dryRun('long i = 0\nwhile (true) { i++ }');
    // While the loop spins in one worker (for at least its 3 s of CPU), the other analyses.
    await api.until(loop, (r) => r.state === 'analyzing');
    await expectHealthy();
    expect((await api.run(loop)).state).toBe('analyzing');
    const done = await api.finished(loop);
    expect(done).toMatchObject({ state: 'analyzed', verdict: 'error' });
    expect(['test.limit-cpu', 'test.limit-wall']).toContain(done.reason_code);
    expect((await api.report(loop)).error?.kind).toMatch(/^(cpu|wall)$/);
    const after = await poll(workerPids, (p) => p.length === 2 && p.some((x) => !before.includes(x)), {
      ms: 30_000,
      every: 200,
      what: `two workers, one not in ${before}`,
    });
    expect(after.filter((p) => !before.includes(p))).toHaveLength(1);
    await expectHealthy();
  });

  it('ends a 1 GB allocation at the heap cap and replaces the worker', async () => {
    const api = testApi(t, a);
    const before = workerPids();
    const id = await dryRun('def big = new byte[1024 * 1024 * 1024]\nlog(big.length)');
    const done = await api.finished(id);
    expect(done).toMatchObject({ state: 'analyzed', verdict: 'error', reason_code: 'test.limit-memory' });
    expect((await api.report(id)).error).toMatchObject({ kind: 'memory', line: 1 });
    await poll(workerPids, (p) => p.length === 2 && p.some((x) => !before.includes(x)), {
      ms: 30_000,
      every: 200,
      what: `two workers, one not in ${before}`,
    });
    await expectHealthy();
  });

  it('ends a script that writes more than the output cap', async () => {
    const api = testApi(t, a);
    const id = await dryRun("def s = 'x' * 10000\nfor (i in 1..100) log(s)");
    const done = await api.finished(id);
    expect(done).toMatchObject({ state: 'analyzed', verdict: 'error', reason_code: 'test.limit-output' });
    await expectHealthy();
  });

  it('reports a script that throws, with its line, and keeps what it reported before', async () => {
    const api = testApi(t, a);
    const id = await dryRun("metric('before', 1)\nlog('about to fail')\nsignal('NoSuchSignal')");
    const done = await api.finished(id);
    expect(done).toMatchObject({ state: 'analyzed', verdict: 'error', reason_code: 'test.script-error' });
    const report = await api.report(id);
    expect(report.error).toMatchObject({ kind: 'script', line: 3 });
    expect(report.error?.message).toMatch(/no signal 'NoSuchSignal' was collected \(collected: RAMP\.Value\)/);
    expect(report.metrics).toEqual([{ name: 'before', value: 1, unit: null }]);
    expect(report.log).toContain('about to fail');
  });
});
