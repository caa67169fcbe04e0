/**
 * DBC decode throughput: our compiled decoder beside the npm packages `candied` and `dbc-can`,
 * in the same process, on the same frames (1 million by default, built from the messages of a real
 * opendbc DBC with random payloads). Also reports how often the peers agree with us.
 *
 * Then the whole process: `loggerhead decode` on a candump log of the same frames, to JSON lines and
 * to CSV, beside a Python peer doing the same (bench/peers/decode_peer.py: python-can reads the log,
 * cantools decodes when installed, else canmatrix, which Debian packages while cantools it does not),
 * in the same run. Frames/s from the child processes' CPU time (wall time beside it).
 *
 *   npm run bench:decode [-- --frames N --dbc FILE --peer-frames N]
 *
 * The DBC defaults to toyota_nodsu_pt_generated.dbc from the opendbc folder beside the checkout
 * (or OPENDBC_DIR).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type CanFrame, compileDbc, type DbcSignal, parseDbc, writeLog } from '@loggerhead/can';
import { Can as CandiedCan, Dbc as CandiedDbc } from 'candied';
import DbcCan, { Can as DbcCanCan } from 'dbc-can';

const { values: args } = parseArgs({
  options: { frames: { type: 'string', default: '1000000' }, dbc: { type: 'string' }, 'peer-frames': { type: 'string', default: '50000' } },
});
const N = Number(args.frames);
const opendbc = process.env.OPENDBC_DIR ?? resolve(fileURLToPath(import.meta.url), '../../../shared/data/opendbc');
const dbcPath = args.dbc ?? resolve(opendbc, 'toyota_nodsu_pt_generated.dbc');
const text = readFileSync(dbcPath, 'utf8');

const parsed = parseDbc(text);
if (!parsed.ok) throw new Error(`${dbcPath}:${parsed.error.line}:${parsed.error.col} ${parsed.error.reason}`);
const ours = compileDbc(parsed.dbc);

// Frames: a random message of the DBC, random payload of the message's length (seeded, repeatable).
let seed = 0x2545f491;
const rnd = () => {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return seed >>> 0;
};
const pool = ours.messages.filter((m) => m.message.length > 0 && m.message.length <= 8);
const ids = new Int32Array(N);
const exts = new Uint8Array(N);
const payloads: Uint8Array[] = new Array(N);
for (let i = 0; i < N; i++) {
  const m = pool[rnd() % pool.length];
  ids[i] = m.id;
  exts[i] = m.ext ? 1 : 0;
  const d = new Uint8Array(m.message.length);
  for (let j = 0; j < d.length; j++) d[j] = rnd() & 0xff;
  payloads[i] = d;
}
// The peers take plain arrays; built outside the timed loops.
const peerFrames = Array.from({ length: N }, (_, i) => ({
  id: ids[i],
  dlc: payloads[i].length,
  isExtended: exts[i] === 1,
  payload: Array.from(payloads[i]),
}));

interface Row {
  name: string;
  fps: number;
  cpuMs: number;
  wallMs: number;
  note?: string;
}
const rows: Row[] = [];

/**
 * Frames per second from the process's CPU time, so that other load on a shared machine does not
 * count against whoever runs while it peaks; wall time is printed beside it.
 */
function measure(run: (n: number) => number): { cpuMs: number; wallMs: number; decoded: number } {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const decoded = run(N);
  const wallMs = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { cpuMs: (c.user + c.system) / 1000, wallMs, decoded };
}

/** `repeats` timed passes after `warmups` passes over `warmN` frames; the fastest pass counts. */
function time(name: string, run: (n: number) => number, opts: { warmups: number; warmN: number; repeats: number }): void {
  for (let k = 0; k < opts.warmups; k++) run(opts.warmN); // lets the JIT optimise, as a long-running ingest would
  let best = measure(run);
  for (let k = 1; k < opts.repeats; k++) {
    const m = measure(run);
    if (m.cpuMs < best.cpuMs) best = m;
  }
  const passes = opts.repeats > 1 ? `best of ${opts.repeats} passes, ` : '';
  rows.push({
    name,
    fps: N / (best.cpuMs / 1000),
    cpuMs: best.cpuMs,
    wallMs: best.wallMs,
    note: `${passes}${best.decoded} frames decoded`,
  });
}
const OURS = { warmups: 3, warmN: N, repeats: 3 };
// The peers run ~1000x longer per pass; one pass over the same frames after a short warm-up.
const PEERS = { warmups: 1, warmN: Math.min(N, 20_000), repeats: 1 };

const out = new Float64Array(ours.maxSignals);
time(
  'loggerhead decodeInto (reused output)',
  (count) => {
    let n = 0;
    for (let i = 0; i < count; i++) if (ours.decodeInto(ids[i], exts[i] === 1, payloads[i], out)) n++;
    return n;
  },
  OURS,
);
const frameObjects = Array.from({ length: N }, (_, i) => ({ id: ids[i], ext: exts[i] === 1, data: payloads[i] }));
time(
  'loggerhead decode (object per frame)',
  (count) => {
    let n = 0;
    for (let i = 0; i < count; i++) if (ours.decode(frameObjects[i])) n++;
    return n;
  },
  OURS,
);

// Peers, with their documented APIs; a peer that cannot load the file is reported, not fatal.
type PeerDecode = (i: number) => Map<string, { value: number }> | undefined;
const peers: { name: string; decode: PeerDecode | null; error?: string; messages?: number }[] = [];
try {
  const data = new CandiedDbc().load(text);
  const can = new CandiedCan();
  can.database = data;
  peers.push({ name: 'candied@2.2.0', decode: (i) => can.decode(peerFrames[i])?.boundSignals, messages: data.messages.size });
} catch (e) {
  peers.push({ name: 'candied@2.2.0', decode: null, error: (e as Error).message });
}
try {
  const data = new DbcCan().loadSync(dbcPath);
  const can = new DbcCanCan(data);
  // dbc-can throws for an id it does not know instead of returning undefined.
  const decode: PeerDecode = (i) => {
    try {
      return can.decode(peerFrames[i])?.signals;
    } catch {
      return undefined;
    }
  };
  peers.push({ name: 'dbc-can@1.4.0', decode, messages: data.messages.size });
} catch (e) {
  peers.push({ name: 'dbc-can@1.4.0', decode: null, error: (e as Error).message });
}
for (const p of peers) {
  const decode = p.decode;
  if (!decode) {
    rows.push({ name: p.name, fps: Number.NaN, cpuMs: Number.NaN, wallMs: Number.NaN, note: `failed to load the DBC: ${p.error}` });
    continue;
  }
  try {
    time(
      p.name,
      (count) => {
        let n = 0;
        for (let i = 0; i < count; i++) if (decode(i)) n++;
        return n;
      },
      PEERS,
    );
  } catch (e) {
    rows.push({ name: p.name, fps: Number.NaN, cpuMs: Number.NaN, wallMs: Number.NaN, note: `threw: ${(e as Error).message}` });
  }
}

// Agreement on the first 100k frames. The peers clamp to [min|max] unless both are 0; do the same
// to our value before comparing, so that only extraction differences count.
function clamp(s: DbcSignal, v: number): number {
  if (s.min === 0 && s.max === 0) return v;
  return Math.min(Math.max(v, s.min), s.max);
}
const agreement: string[] = peers
  .filter((p) => p.messages !== undefined && p.messages !== parsed.dbc.messages.length)
  .map((p) => `${p.name.padEnd(16)} loaded ${p.messages} of the ${parsed.dbc.messages.length} messages`);
const SAMPLE = Math.min(N, 100_000);
for (const p of peers) {
  if (!p.decode) continue;
  const tally = { intel: [0, 0], motorola: [0, 0], 'motorola 1-bit': [0, 0] } as Record<string, [number, number]>;
  for (let i = 0; i < SAMPLE; i++) {
    const m = ours.decodeInto(ids[i], exts[i] === 1, payloads[i], out);
    const theirs = m && p.decode(i);
    if (!m || !theirs) continue;
    m.message.signals.forEach((s, k) => {
      const t = theirs.get(s.name)?.value;
      if (Number.isNaN(out[k]) || t === undefined) return;
      const v = clamp(s, out[k]);
      const kind = s.byteOrder === 'intel' ? 'intel' : s.length === 1 ? 'motorola 1-bit' : 'motorola';
      tally[kind][1]++;
      if (Math.abs(v - t) <= 1e-9 * Math.max(1, Math.abs(v))) tally[kind][0]++;
    });
  }
  const pct = ([ok, all]: [number, number]) => (all ? `${((100 * ok) / all).toFixed(2)}% of ${all}` : 'none');
  agreement.push(
    `${p.name.padEnd(16)} Intel ${pct(tally.intel)}; Motorola multi-bit ${pct(tally.motorola)}; Motorola 1-bit ${pct(tally['motorola 1-bit'])}`,
  );
}

const name = dbcPath.split('/').pop();
console.log(
  `\nDBC decode: ${name} (${pool.length} messages), ${N.toLocaleString('en')} frames, random payloads, Node ${process.version}\n`,
);
const w = Math.max(...rows.map((r) => r.name.length));
console.log(`${'implementation'.padEnd(w)}  ${'frames/s'.padStart(12)}  ${'ms (CPU)'.padStart(9)}  ${'ms (wall)'.padStart(9)}  notes`);
const fmt = (v: number, digits = 1) => (Number.isNaN(v) ? '-' : v.toFixed(digits));
for (const r of rows) {
  const fps = Number.isNaN(r.fps) ? '-' : Math.round(r.fps).toLocaleString('en');
  console.log(`${r.name.padEnd(w)}  ${fps.padStart(12)}  ${fmt(r.cpuMs).padStart(9)}  ${fmt(r.wallMs).padStart(9)}  ${r.note ?? ''}`);
}
const best = rows[0].fps;
for (const r of rows.slice(2)) if (!Number.isNaN(r.fps)) console.log(`  loggerhead decodeInto is ${(best / r.fps).toFixed(0)}x ${r.name}`);
console.log(
  `\nAgreement with loggerhead on the first ${SAMPLE.toLocaleString('en')} frames (values compared after the peers' min/max clamping):`,
);
for (const a of agreement) console.log(`  ${a}`);
console.log(`Goal: >= 10,000,000 frames/s for decodeInto: ${best >= 10e6 ? 'met' : 'NOT met'}`);

// ---- Whole process: `loggerhead decode` and the Python peer on the same candump log. ----

const BIN = resolve(fileURLToPath(import.meta.url), '../../apps/server/bin/loggerhead.mjs');
const PEER = resolve(fileURLToPath(import.meta.url), '../peers/decode_peer.py');
const PYTHON = '/usr/bin/python3';
const work = mkdtempSync(join(tmpdir(), 'lh-bench-decode-'));
const logFile = join(work, 'trip.log');
const emptyLog = join(work, 'one.log');
{
  const frames: CanFrame[] = Array.from({ length: N }, (_, i) => ({
    ts: 1_700_000_000_000_000 + i * 100,
    channel: i & 1,
    id: ids[i],
    ext: exts[i] === 1,
    fd: false,
    brs: false,
    esi: false,
    rtr: false,
    err: false,
    tx: false,
    data: payloads[i],
  }));
  writeFileSync(logFile, writeLog(frames, 'candump'));
  writeFileSync(emptyLog, writeLog(frames.slice(0, 1), 'candump'));
}

const TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();
/** User and system CPU seconds of the waited-for children of this process (Linux /proc; null elsewhere). */
function childCpu(): { user: number; sys: number } | null {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 16 and 17 of stat (cutime, cstime); the slice starts at field 3.
    return { user: Number(f[13]) / TICKS, sys: Number(f[14]) / TICKS };
  } catch {
    return null;
  }
}

/** GNU time, when installed, reports a child's peak resident memory. */
const GNU_TIME = existsSync('/usr/bin/time') && spawnSync('/usr/bin/time', ['-f', '%M', 'true']).status === 0 ? '/usr/bin/time' : null;

interface Run {
  /** user + sys */
  cpu: number;
  user: number;
  sys: number;
  wall: number;
  bytes: number;
  /** Peak resident memory in MiB (null without GNU time). */
  rss: number | null;
  ok: boolean;
  note: string;
}
/**
 * Runs a command with stdout to a file, as a user would; CPU (user and system: writing the output
 * file is system time) and wall seconds of the whole process, and its peak memory.
 */
function run(cmd: string, argv: string[]): Run {
  const outFile = join(work, 'out');
  const fd = openSync(outFile, 'w');
  const c0 = childCpu();
  const t0 = performance.now();
  const [file, args] = GNU_TIME ? [GNU_TIME, ['-f', 'peak-rss-kib %M', cmd, ...argv]] : [cmd, argv];
  const r = spawnSync(file, args, { stdio: ['ignore', fd, 'pipe'], encoding: 'utf8', maxBuffer: 1 << 24 });
  const wall = (performance.now() - t0) / 1000;
  const c1 = childCpu();
  closeSync(fd);
  const bytes = statSync(outFile).size;
  rmSync(outFile, { force: true });
  const user = c0 && c1 ? c1.user - c0.user : wall;
  const sys = c0 && c1 ? c1.sys - c0.sys : 0;
  const stderr = r.stderr ?? '';
  const rssLine = /peak-rss-kib (\d+)/.exec(stderr);
  const rest = stderr.replace(/.*peak-rss-kib \d+\n?/, '');
  const note = rest.split('\n').find((l) => /cantools|canmatrix/.test(l)) ?? rest.trim().split('\n')[0] ?? '';
  // GNU time exits with the command's status.
  return { cpu: user + sys, user, sys, wall, bytes, rss: rssLine ? Number(rssLine[1]) / 1024 : null, ok: r.status === 0, note };
}

interface WholeRow {
  name: string;
  format: string;
  frames: number;
  r: Run;
  /** Same command on a one-frame log: start-up (node, DBC parse and compile, python imports). */
  start: Run;
}
const whole: WholeRow[] = [];
for (const format of ['jsonl', 'csv']) {
  const argv = (log: string) => [BIN, 'decode', '--dbc', dbcPath, '--log', log, '--format', format];
  const start = run(process.execPath, argv(emptyLog));
  whole.push({ name: 'loggerhead decode', format, frames: N, r: run(process.execPath, argv(logFile)), start });
}
const peerN = Math.min(N, Number(args['peer-frames']));
let peerName = 'Python peer';
if (existsSync(PYTHON) && spawnSync(PYTHON, ['-c', 'import can'], { stdio: 'ignore' }).status === 0) {
  for (const format of ['jsonl', 'csv']) {
    const start = run(PYTHON, [PEER, dbcPath, logFile, format, '1']);
    const r = run(PYTHON, [PEER, dbcPath, logFile, format, String(peerN)]);
    if (r.note) peerName = r.note;
    whole.push({ name: peerName, format, frames: peerN, r, start });
  }
} else console.log('\nPython peer skipped: /usr/bin/python3 with python-can not found (apt-get install python3-can python3-canmatrix)');
// Memory flat in the file size: the same log four times over (about 4x the frames).
const longLog = join(work, 'long.log');
{
  const once = readFileSync(logFile);
  for (let k = 0; k < 4; k++) appendFileSync(longLog, once);
}
const long = ['jsonl', 'csv'].map((format) => ({
  format,
  r: run(process.execPath, [BIN, 'decode', '--dbc', dbcPath, '--log', longLog, '--format', format]),
}));
rmSync(work, { recursive: true, force: true });

console.log(
  `\nWhole process: ${dbcPath.split('/').pop()}, candump log of ${N.toLocaleString('en')} frames (${(statSync(dbcPath).size / 1024).toFixed(0)} KiB DBC) to a file; the peer on the first ${peerN.toLocaleString('en')} frames\n`,
);
const nw = Math.max(...whole.map((w) => w.name.length));
console.log(
  `${'implementation'.padEnd(nw)}  format  ${'frames'.padStart(9)}  ${'CPU s'.padStart(6)}  ${'user s'.padStart(6)}  ${'sys s'.padStart(6)}  ${'wall s'.padStart(6)}  ${'frames/s'.padStart(10)}  ${'start-up s'.padStart(10)}  ${'frames/s after start-up'.padStart(23)}  ${'peak RSS MiB'.padStart(12)}`,
);
const mib = (r: Run) => (r.rss === null ? '-' : r.rss.toFixed(0));
const rate = (w: WholeRow) => w.frames / w.r.cpu;
const steady = (w: WholeRow) => w.frames / Math.max(1e-3, w.r.cpu - w.start.cpu);
for (const w of whole) {
  console.log(
    `${w.name.padEnd(nw)}  ${w.format.padEnd(6)}  ${w.frames.toLocaleString('en').padStart(9)}  ${w.r.cpu.toFixed(2).padStart(6)}  ${w.r.user.toFixed(2).padStart(6)}  ${w.r.sys.toFixed(2).padStart(6)}  ${w.r.wall.toFixed(2).padStart(6)}  ${Math.round(rate(w)).toLocaleString('en').padStart(10)}  ${w.start.cpu.toFixed(2).padStart(10)}  ${Math.round(steady(w)).toLocaleString('en').padStart(23)}  ${mib(w.r).padStart(12)}${w.r.ok ? '' : '  (failed)'}`,
  );
}
for (const format of ['jsonl', 'csv']) {
  const ours = whole.find((w) => w.format === format && w.name === 'loggerhead decode');
  const peer = whole.find((w) => w.format === format && w.name !== 'loggerhead decode');
  if (!ours) continue;
  const vs = peer
    ? `, ${(rate(ours) / rate(peer)).toFixed(0)}x ${peer.name} whole process (${(steady(ours) / steady(peer)).toFixed(0)}x after start-up)`
    : '';
  console.log(
    `  ${format}: ${Math.round(rate(ours)).toLocaleString('en')} frames/s whole process${vs}. Goals: >= 1,000,000 frames/s ${rate(ours) >= 1e6 ? 'met' : 'NOT met'}; >= 10x the peer ${peer ? (rate(ours) >= 10 * rate(peer) ? 'met' : 'NOT met') : 'not measured'}`,
  );
}
for (const { format, r } of long) {
  const once = whole.find((w) => w.format === format && w.name === 'loggerhead decode');
  console.log(
    `  ${format}, the log 4 times over (${(4 * N).toLocaleString('en')} frames): ${r.cpu.toFixed(2)} s CPU, ${Math.round((4 * N) / r.cpu).toLocaleString('en')} frames/s, peak RSS ${mib(r)} MiB (${once ? mib(once.r) : '-'} MiB for ${N.toLocaleString('en')})${r.ok ? '' : ' (failed)'}`,
  );
}
