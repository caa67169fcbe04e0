import { describe, expect, it } from 'vitest';
import { descriptionProblem, gaugePercent, moved, panelNameProblem, refreshMs, signalsProblem } from './panels.ts';

describe('panel form rules', () => {
  it('wants a name of 1-32 characters', () => {
    expect(panelNameProblem('')).toBe('required');
    expect(panelNameProblem('   ')).toBe('required');
    expect(panelNameProblem('车速')).toBeNull();
    expect(panelNameProblem('x'.repeat(32))).toBeNull();
    expect(panelNameProblem('x'.repeat(33))).toBe('length');
    // characters, not UTF-16 units
    expect(panelNameProblem('😀'.repeat(32))).toBeNull();
  });

  it('keeps descriptions to 200 characters', () => {
    expect(descriptionProblem(undefined)).toBeNull();
    expect(descriptionProblem('d'.repeat(200))).toBeNull();
    expect(descriptionProblem('d'.repeat(201))).toBe('length');
  });

  it('asks 1-10 signals of a line panel and exactly one of a number or gauge panel', () => {
    expect(signalsProblem('line', 0)).toBe('required');
    expect(signalsProblem('line', 10)).toBeNull();
    expect(signalsProblem('line', 11)).toBe('max');
    expect(signalsProblem('number', 1)).toBeNull();
    expect(signalsProblem('number', 2)).toBe('one');
    expect(signalsProblem('gauge', 0)).toBe('required');
    expect(signalsProblem('gauge', 3)).toBe('one');
  });
});

describe('panel helpers', () => {
  it('refreshes short windows often and long ones seldom, within 5 s and 5 min', () => {
    expect(refreshMs('10m')).toBe(5_000);
    expect(refreshMs('1h')).toBe(30_000);
    expect(refreshMs('24h')).toBe(300_000);
    expect(refreshMs('7d')).toBe(300_000);
  });

  it('moves a panel one place and leaves the ends alone', () => {
    expect(moved(['a', 'b', 'c'], 2, -1)).toEqual(['a', 'c', 'b']);
    expect(moved(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(moved(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moved(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'b', 'c']);
  });

  it('places a value on the gauge scale, clamped, or nowhere without a range', () => {
    expect(gaugePercent(50, 0, 200)).toBe(25);
    expect(gaugePercent(-5, 0, 10)).toBe(0);
    expect(gaugePercent(15, 0, 10)).toBe(100);
    expect(gaugePercent(null, 0, 10)).toBeNull();
    expect(gaugePercent(3, null, 10)).toBeNull();
    expect(gaugePercent(3, 5, 5)).toBeNull();
  });
});
