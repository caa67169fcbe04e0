/**
 * Cross-check against an independent implementation: Debian's python3-can.
 * (a) files we write must read back identically in python-can;
 * (b) files python-can writes must read here exactly as python-can reads them.
 * python-can is required: without it these tests fail (scripts/test.sh installs it).
 *
 * Channel numbering: ASC and BLF hold 1-based channels in the file; python-can and we both
 * report them 0-based. candump holds interface names; python-can keeps the name ("can1"),
 * we take its trailing number (1).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CanFrame, FD_LENGTHS, makeFrame } from '../src/frame.ts';
import { type LogFormat, readLog, writeLog } from '../src/logs/index.ts';

const PYTHON = '/usr/bin/python3';
const EXT: Record<LogFormat, string> = { candump: 'log', asc: 'asc', blf: 'blf', trc: 'trc', mf4: 'mf4' };

/** Prints what python-can reads from a file as JSON, one object per message. */
const READ = `
import sys, json, re, can
fmt, path = sys.argv[1], sys.argv[2]
if fmt == 'candump': reader = can.CanutilsLogReader(path)
elif fmt == 'asc': reader = can.ASCReader(path, relative_timestamp=False)
else: reader = can.BLFReader(path)
out = []
for m in reader:
    ch = m.channel
    if isinstance(ch, str):
        digits = re.search(r'(\\d+)$', ch)
        ch = int(digits.group(1)) if digits else 0
    out.append(dict(ts=round(m.timestamp * 1e6), id=m.arbitration_id, ext=m.is_extended_id, fd=m.is_fd,
        brs=m.bitrate_switch, esi=m.error_state_indicator, rtr=m.is_remote_frame, err=m.is_error_frame,
        tx=not m.is_rx, channel=ch, dlc=m.dlc, data=bytes(m.data or b'').hex()))
print(json.dumps(out))
`;

/** Writes a mixed set of messages with python-can's own writers (can.Logger picks by extension). */
const WRITE = `
import sys, can
d = sys.argv[1]
t0 = 1712345678.123456
msgs = []
def add(**kw):
    msgs.append(can.Message(timestamp=round(t0 + len(msgs) * 0.001237 + (len(msgs) % 7) * 1e-6, 6), **kw))
for n in range(9):
    add(arbitration_id=0x100 + n, is_extended_id=False, data=bytes(range(n)), channel=n % 3, is_rx=n % 2 == 0)
    add(arbitration_id=0x18DA0000 + n, is_extended_id=True, data=bytes([0xA0 + n] * n), channel=1)
    add(arbitration_id=0x7DF, is_extended_id=False, is_remote_frame=True, dlc=n, channel=2)
for i, n in enumerate([1, 8, 12, 16, 20, 24, 32, 48, 64]):
    add(arbitration_id=0x200 + i, is_extended_id=i % 2 == 1, is_fd=True, bitrate_switch=i % 3 != 0,
        error_state_indicator=i == 4, data=bytes((j * 13 + i) & 255 for j in range(n)), channel=i % 2, is_rx=i % 4 != 1)
add(is_error_frame=True, arbitration_id=0, data=b'', channel=0)
for ext in ('log', 'asc', 'blf'):
    with can.Logger(f'{d}/python.{ext}') as logger:
        for m in msgs:
            logger.on_message_received(m)
print(len(msgs))
`;

interface Row {
  ts: number;
  id: number;
  ext: boolean;
  fd: boolean;
  brs: boolean;
  esi: boolean;
  rtr: boolean;
  err: boolean;
  tx: boolean;
  channel: number | null;
  dlc: number;
  data: string;
}

function python(script: string, ...args: string[]): string {
  // TZ=UTC: python-can turns ASC/BLF wall-clock dates into epoch times in the local zone; we read them as UTC.
  const r = spawnSync(PYTHON, ['-c', script, ...args], { encoding: 'utf8', env: { ...process.env, TZ: 'UTC' }, maxBuffer: 1 << 26 });
  if (r.error || r.status !== 0) throw new Error(`python3 failed (${r.error?.message ?? `exit ${r.status}`}): ${r.stderr}`);
  return r.stdout;
}

const hex = (d: Uint8Array) => Buffer.from(d).toString('hex');

/**
 * One comparable shape for both sides, reduced to what each format can carry:
 * ASC keeps neither id nor data of an error frame, python-can's candump reader keeps only the
 * time of one, and python-can returns DLC zero bytes as the "data" of a BLF remote frame.
 */
function fromFrame(f: CanFrame, fmt: LogFormat): Partial<Row> {
  if (f.err) {
    if (fmt === 'candump') return { ts: f.ts, err: true };
    if (fmt === 'asc') return { ts: f.ts, err: true, channel: f.channel };
    return { ts: f.ts, err: true, channel: f.channel, id: f.id, data: hex(f.data) };
  }
  return {
    ts: f.ts,
    id: f.id,
    ext: f.ext,
    fd: f.fd,
    brs: f.fd && f.brs,
    esi: f.fd && f.esi,
    rtr: f.rtr,
    err: false,
    tx: f.tx,
    channel: f.channel,
    dlc: f.rtr ? (f.dlc ?? 0) : f.data.length,
    data: f.rtr ? '' : hex(f.data),
  };
}

function fromPython(m: Row, fmt: LogFormat): Partial<Row> {
  if (m.err) {
    if (fmt === 'candump') return { ts: m.ts, err: true };
    if (fmt === 'asc') return { ts: m.ts, err: true, channel: m.channel };
    return { ts: m.ts, err: true, channel: m.channel, id: m.id, data: m.data };
  }
  // python-can 4.1 reads an ASC CAN FD line with no data bytes as a remote frame (CAN FD has none).
  const rtr = fmt === 'asc' && m.fd && m.data === '' ? false : m.rtr;
  return { ...m, brs: m.fd && m.brs, esi: m.fd && m.esi, rtr, data: rtr ? '' : m.data, dlc: rtr ? m.dlc : m.data.length / 2 };
}

/** Frames covering what the formats can carry: ids, lengths 0-64, BRS/ESI, remote, channels, direction, µs times. */
function mixedFrames(): CanFrame[] {
  const frames: CanFrame[] = [];
  let ts = 1700000000123456;
  const add = (p: Partial<CanFrame> & Pick<CanFrame, 'id' | 'data'>) => {
    ts += 1237 + (frames.length % 5);
    frames.push(makeFrame({ ts, ...p }));
  };
  for (let n = 0; n <= 8; n++) {
    add({ id: 0x100 + n, data: Uint8Array.from({ length: n }, (_, i) => i * 17 + n), channel: n % 4, tx: n % 2 === 1 });
    add({ id: 0x1abcde00 + n, ext: true, data: new Uint8Array(n).fill(0xf0 | n), channel: 1 });
    add({ id: 0x7df, ext: false, rtr: true, dlc: n, data: new Uint8Array(0), channel: 2 });
    add({ id: 0x18db33f1, ext: true, rtr: true, dlc: n, data: new Uint8Array(0), channel: 3, tx: true });
  }
  FD_LENGTHS.forEach((len, i) => {
    add({
      id: 0x300 + i,
      ext: i % 2 === 1,
      fd: true,
      brs: i % 3 !== 2,
      esi: i % 5 === 1,
      data: Uint8Array.from({ length: len }, (_, j) => (j * 31 + i) & 255),
      channel: i % 2,
      tx: i % 4 === 3,
    });
  });
  add({ id: 0x80, err: true, data: new Uint8Array(8), channel: 0 });
  return frames;
}

const probe = spawnSync(PYTHON, ['-c', 'import can; print(can.__version__)'], { encoding: 'utf8' });

/** Every test fails (not skips) without python-can: the cross-check is a requirement. */
function requirePythonCan(): void {
  if (probe.status !== 0) {
    throw new Error(
      `python3-can is required for the log-format cross-check: apt-get install -y python3-can (${probe.stderr || probe.error?.message})`,
    );
  }
}

let dir = '';
beforeAll(() => {
  if (probe.status === 0) console.info(`python-can ${probe.stdout.trim()}`);
  dir = mkdtempSync(join(tmpdir(), 'loggerhead-logs-'));
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.each(['candump', 'asc', 'blf'] as LogFormat[])('%s and python-can', (fmt) => {
  it('python-can reads the files we write identically', () => {
    requirePythonCan();
    const frames = mixedFrames();
    const path = join(dir, `ours.${EXT[fmt]}`);
    writeFileSync(path, writeLog(frames, fmt));
    const rows = JSON.parse(python(READ, fmt, path)) as Row[];
    expect(rows.map((m) => fromPython(m, fmt))).toEqual(frames.map((f) => fromFrame(f, fmt)));
  });

  it('we read the files python-can writes identically', () => {
    requirePythonCan();
    const count = Number(python(WRITE, dir));
    const path = join(dir, `python.${EXT[fmt]}`);
    const theirs = (JSON.parse(python(READ, fmt, path)) as Row[]).map((m) => fromPython(m, fmt));
    const r = readLog(readFileSync(path));
    expect(r.format).toBe(fmt);
    expect(r.warnings).toEqual([]);
    expect(r.frames).toHaveLength(count);
    expect(r.frames.map((f) => fromFrame(f, fmt))).toEqual(theirs);
  });
});
