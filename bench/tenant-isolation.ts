/**
 * Tenant isolation benchmark (`npm run bench:isolation`): how long another tenant waits while one
 * tenant runs heavy work it controls. A real server (`loggerhead serve`, its own process, on a fresh
 * PostgreSQL database) is started from this tree and, in the same run, from an older commit
 * (`--baseline <git-ref>`, default bf10013: the code before plugin expressions left the server's
 * thread; `--baseline none` skips it), checked out into a temporary git worktree that shares this
 * tree's npm dependencies. Against each, tenant B asks a light call (its plugin list) and `/v1/health`
 * every 250 ms from a thread of its own while tenant A runs, one after the other:
 *  - plugin: `$match(payload, /(a+)+$/)` on a 29-character payload, twice (the plugin test route);
 *  - dbc: one DBC of 200,000 signals (about 9.4 MB);
 *  - exports: 20 parallel CSV exports of 300,000 frames (uploaded first), followed for at most 60 s;
 *  - bomb: a gzip log of about 2 MB that inflates to 2 GB of candump text;
 *  - bundle: a 199 MB web-deploy bundle (as the system manager).
 * It prints B's p50/p99/max latency (a probe unanswered after 10 s counts 10 s and as a timeout) per
 * load and tree side by side, each load's outcome, and the machine's load average (os.loadavg).
 * `--loads plugin,dbc` picks loads. BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres)
 * is the PostgreSQL server the fresh databases are made on: the bench adds its tenants there.
 * Goal (docs/decisions/0204-tenant-work-off-the-server-thread.md): B's p99 under 200 ms during each load.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import zlib from 'node:zlib';
import { hashPassword } from '@loggerhead/server/lib/passwords.ts';
import pg from 'pg';

const ROOT = path.resolve(import.meta.dirname, '..');
const LOADS = ['plugin', 'dbc', 'exports', 'bomb', 'bundle'] as const;
type Load = (typeof LOADS)[number];
const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const baselineRef = arg('baseline') ?? 'bf10013';
const loads = (arg('loads')?.split(',') ?? [...LOADS]) as Load[];
for (const l of loads) if (!LOADS.includes(l)) throw new Error(`--loads: unknown load ${l} (${LOADS.join(', ')})`);
const PG = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PASSWORD = 'Bench-Tenant-123';
const ADMIN_PASSWORD = 'Bench-Admin-123';
const PROBE_MS = 250;
const PROBE_TIMEOUT_MS = 10_000;
const EXPORT_FRAMES = 300_000;
const T0_US = 1_750_000_000_000_000;

// ---- payloads, made once per run before any server starts ----------------------------------------

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'lh-bench-isolation-'));

function multipart(file: Buffer, filename: string): { body: Buffer; type: string } {
  const boundary = `lhbench${randomBytes(6).toString('hex')}`;
  return {
    body: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      file,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    type: `multipart/form-data; boundary=${boundary}`,
  };
}

/** 12,500 messages of 16 four-bit signals: 200,000 signals. */
function bigDbc(): Buffer {
  const parts = ['VERSION ""\n\nNS_ :\n\nBS_:\n\nBU_: ECU\n\n'];
  let n = 0;
  for (let m = 0; m < 12_500; m++) {
    parts.push(`BO_ ${m + 1} MSG_${m}: 8 ECU\n`);
    for (let s = 0; s < 16; s++) parts.push(` SG_ S${n++} : ${s * 4}|4@1+ (0.5,0) [0|7.5] "V" ECU\n`);
    parts.push('\n');
  }
  return Buffer.from(parts.join(''));
}

/** 300,000 frames as candump -L, one every millisecond. */
function frames(): Buffer {
  const lines: string[] = [];
  for (let i = 0; i < EXPORT_FRAMES; i++) {
    const us = T0_US + i * 1000;
    const data = (i & 0xffff).toString(16).padStart(4, '0').toUpperCase();
    lines.push(
      `(${Math.floor(us / 1e6)}.${String(us % 1e6).padStart(6, '0')}) can0 ${(0x100 + (i % 64)).toString(16).toUpperCase()}#${data}AABBCCDDEEFF\n`,
    );
  }
  return Buffer.from(lines.join(''));
}

/** 2 GB of candump text as one gzip member compressed once and repeated (a reader inflates them all). */
function bomb(): Buffer {
  const line = '(1750000000.000000) can0 123#DEADBEEFDEADBEEF\n';
  const chunk = Buffer.from(line.repeat(Math.floor((1 << 20) / line.length)));
  const member = zlib.gzipSync(chunk, { level: 9 });
  return Buffer.concat(Array.from({ length: Math.ceil((2 * 1024 ** 3) / chunk.length) }, () => member));
}

/** A tar.gz of index.html and 199 MB of random bytes (random: gzip cannot shrink it). */
function bundle(): Buffer {
  const header = (name: string, size: number) => {
    const h = Buffer.alloc(512);
    h.write(name, 0);
    h.write('0000644\0', 100);
    h.write('0000000\0', 108);
    h.write('0000000\0', 116);
    h.write(`${size.toString(8).padStart(11, '0')}\0`, 124);
    h.write(
      `${Math.floor(Date.now() / 1000)
        .toString(8)
        .padStart(11, '0')}\0`,
      136,
    );
    h.write('        ', 148);
    h.write('0', 156);
    h.write('ustar\0', 257);
    h.write('00', 263);
    let sum = 0;
    for (const b of h) sum += b;
    h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
    return h;
  };
  const pad = (n: number) => Buffer.alloc((512 - (n % 512)) % 512);
  const html = Buffer.from('<!doctype html><title>bench</title>');
  const big = randomBytes(199 * 1024 * 1024 - 4096);
  const tar = Buffer.concat([
    header('index.html', html.length),
    html,
    pad(html.length),
    header('assets/big.bin', big.length),
    big,
    pad(big.length),
    Buffer.alloc(1024),
  ]);
  return zlib.gzipSync(tar, { level: 1 });
}

console.log('making the payloads…');
const payload = {
  dbc: loads.includes('dbc') ? bigDbc() : Buffer.alloc(0),
  frames: loads.includes('exports') ? frames() : Buffer.alloc(0),
  bomb: loads.includes('bomb') ? bomb() : Buffer.alloc(0),
  bundle: loads.includes('bundle') ? bundle() : Buffer.alloc(0),
};
const mb = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MB`;
console.log(
  `DBC ${mb(payload.dbc.length)}, frames ${mb(payload.frames.length)}, bomb ${mb(payload.bomb.length)} (→ 2 GB), bundle ${mb(payload.bundle.length)}`,
);

// ---- trees and servers ---------------------------------------------------------------------------

/** A worktree of `ref` whose node_modules link this tree's, except its own workspace packages. */
function baselineTree(ref: string): { root: string; remove(): void } {
  const root = path.join(work, 'baseline');
  execFileSync('git', ['worktree', 'add', '--detach', root, ref], { cwd: ROOT, stdio: 'ignore' });
  const nm = path.join(root, 'node_modules');
  fs.mkdirSync(nm);
  for (const e of fs.readdirSync(path.join(ROOT, 'node_modules'))) {
    if (e === '@loggerhead') continue;
    fs.symlinkSync(path.join(ROOT, 'node_modules', e), path.join(nm, e));
  }
  // The workspace links are relative (../../packages/…): copied as they are, they name the worktree's own.
  fs.mkdirSync(path.join(nm, '@loggerhead'));
  for (const e of fs.readdirSync(path.join(ROOT, 'node_modules/@loggerhead')))
    fs.symlinkSync(fs.readlinkSync(path.join(ROOT, 'node_modules/@loggerhead', e)), path.join(nm, '@loggerhead', e));
  return {
    root,
    remove() {
      execFileSync('git', ['worktree', 'remove', '--force', root], { cwd: ROOT, stdio: 'ignore' });
    },
  };
}

interface Server {
  url: string;
  db: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

async function adminSql(sql: string) {
  const c = new pg.Client({ connectionString: PG });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

async function startServer(root: string, name: string): Promise<Server> {
  const dbName = `lh_bench_isolation_${name}_${process.pid}`;
  await adminSql(`create database ${dbName}`);
  const u = new URL(PG);
  u.pathname = `/${dbName}`;
  const dataDir = fs.mkdtempSync(path.join(work, `data-${name}-`));
  const child = spawn(process.execPath, [path.join(root, 'apps/server/bin/loggerhead.mjs'), 'serve'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: '0',
      MQTT_PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: u.toString(),
      WEB_DIR: '',
      LOGGERHEAD_ADMIN_PASSWORD: ADMIN_PASSWORD,
      LOG_LEVEL: 'warn',
      EXPERIENCE: 'false',
      EXPERIENCE_LIVE: 'false',
      GROOVY_WORKERS: '0',
      // Room for the 199 MB bundle (a gzip log may inflate to 4 times this: 1 GB, under the bomb's 2 GB).
      MAX_UPLOAD_MB: '256',
      RATE_LIMIT_UPLOAD: '0/0',
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
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 120_000);
    const check = () => {
      const m = /Console:\s+http:\/\/localhost:(\d+)\//.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    };
    child.stdout?.on('data', check);
    child.stderr?.on('data', check);
    child.on('exit', (code) => reject(new Error(`server exited (${code}):\n${output}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    db: u.toString(),
    child,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise<void>((r) => {
          const t = setTimeout(() => {
            child.kill('SIGKILL');
            r();
          }, 15_000);
          child.once('exit', () => {
            clearTimeout(t);
            r();
          });
        });
      }
      await adminSql(`drop database if exists ${dbName} with (force)`).catch(() => {});
    },
  };
}

// ---- the API --------------------------------------------------------------------------------------

async function call(
  server: Server,
  method: string,
  url: string,
  token: string | null,
  body?: object | { body: Buffer; type: string },
  timeoutMs = 120_000,
): Promise<{ status: number; json: Record<string, unknown> | null; ms: number; error?: string }> {
  const t0 = performance.now();
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  let data: string | Buffer | undefined;
  if (body && 'body' in body && Buffer.isBuffer(body.body)) {
    headers['content-type'] = body.type as string;
    data = body.body;
  } else if (body) {
    headers['content-type'] = 'application/json';
    data = JSON.stringify(body);
  }
  try {
    const res = await fetch(`${server.url}/v1${url}`, { method, headers, body: data, signal: AbortSignal.timeout(timeoutMs) });
    const text = await res.text();
    let json: Record<string, unknown> | null = null;
    try {
      json = JSON.parse(text);
    } catch {}
    return { status: res.status, json, ms: performance.now() - t0 };
  } catch (e) {
    return {
      status: 0,
      json: null,
      ms: performance.now() - t0,
      error: (e as Error).name === 'TimeoutError' ? 'timeout' : (e as Error).message,
    };
  }
}

async function must(server: Server, method: string, url: string, token: string | null, body?: object) {
  const r = await call(server, method, url, token, body);
  if (r.status < 200 || r.status >= 300) throw new Error(`${method} ${url}: ${r.status} ${JSON.stringify(r.json) ?? r.error}`);
  return r.json as Record<string, unknown>;
}

const login = async (server: Server, username: string, password: string) =>
  (await must(server, 'POST', '/control/sessions', null, { username, password, type: 1 })).token as string;

interface Tenant {
  id: string;
  token: string;
}

/** Two tenants with managers, as the tests make them (straight into the database), exempt from quotas. */
async function tenants(server: Server, adminToken: string): Promise<{ a: Tenant; b: Tenant }> {
  const c = new pg.Client({ connectionString: server.db });
  await c.connect();
  const hash = await hashPassword(PASSWORD);
  const make = async (name: string): Promise<Tenant> => {
    const id = (await c.query<{ id: string }>('insert into tenants (name) values ($1) returning id', [name])).rows[0].id;
    await c.query('insert into users (tenant_id, username, name, password_hash, is_manager) values ($1,$2,$2,$3,true)', [id, name, hash]);
    await must(server, 'PUT', `/tenant/tenants/${id}/quotas`, adminToken, { quota_exempt: true });
    return { id, token: await login(server, name, PASSWORD) };
  };
  try {
    return { a: await make('bencha'), b: await make('benchb') };
  } finally {
    await c.end();
  }
}

// ---- tenant B's probes, on a thread of their own ---------------------------------------------------

const PROBE = `
const { parentPort } = require('node:worker_threads');
let on = null;
parentPort.on('message', async (m) => {
  if (m.start) {
    const got = { light: [], health: [], timeouts: 0 };
    const pending = new Set();
    const probe = (url, headers, into) => {
      const t0 = performance.now();
      const p = fetch(url, { headers, signal: AbortSignal.timeout(${PROBE_TIMEOUT_MS}) })
        .then(async (r) => { await r.arrayBuffer(); into.push(performance.now() - t0); })
        .catch(() => { into.push(${PROBE_TIMEOUT_MS}); got.timeouts++; })
        .finally(() => pending.delete(p));
      pending.add(p);
    };
    const tick = () => {
      probe(m.light, { authorization: 'Bearer ' + m.token }, got.light);
      probe(m.health, {}, got.health);
    };
    tick();
    on = { timer: setInterval(tick, ${PROBE_MS}), got, pending };
  } else if (m.stop) {
    clearInterval(on.timer);
    await Promise.all([...on.pending]);
    parentPort.postMessage(on.got);
  }
});
`;

interface Probed {
  light: number[];
  health: number[];
  timeouts: number;
}

function prober(server: Server, b: Tenant) {
  const w = new Worker(PROBE, { eval: true });
  return {
    start() {
      w.postMessage({
        start: true,
        token: b.token,
        light: `${server.url}/v1/data-mgmt/tenants/${b.id}/plugins?current_page=1&page_size=10`,
        health: `${server.url}/v1/health`,
      });
    },
    stop(): Promise<Probed> {
      return new Promise((r) => {
        w.once('message', r);
        w.postMessage({ stop: true });
      });
    },
    close: () => w.terminate(),
  };
}

const pct = (xs: number[], p: number) => {
  if (!xs.length) return Number.NaN;
  const s = [...xs].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};

// ---- the loads -------------------------------------------------------------------------------------

async function runLoad(load: Load, server: Server, a: Tenant, adminToken: string, device: string): Promise<string> {
  const A = `/data-mgmt/tenants/${a.id}`;
  switch (load) {
    case 'plugin': {
      const out: string[] = [];
      for (let i = 0; i < 2; i++) {
        const r = await call(
          server,
          'POST',
          `${A}/plugins/test`,
          a.token,
          { expression: '$match(payload, /(a+)+$/)', input: { payload: `${'a'.repeat(28)}!` } },
          120_000,
        );
        out.push(`${r.status || r.error} ${(r.json?.code as string) ?? ''} ${(r.ms / 1000).toFixed(1)} s`.replace(/\s+/g, ' '));
      }
      return out.join('; ');
    }
    case 'dbc': {
      const r = await call(server, 'POST', `/mapping-mgmt/tenants/${a.id}/dbc-files`, a.token, multipart(payload.dbc, 'big.dbc'), 180_000);
      return `${r.status || r.error} ${(r.json?.code as string) ?? ''} ${(r.ms / 1000).toFixed(1)} s`;
    }
    case 'exports': {
      const t0 = performance.now();
      const base = `${A}/things/${device}/downloads`;
      const body = { format: 'csv', begin_time: T0_US / 1000, end_time: T0_US / 1000 + EXPORT_FRAMES + 1000 };
      const created = await Promise.all(Array.from({ length: 20 }, () => call(server, 'POST', base, a.token, body)));
      const ids = created.filter((r) => r.status === 200).map((r) => r.json?.id as string);
      const refused = created.filter((r) => r.status !== 200).map((r) => `${r.status || r.error} ${(r.json?.code as string) ?? ''}`);
      const done = new Set<string>();
      let failed = 0;
      // Followed for at most 60 s (the bench stays bounded); what is unfinished then is counted and cancelled.
      const end = t0 + 60_000;
      while (done.size < ids.length && performance.now() < end) {
        await new Promise((r) => setTimeout(r, 1000));
        await Promise.all(
          ids
            .filter((id) => !done.has(id))
            .map(async (id) => {
              const p = await call(server, 'GET', `${base}/${id}`, a.token, undefined, Math.max(1000, end - performance.now()));
              if (p.json?.status === 3 || p.json?.status === 7) {
                done.add(id);
                if (p.json.status === 7) failed++;
              }
            }),
        );
      }
      const elapsed = performance.now() - t0;
      await Promise.all(ids.filter((id) => !done.has(id)).map((id) => call(server, 'DELETE', `${base}/${id}`, a.token, undefined, 30_000)));
      return `${ids.length} started${refused.length ? ` (${refused.length} refused: ${[...new Set(refused)].join(', ')})` : ''}, ${done.size - failed} done, ${failed} failed, ${ids.length - done.size} unfinished, ${(elapsed / 1000).toFixed(1)} s`;
    }
    case 'bomb': {
      const r = await call(server, 'POST', `${A}/things/${device}/uploads`, a.token, multipart(payload.bomb, 'bomb.log.gz'), 60_000);
      return `${r.status || r.error} ${(r.json?.code as string) ?? ''} ${(r.ms / 1000).toFixed(1)} s`;
    }
    case 'bundle': {
      const r = await call(
        server,
        'POST',
        `/out-web/deploy/web/save?version=9.${Date.now()}.0&description=bench`,
        adminToken,
        multipart(payload.bundle, 'console.tar.gz'),
        120_000,
      );
      return `${r.status || r.error} ${(r.json?.code as string) ?? ''} ${(r.ms / 1000).toFixed(1)} s`;
    }
  }
}

interface Row {
  load: string;
  probed: Probed;
  outcome: string;
  loadavg: number[];
}

interface Running {
  server: Server;
  adminToken: string;
  a: Tenant;
  b: Tenant;
  device: string;
}

/** A server of the tree with the two tenants, tenant A's device and (for the exports) its frames. */
async function setUp(root: string, name: string, attempt: number): Promise<Running> {
  const server = await startServer(root, `${name.replace(/\W/g, '_')}_${attempt}`);
  try {
    const adminToken = await login(server, 'admin', ADMIN_PASSWORD);
    const { a, b } = await tenants(server, adminToken);
    const types = (await must(server, 'GET', `/things/tenants/${a.id}/device-types`, a.token)) as unknown as { id: string; name: string }[];
    const device = (
      await must(server, 'POST', `/things/tenants/${a.id}/things`, a.token, {
        third_things_id: randomBytes(10).toString('hex').toUpperCase(),
        name: 'bench',
        info_model_id: types.find((t) => t.name === 'CANDTU-200')?.id,
      })
    ).id as string;
    if (loads.includes('exports')) {
      const up = await call(
        server,
        'POST',
        `/data-mgmt/tenants/${a.id}/things/${device}/uploads`,
        a.token,
        multipart(payload.frames, 'frames.log'),
        300_000,
      );
      console.log(`[${name}] ${EXPORT_FRAMES.toLocaleString('en-US')} frames uploaded: ${up.status} in ${(up.ms / 1000).toFixed(1)} s`);
    }
    return { server, adminToken, a, b, device };
  } catch (e) {
    await server.stop();
    throw e;
  }
}

/**
 * Every load against one tree's server: B's probes around each, 1 s before and after. A server that
 * ends during a load (out of memory, say) is noted in that load's outcome and a fresh one is set up
 * for the next.
 */
async function measure(root: string, name: string): Promise<Row[]> {
  console.log(`\n[${name}] starting the server from ${path.relative(ROOT, root) || '.'}…`);
  const rows: Row[] = [];
  let attempt = 0;
  let run: Running | null = null;
  try {
    for (const load of ['idle', ...loads] as const) {
      run ??= await setUp(root, name, attempt++);
      const { server, a, b, adminToken, device } = run;
      const probes = prober(server, b);
      try {
        probes.start();
        await new Promise((r) => setTimeout(r, 1000));
        let outcome = load === 'idle' ? '3 s of nothing' : await runLoad(load, server, a, adminToken, device);
        if (load === 'idle') await new Promise((r) => setTimeout(r, 2000));
        await new Promise((r) => setTimeout(r, 1000));
        const probed = await probes.stop();
        if (server.child.exitCode !== null || server.child.signalCode !== null) {
          outcome += `; the server ended (${server.child.signalCode ?? server.child.exitCode})`;
          await server.stop();
          run = null;
        }
        rows.push({ load, probed, outcome, loadavg: os.loadavg() });
        console.log(
          `[${name}] ${load}: B p99 ${pct(probed.light, 99).toFixed(0)} ms, health p99 ${pct(probed.health, 99).toFixed(0)} ms — ${outcome}`,
        );
      } finally {
        await probes.close();
      }
    }
  } finally {
    await run?.server.stop();
  }
  return rows;
}

// ---- the run ---------------------------------------------------------------------------------------

const columns: { name: string; rows: Row[] }[] = [];
try {
  if (baselineRef !== 'none') {
    const tree = baselineTree(baselineRef);
    try {
      columns.push({ name: `baseline ${baselineRef}`, rows: await measure(tree.root, 'baseline') });
    } finally {
      tree.remove();
    }
  }
  const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  columns.push({ name: `this tree (${head})`, rows: await measure(ROOT, 'current') });
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}

const f = (n: number) => (Number.isNaN(n) ? '—' : n >= 1000 ? `${(n / 1000).toFixed(1)} s` : `${n.toFixed(0)} ms`);
console.log(
  `\nTenant B's latency while tenant A runs each load (${os.cpus().length} CPUs; probes every ${PROBE_MS} ms, 10 s = timed out)\n`,
);
console.log(`| load | ${columns.map((c) => `${c.name}: B p50 / p99 / max | health p99 / max | timeouts | load avg`).join(' | ')} |`);
console.log(`| --- | ${columns.map(() => '--- | --- | --- | ---').join(' | ')} |`);
for (const load of ['idle', ...loads]) {
  const cells = columns.map((c) => {
    const r = c.rows.find((x) => x.load === load);
    if (!r) return '— | — | — | —';
    const p = r.probed;
    return `${f(pct(p.light, 50))} / ${f(pct(p.light, 99))} / ${f(Math.max(...p.light))} | ${f(pct(p.health, 99))} / ${f(Math.max(...p.health))} | ${p.timeouts} | ${r.loadavg.map((x) => x.toFixed(1)).join(' ')}`;
  });
  console.log(`| ${load} | ${cells.join(' | ')} |`);
}
console.log('\nOutcome of each load (status, code, time):');
for (const load of loads)
  console.log(`- ${load}: ${columns.map((c) => `${c.name}: ${c.rows.find((x) => x.load === load)?.outcome ?? '—'}`).join(' · ')}`);
