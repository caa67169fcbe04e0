import type { DbcSignal } from './dbc.model.ts';

/**
 * Absolute bit index (byte * 8 + bit, bit 0 = LSB of the byte) of each raw bit of a signal,
 * least significant raw bit first.
 *
 * Intel: raw bit i sits at startBit + i. Motorola: the start bit is the MSB; walking towards the
 * LSB goes down within a byte and continues at bit 7 of the next byte (the DBC "sawtooth").
 */
export function signalBitPositions(sig: Pick<DbcSignal, 'startBit' | 'length' | 'byteOrder'>): number[] {
  const out = new Array<number>(sig.length);
  if (sig.byteOrder === 'intel') {
    for (let i = 0; i < sig.length; i++) out[i] = sig.startBit + i;
    return out;
  }
  // Linear big-endian index: 0 is bit 7 of byte 0, 7 is bit 0 of byte 0, 8 is bit 7 of byte 1 ...
  const msb = (sig.startBit >> 3) * 8 + (7 - (sig.startBit & 7));
  for (let i = 0; i < sig.length; i++) {
    const j = msb + (sig.length - 1 - i);
    out[i] = (j >> 3) * 8 + (7 - (j & 7));
  }
  return out;
}

/** Number of payload bytes a frame needs for the whole signal to be present. */
export function signalBytesNeeded(sig: Pick<DbcSignal, 'startBit' | 'length' | 'byteOrder'>): number {
  if (sig.byteOrder === 'intel') return ((sig.startBit + sig.length - 1) >> 3) + 1;
  const msb = (sig.startBit >> 3) * 8 + (7 - (sig.startBit & 7));
  return ((msb + sig.length - 1) >> 3) + 1;
}

/** A contiguous run of raw bits taken from one payload byte. */
export interface BytePiece {
  byte: number;
  /** Lowest bit taken from the byte. */
  shift: number;
  /** Number of bits taken. */
  bits: number;
  /** Position of those bits in the raw value (0 = LSB). */
  rawShift: number;
}

/** The signal's raw bits grouped by payload byte: what the extractor code reads. */
export function signalPieces(sig: Pick<DbcSignal, 'startBit' | 'length' | 'byteOrder'>): BytePiece[] {
  const pos = signalBitPositions(sig);
  const pieces: BytePiece[] = [];
  let i = 0;
  while (i < pos.length) {
    const byte = pos[i] >> 3;
    const shift = pos[i] & 7;
    let n = 1;
    // Consecutive raw bits that are consecutive bits of the same byte form one piece.
    while (i + n < pos.length && pos[i + n] === pos[i] + n && pos[i + n] >> 3 === byte) n++;
    pieces.push({ byte, shift, bits: n, rawShift: i });
    i += n;
  }
  return pieces;
}
