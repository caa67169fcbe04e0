import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileDbc } from '../src/dbc/dbc.decoder.ts';
import { parseDbc } from '../src/dbc/dbc.parser.ts';

const DIR = process.env.OPENDBC_DIR ?? resolve(fileURLToPath(import.meta.url), '../../../../../shared/data/opendbc');
const SEEDS = [
  'toyota_nodsu_pt_generated.dbc',
  'vw_pq.dbc',
  'tesla_can.dbc',
  'gm_global_a_object.dbc',
  'hyundai_canfd_generated.dbc',
  'mazda_2017.dbc',
]
  .map((f) => join(DIR, f))
  .filter((p) => existsSync(p))
  .map((p) => readFileSync(p, 'utf8'));
// Without the real files, mutate a small file that still uses most of the grammar.
if (SEEDS.length === 0)
  SEEDS.push(`VERSION ""
NS_ :
\tCM_
BS_:
BU_: A B
BO_ 100 M: 8 A
 SG_ S M : 0|4@1+ (1,0) [0|15] "" B
 SG_ T m1M : 4|4@1+ (1,0) [0|15] "" B
 SG_ U m2 : 8|16@0- (.5,-3) [0|0] "unit" B
BO_ 2147483848 E: 64 A
 SG_ F : 0|32@1- (1,0) [0|0] "" B
CM_ SG_ 100 U "a \\"quoted\\" comment";
BA_DEF_ BO_ "VFrameFormat" ENUM "StandardCAN","ExtendedCAN","StandardCAN_FD","ExtendedCAN_FD";
BA_ "VFrameFormat" BO_ 2147483848 3;
VAL_ 100 S 0 "zero" 1 "one" ;
SIG_VALTYPE_ 2147483848 F : 1;
SG_MUL_VAL_ 100 U T 2-3;
`);

/**
 * Generous per-input bound on the CPU time this process spends (not wall time, which a loaded
 * machine stretches at will): a hang or quadratic blow-up is orders of magnitude above it.
 */
const MAX_CPU_MS = 2000;

/** CPU milliseconds (user + system) this process has used. */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

function check(text: string): void {
  const t0 = cpuMs();
  const r = parseDbc(text);
  if (r.ok) {
    const dec = compileDbc(r.dbc);
    const out = new Float64Array(dec.maxSignals);
    const data = new Uint8Array(64).fill(0xa5);
    for (const m of dec.messages) {
      dec.decodeInto(m.id, m.ext, data, out);
      dec.decodeInto(m.id, m.ext, data.subarray(0, 3), out);
    }
  } else {
    expect(r.error.line).toBeGreaterThanOrEqual(1);
    expect(r.error.col).toBeGreaterThanOrEqual(1);
    expect(r.error.reason.length).toBeGreaterThan(0);
    // parseDbc turns its own bugs into a refusal too; the fuzz must still see them.
    expect(r.error.reason).not.toMatch(/^internal error/);
  }
  const ms = cpuMs() - t0;
  if (ms > MAX_CPU_MS) throw new Error(`took ${ms.toFixed(0)} ms of CPU time`);
}

const TOKENS = [
  '"',
  ';',
  ':',
  '|',
  '@',
  '(',
  ')',
  '[',
  ']',
  ',',
  '-',
  '+',
  '.',
  '\n',
  '\r\n',
  ' ',
  '\t',
  '\\"',
  'BO_ ',
  'SG_ ',
  'CM_ ',
  'VAL_ ',
  'BA_ ',
  'BA_DEF_ ',
  'SG_MUL_VAL_ ',
  'SIG_VALTYPE_ ',
  'EV_ ',
  ' M ',
  ' m1M ',
  '99999999999999999999',
  '1e309',
  '0x1F',
  '64',
  '-1',
  'é',
];

const mutation = fc.oneof(
  fc.record({ op: fc.constant('delete' as const), at: fc.double({ min: 0, max: 1, noNaN: true }), len: fc.integer({ min: 1, max: 200 }) }),
  fc.record({ op: fc.constant('insert' as const), at: fc.double({ min: 0, max: 1, noNaN: true }), text: fc.constantFrom(...TOKENS) }),
  fc.record({ op: fc.constant('noise' as const), at: fc.double({ min: 0, max: 1, noNaN: true }), text: fc.string({ maxLength: 20 }) }),
  fc.record({
    op: fc.constant('duplicate' as const),
    at: fc.double({ min: 0, max: 1, noNaN: true }),
    from: fc.double({ min: 0, max: 1, noNaN: true }),
    len: fc.integer({ min: 1, max: 2000 }),
  }),
  fc.record({ op: fc.constant('truncate' as const), at: fc.double({ min: 0, max: 1, noNaN: true }) }),
);

type Mutation = typeof mutation extends fc.Arbitrary<infer T> ? T : never;

function mutate(text: string, ms: Mutation[]): string {
  let s = text;
  for (const m of ms) {
    const i = Math.floor(m.at * s.length);
    if (m.op === 'delete') s = s.slice(0, i) + s.slice(i + m.len);
    else if (m.op === 'insert' || m.op === 'noise') s = s.slice(0, i) + m.text + s.slice(i);
    else if (m.op === 'duplicate') {
      const f = Math.floor(m.from * s.length);
      s = s.slice(0, i) + s.slice(f, f + m.len) + s.slice(i);
    } else s = s.slice(0, i);
  }
  return s;
}

describe('parseDbc: fuzz', () => {
  it('never throws or hangs on random bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 4096 }), (b) => check(new TextDecoder('latin1').decode(b))),
      { numRuns: 300 },
    );
  });

  it('never throws or hangs on random DBC-like token soup', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...TOKENS, 'A', '1', '100', 'X'), { maxLength: 400 }), (t) => check(t.join(''))),
      { numRuns: 500 },
    );
  });

  it('never throws or hangs on mutated real DBC files', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: SEEDS.length - 1 }), fc.array(mutation, { minLength: 1, maxLength: 8 }), (seed, ms) =>
        check(mutate(SEEDS[seed], ms)),
      ),
      { numRuns: 400 },
    );
  });

  it('stays fast on pathological inputs', () => {
    check(`"${'x'.repeat(1_000_000)}`);
    check(`NS_ :\n${'\tCM_\n'.repeat(100_000)}`);
    check('BO_ 1 M: 8 E\n'.repeat(50_000));
    check(`BO_ 1 M: 64 E\n${' SG_ S : 0|64@1+ (1,0) [0|0] "" X\n'.repeat(5_000)}`);
    check(
      `BO_ 1 M: 8 E\n SG_ S M : 0|8@1+ (1,0) [0|0] "" X\n${Array.from({ length: 3000 }, (_, i) => ` SG_ S${i} m${i} : 8|8@1+ (1,0) [0|0] "" X\n`).join('')}`,
    );
    check('CM_ '.repeat(100_000));
  });
});
