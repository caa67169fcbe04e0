import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GROOVY_ENABLE_COMMAND, type ScriptProblem, type TestRuntime } from '@loggerhead/contract';

/**
 * The Groovy runtime of test management: a small pool of worker JVMs (`worker.groovy`), started by
 * the server and kept warm, speaking line-delimited JSON over stdin/stdout (the protocol is written
 * at the top of worker.groovy and in docs/test-management.md). User code runs only there.
 *
 * Java and Groovy are found from `JAVA_HOME` / `GROOVY_HOME`, else from `java` and `groovy` on the
 * PATH (Debian's `groovy` package). Without them the server still runs: `status()` says
 * `unavailable` with the command that installs them, and every request is refused.
 *
 * Each worker JVM runs contained by the operating system (`GROOVY_SANDBOX=bwrap`, the default):
 * bubblewrap gives it fresh mount, process, network, IPC and host-name namespaces in which only the
 * JVM, the two Groovy jars and the worker are visible (read-only) beside an empty scratch `/tmp`, an
 * empty environment, a user of its own and no capabilities, under process, memory, CPU, file-size and
 * open-file limits (`prlimit`). Where that cannot be had the runtime is unavailable with
 * `test.isolation-unavailable`, unless the operator opts out with `GROOVY_SANDBOX=off`
 * (docs/security.md, decision 0200).
 */

const WORKER = path.join(import.meta.dirname, 'worker.groovy');

export interface GroovyLimits {
  cpuMs: number;
  wallMs: number;
  outputBytes: number;
}

export interface GroovyRuntimeOptions extends GroovyLimits {
  /** Worker JVMs kept warm (0: no runtime). */
  workers: number;
  heapMb: number;
  /** Start the workers when the server starts (else on the first request). */
  warm: boolean;
  /** Frames one run may be given (checked by the caller; reported in the status). */
  maxFrames: number;
  /** How a worker is contained: `bwrap` (required unless opted out) or `off` (`GROOVY_SANDBOX`). */
  sandbox?: 'bwrap' | 'off';
  /** The host user a contained worker runs as when the server runs as root (`GROOVY_SANDBOX_UID`). */
  sandboxUid?: number;
  env?: NodeJS.ProcessEnv;
  log: { info: (o: object, m: string) => void; warn: (o: object, m: string) => void };
}

/** What a script reported: the report builder's content. */
export interface ScriptReport {
  metrics: { name: string; value: number | null; unit: string | null }[];
  tables: { name: string; columns: string[]; rows: unknown[][] }[];
  checks: { name: string; passed: boolean }[];
  charts: string[];
  log: string;
}

/** Why a run of a script failed: the worker's kinds, plus `worker` (the JVM died) and `cancelled`. */
export type ScriptFailureKind =
  | 'cpu'
  | 'wall'
  | 'memory'
  | 'output'
  | 'stack'
  | 'script'
  | 'forbidden'
  | 'compile'
  | 'worker'
  | 'cancelled';

export type ScriptOutcome =
  | { ok: true; report: ScriptReport }
  | { ok: false; error: { kind: ScriptFailureKind; message: string; line: number | null }; report: ScriptReport | null };

/** The input a script sees (worker.groovy `context`). */
export interface ScriptInput {
  start_us: number;
  frames: { ts: number[]; ch: number[]; id: number[]; fl: number[]; data: string[] };
  signals: { name: string; message: string; channel: number; unit: string; t: number[]; v: (number | null)[] }[];
  params: Record<string, unknown>;
  window: Record<string, unknown>;
}

export interface Installation {
  java: string;
  javaMajor: number;
  classpath: string[];
}

/** Finds Java and Groovy; a reason when either is missing. */
export function locateGroovy(env: NodeJS.ProcessEnv = process.env): Installation | { reason: string } {
  const java = env.JAVA_HOME ? path.join(env.JAVA_HOME, 'bin', 'java') : which('java', env);
  if (!java || !isExecutable(java)) return { reason: env.JAVA_HOME ? `no java in JAVA_HOME (${env.JAVA_HOME})` : 'Java is not installed' };
  const javaReal = fs.realpathSync(java);
  const groovyHome = env.GROOVY_HOME || groovyHomeOf(which('groovy', env));
  if (!groovyHome) return { reason: 'Groovy is not installed' };
  const lib = path.join(groovyHome, 'lib');
  const jars = fs.existsSync(lib) ? fs.readdirSync(lib) : [];
  const all = jars.find((f) => /^groovy-all(-\d[\w.-]*)?\.jar$/.test(f));
  const core = jars.find((f) => /^groovy-\d[\w.-]*\.jar$/.test(f)) ?? jars.find((f) => f === 'groovy.jar');
  const json = jars.find((f) => /^groovy-json(-\d[\w.-]*)?\.jar$/.test(f));
  const classpath = all ? [all] : core && json ? [core, json] : null;
  if (!classpath) return { reason: `no Groovy jars in ${lib}` };
  return { java: javaReal, javaMajor: javaMajorOf(javaReal), classpath: classpath.map((f) => path.join(lib, f)) };
}

function which(cmd: string, env: NodeJS.ProcessEnv): string | null {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const p = path.join(dir, cmd);
    if (isExecutable(p)) return p;
  }
  return null;
}

function isExecutable(p: string): boolean {
  try {
    fs.accessSync(p, fs.constants.X_OK);
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

/** `/usr/bin/groovy` → `/usr/share/groovy` (the launcher lives in `<home>/bin`). */
function groovyHomeOf(launcher: string | null): string | null {
  if (!launcher) return null;
  try {
    return path.dirname(path.dirname(fs.realpathSync(launcher)));
  } catch {
    return null;
  }
}

/** The Java feature version from the `release` file beside `bin/java` (0 when unknown). */
function javaMajorOf(java: string): number {
  try {
    const release = fs.readFileSync(path.join(path.dirname(path.dirname(java)), 'release'), 'utf8');
    const v = /JAVA_VERSION="(\d+)(?:\.(\d+))?/.exec(release);
    if (!v) return 0;
    return v[1] === '1' ? Number(v[2]) : Number(v[1]);
  } catch {
    return 0;
  }
}

// ── Containment by the operating system ─────────────────────────────────────────────────────────

/** The tools that contain a worker: bubblewrap, prlimit and (as root) setpriv, and the user to run as. */
export interface Isolation {
  bwrap: string;
  prlimit: string;
  /** Used when the server runs as root: the worker drops to `uid` (no user namespace is needed then). */
  setpriv: string | null;
  uid: number;
}

/** Limits of one contained JVM (each a process limit the kernel enforces, behind the worker's own). */
export interface ContainLimits {
  heapMb: number;
  /** CPU seconds of the whole JVM over its life (the worker limits each run itself, far below). */
  cpuSeconds: number;
}

/** What installs the containment (the status shows it when that is what is missing). */
export const SANDBOX_ENABLE_COMMAND = 'apt-get install -y bubblewrap';

/** The default host user of contained workers when the server runs as root: used by nothing else. */
export const SANDBOX_UID = 64930;

/** Finds bubblewrap and prlimit (setpriv as root); a reason when one is missing. */
export function locateIsolation(env: NodeJS.ProcessEnv = process.env, uid = SANDBOX_UID): Isolation | { reason: string } {
  const find = (cmd: string) => which(cmd, env);
  const bwrap = find('bwrap');
  if (!bwrap) return { reason: `bubblewrap (bwrap) is not installed: ${SANDBOX_ENABLE_COMMAND}` };
  const prlimit = find('prlimit');
  if (!prlimit) return { reason: 'prlimit is not installed: apt-get install -y util-linux' };
  const root = process.getuid?.() === 0;
  const setpriv = root ? find('setpriv') : null;
  if (root && !setpriv) return { reason: 'setpriv is not installed: apt-get install -y util-linux' };
  return { bwrap: fs.realpathSync(bwrap), prlimit: fs.realpathSync(prlimit), setpriv: setpriv && fs.realpathSync(setpriv), uid };
}

/** Where the program and the jars appear inside the sandbox. */
const INSIDE = '/sandbox';

/** Host files outside the JVM's home that its symbolic links point to (Debian: conf under /etc). */
function linkTargets(dir: string, out: Set<string>, depth = 0): void {
  if (depth > 6) return;
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isSymbolicLink()) {
      try {
        const real = fs.realpathSync(p);
        if (fs.statSync(real).isFile()) out.add(real);
      } catch {}
    } else if (e.isDirectory()) linkTargets(p, out, depth + 1);
  }
}

/** Directories the dynamic loader needs (libc, libz), as real paths (`/lib`, `/lib64` stay links to them). */
const LIBRARY_DIRS = [
  '/lib64',
  '/usr/lib64',
  '/lib/x86_64-linux-gnu',
  '/usr/lib/x86_64-linux-gnu',
  '/lib/aarch64-linux-gnu',
  '/usr/lib/aarch64-linux-gnu',
];

/** The directories above a bound path, readable by the worker's user (bubblewrap as root makes them 0700). */
function mkdirs(args: string[], dir: string, made: Set<string>): void {
  if (dir === '/' || made.has(dir)) return;
  mkdirs(args, path.dirname(dir), made);
  made.add(dir);
  args.push('--perms', '0755', '--dir', dir);
}

function libraryDirs(): string[] {
  const out = new Set<string>();
  for (const dir of LIBRARY_DIRS) {
    try {
      const real = fs.realpathSync(dir);
      if (fs.statSync(real).isDirectory()) out.add(real);
    } catch {}
  }
  return [...out];
}

/**
 * The command line that runs `java <javaArgs> -cp <jars> groovy.ui.GroovyMain <program>` contained:
 * what the worker runs as, and what a test runs through the same launcher to show what code inside
 * can reach. Only the JVM's home (and the files its links point to), the shared libraries, the two
 * jars and the program are visible, read-only; `/tmp` is an empty 64 MB scratch; no environment.
 */
export function containedCommand(
  inst: Installation,
  iso: Isolation,
  limits: ContainLimits,
  javaArgs: string[],
  program: string,
  programArgs: string[] = [],
): { command: string; args: string[] } {
  const root = iso.setpriv !== null;
  const home = path.dirname(path.dirname(inst.java));
  const args = ['--die-with-parent', '--new-session'];
  // As root, no user namespace (it would map the worker to root outside): setpriv drops to the
  // worker's own user below. Otherwise a user namespace maps it to nobody, without capabilities.
  if (root) args.push('--unshare-ipc', '--unshare-pid', '--unshare-net', '--unshare-uts', '--unshare-cgroup-try');
  else args.push('--unshare-all', '--unshare-user', '--uid', '65534', '--gid', '65534', '--disable-userns', '--cap-drop', 'ALL');
  const bound = new Set<string>();
  const made = new Set<string>();
  const bind = (from: string, to = from) => {
    if (bound.has(to)) return;
    bound.add(to);
    mkdirs(args, path.dirname(to), made);
    made.add(to);
    args.push('--ro-bind', from, to);
  };
  for (const top of ['/lib', '/lib64', '/bin']) {
    try {
      if (fs.lstatSync(top).isSymbolicLink()) args.push('--symlink', fs.readlinkSync(top), top);
    } catch {}
  }
  for (const dir of libraryDirs()) bind(dir);
  bind(home);
  const targets = new Set<string>();
  linkTargets(home, targets);
  for (const t of targets) if (!t.startsWith(`${home}/`)) bind(t);
  bind(iso.prlimit);
  if (iso.setpriv) bind(iso.setpriv);
  const jars = inst.classpath.map((jar, i) => {
    const inside = `${INSIDE}/lib/${i}-${path.basename(jar)}`;
    bind(fs.realpathSync(jar), inside);
    return inside;
  });
  const file = `${INSIDE}/${path.basename(program)}`;
  bind(fs.realpathSync(program), file);
  args.push(
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--perms',
    '1777',
    '--size',
    String(64 * 1024 * 1024),
    '--tmpfs',
    '/tmp',
    '--chdir',
    '/tmp',
    // The sandbox's own root (where the bound paths hang) read-only too: /tmp is the one writable place.
    '--remount-ro',
    '/',
  );
  // Two malloc arenas: glibc's default (64 MB of address space per thread's arena) would spend the
  // address-space limit below on reservations the JVM never uses.
  args.push('--hostname', 'analysis', '--clearenv');
  args.push('--setenv', 'HOME', '/tmp', '--setenv', 'LANG', 'C.UTF-8', '--setenv', 'MALLOC_ARENA_MAX', '2');
  args.push('--', iso.prlimit);
  // Address space: the heap plus what the JVM reserves beside it (metaspace, class space, code,
  // thread stacks, the libraries, malloc's arenas).
  args.push(
    `--as=${(limits.heapMb + 1536) * 1024 * 1024}`,
    `--cpu=${limits.cpuSeconds}`,
    `--fsize=${16 * 1024 * 1024}`,
    '--nofile=256',
    '--core=0',
    // Threads count as processes: the JVM's own (GC, compiler, …) and nothing a script may start.
    `--nproc=${root ? 512 : 4096}`,
    '--',
  );
  if (iso.setpriv)
    args.push(
      iso.setpriv,
      `--reuid=${iso.uid}`,
      `--regid=${iso.uid}`,
      '--clear-groups',
      '--inh-caps=-all',
      '--bounding-set=-all',
      '--no-new-privs',
      '--',
    );
  args.push(inst.java, ...javaArgs, '-cp', jars.join(':'), 'groovy.ui.GroovyMain', file, ...programArgs);
  return { command: iso.bwrap, args };
}

/** Runs a trivial program through the whole containment once: a reason when the host refuses it. */
function probeIsolation(iso: Isolation): string | null {
  const root = iso.setpriv !== null;
  const args = ['--die-with-parent'];
  if (root) args.push('--unshare-ipc', '--unshare-pid', '--unshare-net', '--unshare-uts', '--unshare-cgroup-try');
  else args.push('--unshare-all', '--unshare-user', '--uid', '65534', '--gid', '65534', '--disable-userns', '--cap-drop', 'ALL');
  for (const top of ['/lib', '/lib64']) {
    try {
      if (fs.lstatSync(top).isSymbolicLink()) args.push('--symlink', fs.readlinkSync(top), top);
    } catch {}
  }
  const made = new Set<string>();
  for (const dir of libraryDirs()) {
    mkdirs(args, path.dirname(dir), made);
    args.push('--ro-bind', dir, dir);
  }
  mkdirs(args, path.dirname(iso.prlimit), made);
  args.push('--ro-bind', iso.prlimit, iso.prlimit, '--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp', '--clearenv', '--');
  if (iso.setpriv) {
    args.splice(args.length - 1, 0, '--ro-bind', iso.setpriv, iso.setpriv);
    args.push(iso.setpriv, `--reuid=${iso.uid}`, `--regid=${iso.uid}`, '--clear-groups', '--no-new-privs', '--');
  }
  args.push(iso.prlimit, '--nproc=64', '--', iso.prlimit, '--version');
  const r = spawnSync(iso.bwrap, args, { encoding: 'utf8', timeout: 10_000, env: {} });
  if (r.status === 0) return null;
  const why = (r.stderr || r.error?.message || `exit ${r.status ?? r.signal}`).trim().split('\n').slice(-2).join(' | ');
  return `the analysis sandbox cannot be set up on this host (${why}); the host must allow bubblewrap's namespaces (docs/security.md), or set GROOVY_SANDBOX=off to run scripts without it`;
}

interface Pending {
  id: string;
  resolve: (m: Record<string, unknown>) => void;
  timer: NodeJS.Timeout;
}

/** One worker JVM. */
class Worker {
  readonly proc: ChildProcessWithoutNullStreams;
  state: 'starting' | 'idle' | 'busy' | 'dead' = 'starting';
  info: { groovy: string; java: string; guard: boolean } | null = null;
  pending: Pending | null = null;
  runs = 0;
  private buffer = '';
  private stderrTail = '';
  private readonly ready: Promise<boolean>;

  constructor(
    inst: Installation,
    iso: Isolation | null,
    opts: GroovyRuntimeOptions,
    private readonly maxLine: number,
    private readonly onExit: (w: Worker, why: string) => void,
  ) {
    const args = [
      `-Xmx${opts.heapMb}m`,
      `-Xms${Math.min(32, opts.heapMb)}m`,
      '-XX:MaxMetaspaceSize=160m',
      '-XX:CompressedClassSpaceSize=64m',
      '-XX:ReservedCodeCacheSize=48m',
      '-XX:+UseSerialGC',
      '-XX:TieredStopAtLevel=1',
      '-Xshare:auto',
      '-Dfile.encoding=UTF-8',
      '-Djava.awt.headless=true',
    ];
    // The run-time guard (a security manager): JDK 12-23 need it allowed on the command line; 24 has none.
    if (inst.javaMajor >= 12 && inst.javaMajor <= 23) args.push('-Djava.security.manager=allow');
    // An empty working directory and a bare environment: nothing of the server's is handed over.
    const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'lh-groovy-'));
    const env = { PATH: '/usr/bin:/bin', LANG: 'C.UTF-8', HOME: cwd };
    if (iso) {
      // Contained: the sandbox's own /tmp, environment and user (containedCommand).
      const lifeCpu = Math.ceil((opts.cpuMs / 1000) * RUNS_PER_WORKER) + 300;
      const c = containedCommand(inst, iso, { heapMb: opts.heapMb, cpuSeconds: lifeCpu }, args, WORKER);
      this.proc = spawn(c.command, c.args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    } else {
      args.push('-cp', inst.classpath.join(path.delimiter), 'groovy.ui.GroovyMain', WORKER);
      this.proc = spawn(inst.java, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    }
    this.proc.stdout.setEncoding('utf8');
    this.proc.stderr.setEncoding('utf8');
    let readyResolve: (ok: boolean) => void = () => {};
    this.ready = new Promise((r) => {
      readyResolve = r;
    });
    this.proc.stdout.on('data', (chunk: string) => {
      this.buffer += chunk;
      let nl = this.buffer.indexOf('\n');
      while (nl >= 0) {
        const line = this.buffer.slice(0, nl);
        this.buffer = this.buffer.slice(nl + 1);
        this.line(line, readyResolve);
        nl = this.buffer.indexOf('\n');
      }
      // A line past the cap: the worker is answering with more than any allowed output.
      if (this.buffer.length > this.maxLine) this.kill('output');
    });
    this.proc.stderr.on('data', (chunk: string) => {
      this.stderrTail = (this.stderrTail + chunk).slice(-4000);
    });
    this.proc.stdin.on('error', () => {});
    this.proc.on('exit', (code, signal) => {
      const was = this.state;
      this.state = 'dead';
      readyResolve(false);
      fs.rm(cwd, { recursive: true, force: true }, () => {});
      const why = this.killedFor ?? (/OutOfMemoryError/.test(this.stderrTail) ? 'memory' : 'worker');
      const p = this.pending;
      this.pending = null;
      if (p) {
        clearTimeout(p.timer);
        p.resolve({ t: 'exit', why, code, signal });
      }
      this.onExit(this, was === 'starting' ? `the worker did not start (exit ${code ?? signal}): ${this.lastStderr()}` : why);
    });
  }

  private killedFor: string | null = null;

  lastStderr(): string {
    return this.stderrTail
      .split('\n')
      .filter((l) => l.trim() && !l.startsWith('WARNING:'))
      .slice(-3)
      .join(' | ');
  }

  private line(line: string, readyResolve: (ok: boolean) => void) {
    let m: Record<string, unknown>;
    try {
      m = JSON.parse(line);
    } catch {
      return;
    }
    if (m.t === 'ready') {
      this.info = { groovy: String(m.groovy), java: String(m.java), guard: m.guard === true };
      this.state = 'idle';
      readyResolve(true);
      return;
    }
    const p = this.pending;
    if (p && m.id === p.id) {
      this.pending = null;
      clearTimeout(p.timer);
      p.resolve(m);
    }
  }

  whenReady(): Promise<boolean> {
    return this.ready;
  }

  /** Sends one request; resolves with the answer, or `{t: 'exit', why}` when the worker died or was killed. */
  request(msg: Record<string, unknown> & { id: string }, timeoutMs: number): Promise<Record<string, unknown>> {
    this.state = 'busy';
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.kill('wall'), timeoutMs);
      timer.unref();
      this.pending = { id: msg.id, resolve, timer };
      this.proc.stdin.write(`${JSON.stringify(msg)}\n`);
    });
  }

  kill(why: string) {
    if (this.state === 'dead') return;
    this.killedFor ??= why;
    this.proc.kill('SIGKILL');
  }
}

let seq = 0;

/** Scripts one worker runs before it is replaced. */
const RUNS_PER_WORKER = 500;

/** The pool. */
export class GroovyRuntime {
  private readonly inst: Installation | { reason: string };
  private readonly workers = new Set<Worker>();
  private readonly waiting: ((w: Worker | null) => void)[] = [];
  private readonly active = new Map<string, Worker>();
  private started = false;
  private closed = false;
  /** Workers that died before saying ready, in a row: past 3 the runtime is unavailable. */
  private failedStarts = 0;
  private failure: string | null = null;
  private lastInfo: Worker['info'] = null;
  /** The containment (null: opted out), found and tried once, when first needed. */
  private iso: Isolation | null | { reason: string } | undefined;

  constructor(private readonly opts: GroovyRuntimeOptions) {
    this.inst = opts.workers > 0 ? locateGroovy(opts.env) : { reason: 'the Groovy runtime is switched off (GROOVY_WORKERS=0)' };
    if ('reason' in this.inst)
      opts.log.info({ reason: this.inst.reason, enable: GROOVY_ENABLE_COMMAND }, 'test management: Groovy runtime unavailable');
  }

  get available(): boolean {
    return !('reason' in this.inst) && this.failure === null && !this.isolationProblem();
  }

  /** Why workers cannot be contained here (null: they can, or the operator opted out). */
  private isolationProblem(): string | null {
    if ('reason' in this.inst) return null;
    if (this.iso === undefined) {
      if (this.opts.sandbox === 'off') {
        this.iso = null;
        this.opts.log.warn({}, 'test management: GROOVY_SANDBOX=off, analysis scripts run without operating-system containment');
      } else {
        const found = locateIsolation(this.opts.env, this.opts.sandboxUid);
        const why = 'reason' in found ? found.reason : probeIsolation(found);
        this.iso = why ? { reason: why } : found;
        if (why) this.opts.log.warn({ reason: why }, 'test management: analysis scripts are refused');
      }
    }
    return this.iso && 'reason' in this.iso ? this.iso.reason : null;
  }

  /** Starts the pool (the server calls it when ready, with `warm`); requests start it too. */
  start(): void {
    if (this.started || this.closed || !this.available) return;
    this.started = true;
    for (let i = 0; i < this.opts.workers; i++) this.spawn();
  }

  private spawn(): void {
    if (this.closed || !this.available || 'reason' in this.inst) return;
    const iso = this.iso && !('reason' in this.iso) ? this.iso : null;
    const maxLine = this.opts.outputBytes * 4 + 64 * 1024 * 1024;
    const w = new Worker(this.inst, iso, this.opts, maxLine, (dead, why) => this.exited(dead, why));
    this.workers.add(w);
    void w.whenReady().then((ok) => {
      if (!ok) return;
      this.failedStarts = 0;
      this.lastInfo = w.info;
      if (w.info && !w.info.guard)
        this.opts.log.warn({}, 'test management: this JVM has no security manager; scripts are checked at compile time only');
      this.release(w);
    });
  }

  private exited(w: Worker, why: string): void {
    this.workers.delete(w);
    for (const [id, x] of this.active) if (x === w) this.active.delete(id);
    if (this.closed) return;
    if (why.startsWith('the worker did not start')) {
      this.failedStarts++;
      if (this.failedStarts >= 3) {
        this.failure = why;
        this.opts.log.warn({ why }, 'test management: Groovy workers do not start; runtime unavailable');
        for (const wait of this.waiting.splice(0)) wait(null);
        return;
      }
    }
    // A worker that broke a limit (or died) is replaced.
    this.spawn();
  }

  private release(w: Worker): void {
    if (w.state === 'dead') return;
    // A worker that ran many scripts is replaced (what the JVM kept of them is let go).
    if (w.runs >= RUNS_PER_WORKER) {
      w.kill('recycle');
      return;
    }
    w.state = 'idle';
    const next = this.waiting.shift();
    if (next) {
      w.state = 'busy';
      next(w);
    }
  }

  private acquire(signal?: AbortSignal): Promise<Worker | null> {
    if (!this.available) return Promise.resolve(null);
    this.start();
    for (const w of this.workers)
      if (w.state === 'idle') {
        w.state = 'busy';
        return Promise.resolve(w);
      }
    return new Promise((resolve) => {
      const take = (w: Worker | null) => {
        signal?.removeEventListener('abort', abort);
        resolve(w);
      };
      const abort = () => {
        const i = this.waiting.indexOf(take);
        if (i >= 0) this.waiting.splice(i, 1);
        resolve(null);
      };
      signal?.addEventListener('abort', abort, { once: true });
      this.waiting.push(take);
    });
  }

  /** The registered code of why the runtime refuses work (while `available` is false). */
  unavailableCode(): 'test.runtime-unavailable' | 'test.isolation-unavailable' {
    return this.isolationProblem() ? 'test.isolation-unavailable' : 'test.runtime-unavailable';
  }

  private unavailableError(): Error {
    const isolation = this.isolationProblem();
    if (isolation) return Object.assign(new Error(isolation), { unavailable: true, code: 'test.isolation-unavailable' as const });
    return Object.assign(new Error(this.failure ?? ('reason' in this.inst ? this.inst.reason : 'unavailable')), {
      unavailable: true,
      code: 'test.runtime-unavailable' as const,
    });
  }

  /** Compiles a script with the sandbox: its problems (empty when it compiles). */
  async validate(source: string): Promise<ScriptProblem[]> {
    const w = await this.acquire();
    if (!w) throw this.unavailableError();
    const id = `v${++seq}`;
    const m = await w.request({ t: 'validate', id, source }, 60_000);
    if (m.t === 'exit') throw new Error(`the worker stopped while compiling (${m.why})`);
    this.release(w);
    return (m.errors as ScriptProblem[]) ?? [];
  }

  /** Runs a script on its input within the limits. Aborting kills the worker (it is replaced). */
  async run(source: string, input: ScriptInput, signal?: AbortSignal): Promise<ScriptOutcome> {
    const w = await this.acquire(signal);
    if (signal?.aborted) {
      if (w) this.release(w);
      return { ok: false, error: { kind: 'cancelled', message: 'cancelled', line: null }, report: null };
    }
    if (!w) throw this.unavailableError();
    const id = `r${++seq}`;
    this.active.set(id, w);
    w.runs++;
    const kill = () => w.kill('cancelled');
    signal?.addEventListener('abort', kill, { once: true });
    const limits = { cpu_ms: this.opts.cpuMs, wall_ms: this.opts.wallMs, output_bytes: this.opts.outputBytes };
    // The worker enforces the wall time itself; this is the backstop when it cannot answer at all.
    const m = await w.request({ t: 'run', id, source, input, limits }, this.opts.wallMs + 15_000);
    signal?.removeEventListener('abort', kill);
    this.active.delete(id);
    if (m.t === 'exit') {
      const why = String(m.why) as ScriptFailureKind;
      const message =
        why === 'cancelled'
          ? 'cancelled'
          : why === 'wall'
            ? `wall time limit of ${this.opts.wallMs} ms reached`
            : why === 'memory'
              ? 'heap limit reached'
              : why === 'output'
                ? 'output over the limit'
                : `the worker stopped (${w.lastStderr() || `exit ${m.code ?? m.signal}`})`;
      return {
        ok: false,
        error: { kind: ['cancelled', 'wall', 'memory', 'output'].includes(why) ? why : 'worker', message, line: null },
        report: null,
      };
    }
    if (m.fatal !== true) this.release(w);
    if (m.ok === true) return { ok: true, report: m.report as ScriptReport };
    const e = m.error as { kind: ScriptFailureKind; message: string; line: number | null };
    return {
      ok: false,
      error: { kind: e.kind, message: e.message, line: e.line ?? null },
      report: (m.report as ScriptReport | null) ?? null,
    };
  }

  status(): TestRuntime {
    const list = [...this.workers];
    const unavailable = !this.available;
    return {
      state: unavailable
        ? 'unavailable'
        : list.some((w) => w.state === 'idle' || w.state === 'busy') || !this.started
          ? 'available'
          : 'starting',
      reason: unavailable ? (this.failure ?? ('reason' in this.inst ? this.inst.reason : this.isolationProblem())) : null,
      enable_command: unavailable && this.isolationProblem() ? SANDBOX_ENABLE_COMMAND : GROOVY_ENABLE_COMMAND,
      groovy_version: this.lastInfo?.groovy ?? null,
      java_version: this.lastInfo?.java ?? null,
      workers: {
        size: unavailable ? 0 : this.opts.workers,
        ready: list.filter((w) => w.state === 'idle').length,
        busy: list.filter((w) => w.state === 'busy').length,
      },
      limits: {
        cpu_seconds: this.opts.cpuMs / 1000,
        wall_seconds: this.opts.wallMs / 1000,
        heap_mb: this.opts.heapMb,
        output_kb: Math.round(this.opts.outputBytes / 1024),
        max_frames: this.opts.maxFrames,
      },
    };
  }

  /** Process ids of the workers (tests check that a broken one was replaced). */
  pids(): number[] {
    return [...this.workers].map((w) => w.proc.pid ?? 0);
  }

  /** Resolves once every worker has said ready (or died). */
  async idle(): Promise<void> {
    this.start();
    await Promise.all([...this.workers].map((w) => w.whenReady()));
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const wait of this.waiting.splice(0)) wait(null);
    const exits = [...this.workers].map((w) => new Promise<void>((r) => (w.state === 'dead' ? r() : w.proc.once('exit', () => r()))));
    for (const w of this.workers) w.kill('closed');
    await Promise.all(exits);
  }
}
