/**
 * Cross-check against an independent implementation: Debian's python3-can (4.1).
 * (a) files we write must read back identically in python-can;
 * (b) files python-can writes — plain and gzip-compressed — must read here exactly as python-can
 *     reads them;
 * (c) files with the kinds of tricky lines python-can's own test data carries (CANoe trailers,
 *     64-byte CANFD lines without the EDL flag, symbolic names, error frames in both ASC forms,
 *     status and J1939 lines, TRC warning lines …) must read here as python-can reads them, but
 *     for the differences listed with their reason.
 * python-can is required: without it these tests fail (scripts/test.sh installs it).
 *
 * Channel numbering: ASC and BLF hold 1-based channels in the file; python-can and we both
 * report them 0-based. candump holds interface names; python-can keeps the name ("can1"), we take
 * its trailing number (1). TRC holds 1-based buses; python-can 4.1 reports them as written, we
 * 0-based. python-can 4.1 reads TRC times as offsets from the start (it ignores `$STARTTIME`), so
 * TRC times are compared as offsets, and it reads only the `DT` (classic data) lines of TRC 2.1.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CanFrame, FD_LENGTHS, makeFrame } from '../src/frame.ts';
import { type LogReadResult, readLog, writeLog } from '../src/logs/index.ts';

const PYTHON = '/usr/bin/python3';
type PyFormat = 'candump' | 'asc' | 'blf' | 'trc';
const FORMATS: PyFormat[] = ['candump', 'asc', 'blf', 'trc'];
const EXT: Record<PyFormat, string> = { candump: 'log', asc: 'asc', blf: 'blf', trc: 'trc' };

/** Prints what python-can reads from a file (gzip or not) as JSON, one object per message. */
const READ = `
import sys, json, re, gzip, can
fmt, path = sys.argv[1], sys.argv[2]
binary = fmt == 'blf'
f = gzip.open(path, 'rb' if binary else 'rt') if path.endswith('.gz') else path
if fmt == 'candump': reader = can.CanutilsLogReader(f)
elif fmt == 'asc': reader = can.ASCReader(f, relative_timestamp=False)
elif fmt == 'trc': reader = can.TRCReader(f)
else: reader = can.BLFReader(f)
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

/**
 * Writes a mixed set of messages with python-can's own writers (can.Logger picks by extension,
 * .gz compresses; python-can 4.1 writes no BLF into gzip, so that one is compressed afterwards).
 */
const WRITE = `
import sys, gzip, shutil, can
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
for ext in ('log', 'asc', 'blf', 'trc', 'log.gz', 'asc.gz', 'trc.gz'):
    with can.Logger(f'{d}/python.{ext}') as logger:
        for m in msgs:
            logger.on_message_received(m)
with open(f'{d}/python.blf', 'rb') as src, gzip.open(f'{d}/python.blf.gz', 'wb') as dst:
    shutil.copyfileobj(src, dst)
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
 * One comparable shape for both sides, reduced to what each format (and python-can's reader of
 * it) carries of an error frame: python-can's candump reader keeps only its time; ASC neither id
 * nor data (python-can also takes the CAN FD mark and direction of a `CANFD … ErrorFrame` line);
 * BLF keeps channel, id and data; python-can 4.1 reads no TRC error lines.
 */
function fromFrame(f: CanFrame, fmt: PyFormat, start = 0): Partial<Row> {
  const ts = f.ts - start;
  if (f.err) {
    if (fmt === 'candump') return { ts, err: true };
    if (fmt === 'asc') return f.fd ? { ts, err: true, channel: f.channel, fd: true, tx: f.tx } : { ts, err: true, channel: f.channel };
    return { ts, err: true, channel: f.channel, id: f.id, data: hex(f.data) };
  }
  return {
    ts,
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

function fromPython(m: Row, fmt: PyFormat): Partial<Row> {
  if (m.err) {
    if (fmt === 'candump') return { ts: m.ts, err: true };
    if (fmt === 'asc')
      return m.fd ? { ts: m.ts, err: true, channel: m.channel, fd: true, tx: m.tx } : { ts: m.ts, err: true, channel: m.channel };
    return { ts: m.ts, err: true, channel: m.channel, id: m.id, data: m.data };
  }
  // python-can 4.1 reads an ASC CAN FD line with no data bytes as a remote frame (CAN FD has none).
  const rtr = fmt === 'asc' && m.fd && m.data === '' ? false : m.rtr;
  const channel = fmt === 'trc' && m.channel !== null ? m.channel - 1 : m.channel;
  return { ...m, channel, brs: m.fd && m.brs, esi: m.fd && m.esi, rtr, data: rtr ? '' : m.data, dlc: rtr ? m.dlc : m.data.length / 2 };
}

/** TRC in python-can 4.1: classic data frames only, times as offsets from the start. */
const pythonReads = (f: CanFrame, fmt: PyFormat) => fmt !== 'trc' || (!f.fd && !f.rtr && !f.err);
/** python-can 4.1 reads no CAN_FD_ERROR_64 objects (an error on a CAN FD frame) from BLF. */
const pythonReadsBlf = (f: CanFrame, fmt: PyFormat) => fmt !== 'blf' || !(f.err && f.fd);

/** Frames covering what the formats can carry: ids, lengths 0-64, BRS/ESI, remote, error, channels, direction, µs times. */
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
  // An error on a CAN FD channel, sent by the logger.
  add({ id: 0x80, err: true, fd: true, tx: true, data: new Uint8Array(0), channel: 1 });
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
let written = 0;
beforeAll(() => {
  if (probe.status === 0) console.info(`python-can ${probe.stdout.trim()}`);
  dir = mkdtempSync(join(tmpdir(), 'loggerhead-logs-'));
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** python-can's files of the mixed messages, written once. */
function pythonFiles(): number {
  if (!written) written = Number(python(WRITE, dir));
  return written;
}

/** Our frames in the shape python-can reports them; TRC times as offsets from the file's start. */
const ours = (r: LogReadResult, fmt: PyFormat) => r.frames.map((f) => fromFrame(f, fmt, fmt === 'trc' ? (r.startTime ?? 0) : 0));

describe.each(FORMATS)('%s and python-can', (fmt) => {
  it('python-can reads the files we write identically', () => {
    requirePythonCan();
    const frames = mixedFrames();
    const path = join(dir, `ours.${EXT[fmt]}`);
    writeFileSync(path, writeLog(frames, fmt));
    const start = fmt === 'trc' ? (readLog(readFileSync(path), fmt).startTime ?? 0) : 0;
    const rows = JSON.parse(python(READ, fmt, path)) as Row[];
    const want = frames.filter((f) => pythonReads(f, fmt) && pythonReadsBlf(f, fmt)).map((f) => fromFrame(f, fmt, start));
    expect(rows.map((m) => fromPython(m, fmt))).toEqual(want);
  });

  it.each(['', '.gz'])('we read the files python-can writes (%s) identically', (gz) => {
    requirePythonCan();
    const count = pythonFiles();
    const path = join(dir, `python.${EXT[fmt]}${gz}`);
    const theirs = (JSON.parse(python(READ, fmt, path)) as Row[]).map((m) => fromPython(m, fmt));
    const r = readLog(readFileSync(path));
    expect(r.format).toBe(fmt);
    expect(r.warnings).toEqual([]);
    if (fmt !== 'trc') expect(r.frames).toHaveLength(count);
    expect(theirs.length).toBeGreaterThan(0);
    expect(ours(r, fmt)).toEqual(theirs);
  });
});

const zeros = (n: number) => Array(n).fill('00').join(' ');

interface Tricky {
  name: string;
  fmt: PyFormat;
  text: string;
  /**
   * Where we deliberately read otherwise than python-can: python-can's row at `index` becomes
   * `as` (a reason each). Rows python-can does not produce at all are in `extra`.
   */
  differ?: { index: number; as: Partial<Row>; why: string }[];
  extra?: { index: number; why: string }[];
}

const TRICKY: Tricky[] = [
  {
    name: 'a CANoe ASC with events, trailers, names, 64-byte CANFD lines without EDL and error frames',
    fmt: 'asc',
    text: [
      'date Sam Sep 30 15:06:13.191 2017',
      'base hex  timestamps absolute',
      'internal events logged',
      '// version 9.0.0',
      'Begin Triggerblock Sam Sep 30 15:06:13.191 2017',
      '   0.000000 Start of measurement',
      '   0.015991 CAN 1 Status:chip status error passive - TxErr: 132 RxErr: 0',
      '   1.015991 1  Statistic: D 0 R 0 XD 0 XR 0 E 0 O 0 B 0.00%',
      '   3.098426 1  18EBFF00x       Rx   d 8 01 A0 0F A6 60 3B D1 40  Length = 273910 BitCount = 141 ID = 418119424x',
      '   3.297743 1  J1939TP FEE3p        6    0  0   -   Rx   d 23 A0 0F A6 60 3B D1 40 1F DE 80 25 DF C0 2B E1 00 4B FF',
      '  17.876708 2  6F9             Tx   d 8 05 0C 00 00 00 00 00 00  Length = 240015 BitCount = 124 ID = 1785',
      '  18.000000 1  7DF             Rx   r 8',
      '  18.100000 1  7DF             Rx   r',
      `  30.506898 CANFD   4 Rx        4EE                                   0 1 f 64 A1 02 ${zeros(62)} 64 1331984 11 0 46500250 460a0250 20011736 20010205`,
      `  31.506898 CANFD   4 Rx        1C4D80A7x    AlphaNumericName_2       1 0 f 64 B1 02 ${zeros(62)} 64 1331984 11 0 46500250 460a0250 20011736 20010205`,
      '  32.005021 CANFD   1 Rx        300                                   1 0 8  8 11 c2 03 04 05 06 07 08   102203  133   303000 e0006659 46500250 4b140250 20011736 2001040d',
      '  33.300981 CANFD   3 Tx     50005x                                0 1 5 0 140000 73 200050 7a60 46500250 460a0250 20011736 20010205',
      '  34.000000 CANFD   2 Rx        123                                   0 0 8  8 01 02 03 04 05 06 07 08   0  0   0 0 0 0 0 0',
      '  35.501000 1 ErrorFrame',
      '  36.501000 2 ErrorFrame Flags = 0xe CodeExt = 0x20a2 Code = 0x82 ID = 0 DLC = 0 Position = 5 Length = 11300',
      '  37.806898 CANFD   5 Tx ErrorFrame Not Acknowledge error, dominant error flag fffe c7 31ca Arb. 556 44 0 0 f 64',
      'End TriggerBlock',
      '',
    ].join('\n'),
    differ: [
      {
        index: 7,
        as: { fd: false, rtr: true, esi: false, dlc: 5 },
        why: 'CAN FD has no remote frames: a CANFD line with the RTR flag and without EDL is a classic remote frame',
      },
      { index: 8, as: { fd: false }, why: 'flags 0 (EDL unset): a classic frame logged on a CAN FD channel' },
    ],
  },
  {
    name: 'a candump log with interface names, no direction, short times, FD flags and error classes',
    fmt: 'candump',
    text: [
      '(1436509052.249713) vcan0 123#DEADBEEF',
      '(1436509052.3) slcan1 1F334455#1122 T',
      '(1436509053.0) can2 7DF#R',
      '(1436509053.1) can2 7DF#R5 R',
      '(1436509053.2) can0 123##1DEADBEEFDEADBEEFDEADBEEF',
      '(1436509053.3) can0 12345678##3' + '00'.repeat(64),
      '(1436509053.4) can0 20000080#0000000000000000',
      '(1436509053.5) can0 20000004#0004000000000000',
      '',
    ].join('\n'),
    differ: [
      {
        index: 7,
        as: { err: true },
        why: 'python-can takes only the bus-error class (0x80) for an error frame; CAN_ERR_FLAG marks any class as one',
      },
    ],
  },
  {
    name: 'a PEAK TRC 1.1 with warning and error lines',
    fmt: 'trc',
    text: [
      ';$FILEVERSION=1.1',
      ';$STARTTIME=37704.5364870833',
      ';',
      ';   Start time: 24.03.2003 12:52:32.484',
      ';---+--   ----+----  --+--  ----+---  +  -+ -- -- -- -- -- -- --',
      '     1)      1059.9  Rx         0300  7  00 00 00 00 04 00 00  ',
      '     2)      1283.2  Tx     18EFC034  2  00 11  ',
      '     3)      1346.8  Warng  FFFFFFFF  4  00 00 00 04  BUSLIGHT ',
      '     4)      1349.2  Error      0008  4  00 19 08 08 ',
      '     5)      1352.7  Rx         0100  0  ',
      '',
    ].join('\r\n'),
    extra: [{ index: 2, why: 'python-can 4.1 reads no TRC error lines; they are error frames' }],
  },
  {
    name: 'a PEAK TRC 2.1 with CAN FD, remote, error, status and event lines',
    fmt: 'trc',
    text: [
      ';$FILEVERSION=2.1',
      ';$STARTTIME=41766.4648963872',
      ';$COLUMNS=N,O,T,B,I,d,R,L,D',
      ';',
      '      1      1059.900 DT 1      0300 Rx -  7    00 00 00 00 04 00 00  ',
      '      2      1283.231 DT 2  18EFC034 Tx -  8    01 02 03 04 05 06 07 08 ',
      '      3      1334.416 FD 1      0500 Tx -  9    01 02 03 04 05 06 07 08 09 0A 0B 0C ',
      '      4      1334.222 ER 1         - Rx -  5    04 00 02 00 00 ',
      '      5      1334.224 EV 1  User-defined event for bus 1 ',
      '      6      1334.231 ST 1         - Rx -  4    00 00 00 08 ',
      '      7      1334.643 EC 1         - Rx -  2    02 02 ',
      '      8      1336.543 RR 1      0100 Rx -  3 ',
      '      9      1337.000 FB 1      0501 Rx -  15   ' + '0F '.repeat(64),
      '',
    ].join('\r\n'),
    extra: [
      { index: 2, why: 'python-can 4.1 reads only DT lines of TRC 2.1: CAN FD' },
      { index: 3, why: 'an error frame' },
      { index: 4, why: 'a remote frame' },
      { index: 5, why: 'CAN FD with BRS' },
    ],
  },
];

describe.each(TRICKY)('$name', (c) => {
  it('reads as python-can reads it, but for the listed differences', () => {
    requirePythonCan();
    const path = join(dir, `tricky-${TRICKY.indexOf(c)}.${EXT[c.fmt]}`);
    writeFileSync(path, c.text);
    const rows = JSON.parse(python(READ, c.fmt, path)) as Row[];
    for (const d of c.differ ?? []) rows[d.index] = { ...rows[d.index], ...d.as };
    const theirs = rows.map((m) => fromPython(m, c.fmt));
    const r = readLog(readFileSync(path));
    expect(r.format).toBe(c.fmt);
    expect(r.warnings).toEqual([]);
    const got = ours(r, c.fmt);
    const extra = new Set((c.extra ?? []).map((e) => e.index));
    expect(got.filter((_, i) => !extra.has(i))).toEqual(theirs);
    // The frames python-can leaves out are still read here, as what they are.
    expect(got.length).toBe(theirs.length + extra.size);
  });
});
