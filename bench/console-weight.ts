/**
 * How heavy the console is for a new visitor: builds the web app, serves it with the real server
 * (`loggerhead serve`, its compression and caching), opens it in headless Chromium with an empty
 * cache and prints, for each step, the JavaScript transferred (raw, gzip, and what the server sent
 * on the wire) and the first contentful paint:
 *
 * - `/Login` until its form shows and the network is quiet;
 * - the home page right after logging in through that form (what the login adds);
 * - the home page opened directly by a signed-in user with an empty cache (all it needs).
 *
 * Budgets (docs/decisions/0116-light-console.md): /Login ≤ 300 KB and the home page ≤ 500 KB of
 * gzip-compressed JavaScript; the run fails (exit code 1) when one is exceeded. A saved run
 * (`--save FILE`) is printed beside this one with `--baseline FILE` (default: the figures of the
 * console before it was made light, `baselines/console-weight-before.json`).
 *
 *   npm run console-weight -w bench -- [--no-build] [--runs N] [--save FILE] [--baseline FILE|none] [--files]
 *
 * (`--files` lists each step's files, largest first.)
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { type Browser, type BrowserContext, chromium, type Page, type Response } from 'playwright-core';

const ROOT = path.resolve(import.meta.dirname, '..');
const BUDGET_KB = { login: 300, home: 500 } as const;

interface Weight {
  /** JavaScript files fetched. */
  files: number;
  /** Their bytes as built. */
  raw: number;
  /** Their bytes gzip-compressed (level 6, as a server compresses them). */
  gzip: number;
  /** The bodies' bytes as the server sent them (its own compression). */
  wire: number;
  /** First contentful paint (ms), where the step loaded a page. */
  fcp: number | null;
  /** Until the step's content showed (ms). */
  ready: number;
}

type Step = 'login' | 'afterLogin' | 'home';
type Result = Record<Step, Weight> & { date: string; commit: string };

const STEPS: Record<Step, string> = {
  login: '/Login (form shown)',
  afterLogin: 'home after login (added)',
  home: 'home page, cold (signed in)',
};

function args() {
  const a = process.argv.slice(2);
  const value = (name: string) => {
    const i = a.indexOf(name);
    return i >= 0 ? a[i + 1] : undefined;
  };
  // Paths as given where the command was typed (npm runs this from bench/).
  const file = (p: string | undefined) => (p === undefined || p === 'none' ? p : path.resolve(process.env.INIT_CWD ?? process.cwd(), p));
  return {
    build: !a.includes('--no-build'),
    runs: Math.max(1, Number(value('--runs') ?? 3)),
    save: file(value('--save')),
    baseline: file(value('--baseline')) ?? path.join(import.meta.dirname, 'baselines/console-weight-before.json'),
  };
}

async function main() {
  const opts = args();
  if (opts.build) {
    console.log('building the console…');
    execFileSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  }
  const server = await startServer();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    const runs: Result[] = [];
    for (let i = 0; i < opts.runs; i++) runs.push(await measure(browser, server));
    const result = median(runs);
    const baseline =
      opts.baseline !== 'none' && fs.existsSync(opts.baseline) ? (JSON.parse(fs.readFileSync(opts.baseline, 'utf8')) as Result) : null;
    print(result, baseline, opts.runs);
    if (opts.save) fs.writeFileSync(opts.save, `${JSON.stringify(result, null, 2)}\n`);
    const over = [
      result.login.gzip > BUDGET_KB.login * 1024 ? `/Login: ${kb(result.login.gzip)} KB > ${BUDGET_KB.login} KB` : null,
      result.home.gzip > BUDGET_KB.home * 1024 ? `home page: ${kb(result.home.gzip)} KB > ${BUDGET_KB.home} KB` : null,
    ].filter(Boolean);
    if (over.length) {
      console.log(`\nOVER BUDGET (gzip JavaScript): ${over.join('; ')}`);
      process.exitCode = 1;
    } else console.log(`\nwithin budget: /Login ≤ ${BUDGET_KB.login} KB, home page ≤ ${BUDGET_KB.home} KB of gzip JavaScript`);
  } finally {
    await browser.close();
    await server.stop();
  }
}

/** Collects the JavaScript responses of a page while `during` runs. */
async function scripts(page: Page, during: () => Promise<void>): Promise<Omit<Weight, 'fcp' | 'ready'>> {
  const seen: Promise<{ url: string; raw: number; gzip: number; wire: number }>[] = [];
  const onResponse = (res: Response) => {
    const type = res.headers()['content-type'] ?? '';
    if (!/javascript/.test(type) || res.request().method() !== 'GET') return;
    seen.push(
      (async () => {
        const body = await res.body();
        const sizes = await res.request().sizes();
        return { url: res.url(), raw: body.length, gzip: zlib.gzipSync(body, { level: 6 }).length, wire: sizes.responseBodySize };
      })(),
    );
  };
  page.on('response', onResponse);
  try {
    await during();
    await page.waitForLoadState('networkidle');
  } finally {
    page.off('response', onResponse);
  }
  const all = await Promise.all(seen);
  if (process.argv.includes('--files')) {
    for (const f of all.sort((a, b) => b.gzip - a.gzip)) console.log(`  ${kb(f.gzip).padStart(7)} KB gzip  ${new URL(f.url).pathname}`);
    console.log('  --');
  }
  return {
    files: all.length,
    raw: all.reduce((s, x) => s + x.raw, 0),
    gzip: all.reduce((s, x) => s + x.gzip, 0),
    wire: all.reduce((s, x) => s + x.wire, 0),
  };
}

function fcp(page: Page): Promise<number | null> {
  return page.evaluate(() => {
    const entry = performance.getEntriesByName('first-contentful-paint')[0];
    return entry ? Math.round(entry.startTime) : null;
  });
}

async function measure(browser: Browser, server: RunningServer): Promise<Result> {
  const base = { baseURL: server.url, viewport: { width: 1440, height: 900 } };
  let context: BrowserContext = await browser.newContext(base);
  let page = await context.newPage();
  const home = () => page.locator('[data-testid="page"][data-route="/Container/HomePage"]').waitFor({ state: 'visible', timeout: 60_000 });

  let t0 = Date.now();
  const login = await scripts(page, async () => {
    await page.goto('/Login');
    await page.locator('form#password-login button[type=submit]').waitFor({ state: 'visible', timeout: 60_000 });
  });
  const loginWeight: Weight = { ...login, fcp: await fcp(page), ready: Date.now() - t0 };

  t0 = Date.now();
  const after = await scripts(page, async () => {
    await page.locator('#password-login_username').fill(server.admin.username);
    await page.locator('#password-login_password').fill(server.admin.password);
    await page.locator('form#password-login button[type=submit]').click();
    await home();
  });
  const afterWeight: Weight = { ...after, fcp: null, ready: Date.now() - t0 };
  const state = await context.storageState();
  await context.close();

  context = await browser.newContext({ ...base, storageState: state });
  page = await context.newPage();
  t0 = Date.now();
  const cold = await scripts(page, async () => {
    await page.goto('/Container/HomePage');
    await home();
  });
  const homeWeight: Weight = { ...cold, fcp: await fcp(page), ready: Date.now() - t0 };
  await context.close();

  return { login: loginWeight, afterLogin: afterWeight, home: homeWeight, date: new Date().toISOString(), commit: commit() };
}

function commit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  } catch {
    return '?';
  }
}

/** Byte counts are the same in every run; the times are the runs' medians. */
function median(runs: Result[]): Result {
  const mid = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const out = structuredClone(runs[runs.length - 1]);
  for (const step of Object.keys(STEPS) as Step[]) {
    out[step].ready = mid(runs.map((r) => r[step].ready));
    const paints = runs.map((r) => r[step].fcp).filter((x): x is number => x !== null);
    out[step].fcp = paints.length ? mid(paints) : null;
  }
  return out;
}

const kb = (n: number) => (n / 1024).toFixed(1);
const ms = (n: number | null) => (n === null ? '—' : `${n} ms`);

function print(now: Result, before: Result | null, runs: number) {
  const rows: string[][] = [];
  const head = ['step', 'JS files', 'raw KB', 'gzip KB', 'sent KB', 'FCP', 'ready'];
  const cells = (w: Weight) => [String(w.files), kb(w.raw), kb(w.gzip), kb(w.wire), ms(w.fcp), ms(w.ready)];
  for (const step of Object.keys(STEPS) as Step[]) {
    if (before) rows.push([`${STEPS[step]} — before (${before.commit})`, ...cells(before[step])]);
    rows.push([`${STEPS[step]}${before ? ` — now (${now.commit})` : ''}`, ...cells(now[step])]);
  }
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(
    `\nJavaScript of the console, empty cache (median of ${runs} runs for the times; "sent" is what the server's compression put on the wire):\n`,
  );
  console.log(line(head));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
}

interface RunningServer {
  url: string;
  admin: { username: string; password: string };
  stop: () => Promise<void>;
}

/** The real server on free ports with a fresh data directory and a known admin password. */
async function startServer(): Promise<RunningServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loggerhead-weight-'));
  const admin = { username: 'admin', password: `Weight-${randomBytes(6).toString('hex')}` };
  const child: ChildProcess = spawn(process.execPath, [path.join(ROOT, 'apps/server/bin/loggerhead.mjs'), 'serve'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: '0',
      MQTT_PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOGGERHEAD_ADMIN_PASSWORD: admin.password,
      LOG_LEVEL: 'warn',
      EXPERIENCE: 'false',
      EXPERIENCE_LIVE: 'false',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (d: string) => {
    output += d;
  });
  child.stderr?.setEncoding('utf8').on('data', (d: string) => {
    output += d;
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    const m = /Console:\s+http:\/\/localhost:(\d+)\//.exec(output);
    if (m) return { url: `http://127.0.0.1:${m[1]}`, admin, stop };
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop();
  throw new Error(`the server did not start:\n${output}`);
}

await main();
