import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { type CanFrame, type CompiledMessage, compileDbc, type DbcDecoder, readLog } from '@loggerhead/can';
import { readDbcFile } from './dbc.ts';

const USAGE = `Usage: loggerhead decode --dbc FILE --log FILE [--format jsonl|csv] [--labels]

Decodes a CAN log (candump -L, Vector ASC or BLF, detected from the content) with a DBC file.
Prints one line per decoded frame, in log order; frames whose id the DBC lacks are skipped.
  jsonl (default)  {"ts": seconds, "channel": "can0", "id": n, "ext": bool, "message": name, "signals": {...}}
  csv              one row per frame: ts,channel,id,ext,message, then a MESSAGE.SIGNAL column per signal
  --labels         jsonl: add "labels": {signal: value-table label} where the DBC has one`;

/**
 * Physical values print without binary noise (0.1 * 3 prints 0.3, not 0.30000000000000004): the
 * 15-digit form is taken only when it is within two ulps of the value, so real precision is kept.
 */
function num(v: number): string {
  if (Number.isInteger(v) || !Number.isFinite(v)) return JSON.stringify(v);
  const short = Number(v.toPrecision(15));
  return String(Math.abs(short - v) <= Math.abs(v) * 4.5e-16 ? short : v);
}

/** Seconds with the log's microseconds exactly (epoch seconds need 16 digits). */
function seconds(us: number): string {
  if (!Number.isSafeInteger(us)) return num(us / 1e6);
  const sign = us < 0 ? '-' : '';
  const a = Math.abs(us);
  return `${sign}${Math.floor(a / 1e6)}.${String(a % 1e6).padStart(6, '0')}`;
}

/** Buffered stdout that waits when the pipe is full and stops quietly when it is closed (`| head`). */
class Output {
  private chunks: string[] = [];
  private size = 0;
  closed = false;

  constructor() {
    process.stdout.on('error', () => {
      this.closed = true;
    });
  }

  async line(s: string): Promise<void> {
    this.chunks.push(s, '\n');
    this.size += s.length + 1;
    if (this.size >= 1 << 16) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.closed || this.size === 0) return;
    const text = this.chunks.join('');
    this.chunks = [];
    this.size = 0;
    if (!process.stdout.write(text)) await new Promise<void>((ok) => process.stdout.once('drain', ok).once('error', ok));
  }
}

function timeOf(f: CanFrame, start: number | undefined): string {
  // Seconds as the log writes them: candump has epoch times, ASC/BLF times since the recording start.
  return seconds(start === undefined ? f.ts : f.ts - start);
}

export async function decode(args: string[]): Promise<number> {
  let opts: { dbc?: string; log?: string; format?: string; labels?: boolean; help?: boolean };
  try {
    opts = parseArgs({
      args,
      options: {
        dbc: { type: 'string' },
        log: { type: 'string' },
        format: { type: 'string', default: 'jsonl' },
        labels: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (e) {
    console.error(`loggerhead decode: ${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (opts.help) {
    console.log(USAGE);
    return 0;
  }
  if (!opts.dbc || !opts.log || (opts.format !== 'jsonl' && opts.format !== 'csv')) {
    console.error(USAGE);
    return 2;
  }

  let decoder: DbcDecoder;
  try {
    const r = await readDbcFile(opts.dbc);
    if (!r.ok) {
      console.error(`${opts.dbc}:${r.error.line}:${r.error.col} ${r.error.reason}`);
      return 1;
    }
    decoder = compileDbc(r.dbc);
  } catch (e) {
    console.error(`loggerhead decode: ${opts.dbc}: ${(e as Error).message}`);
    return 1;
  }
  let bytes: Uint8Array;
  try {
    bytes = await readFile(opts.log);
  } catch (e) {
    console.error(`loggerhead decode: ${opts.log}: ${(e as Error).message}`);
    return 1;
  }
  const log = readLog(bytes);
  if (log.error) {
    console.error(`loggerhead decode: ${opts.log}: ${log.error}`);
    return 1;
  }
  for (const w of log.warnings.slice(0, 5)) console.error(`${opts.log}:${w.line ?? w.offset ?? '?'} ${w.message} (skipped)`);

  const out = new Output();
  const start = log.format === 'candump' ? undefined : log.startTime;
  const frames = log.frames.filter((f) => !f.rtr && !f.err);
  if (opts.format === 'jsonl') await writeJsonl(decoder, frames, start, !!opts.labels, out);
  else await writeCsv(decoder, frames, start, out);
  await out.flush();
  return 0;
}

async function writeJsonl(decoder: DbcDecoder, frames: CanFrame[], start: number | undefined, labels: boolean, out: Output): Promise<void> {
  const values = new Float64Array(decoder.maxSignals);
  for (const f of frames) {
    if (out.closed) return;
    const m = decoder.decodeInto(f.id, f.ext, f.data, values);
    if (!m) continue;
    const parts: string[] = [];
    for (let i = 0; i < m.names.length; i++) if (!Number.isNaN(values[i])) parts.push(`${JSON.stringify(m.names[i])}: ${num(values[i])}`);
    let line = `{"ts": ${timeOf(f, start)}, "channel": "can${f.channel}", "id": ${f.id}, "ext": ${f.ext}, "message": ${JSON.stringify(m.name)}, "signals": {${parts.join(', ')}}`;
    if (labels) {
      const d = decoder.decode(f, { labels: true });
      line += `, "labels": ${JSON.stringify(d?.labels ?? {})}`;
    }
    await out.line(`${line}}`);
  }
}

function csvCell(s: string): string {
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

async function writeCsv(decoder: DbcDecoder, frames: CanFrame[], start: number | undefined, out: Output): Promise<void> {
  // Columns for the messages that occur in the log, in DBC order: one pass to find them.
  const seen = new Set<CompiledMessage>();
  for (const f of frames) {
    const m = decoder.lookup(f.id, f.ext);
    if (m) seen.add(m);
  }
  const used = decoder.messages.filter((m) => seen.has(m));
  const column = new Map<CompiledMessage, number>();
  let width = 0;
  for (const m of used) {
    column.set(m, width);
    width += m.names.length;
  }
  await out.line(
    ['ts', 'channel', 'id', 'ext', 'message', ...used.flatMap((m) => m.names.map((n) => csvCell(`${m.name}.${n}`)))].join(','),
  );
  const values = new Float64Array(decoder.maxSignals);
  const row = new Array<string>(width);
  for (const f of frames) {
    if (out.closed) return;
    const m = decoder.decodeInto(f.id, f.ext, f.data, values);
    if (!m) continue;
    row.fill('');
    const at = column.get(m)!;
    for (let i = 0; i < m.names.length; i++) if (!Number.isNaN(values[i])) row[at + i] = num(values[i]);
    await out.line(`${timeOf(f, start)},can${f.channel},${f.id},${f.ext},${csvCell(m.name)}${width ? `,${row.join(',')}` : ''}`);
  }
}
