import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  containedCommand,
  GroovyRuntime,
  type Installation,
  type Isolation,
  locateGroovy,
  locateIsolation,
} from '../src/modules/testmgmt/runtime/groovy-runtime.ts';
import { createTestApp, type TestApp, testConfig } from './helper.ts';
import { bind, ingestFrames, rampFrame, testDbc } from './signals.fixtures.ts';
import { testApi } from './testmgmt.helpers.ts';
import { makeDevice, makeTenant, type TenantFixture } from './things.fixtures.ts';

/**
 * Analysis scripts are contained twice over (decision 0200): the worker JVM runs inside bubblewrap
 * (its own user, no environment, no network, no view of the server's files or processes), and the
 * script itself is rewritten so that every call, property and subscript is checked against an
 * allow-list as it happens. The corpus below tries each known way out through the API and must end
 * refused or harmless; the last block runs arbitrary code in a contained JVM on purpose (no language
 * layer at all) and shows what the operating system still keeps from it.
 */

/** A value only the server's environment holds: it must never reach a script or a report. */
const MARKER = `lh-escape-${randomBytes(8).toString('hex')}`;
process.env.LH_ESCAPE_MARKER = MARKER;

let t: TestApp;
let a: TenantFixture;
let thingsId: string;
const range = { begin_time: 0, end_time: 0 };

beforeAll(async () => {
  t = await createTestApp({
    groovy: { ...testConfig().groovy, workers: 2, heapMb: 133, cpuSeconds: 5, wallSeconds: 15, outputKb: 64 },
  });
  a = await makeTenant(t);
  await t.database.raw.query('update tenant_packages set data_analysis = null where tenant_id = $1', [a.tenantId]);
  const d = await makeDevice(t, a);
  thingsId = d.id;
  await bind(t, a, thingsId, 0, { dbc_id: await testDbc(t, a) });
  const t0 = Date.now() - 10_000;
  await ingestFrames(
    t,
    a.tenantId,
    thingsId,
    [1, 2, 3].map((raw, i) => rampFrame((t0 + i * 100) * 1000, raw)),
    1,
  );
  range.begin_time = t0 - 1000;
  range.end_time = t0 + 1000;
});
afterAll(async () => {
  await t?.close();
});

let n = 0;
async function dryRun(content: string) {
  const api = testApi(t, a);
  const s = await api.script(`escape ${++n}`, content);
  const r = await api.routine({
    name: `escape routine ${n}`,
    steps: [{ type: 'collect', seconds: 1, signals: ['Value'] }],
    script_id: s.id,
  });
  const [run] = await api.start({ routine_id: r.id, things_ids: [thingsId], dry_run: range });
  const done = await api.finished(run.id);
  return { done, report: await api.report(run.id) };
}

/**
 * How an attempt must end: `compile` refused before it runs, `forbidden` refused by the run-time
 * guard as it happens, `script` an ordinary script error (the attempt found nothing to reach).
 */
type Ending = 'compile' | 'forbidden' | 'script';

const CORPUS: [string, string, Ending, RegExp][] = [
  // names built at run time
  ['a subscript with a name built at run time', "def n = 'cla' + 'ss'\nlog(this[n])", 'forbidden', /property 'class' is not allowed/],
  ['a GString subscript on a number', `def p = 'cla'\nlog(1["\${p}ss"])`, 'forbidden', /property 'class' is not allowed/],
  ['a subscript reaching a class loader', "def n = 'class' + 'Loader'\nlog(Integer[n])", 'forbidden', /property 'classLoader'/],
  ['a subscript of the binding', "def n = 'bind' + 'ing'\nlog(this[n])", 'forbidden', /property 'binding' is not allowed/],
  ['a subscript of the worker-side context', "def n = '__' + 'lh'\nlog(this[n])", 'forbidden', /property '__lh' is not allowed/],
  ['a spread subscript', "def n = 'cla' + 'ss'\nlog(frames*.getAt(n))", 'forbidden', /property 'class' is not allowed/],
  ['a GString property name', 'def n = \'class\'\nlog(frames."$n")', 'compile', /dynamic property names are not allowed/],
  ['a GString method name', "def m = 'exe' + 'cute'\nlog('id'.\"$m\"())", 'compile', /dynamic method names are not allowed/],
  ['getProperty', "log(this.getProperty('binding'))", 'compile', /method 'getProperty' is not allowed/],
  ['getProperty by a subscript', "def m = 'getProp' + 'erty'\nlog(this[m])", 'script', /MissingPropertyException: no property getProperty/],
  ['invokeMethod', "log(1.invokeMethod('getClass', null))", 'compile', /method 'invokeMethod' is not allowed/],
  ['a subscript write of a meta-class', "def n = 'meta' + 'Class'\nString[n] = null", 'forbidden', /property 'metaClass' is not allowed/],
  ['a subscript write on a list', "def l = []\ndef n = 'meta' + 'Class'\nl[n] = null", 'forbidden', /property 'metaClass' is not allowed/],
  // meta-classes of JDK classes
  ['metaClass of String', "String.metaClass.toString = { -> 'x' }", 'compile', /property 'metaClass' is not allowed/],
  [
    'a method placed in an exception class by a run-time name',
    "def n = 'meta' + 'Class'\nRuntimeException[n].getMessage = { -> 'x' }\nthrow new RuntimeException('y')",
    'forbidden',
    /property 'metaClass' is not allowed/,
  ],
  // Class, forName, class loaders
  ['Class.forName', "log(Class.forName('java.io.File'))", 'compile', /java\.lang\.Class is not allowed/],
  ['forName through an allowed class', "def c = Integer\nlog(c.forName('java.io.File'))", 'compile', /method 'forName' is not allowed/],
  [
    'a Class object from an exception',
    'try { 1.nope() } catch (Exception e) {\n  log(e.type.getName())\n}',
    'forbidden',
    /java\.lang\.Integer\.getName is not allowed/,
  ],
  [
    'a class loader from a closure',
    "def c = { }\ndef n = 'class' + 'Loader'\nlog(c[n])",
    'forbidden',
    /property 'classLoader' is not allowed/,
  ],
  ['a stack frame', 'def f = new Exception().stackTrace[0]\nlog(f.className)', 'forbidden', /java\.lang\.StackTraceElement/],
  // method closures, Eval, GroovyShell
  ['a method closure', 'def f = this.&log\nf(1)', 'compile', /method pointers \(\.&\) are not allowed/],
  ['a method closure of execute', "def f = 'id'.&execute\nf()", 'compile', /method pointers/],
  ['Eval', "log(Eval.me('1'))", 'compile', /groovy\.util\.Eval is not allowed/],
  ['GroovyShell', "log(new GroovyShell().evaluate('1'))", 'compile', /groovy\.lang\.GroovyShell is not allowed/],
  ['evaluate', "log(evaluate('1 + 1'))", 'compile', /method 'evaluate' is not allowed/],
  ['a closure given another delegate', "log([1].with { getAt('class') })", 'compile', /method 'with' is not allowed/],
  // Grape and AST transformations
  ['@Grab', "@Grab('org.example:evil:1.0')\nimport org.example.Evil\nlog(1)", 'compile', /annotations are not allowed/],
  ['an AST transformation', '@groovy.transform.ASTTest(value = { System.exit(1) })\ndef x = 1', 'compile', /annotations are not allowed/],
  // threads, processes, exit
  ['Thread', 'Thread.start { }', 'compile', /java\.lang\.Thread is not allowed/],
  ['Runtime', "Runtime.getRuntime().exec('id')", 'compile', /java\.lang\.Runtime is not allowed/],
  ['ProcessBuilder', "new ProcessBuilder('id').start()", 'compile', /java\.lang\.ProcessBuilder is not allowed/],
  ['String.execute', "log('id'.execute().text)", 'compile', /method 'execute' is not allowed/],
  ['System.exit', 'System.exit(0)', 'compile', /java\.lang\.System is not allowed/],
  [
    'a static member of an allowed class that is not there',
    "def n = 'run' + 'time'\nlog(Math[n])",
    'forbidden',
    /java\.lang\.Math\.runtime is not allowed/,
  ],
  // objects whose methods the worker would call
  [
    'a closure made into an exception',
    "throw ({ -> 'x' } as RuntimeException)",
    'forbidden',
    /turning a closure or map into java\.lang\.RuntimeException/,
  ],
  ['a map made into an exception', "throw ([getMessage: { -> 'x' }] as RuntimeException)", 'forbidden', /turning a closure or map/],
  ['a thrown string', "throw 'text'", 'script', /ClassCastException/],
];

describe('the escape corpus: each attempt is refused or harmless', () => {
  it.each(CORPUS)('%s', async (_what, content, ending, message) => {
    const { done, report } = await dryRun(content);
    expect(done).toMatchObject({ state: 'analyzed', verdict: 'error' });
    expect(done.reason_code).toBe(ending === 'script' ? 'test.script-error' : 'test.script-rejected');
    expect(report.error?.kind).toBe(ending);
    expect(report.error?.message).toMatch(message);
    // nothing of the server's came back
    const all = `${report.error?.message ?? ''}\n${report.log}`;
    expect(all).not.toContain(MARKER);
    expect(all).not.toMatch(/root:x:0:0|SECRETS_KEY|DATABASE_URL/);
  });

  it('tells a failure without calling an object the script made (its toString would run the script)', async () => {
    const { done, report } = await dryRun("def x = [toString: { -> 'FROM-THE-SCRIPT' }] as Comparable\n1.nope(x)");
    expect(done).toMatchObject({ state: 'analyzed', verdict: 'error' });
    // Refused where the JVM's security manager forbids the proxy; else the missing method, named by classes only.
    if (report.error?.kind === 'script')
      expect(report.error.message).toMatch(/^MissingMethodException: no method nope\(\S*Proxy\S*\) of java\.lang\.Integer$/);
    else expect(report.error?.kind).toBe('forbidden');
    expect(report.error?.message).not.toContain('FROM-THE-SCRIPT');
    expect(report.log).not.toContain('FROM-THE-SCRIPT');
  });

  it('still runs ordinary scripts: calls, properties, subscripts, operators and closures', async () => {
    const script = [
      "def s = signal('Value')",
      'def m = [:]',
      'for (f in frames) { m[f.id] = (m[f.id] ?: 0) + 1 }',
      'm[frames[0].id] += 10',
      'def l = [3, 1, 2]',
      'l[0]++',
      'def twice = { x -> x * 2 }',
      'def inc(x) { x + 1 }',
      "metric('frames', frames.size())",
      "metric('per id', m[frames[0].id])",
      "metric('max', Math.max(s.max(), Integer.MIN_VALUE))",
      "metric('calls', inc(twice(l[0])))",
      "check('sorted', l.sort() == [1, 2, 4])",
      'log(frames*.id.unique())',
      "log(String.format('%.1f', s.values.sum()))",
    ].join('\n');
    const { done, report } = await dryRun(script);
    expect(done).toMatchObject({ state: 'analyzed', verdict: 'pass' });
    // RAMP raw 1..3 → physical raw × 0.5 − 10: −9.5, −9, −8.5
    expect(report.metrics).toEqual([
      { name: 'frames', value: 3, unit: null },
      { name: 'per id', value: 13, unit: null },
      { name: 'max', value: -8.5, unit: null },
      { name: 'calls', value: 9, unit: null },
    ]);
    expect(report.checks).toEqual([{ name: 'sorted', passed: true }]);
    expect(report.log).toContain('-27.0');
  });
});

describe('the operating system contains the worker JVM', () => {
  const inst = locateGroovy() as Installation;
  const iso = locateIsolation() as Isolation;
  let dir: string;
  let secretFile: string;
  let listener: net.Server;
  let port: number;

  beforeAll(async () => {
    expect('reason' in inst, 'Java and Groovy are installed').toBe(false);
    expect('reason' in iso, 'bubblewrap is installed').toBe(false);
    // A stand-in for the server's DATA_DIR: a file only the server should read.
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lh-escape-'));
    secretFile = path.join(dir, 'secret.txt');
    fs.writeFileSync(secretFile, MARKER);
    // A socket the server's host offers on loopback.
    listener = net.createServer((c) => c.end('hello'));
    await new Promise<void>((r) => listener.listen(0, '127.0.0.1', () => r()));
    port = (listener.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    await new Promise((r) => listener?.close(r));
  });

  // As root the worker drops to a user of its own (setpriv); as any other user, bubblewrap maps it to
  // nobody in a user namespace. Both ways are tried here (the second as if the server were not root).
  it.each([
    ['its own user (the server runs as root)', () => iso],
    ['a user namespace (the server runs as another user)', () => ({ ...iso, setpriv: null })],
  ])(
    'leaves code that runs in the worker JVM on purpose no file, environment, process or socket of the server: %s',
    async (_how, isolation) => {
      // Plain Groovy, no sandbox of the language: only the operating system stands in its way.
      const probe = path.join(dir, 'probe.groovy');
      fs.writeFileSync(
        probe,
        `import groovy.json.JsonOutput
def tries = [:]
def attempt = { String name, Closure c -> try { tries[name] = 'ok: ' + c() } catch (Throwable e) { tries[name] = 'refused: ' + e.class.name } }
attempt('secret') { new File(args[0]).text }
attempt('server code') { new File(args[1]).text.size() }
attempt('passwd') { new File('/etc/passwd').text }
attempt('server environ') { new File('/proc/' + args[2] + '/environ').text }
attempt('loopback socket') { def s = new Socket(); s.connect(new InetSocketAddress('127.0.0.1', args[3] as int), 2000); s.close(); 'connected' }
attempt('outside address') { def s = new Socket(); s.connect(new InetSocketAddress('192.0.2.1', 80), 2000); s.close(); 'connected' }
attempt('process') { ['/bin/sh', '-c', 'id'].execute().text }
attempt('write outside /tmp') { new File('/sandbox/x').text = 'x'; 'written' }
attempt('write in /tmp') { new File('/tmp/x').text = 'x'; 'written' }
def status = new File('/proc/self/status').readLines()
println JsonOutput.toJson([
  tries: tries,
  env: System.getenv(),
  uid: (status.find { it.startsWith('Uid:') } ?: '').split(/\\s+/)[1] as int,
  caps: (status.find { it.startsWith('CapEff:') } ?: '').split(/\\s+/)[1],
  pids: new File('/proc').list().findAll { it ==~ /\\d+/ }.collect { it as int },
  root: new File('/').list().sort(),
])
`,
      );
      const serverCode = path.resolve(import.meta.dirname, '../package.json');
      const c = containedCommand(
        inst,
        isolation(),
        { heapMb: 64, cpuSeconds: 60 },
        ['-Xmx64m', '-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', '-XX:CompressedClassSpaceSize=64m', '-XX:ReservedCodeCacheSize=48m'],
        probe,
        [secretFile, serverCode, String(process.pid), String(port)],
      );
      // Handed the server's whole environment: the sandbox must still start from an empty one.
      const child = spawn(c.command, c.args, { env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (err += d));
      const code = await new Promise<number | null>((r) => child.on('exit', r));
      expect(code, err).toBe(0);
      const seen = JSON.parse(out.trim().split('\n').pop() ?? '{}') as {
        tries: Record<string, string>;
        env: Record<string, string>;
        uid: number;
        caps: string;
        pids: number[];
        root: string[];
      };
      expect(seen.tries).toEqual({
        secret: 'refused: java.io.FileNotFoundException',
        'server code': 'refused: java.io.FileNotFoundException',
        passwd: 'refused: java.io.FileNotFoundException',
        'server environ': 'refused: java.io.FileNotFoundException',
        'loopback socket': 'refused: java.net.ConnectException',
        'outside address': expect.stringMatching(/^refused: java\.net\.(ConnectException|NoRouteToHostException|SocketException)$/),
        process: 'refused: java.io.IOException',
        'write outside /tmp': 'refused: java.io.FileNotFoundException',
        'write in /tmp': 'ok: written',
      });
      expect(Object.keys(seen.env).sort()).toEqual(['HOME', 'LANG', 'MALLOC_ARENA_MAX', 'PWD']);
      expect(JSON.stringify(seen.env)).not.toContain(MARKER);
      expect(seen.uid).not.toBe(0);
      expect(seen.uid).not.toBe(process.getuid?.());
      expect(seen.caps).toBe('0000000000000000');
      // A process namespace of its own: the sandbox's init and the JVM, none of the host's.
      expect(seen.pids.length).toBeLessThanOrEqual(4);
      expect(Math.max(...seen.pids)).toBeLessThan(10);
      expect(seen.root).toEqual(expect.arrayContaining(['sandbox', 'tmp', 'usr']));
      expect(seen.root).not.toContain('work');
      expect(seen.root).not.toContain('home');
      expect(seen.root).not.toContain('root');
    },
  );
});

describe('refusing to run scripts where the worker cannot be contained', () => {
  const log = { info: () => {}, warn: () => {} };
  const base = { workers: 1, heapMb: 64, cpuMs: 1000, wallMs: 2000, outputBytes: 1024, warm: false, maxFrames: 10, log };
  const inst = locateGroovy() as Installation;
  const home = (p: string) => path.dirname(path.dirname(p));
  // Java and Groovy found from their homes, and no bubblewrap on the PATH.
  const env = {
    PATH: fs.mkdtempSync(path.join(os.tmpdir(), 'lh-nobwrap-')),
    JAVA_HOME: home(inst.java),
    GROOVY_HOME: home(inst.classpath[0]),
  };

  it('says why and answers test.isolation-unavailable', async () => {
    const runtime = new GroovyRuntime({ ...base, env, sandbox: 'bwrap' });
    expect(runtime.available).toBe(false);
    expect(runtime.unavailableCode()).toBe('test.isolation-unavailable');
    expect(runtime.status()).toMatchObject({
      state: 'unavailable',
      reason: expect.stringMatching(/bubblewrap \(bwrap\) is not installed/),
      enable_command: 'apt-get install -y bubblewrap',
    });
    await expect(runtime.validate('log(1)')).rejects.toMatchObject({ unavailable: true, code: 'test.isolation-unavailable' });
    await runtime.close();
  });

  it('runs them uncontained only when the operator opts out (GROOVY_SANDBOX=off)', async () => {
    const runtime = new GroovyRuntime({ ...base, env, sandbox: 'off' });
    expect(runtime.available).toBe(true);
    expect(await runtime.validate('log(1)')).toEqual([]);
    await runtime.close();
  });
});
