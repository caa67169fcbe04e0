/**
 * Unlock files: how a key is computed from a seed for SecurityAccess (0x27). Real ECUs use secret
 * vendor algorithms in DLLs; Loggerhead defines a small declarative format instead, so an unlock
 * file is data, never code:
 *
 * ```json
 * {"format": "loggerhead-unlock/1", "level": 1,
 *  "steps": [{"op": "xor", "hex": "A5A5A5A5"}, {"op": "add", "hex": "00000001"}, {"op": "rotl", "bits": 8}, {"op": "not"}]}
 * ```
 *
 * The seed is an unsigned big-endian integer of its own length (n bytes); each step transforms it
 * modulo 2^(8n): `xor` / `add` / `mul` with a constant (its bytes repeated or cut to n), `rotl` /
 * `rotr` by a number of bits, `not`, `reverse` (byte order). The result is the key, n bytes.
 */

export type UnlockStep = { op: 'xor' | 'add' | 'mul'; hex: string } | { op: 'rotl' | 'rotr'; bits: number } | { op: 'not' | 'reverse' };

export interface UnlockFile {
  format: 'loggerhead-unlock/1';
  /** SecurityAccess level (odd: the requestSeed sub-function). */
  level: number;
  steps: UnlockStep[];
}

/** Validates an unlock file's JSON; returns the file or a reason. */
export function parseUnlockFile(json: unknown): UnlockFile | string {
  const o = json as Partial<UnlockFile> | null;
  if (!o || typeof o !== 'object' || o.format !== 'loggerhead-unlock/1') return 'format must be "loggerhead-unlock/1"';
  if (!Number.isInteger(o.level) || (o.level as number) < 1 || (o.level as number) > 0x7d || (o.level as number) % 2 !== 1)
    return 'level must be an odd number 1-125';
  if (!Array.isArray(o.steps) || o.steps.length === 0 || o.steps.length > 64) return 'steps: 1-64 steps';
  for (const [i, s] of o.steps.entries()) {
    const st = s as { op?: string; hex?: unknown; bits?: unknown };
    if (st.op === 'xor' || st.op === 'add' || st.op === 'mul') {
      if (typeof st.hex !== 'string' || !/^([0-9a-fA-F]{2}){1,64}$/.test(st.hex)) return `steps.${i}.hex must be hex bytes`;
    } else if (st.op === 'rotl' || st.op === 'rotr') {
      if (!Number.isInteger(st.bits) || (st.bits as number) < 0 || (st.bits as number) > 512) return `steps.${i}.bits must be 0-512`;
    } else if (st.op !== 'not' && st.op !== 'reverse') return `steps.${i}.op unknown`;
  }
  return o as UnlockFile;
}

const toBig = (b: Uint8Array) => b.reduce((v, x) => (v << 8n) | BigInt(x), 0n);
const fromBig = (v: bigint, n: number) => {
  const out = new Uint8Array(n);
  for (let i = n - 1; i >= 0; i--) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
};
function constant(hex: string, n: number): bigint {
  const src = Uint8Array.from(hex.match(/../g)?.map((b) => Number.parseInt(b, 16)) ?? []);
  // Right-aligned: a shorter constant is repeated from the right, a longer one keeps its last n bytes.
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[n - 1 - i] = src[src.length - 1 - (i % src.length)];
  return toBig(out);
}

export function computeKey(seed: Uint8Array, file: Pick<UnlockFile, 'steps'>): Uint8Array {
  const n = seed.length;
  if (n === 0) return new Uint8Array(0);
  const bits = BigInt(8 * n);
  const mask = (1n << bits) - 1n;
  let v = toBig(seed);
  for (const s of file.steps) {
    switch (s.op) {
      case 'xor':
        v ^= constant(s.hex, n);
        break;
      case 'add':
        v = (v + constant(s.hex, n)) & mask;
        break;
      case 'mul':
        v = (v * constant(s.hex, n)) & mask;
        break;
      case 'rotl':
      case 'rotr': {
        const r = BigInt(s.bits % (8 * n));
        const k = s.op === 'rotl' ? r : (bits - r) % bits;
        v = ((v << k) | (v >> (bits - k))) & mask;
        break;
      }
      case 'not':
        v = ~v & mask;
        break;
      case 'reverse':
        v = toBig(fromBig(v, n).reverse());
        break;
    }
  }
  return fromBig(v, n);
}
