import { describe, expect, it } from 'vitest';
import { addCurve, type CurveEntry, curvesConfigKey, parseCurves, toggleCurve } from './curve-entries.ts';

const make = (n: number, shown: number): CurveEntry[] =>
  Array.from({ length: n }, (_, i) => ({ name: `c${i}`, signal: `M.S${i}`, channel: 0, shown: i < shown }));

describe('real-time curve entries', () => {
  it('save at most 30 and draw at most 10', () => {
    const ten = addCurve(make(10, 10), { name: 'new', signal: 'M.X', channel: 1 });
    expect(ten.problem).toBeNull();
    expect(ten.list.at(-1)).toEqual({ name: 'new', signal: 'M.X', channel: 1, shown: false });
    expect(addCurve(make(3, 3), { name: 'new', signal: 'M.X', channel: 0 }).list.at(-1)?.shown).toBe(true);
    expect(addCurve(make(30, 0), { name: 'new', signal: 'M.X', channel: 0 }).problem).toBe('full');
    expect(addCurve(make(3, 0), { name: 'c1', signal: 'M.X', channel: 0 }).problem).toBe('duplicate');
  });
  it('refuse an eleventh ticked curve, allow unticking', () => {
    expect(toggleCurve(make(12, 10), 'c11', true).refused).toBe(true);
    const off = toggleCurve(make(12, 10), 'c0', false);
    expect(off.list.filter((c) => c.shown)).toHaveLength(9);
    expect(toggleCurve(off.list, 'c11', true).list.filter((c) => c.shown)).toHaveLength(10);
  });
  it('read back only well-formed entries under a key the config API accepts', () => {
    expect(curvesConfigKey('0f8e-11aa')).toBe('dbc.curves.0f8e_11aa');
    expect(parseCurves('[{"name":"a","signal":"M.S","channel":0,"shown":true},{"name":1}]')).toHaveLength(1);
    expect(parseCurves('nonsense')).toEqual([]);
  });
});
