/**
 * `loggerhead decode` writes its lines as bytes, with fast paths for the common values. This holds
 * them to a plain rendering of the library's `decode()` result (JSON text built with strings, values
 * through `num`) on every real DBC at hand (opendbc) with random frames, short frames and extreme
 * payloads, and on the MF4 samples with their J1939 DBC.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DbcDecoder } from '@loggerhead/can/dbc/dbc.decoder.ts';
import { compileDbc } from '@loggerhead/can/dbc/dbc.decoder.ts';
import { parseDbc } from '@loggerhead/can/dbc/dbc.parser.ts';
import type { CanFrame } from '@loggerhead/can/frame.ts';
import { readLog, writeLog } from '@loggerhead/can/logs/index.ts';
import { describe, expect, it } from 'vitest';
import { hasSamples, MF4_DIR } from '../../../../packages/can/test/mf4.helpers.ts';
import { FastCandump } from './candump-fast.ts';
import { csvRows, jsonlWriter, type LineOut } from './decode.ts';
import { ByteOut, num, putInt, special } from './decode-output.ts';

const OPENDBC = process.env.OPENDBC_DIR ?? resolve(fileURLToPath(import.meta.url), '../../../../../../shared/data/opendbc');
const FILES = existsSync(OPENDBC) ? readdirSync(OPENDBC).filter((f) => f.endsWith('.dbc')) : [];
if (FILES.length === 0) console.warn(`opendbc DBC files not found in ${OPENDBC} (set OPENDBC_DIR): real-file output tests skipped`);

function load(path: string): DbcDecoder {
  const r = parseDbc(readFileSync(path, 'utf8'));
  if (!r.ok) throw new Error(`${path}:${r.error.line}:${r.error.col} ${r.error.reason}`);
  return compileDbc(r.dbc);
}

// ---- The plain rendering ----

function secs(us: number): string {
  if (!Number.isSafeInteger(us)) return num(us / 1e6);
  const a = Math.abs(us);
  const s = Math.floor(a / 1e6);
  return `${us < 0 ? '-' : ''}${s}.${String(a - s * 1e6).padStart(6, '0')}`;
}

function value(v: number | bigint, json: boolean): string {
  if (typeof v === 'bigint') return json ? `"${v}"` : String(v);
  if (Number.isFinite(v)) return num(v);
  return json ? `"${special(v)}"` : special(v);
}

function jsonLine(dec: DbcDecoder, f: CanFrame, base: number | undefined, labels: boolean): string | null {
  const d = dec.decode(f, { labels });
  if (!d) return null;
  const signals = Object.entries(d.signals)
    .map(([k, v]) => `${JSON.stringify(k)}: ${value(v, true)}`)
    .join(', ');
  const ts = secs(base === undefined ? f.ts : f.ts - base);
  const line = `{"ts": ${ts}, "channel": "can${f.channel}", "id": ${f.id}, "ext": ${d.ext}, "message": ${JSON.stringify(d.message)}, "signals": {${signals}}`;
  return `${line}${labels ? `, "labels": ${JSON.stringify(d.labels ?? {})}` : ''}}`;
}

const cell = (s: string) => (/[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

function csvText(dec: DbcDecoder, frames: CanFrame[], base: number | undefined): string {
  const used = dec.messages.filter((m) => frames.some((f) => dec.lookup(f.id, f.ext) === m));
  const lines = [['ts', 'channel', 'id', 'ext', 'message', ...used.flatMap((m) => m.names.map((n) => cell(`${m.name}.${n}`)))].join(',')];
  for (const f of frames) {
    const m = dec.lookup(f.id, f.ext);
    const d = dec.decode(f);
    if (!m || !d) continue;
    const cells = used.flatMap((u) => u.names.map((n) => (u === m && n in d.signals ? value(d.signals[n], false) : '')));
    lines.push([secs(base === undefined ? f.ts : f.ts - base), `can${f.channel}`, f.id, m.ext, cell(m.name), ...cells].join(','));
  }
  return `${lines.join('\n')}\n`;
}

// ---- The writers under test ----

function sink(): LineOut {
  return Object.assign(new ByteOut(1 << 16), { closed: false });
}

const text = (out: ByteOut) => new TextDecoder().decode(out.buf.subarray(0, out.pos));

/** The writers fed by the candump fast reader, as the command runs them. */
function viaCandump(dec: DbcDecoder, log: Uint8Array, format: 'jsonl' | 'csv' | 'labels', frames: CanFrame[]): string {
  const out = sink();
  const used = dec.messages.filter((m) => frames.some((f) => dec.lookup(f.id, f.ext) === m));
  const visit = format === 'csv' ? csvRows(dec, undefined, out, used) : jsonlWriter(dec, undefined, format === 'labels', out);
  const reader = new FastCandump(visit);
  // In pieces, as a file is read.
  for (let at = 0; at < log.length; at += 4093) reader.push(log.subarray(at, at + 4093));
  reader.end();
  return text(out);
}

function randomFrames(dec: DbcDecoder, n: number, next: () => number): CanFrame[] {
  const pool = dec.messages.filter((m) => m.message.length > 0);
  const frames: CanFrame[] = [];
  for (let i = 0; pool.length && i < n; i++) {
    const m = pool[next() % pool.length];
    let len = m.message.length;
    if (next() % 8 === 0) len = next() % (len + 1); // a short frame
    const data = new Uint8Array(len);
    for (let j = 0; j < len; j++) data[j] = next() & 0xff;
    if (next() % 16 === 0) data.fill(next() % 2 ? 0xff : 0); // extremes: wide integers, NaN floats
    frames.push({
      ts: 1_700_000_000_000_000 + i * 1237,
      channel: next() % 3,
      id: m.id,
      ext: m.ext,
      fd: len > 8,
      brs: false,
      esi: false,
      rtr: false,
      err: false,
      tx: false,
      data,
    });
  }
  return frames;
}

describe('decode output', () => {
  it('writes integers as String() does', () => {
    const out = new ByteOut(64);
    for (const v of [
      0,
      -0,
      7,
      9,
      10,
      99,
      100,
      101,
      999,
      1000,
      65535,
      -1,
      -10,
      -99,
      -100,
      2 ** 31 - 1,
      2 ** 31,
      -(2 ** 31),
      2 ** 32 + 5,
      2 ** 53 - 1,
      -(2 ** 53 - 1),
    ]) {
      out.pos = putInt(out.buf, 0, v);
      expect(text(out)).toBe(String(v));
    }
    let seed = 99;
    for (let i = 0; i < 20000; i++) {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      const v = (seed % 2 ? -1 : 1) * Math.floor((seed / 2 ** 32) * 10 ** (seed % 16));
      out.pos = putInt(out.buf, 0, v);
      expect(text(out)).toBe(String(v));
    }
  });

  it.skipIf(FILES.length === 0)(
    'is the plain rendering of the decoded frames, on every opendbc file, in JSON, with labels and in CSV',
    () => {
      let seed = 0x2545f491;
      const next = () => {
        seed ^= seed << 13;
        seed ^= seed >>> 17;
        seed ^= seed << 5;
        return seed >>> 0;
      };
      let lines = 0;
      for (const file of FILES) {
        const dec = load(join(OPENDBC, file));
        const log = writeLog(randomFrames(dec, 300, next), 'candump');
        // The frames as the library reads them back (a CAN FD length that is not a valid one is skipped).
        const frames = readLog(log, 'candump').frames;
        const want = (labels: boolean) =>
          frames
            .map((f) => jsonLine(dec, f, undefined, labels))
            .filter((l) => l !== null)
            .map((l) => `${l}\n`)
            .join('');
        expect(viaCandump(dec, log, 'jsonl', frames), file).toBe(want(false));
        expect(viaCandump(dec, log, 'labels', frames), file).toBe(want(true));
        expect(viaCandump(dec, log, 'csv', frames), file).toBe(csvText(dec, frames, undefined));
        lines += frames.length;
      }
      expect(lines).toBeGreaterThan(10_000);
    },
  );

  it.skipIf(!hasSamples)('is the plain rendering of the MF4 samples decoded with their J1939 DBC (times since the start)', () => {
    const dec = load(join(MF4_DIR, 'css-j1939-demo.dbc'));
    for (const name of ['canedge-j1939-a.MF4', 'canedge-b.MF4']) {
      const r = readLog(new Uint8Array(readFileSync(join(MF4_DIR, name))), 'mf4');
      const frames = r.frames.filter((f) => !f.rtr && !f.err);
      const base = r.startTime;
      const json = sink();
      const visit = jsonlWriter(dec, base, false, json);
      const used = dec.messages.filter((m) => frames.some((f) => dec.lookup(f.id, f.ext) === m));
      const csv = sink();
      const row = csvRows(dec, base, csv, used);
      const none = new DataView(new ArrayBuffer(0));
      for (const f of frames) {
        visit(f.ts, f.channel, f.id, f.ext, f.data, none, -1, -1);
        row(f.ts, f.channel, f.id, f.ext, f.data, none, -1, -1);
      }
      const want = frames
        .map((f) => jsonLine(dec, f, base, false))
        .filter((l) => l !== null)
        .map((l) => `${l}\n`)
        .join('');
      expect(want.length).toBeGreaterThan(1000);
      expect(text(json), name).toBe(want);
      expect(text(csv), name).toBe(csvText(dec, frames, base));
    }
  });
});
