/**
 * Fleet benchmark (`npm run bench:fleet`). The project's simulator in its fleet mode (another
 * process: `loggerhead simulate --devices N --rate 100 --fleet FILE`, 10 batches of 10 frames per
 * device per second) against, in the same run:
 *  - Loggerhead: the embedded broker, every batch committed (PGlite files in a temp DATA_DIR, or a
 *    fresh database on BENCH_DATABASE_URL) before its PUBACK;
 *  - Mosquitto alone (no storage, no subscriber) on a free port: the rate a broker takes the same
 *    traffic at when nothing is stored.
 * Prints messages/s offered and acknowledged (for Loggerhead: stored), the share of Mosquitto's
 * rate and the PUBACK round trip (p50, p99), with the load average beside each row: the machine may
 * be shared.
 *
 * Options: --devices 500,1000,2000  --seconds 10  --mosquitto /usr/sbin/mosquitto
 *   --idle N    also hold N/2, then N idle loggers and print the server's memory per connection
 *               (the slope between the two holds)
 *   --storm N   also connect N loggers at once (a server restart) and print how long until all are in
 *   --external 1,2  also the external-broker path (needs BENCH_DATABASE_URL): a Mosquitto of its
 *               own takes the fleet and 1, then 2 server copies (`loggerhead serve` processes with
 *               MQTT_URL, the bench's database, each its own DATA_DIR and port) store it from a
 *               shared subscription; per device count it prints offered msgs/s, Mosquitto's
 *               acknowledged/s, stored/s (rows of frame_chunks over the time until the last is
 *               stored) and the lag from the last acknowledgement to the last row stored.
 *   --pglite-thread off   PGlite on the server's thread instead of its own (PGLITE_THREAD=false):
 *               the figure before the embedded database had a thread of its own
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import v8 from 'node:v8';
import vm from 'node:vm';
import { buildApp } from '@loggerhead/server';
import { benchConfig, benchStorage } from './src/storage.ts';

const { values: args } = parseArgs({
  options: {
    devices: { type: 'string', default: '500,1000,2000' },
    seconds: { type: 'string', default: '10' },
    mosquitto: { type: 'string', default: '/usr/sbin/mosquitto' },
    idle: { type: 'string', default: '0' },
    storm: { type: 'string', default: '0' },
    external: { type: 'string', default: '' },
    'pglite-thread': { type: 'string', default: 'on' },
  },
});
const COUNTS = args.devices.split(',').map(Number);
const SECONDS = Number(args.seconds);
const IDLE = Number(args.idle);
const STORM = Number(args.storm);
const COPIES = args.external ? args.external.split(',').map(Number) : [];
if (!COUNTS.every((n) => n > 0) || !(SECONDS > 0)) throw new Error('--devices takes counts like 500,1000 and --seconds a number');
if (!COPIES.every((n) => Number.isInteger(n) && n > 0)) throw new Error('--external takes numbers of server copies like 1,2');
if (COPIES.length && !process.env.BENCH_DATABASE_URL)
  throw new Error('--external needs BENCH_DATABASE_URL: the server copies share a PostgreSQL database');
const RATE = 100; // frames per second per device, in 10 batches
const BIN = path.resolve(import.meta.dirname, '../apps/server/bin/loggerhead.mjs');
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const { dataDir, databaseUrl, cleanup } = await benchStorage('fleet');

async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

/** A Mosquitto of its own on a free port: anonymous, no persistence, no log, and `extra` lines. */
async function startMosquitto(name: string, extra: string[] = []) {
  const port = await freePort();
  const conf = path.join(dataDir, `${name}.conf`);
  fs.writeFileSync(
    conf,
    [`listener ${port} 127.0.0.1`, 'allow_anonymous true', 'persistence false', 'log_dest none', 'max_connections -1', ...extra, ''].join(
      '\n',
    ),
  );
  const proc = spawn(args.mosquitto, ['-c', conf], { stdio: ['ignore', 'ignore', 'inherit'] });
  const exited = new Promise((r) => proc.once('exit', r));
  for (let i = 0; ; i++) {
    const ok = await new Promise<boolean>((r) => {
      const s = net.connect(port, '127.0.0.1', () => r(true)).once('error', () => r(false));
      s.once('connect', () => s.destroy());
    });
    if (ok) break;
    if (i > 100 || proc.exitCode !== null) throw new Error(`${args.mosquitto} did not start on port ${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    port,
    stop: () => {
      proc.kill();
      return exited;
    },
  };
}

// Mosquitto alone: no storage, no subscriber.
const mosquitto = await startMosquitto('mosquitto');
const mqPort = mosquitto.port;

// The copies of the external path share this server's database, so its key too.
const secretsKey = randomBytes(32);
if (!['on', 'off'].includes(args['pglite-thread'])) throw new Error('--pglite-thread takes on or off');
const config = benchConfig({ dataDir, databaseUrl }, { secretsKey, pgliteThread: args['pglite-thread'] === 'on' });
const app = await buildApp(config, { logger: false });
await app.ready();
const raw = app.ctx.database.raw;
const lhBroker = `mqtt://127.0.0.1:${app.ctx.broker.port()}`;
const mqBroker = `mqtt://127.0.0.1:${mqPort}`;

// One tenant with as many devices as the largest run (and the idle and storm fleets) needs.
const need = Math.max(...COUNTS, IDLE, STORM);
const tenant = (
  await raw.query<{ id: string }>('insert into tenants (name) values ($1) returning id', [`bench-fleet-${randomBytes(4).toString('hex')}`])
).rows[0].id;
const type = (await raw.query<{ id: string }>(`select id from device_types where name = 'CANDTU-200'`)).rows[0].id;
const creds: { deviceId: string; key: string }[] = [];
for (let s = 0; s < need; s += 500) {
  const params: unknown[] = [tenant, type];
  const vals: string[] = [];
  for (let i = s; i < Math.min(need, s + 500); i++) {
    const deviceId = randomBytes(10).toString('hex').toUpperCase();
    creds.push({ deviceId, key: 'benchkey' });
    vals.push(`($1,$${params.length + 1},$${params.length + 2},$2,'benchkey')`);
    params.push(deviceId, `fleet-${i}`);
  }
  await raw.query(`insert into things (tenant_id, third_things_id, name, info_model_id, things_key) values ${vals.join(',')}`, params);
}
const fleetFile = path.join(dataDir, 'fleet.csv');
fs.writeFileSync(fleetFile, `${creds.map((c) => `${c.deviceId},${c.key}`).join('\n')}\n`);

interface Run {
  connected: number;
  failed: number;
  batches: number;
  seconds: number;
  connectSeconds: number;
  p50: number | null;
  p99: number | null;
  failures: string;
}

function simulate(broker: string, extra: string[], onLine?: (line: string, child: ChildProcess) => void): Promise<Run> {
  return new Promise((resolve, reject) => {
    const a = [BIN, 'simulate', '--broker', broker, '--fleet', fleetFile, '--rate', String(RATE), ...extra];
    const child = spawn(process.execPath, a, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      const before = out.length;
      out += d;
      if (onLine)
        for (const l of out
          .slice(out.lastIndexOf('\n', before) + 1)
          .split('\n')
          .slice(0, -1))
          onLine(l, child);
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('exit', (code, sig) => {
      const c = /(\d+) devices connected, (\d+) failed, in ([\d.]+) s/.exec(out);
      const m = /(\d+) frames in (\d+) batches acknowledged in ([\d.]+) s/.exec(out);
      const l = /p50 ([\d.-]+) ms, p99 ([\d.-]+) ms/.exec(out);
      if (!c || !m || !l) return reject(new Error(`simulator failed (${code ?? sig}): ${out}${err}`));
      const num = (s: string) => (s === '-' ? null : Number(s));
      resolve({
        connected: Number(c[1]),
        failed: Number(c[2]),
        connectSeconds: Number(c[3]),
        batches: Number(m[2]),
        seconds: Number(m[3]),
        p50: num(l[1]),
        p99: num(l[2]),
        failures: code === 0 ? '' : err.trim().replace(/^loggerhead simulate: /, ''),
      });
    });
  });
}

const stored = async () =>
  Number((await raw.query<{ n: string }>('select count(*) as n from frame_chunks where tenant_id = $1', [tenant])).rows[0].n);

console.log(
  `fleet: ${RATE} frames/s per device in 10 batches of ${RATE / 10} frames; ${SECONDS} s per run; database: ${app.ctx.database.kind === 'pglite' ? `PGlite (${config.pgliteThread ? 'its own thread' : "on the server's thread"})` : 'PostgreSQL server'}`,
);
console.log(`machine: ${os.cpus().length} CPUs, shared: the load average (1, 5, 15 min) is printed beside each row; now ${load()}`);
/** The server's memory once garbage is collected: RSS, and JS heap with its buffers. */
const settle = async () => {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 100));
  }
  const m = process.memoryUsage();
  return { rss: m.rss, heap: m.heapUsed + m.external + m.arrayBuffers };
};

// Memory per idle connection is the slope between two holds, half the loggers and then all of them,
// each measured while held. A difference from a base taken with no logger connected is not: the
// process returns memory freed earlier (start-up, the runs' garbage) to the system while the loggers
// are held, and that difference came out negative.
if (IDLE) {
  const held = async (n: number) => {
    let m = { rss: 0, heap: 0 };
    const r = await hold(lhBroker, n, async () => {
      await new Promise((res) => setTimeout(res, 1000));
      m = await settle();
    });
    return { r, m };
  };
  const half = await held(Math.ceil(IDLE / 2));
  const all = await held(IDLE);
  const extra = Math.max(1, all.r.connected - half.r.connected);
  const per = (b: number) => `${(b / extra / 1024).toFixed(1)} KB`;
  console.log('');
  console.log(
    `idle connections: ${fmt(all.r.connected)} loggers held by the embedded broker (${all.r.failed} failed), against ${fmt(half.r.connected)}: ${per(all.m.rss - half.m.rss)} RSS, ${per(all.m.heap - half.m.heap)} JS heap and buffers per connection (goal ≤ 20 KB); load ${load()}`,
  );
}

// Warm-up: JIT, partitions, pools.
await simulate(lhBroker, ['--devices', '100', '--duration', '2']);

const ms = (x: number | null) => (x === null ? '-' : `${x.toFixed(0)} ms`);
console.log('');
console.log(
  `${'devices'.padStart(7)} ${'offered/s'.padStart(10)}  ${'Mosquitto acked/s'.padStart(17)} ${'p99'.padStart(7)}  ${'Loggerhead stored/s'.padStart(19)} ${'p99'.padStart(7)} ${'% of Mq'.padStart(7)}  load avg`,
);
for (const n of COUNTS) {
  const run = ['--devices', String(n), '--duration', String(SECONDS)];
  const mq = await simulate(mqBroker, run);
  const before = await stored();
  const cpu0 = process.cpuUsage();
  const lh = await simulate(lhBroker, run);
  const cpu = process.cpuUsage(cpu0);
  const rows = (await stored()) - before;
  const mqRate = mq.batches / mq.seconds;
  const lhRate = lh.batches / lh.seconds;
  console.log(
    `${fmt(n).padStart(7)} ${fmt(n * 10).padStart(10)}  ${fmt(mqRate).padStart(17)} ${ms(mq.p99).padStart(7)}  ${fmt(lhRate).padStart(19)} ${ms(lh.p99).padStart(7)} ${`${((100 * lhRate) / mqRate).toFixed(0)} %`.padStart(7)}  ${load()}`,
  );
  // The server's own CPU time per stored batch (it runs in this process; the simulator in another):
  // a figure a busy machine changes less than the rates, which depend on the CPU the server was given.
  console.log(`        Loggerhead CPU: ${((cpu.user + cpu.system) / Math.max(1, rows)).toFixed(0)} µs per stored batch`);
  if (rows !== lh.batches)
    console.log(`        note: ${fmt(rows)} batches stored, ${fmt(lh.batches)} acknowledged (re-sent batches are stored once)`);
  for (const [who, r] of [
    ['Mosquitto', mq],
    ['Loggerhead', lh],
  ] as const) {
    if (r.failed) console.log(`        ${who}: ${r.failed} of ${n} devices did not connect: ${r.failures}`);
  }
}
console.log('goal: Loggerhead ≥ 80 % of Mosquitto at 2,000 devices, every batch committed before its PUBACK');

/** Connects N loggers at once and holds them; `during` runs once they are all in (or given up). */
async function hold(broker: string, n: number, during: () => Promise<void>): Promise<Run> {
  let measured: Promise<void> = Promise.resolve();
  const r = await simulate(broker, ['--devices', String(n), '--duration', '5', '--idle', '--connect-rate', '0'], (line) => {
    if (/devices connected/.test(line)) measured = during();
  });
  await measured;
  return r;
}

if (STORM) {
  const mq = await hold(mqBroker, STORM, async () => {});
  const base = await settle();
  let held = base;
  const cpu0 = process.cpuUsage();
  const lh = await hold(lhBroker, STORM, async () => {
    held = await settle();
  });
  const cpu = process.cpuUsage(cpu0);
  const per = (b: number) => `${(b / Math.max(1, lh.connected) / 1024).toFixed(1)} KB`;
  console.log('');
  console.log(
    `connection storm: ${fmt(STORM)} loggers at once: Loggerhead ${fmt(lh.connected)} in ${lh.connectSeconds.toFixed(1)} s (${lh.failed} failed), Mosquitto ${fmt(mq.connected)} in ${mq.connectSeconds.toFixed(1)} s (${mq.failed} failed)   (goal: all within 30 s); load ${load()}`,
  );
  if (lh.connected)
    console.log(
      `        held by Loggerhead: ${per(held.rss - base.rss)} RSS, ${per(held.heap - base.heap)} JS heap and buffers per connection (goal ≤ 20 KB)`,
    );
  console.log(
    `        Loggerhead CPU: ${((cpu.user + cpu.system) / 1000 / Math.max(1, lh.connected)).toFixed(2)} ms per accepted logger (connect, subscribe, status, 5 s held, disconnect)`,
  );
  if (lh.failures) console.log(`        Loggerhead: ${lh.failures}`);
}

if (COPIES.length) await external();

await app.close();
await mosquitto.stop();
await cleanup();

/**
 * The external-broker path: the fleet publishes to a Mosquitto of its own, which acknowledges each
 * batch on receipt; 1, then 2 server copies (separate processes) take the batches from their shared
 * subscription and store them. Mosquitto is anonymous, as the one above: the copies find a device
 * by its topic and a broker's own checks of device keys (password file, dynamic security) are not
 * what is measured, and both brokers then differ only in having subscribers. It has the settings
 * docs/device-protocol.md asks of an operator: up to 1,000 messages in flight to each server
 * connection (the copies announce that receive maximum) and a queue that does not drop a backlog.
 */
async function external() {
  const broker = await startMosquitto('mosquitto-external', ['max_inflight_messages 1000', 'max_queued_messages 1000000']);
  const url = `mqtt://127.0.0.1:${broker.port}`;
  // Ports (and so broker sessions) stay the same from one run to the next: a copy started again
  // resumes its session, and no session of a stopped copy keeps a share of the group's messages.
  const ports = await Promise.all(Array.from({ length: Math.max(...COPIES) }, () => freePort()));

  async function startCopy(i: number) {
    const dir = path.join(dataDir, `copy-${i + 1}`);
    fs.mkdirSync(dir, { recursive: true });
    const child = spawn(process.execPath, [BIN, 'serve'], {
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl as string,
        MQTT_URL: url,
        DATA_DIR: dir,
        // Copies on one database share the key that seals stored credentials.
        SECRETS_KEY: secretsKey.toString('base64'),
        PORT: String(ports[i]),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        EXPERIENCE: 'false',
        SCHEDULER: 'false',
        GROOVY_WORKERS: '0',
        WEB_DIR: '',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    // Errors of the copy (a batch not stored) are shown; its other log lines are not.
    let rest = '';
    child.stdout.on('data', (d) => {
      const lines = (rest + d).split('\n');
      rest = lines.pop() ?? '';
      for (const l of lines) if (/"level":(50|60)/.test(l)) console.log(`        copy ${i + 1}: ${l}`);
    });
    const exited = new Promise((r) => child.once('exit', r));
    for (let k = 0; ; k++) {
      const up = await fetch(`http://127.0.0.1:${ports[i]}/v1/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      if (k > 600 || child.exitCode !== null) throw new Error(`server copy ${i + 1} did not start (exit ${child.exitCode})`);
      await new Promise((r) => setTimeout(r, 100));
    }
    return {
      stop: () => {
        child.kill('SIGTERM');
        return exited;
      },
    };
  }

  /** One run: the simulator against the broker while frame_chunks is counted until all is stored. */
  async function run(n: number, seconds: number) {
    const before = await stored();
    let sending = 0;
    let rows = 0;
    let lastAt = 0;
    let polling = true;
    // Counted every 200 ms from the first batch on: the time the count reached its last value is
    // when the last batch was stored (within 200 ms).
    const poll = (async () => {
      while (polling) {
        const k = (await stored()) - before;
        if (k !== rows) {
          rows = k;
          lastAt = performance.now();
        }
        await new Promise((r) => setTimeout(r, 200));
      }
    })();
    const sim = await simulate(url, ['--devices', String(n), '--duration', String(seconds)], (line) => {
      if (/devices connected/.test(line)) sending = performance.now();
    });
    const ackedAt = sending + sim.seconds * 1000;
    // Until every acknowledged batch is stored, or nothing more was stored for 30 s.
    while (rows < sim.batches && performance.now() - Math.max(lastAt, ackedAt) < 30_000) await new Promise((r) => setTimeout(r, 100));
    polling = false;
    await poll;
    const storing = (lastAt - sending) / 1000;
    return { sim, rows, storedRate: rows / Math.max(storing, 1e-3), lag: Math.max(0, lastAt - ackedAt) / 1000 };
  }

  console.log('');
  console.log(
    'external broker (MQTT_URL): the fleet publishes to a Mosquitto of its own; server copies (processes) store it from a shared subscription',
  );
  console.log(
    "note: on this path a device's PUBACK comes from the broker on receipt: until a copy commits the batch, its durability is the broker's (its persistence setting; here none)",
  );
  console.log(
    `${'copies'.padStart(6)} ${'devices'.padStart(7)} ${'offered/s'.padStart(10)}  ${'Mosquitto acked/s'.padStart(17)} ${'p99'.padStart(7)}  ${'stored/s'.padStart(9)} ${'lag'.padStart(7)}  load avg`,
  );
  for (const k of COPIES) {
    const copies = [];
    for (let i = 0; i < k; i++) copies.push(await startCopy(i));
    await run(100, 2); // warm-up: JIT of the copies, their sessions, pools
    for (const n of COUNTS) {
      const r = await run(n, SECONDS);
      console.log(
        `${String(k).padStart(6)} ${fmt(n).padStart(7)} ${fmt(n * 10).padStart(10)}  ${fmt(r.sim.batches / r.sim.seconds).padStart(17)} ${ms(r.sim.p99).padStart(7)}  ${fmt(r.storedRate).padStart(9)} ${`${r.lag.toFixed(1)} s`.padStart(7)}  ${load()}`,
      );
      if (r.rows < r.sim.batches)
        console.log(
          `        ${fmt(r.sim.batches - r.rows)} of ${fmt(r.sim.batches)} batches acknowledged by Mosquitto were not stored within 30 s`,
        );
      if (r.sim.failed) console.log(`        ${r.sim.failed} of ${n} devices did not connect: ${r.sim.failures}`);
    }
    for (const c of copies) await c.stop();
  }
  await broker.stop();
}
