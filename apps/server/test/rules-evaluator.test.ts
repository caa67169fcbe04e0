import { type CanFrame, compileDbc, makeFrame, parseDbc } from '@loggerhead/can';
import { encodeBatch } from '@loggerhead/can/protocol/batch.ts';
import { type Condition, ConditionSchema } from '@loggerhead/contract';
import { describe, expect, it } from 'vitest';
import { compileCondition } from '../src/rules/conditions.ts';
import { evaluateBatch } from '../src/rules/evaluator.ts';
import { distanceToPolyline, fenceContains, haversine } from '../src/rules/geo.ts';
import { buildMatcher, compileRule, type FrameRuleDef } from '../src/rules/matcher.ts';
import { allow } from '../src/rules/throttle.ts';
import { TEST_DBC } from './signals.fixtures.ts';

const cond = (c: Record<string, unknown>): Condition => ConditionSchema.parse(c);
const bytes = (...b: number[]) => new Uint8Array(b);

function rule(over: Omit<Partial<FrameRuleDef>, 'conditions'> & { conditions: Record<string, unknown>[] }): FrameRuleDef {
  return {
    id: over.id ?? 'r1',
    channel: over.channel ?? 0,
    frame_format: over.frame_format ?? 'standard',
    frame_type: over.frame_type ?? 'data',
    frame_id: over.frame_id ?? 0x123,
    condition_join: over.condition_join ?? 'and',
    conditions: over.conditions.map(cond),
  };
}

const frame = (ts: number, id: number, data: number[], extra: Partial<CanFrame> = {}) =>
  makeFrame({ ts, channel: 0, id, data: new Uint8Array(data), ...extra });

describe('conditions', () => {
  it('reads payload integers in both byte orders, signed and unsigned', () => {
    const d = bytes(0x01, 0xff, 0xfe, 0x00);
    // Intel: bytes 1-2 little-endian = 0xFEFF = 65279; signed 16-bit = -257.
    expect(compileCondition(cond({ start_byte: 1, length: 2, op: '==', value: 65279 }), null)(d, 4)).toBe(1);
    expect(compileCondition(cond({ start_byte: 1, length: 2, signed: true, op: '==', value: -257 }), null)(d, 4)).toBe(1);
    // Motorola: bytes 1-2 big-endian = 0xFFFE = 65534; signed = -2.
    expect(compileCondition(cond({ start_byte: 1, length: 2, byte_order: 'motorola', op: '==', value: 65534 }), null)(d, 4)).toBe(1);
    expect(compileCondition(cond({ start_byte: 1, length: 2, byte_order: 'motorola', signed: true, op: '<', value: 0 }), null)(d, 4)).toBe(
      1,
    );
    // Past the end of a short frame: no observation.
    expect(compileCondition(cond({ start_byte: 3, length: 2, op: '>', value: 0 }), null)(d, 4)).toBe(-1);
  });

  it('compares, checks ranges, masks and the payload length', () => {
    const d = bytes(0xa5, 0x10);
    const t = (c: Record<string, unknown>) => compileCondition(cond(c), null)(d, 2);
    expect(t({ op: '>', value: 0xa4 })).toBe(1);
    expect(t({ op: '>=', value: 0xa6 })).toBe(0);
    expect(t({ op: '<=', value: 0xa5 })).toBe(1);
    expect(t({ op: '!=', value: 0xa5 })).toBe(0);
    expect(t({ op: 'in', min: 0xa0, max: 0xaf })).toBe(1);
    expect(t({ op: 'out', min: 0xa0, max: 0xaf })).toBe(0);
    expect(t({ op: 'mask', mask: 'F0FF', pattern: 'A010' })).toBe(1);
    expect(t({ op: 'mask', mask: 'F0FF', pattern: 'B010' })).toBe(0);
    expect(t({ op: 'mask', start_byte: 1, mask: '0F', pattern: '00' })).toBe(1);
    expect(t({ op: 'mask', start_byte: 1, mask: 'FFFF', pattern: '1000' })).toBe(-1);
    expect(t({ source: 'length', op: '==', value: 2 })).toBe(1);
  });

  it('fires a change only when the value differs from the previous frame', () => {
    const c = compileCondition(cond({ start_byte: 0, op: 'change' }), null);
    expect([c(bytes(1), 1), c(bytes(1), 1), c(bytes(2), 1), c(bytes(2), 1), c(bytes(1), 1)]).toEqual([0, 0, 1, 0, 1]);
  });
});

describe('evaluateBatch', () => {
  const hot = rule({ conditions: [{ start_byte: 0, op: '>', value: 100 }] });

  it('fires once for a flood of matching frames and recovers when the condition clears', () => {
    const m = buildMatcher([compileRule(hot, null)!]);
    const states = new Map<string, boolean>();
    const flood = Array.from({ length: 1000 }, (_, i) => frame(1_000_000 + i * 100, 0x123, [200, i & 255]));
    const e1 = evaluateBatch(m, states, encodeBatch(flood, { session: 1, seq: 1 }));
    expect(e1).toHaveLength(1);
    expect(e1[0]).toMatchObject({ fires: 1, recoveries: 0, wasActive: false, active: true });
    expect(e1[0].firstFire?.ts).toBe(1_000_000);
    expect(e1[0].firstFire?.value).toBe(200);
    // Still true in the next batch: nothing new.
    expect(evaluateBatch(m, states, encodeBatch(flood, { session: 1, seq: 2 }))).toHaveLength(0);
    const cool = evaluateBatch(m, states, encodeBatch([frame(2_000_000, 0x123, [50])], { session: 1, seq: 3 }));
    expect(cool[0]).toMatchObject({ fires: 0, recoveries: 1, wasActive: true, active: false });
  });

  it('coalesces a flickering condition into one edge record per batch', () => {
    const m = buildMatcher([compileRule(hot, null)!]);
    const states = new Map<string, boolean>();
    const flicker = Array.from({ length: 100 }, (_, i) => frame(i * 10, 0x123, [i % 2 ? 50 : 200]));
    const [e] = evaluateBatch(m, states, encodeBatch(flicker, { session: 1, seq: 1 }));
    expect(e.fires).toBe(50);
    expect(e.recoveries).toBe(50);
    expect(e.active).toBe(false);
  });

  it('matches channel, id format and frame type exactly; ignores other ids and error frames', () => {
    const ext = rule({ id: 'ext', frame_format: 'extended', frame_id: 0x123, conditions: [{ op: '>', value: 0 }] });
    const rtr = rule({ id: 'rtr', frame_type: 'remote', conditions: [{ source: 'length', op: '==', value: 4 }] });
    const ch1 = rule({ id: 'ch1', channel: 1, conditions: [{ op: '>', value: 0 }] });
    const m = buildMatcher([compileRule(ext, null)!, compileRule(rtr, null)!, compileRule(ch1, null)!]);
    const states = new Map<string, boolean>();
    const frames = [
      frame(1, 0x123, [5]), // standard data frame on channel 0: none of the three
      frame(2, 0x124, [5], { ext: true }),
      frame(3, 0x123, [5], { err: true }),
      frame(4, 0x123, [], { rtr: true, dlc: 4 }),
      frame(5, 0x123, [9], { ext: true }),
      frame(6, 0x123, [7], { channel: 1 }),
    ];
    const edges = evaluateBatch(m, states, encodeBatch(frames, { session: 1, seq: 1 }));
    expect(edges.map((e) => e.compiled.rule.id).sort()).toEqual(['ch1', 'ext', 'rtr']);
    expect(edges.find((e) => e.compiled.rule.id === 'ext')?.firstFire?.ts).toBe(5);
  });

  it('skips a batch whose id list has no watched id', () => {
    const m = buildMatcher([compileRule(hot, null)!]);
    const states = new Map<string, boolean>();
    const b = encodeBatch([frame(1, 0x123, [200])], { session: 1, seq: 1 });
    expect(evaluateBatch(m, states, b, [0x200])).toHaveLength(0);
    expect(evaluateBatch(m, states, b, [0x123])).toHaveLength(1);
  });

  it('evaluates a DBC signal condition on the message the signal travels in', () => {
    const parsed = parseDbc(TEST_DBC);
    if (!parsed.ok) throw new Error('dbc');
    const dbc = compileDbc(parsed.dbc);
    // RAMP.Value = raw * 0.5 - 10; above 40 means raw above 100.
    const r = rule({ frame_id: 0, conditions: [{ source: 'signal', message: 'RAMP', signal: 'Value', op: '>', value: 40 }] });
    const c = compileRule(r, dbc)!;
    const m = buildMatcher([c]);
    const states = new Map<string, boolean>();
    const b = encodeBatch([frame(1, 0x100, [100, 0, 0, 0, 0, 0, 0, 0]), frame(2, 0x100, [102, 0, 0, 0, 0, 0, 0, 0])], {
      session: 1,
      seq: 1,
    });
    const [e] = evaluateBatch(m, states, b);
    expect(e.firstFire?.ts).toBe(2);
    expect(e.firstFire?.value).toBe(41);
    expect(
      compileRule({ ...r, conditions: [cond({ source: 'signal', message: 'RAMP', signal: 'Nope', op: '>', value: 1 })] }, dbc),
    ).toBeNull();
  });
});

describe('frequency', () => {
  it('lets an action out once per interval', () => {
    const marks: Record<string, number> = {};
    const min30 = 30 * 60_000;
    expect(allow(marks, 'email', 0, min30)).toBe(true);
    expect(allow(marks, 'email', min30 - 1, min30)).toBe(false);
    expect(allow(marks, 'sms', 1, min30)).toBe(true);
    expect(allow(marks, 'email', min30, min30)).toBe(true);
  });
});

describe('geometry', () => {
  it('measures great-circle distance', () => {
    // One degree of latitude on the mean-radius sphere: 6371008.8 m × π / 180.
    expect(haversine(0, 0, 1, 0)).toBeCloseTo((6371008.8 * Math.PI) / 180, 3);
    expect(haversine(31.2304, 121.4737, 31.2304, 121.4737)).toBe(0);
  });

  it('tells inside from outside for circles, polygons and borders', () => {
    const circle = fenceContains({
      type: 'region',
      region: { shape: 'circle', center: { lat: 31.23, lon: 121.47 }, radius: 500 },
      border: null,
    });
    // 0.004° of latitude ≈ 445 m, 0.005° ≈ 556 m.
    expect(circle(31.234, 121.47)).toBe(true);
    expect(circle(31.235, 121.47)).toBe(false);
    const square = [
      { lat: 0, lon: 0 },
      { lat: 0, lon: 1 },
      { lat: 1, lon: 1 },
      { lat: 1, lon: 0 },
    ];
    const poly = fenceContains({ type: 'region', region: { shape: 'polygon', points: square }, border: null });
    expect(poly(0.5, 0.5)).toBe(true);
    expect(poly(1.5, 0.5)).toBe(false);
    const line = [
      { lat: 0, lon: 0 },
      { lat: 0, lon: 0.01 },
    ];
    // 0.0004° of latitude ≈ 44.5 m from the line.
    expect(distanceToPolyline(0.0004, 0.005, line)).toBeCloseTo(44.48, 1);
    const border = fenceContains({ type: 'border', region: null, border: { points: line, tolerance: 50 } });
    expect(border(0.0004, 0.005)).toBe(true);
    expect(border(0.0006, 0.005)).toBe(false);
  });
});
