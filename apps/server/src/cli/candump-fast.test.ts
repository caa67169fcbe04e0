import { readCandump } from '@loggerhead/can/logs/candump.ts';
import { describe, expect, it } from 'vitest';
import { FastCandump } from './candump-fast.ts';

/** What FastCandump hands out, beside the data frames the library's reader finds in the same bytes. */
function fast(bytes: Uint8Array, cuts: number[]) {
  const seen: { ts: number; channel: number; id: number; ext: boolean; data: number[]; text: string | null }[] = [];
  const r = new FastCandump((ts, channel, id, ext, data, line, t0, t1) =>
    seen.push({
      ts,
      channel,
      id,
      ext,
      data: [...data],
      text: t0 >= 0 ? new TextDecoder().decode(new Uint8Array(line.buffer, line.byteOffset + t0, t1 - t0)) : null,
    }),
  );
  let at = 0;
  for (const c of [...cuts, bytes.length]) {
    r.push(bytes.subarray(at, c));
    at = c;
  }
  const result = r.end();
  return { seen, warnings: result.warnings, error: result.error };
}

function library(bytes: Uint8Array) {
  const r = readCandump(bytes);
  return {
    frames: r.frames
      .filter((f) => !f.rtr && !f.err)
      .map((f) => ({ ts: f.ts, channel: f.channel, id: f.id, ext: f.ext, data: [...f.data] })),
    warnings: r.warnings,
  };
}

// Lines the fast path reads and lines it must leave to the full parser (FD, remote, error frames,
// odd digits, long ids, CRLF, stray carriage returns, blank and broken lines).
const LINES = [
  '(1436509052.249713) can0 123#DEADBEEF',
  '(1436509052.249714) can1 123#DEADBEEF R',
  '(1436509052.249715) vcan12 1FFFFFFF#0011223344556677 T',
  '(1436509052.249716) can0 123#',
  '(1436509052.249717) can0 123#R',
  '(1436509052.249718) can0 123##1DEADBEEF',
  '(1436509052.249719) can0 20000080#0000000000000000',
  '(1436509052.249720) can0 123#ABC',
  '(1436509052.249721) can0 123#001122334455667788',
  '(1436509052.249722) can0 0123#00',
  '(1436509052.249723) can0 800#00',
  '(0001436509052.249724) can0 123#01',
  '(1436509052.2497) can0 123#01',
  '(1436509052.249725) can0 123#01 X',
  '(1436509052.249726) can0 123#01\r',
  '(1436509052.249727) can0 123#01\r\r',
  '(1436509052.249728) can0 123#01 R\r',
  '(1436509052.249729) can0\r 123#01',
  '(1436509052.249730)  can0 123#01',
  '(1436509052.249731) can9999 123#01',
  '(1436509052.249732) can0 123#11.22',
  '(1436509052.249733) can0 123#1122334455667788_9',
  '',
  'not a candump line',
  '(1436509052.249734) can0 7FF#00112233',
];

describe('FastCandump', () => {
  it('hands out the data frames and warnings of the library reader, however the bytes are cut', () => {
    let seed = 12345;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return seed % n;
    };
    for (let round = 0; round < 200; round++) {
      const lines = Array.from({ length: 1 + rnd(40) }, () => LINES[rnd(LINES.length)]);
      let text = lines.join('\n');
      if (rnd(2)) text += '\n'; // with or without a final newline
      if (rnd(5) === 0) text = `\uFEFF${text}`;
      const bytes = new TextEncoder().encode(text);
      const cuts = Array.from({ length: rnd(4) }, () => rnd(bytes.length + 1)).sort((a, b) => a - b);
      const want = library(bytes);
      const got = fast(bytes, cuts);
      expect(
        got.seen.map(({ text: _, ...f }) => f),
        text,
      ).toEqual(want.frames);
      expect(got.warnings, text).toEqual(want.warnings);
      // The timestamp text is handed out only when it is what the decoder prints: candump's own form.
      for (const f of got.seen)
        if (f.text !== null) expect(f.text).toBe(`${Math.floor(f.ts / 1e6)}.${String(f.ts % 1e6).padStart(6, '0')}`);
    }
  });

  it('reads the common lines on the fast path', () => {
    const bytes = new TextEncoder().encode(`${LINES[0]}\r\n${LINES[1]}\n${LINES[2]}`);
    const r = new FastCandump(() => {});
    r.push(bytes);
    r.end();
    expect(r.fast).toBe(3);
  });
});
