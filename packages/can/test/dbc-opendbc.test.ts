import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compileDbc } from '../src/dbc/dbc.decoder.ts';
import { parseDbc } from '../src/dbc/dbc.parser.ts';

/** Real DBC files (opendbc); not in this repository: OPENDBC_DIR or the folder beside the checkout. */
const DIR = process.env.OPENDBC_DIR ?? resolve(fileURLToPath(import.meta.url), '../../../../../shared/data/opendbc');
const FILES = existsSync(DIR) ? readdirSync(DIR).filter((f) => f.endsWith('.dbc')) : [];
if (FILES.length === 0) console.warn(`opendbc DBC files not found in ${DIR} (set OPENDBC_DIR): real-file tests skipped`);

describe.skipIf(FILES.length === 0)('opendbc files', () => {
  it.each(FILES)('%s parses with every message and signal', (file) => {
    const text = readFileSync(join(DIR, file), 'utf8');
    const r = parseDbc(text);
    if (!r.ok) throw new Error(`${file}:${r.error.line}:${r.error.col} ${r.error.reason}`);
    // Independent count: BO_ and SG_ statements starting a line (gm_global_a_object indents two BO_).
    const bo = text.match(/^[ \t]*BO_ /gm)?.length ?? 0;
    const sg = text.match(/^[ \t]*SG_ /gm)?.length ?? 0;
    expect(r.dbc.messages.length).toBe(bo);
    expect(r.dbc.messages.reduce((n, m) => n + m.signals.length, 0)).toBe(sg);
    expect(bo).toBeGreaterThan(0);
    for (const w of r.warnings) expect(w.line).toBeGreaterThan(0);
  });

  it('generated code and closures agree on random payloads of every message of every file', () => {
    let seed = 7;
    const rnd = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed >>> 24;
    };
    let compared = 0;
    for (const file of FILES) {
      const r = parseDbc(readFileSync(join(DIR, file), 'utf8'));
      if (!r.ok) throw new Error(file);
      const fast = compileDbc(r.dbc);
      const slow = compileDbc(r.dbc, { codegen: false });
      const a = new Float64Array(fast.maxSignals);
      const b = new Float64Array(slow.maxSignals);
      for (const m of fast.messages) {
        for (let k = 0; k < 4; k++) {
          // Full length, and a short frame to exercise the checked path.
          const data = Uint8Array.from({ length: k === 3 ? m.message.length >> 1 : m.message.length }, rnd);
          fast.decodeInto(m.id, m.ext, data, a);
          slow.decodeInto(m.id, m.ext, data, b);
          expect([...a.subarray(0, m.names.length)], `${file} ${m.name}`).toEqual([...b.subarray(0, m.names.length)]);
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(10_000);
  });

  it('decodes toyota STEER_ANGLE_SENSOR as worked out by hand', () => {
    const r = parseDbc(readFileSync(join(DIR, 'toyota_nodsu_pt_generated.dbc'), 'utf8'));
    if (!r.ok) throw new Error('refused');
    // STEER_ANGLE 3|12@0- (1.5): byte0 low nibble 0xF then byte1 0xF6 -> 0xFF6 = -10 -> -15 deg.
    // STEER_FRACTION 39|4@0- (0.1): byte4 high nibble 0x3 -> 0.3. STEER_RATE 35|12@0-: 0x5 then 0x0A -> 0x50A = 1290.
    const d = compileDbc(r.dbc).decode({ id: 37, ext: false, data: Uint8Array.from([0x0f, 0xf6, 0, 0, 0x35, 0x0a, 0, 0]) });
    expect(d?.message).toBe('STEER_ANGLE_SENSOR');
    expect(d?.signals.STEER_ANGLE).toBe(-15);
    expect(d?.signals.STEER_FRACTION).toBeCloseTo(0.3, 12);
    expect(d?.signals.STEER_RATE).toBe(1290);
  });

  it('decodes the vw_pq multiplexer written as a lone m (Motor_2, SG_MUL_VAL_)', () => {
    const r = parseDbc(readFileSync(join(DIR, 'vw_pq.dbc'), 'utf8'));
    if (!r.ok) throw new Error('refused');
    const dec = compileDbc(r.dbc);
    // MO2_Mp_Code 6|2@1+ = top two bits of byte0; code 3 selects MO2_max_Mo 0|6@1+ (10 Nm): 0b11_000101 -> 5 * 10.
    const d = dec.decode({ id: 648, ext: false, data: Uint8Array.from([0xc5, 0, 0, 0, 0, 0, 0, 0]) });
    expect(d?.signals.MO2_Mp_Code).toBe(3);
    expect(d?.signals.MO2_max_Mo).toBe(50);
    expect(d?.signals).not.toHaveProperty('MO2_Getr_Code');
  });
});
