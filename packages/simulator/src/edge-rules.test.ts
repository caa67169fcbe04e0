import { describe, expect, it } from 'vitest';
import { EdgeRules } from './edge-rules.ts';

const numeric = new Set(['env.temperature', 'env.target']);
const state = (temperature: number, target = 20) => ({ env: { temperature, target, fan: false } });

describe('edge-computing rules on the device', () => {
  it('a filter uploads the property only when it moved by more than the threshold since its last upload', () => {
    const e = new EdgeRules();
    expect(e.accept({ id: 'r1', version: 1, name: 'f', kind: 'filter', field: 'env.temperature', threshold: 2 }, numeric)).toBeNull();
    expect(e.apply(state(20)).env).toEqual({ temperature: 20, target: 20, fan: false });
    expect(e.apply(state(21.5)).env).toEqual({ target: 20, fan: false });
    expect(e.apply(state(22)).env).toEqual({ target: 20, fan: false });
    // 22.5 is 2.5 away from 20, the value last uploaded (not from 22, which was held back).
    expect(e.apply(state(22.5)).env).toEqual({ temperature: 22.5, target: 20, fan: false });
    expect(e.apply(state(21)).env.temperature).toBeUndefined();
  });

  it('an aggregate holds the property back for its window, then uploads the mean, min or max of what it saw', () => {
    const e = new EdgeRules();
    const t0 = 1_000_000;
    expect(
      e.accept(
        { id: 'r2', version: 1, name: 'a', kind: 'aggregate', field: 'env.temperature', function: 'mean', window_s: 10 },
        numeric,
        t0,
      ),
    ).toBeNull();
    expect(e.apply(state(10), t0 + 1000).env.temperature).toBeUndefined();
    expect(e.apply(state(20), t0 + 5000).env.temperature).toBeUndefined();
    expect(e.apply(state(60), t0 + 10_000).env).toEqual({ temperature: 30, target: 20, fan: false });
    // A new window starts.
    expect(e.apply(state(99), t0 + 12_000).env.temperature).toBeUndefined();
    // A newer version replaces it: the max of its own window.
    e.accept(
      { id: 'r2', version: 2, name: 'a', kind: 'aggregate', field: 'env.temperature', function: 'max', window_s: 1 },
      numeric,
      t0 + 20_000,
    );
    e.apply(state(5), t0 + 20_500);
    expect(e.apply(state(3), t0 + 21_000).env.temperature).toBe(5);
  });

  it('refuses a rule on a property it does not have or that is not a number, an unknown kind and an older version', () => {
    const e = new EdgeRules();
    expect(e.accept({ id: 'x', version: 1, name: 'f', kind: 'filter', field: 'env.fan', threshold: 1 }, numeric)).toMatch(/env.fan/);
    expect(e.accept({ id: 'x', version: 1, name: 'f', kind: 'filter', field: 'env.nope', threshold: 1 }, numeric)).toMatch(/env.nope/);
    expect(e.accept({ id: 'x', version: 1, name: 'f', kind: 'sample' as never, field: 'env.target' }, numeric)).toMatch(/kind/);
    expect(e.accept({ id: 'x', version: 3, name: 'f', kind: 'filter', field: 'env.target', threshold: 1 }, numeric)).toBeNull();
    expect(e.accept({ id: 'x', version: 2, name: 'f', kind: 'filter', field: 'env.target', threshold: 1 }, numeric)).toMatch(/older/);
    expect(e.held.get('x')?.rule.version).toBe(3);
  });
});
