import { describe, expect, it } from 'vitest';
import {
  curveNameProblem,
  dbcFileProblem,
  defaultStrategyName,
  splitSignalRef,
  strategyNameProblem,
  strategySignalsProblem,
} from './names.ts';

describe('signal strategy name (spec §5)', () => {
  it('takes letters, digits and underscore, not a leading digit', () => {
    expect(strategyNameProblem('DBCSIG_engine_1')).toBeNull();
    expect(strategyNameProblem('_x')).toBeNull();
    expect(strategyNameProblem('1abc')).toBe('pattern');
    expect(strategyNameProblem('a-b')).toBe('pattern');
    expect(strategyNameProblem('名字')).toBe('pattern');
    expect(strategyNameProblem('  ')).toBe('required');
    expect(strategyNameProblem('a'.repeat(65))).toBe('length');
  });
  it('defaults to the DBCSIG_ prefix and is itself valid', () => {
    const name = defaultStrategyName(1_700_000_000_000);
    expect(name.startsWith('DBCSIG_')).toBe(true);
    expect(strategyNameProblem(name)).toBeNull();
  });
  it('holds 1-100 signals', () => {
    expect(strategySignalsProblem(0)).toBe('min');
    expect(strategySignalsProblem(1)).toBeNull();
    expect(strategySignalsProblem(100)).toBeNull();
    expect(strategySignalsProblem(101)).toBe('max');
  });
});

describe('curve name (spec §5: 2-32)', () => {
  it('bounds the length', () => {
    expect(curveNameProblem('a')).toBe('length');
    expect(curveNameProblem('ab')).toBeNull();
    expect(curveNameProblem('x'.repeat(32))).toBeNull();
    expect(curveNameProblem('x'.repeat(33))).toBe('length');
    expect(curveNameProblem('')).toBe('required');
  });
});

describe('DBC file selector', () => {
  it('takes .dbc only, up to the bound', () => {
    expect(dbcFileProblem({ name: 'car.DBC', size: 10 })).toBeNull();
    expect(dbcFileProblem({ name: 'car.txt', size: 10 })).toBe('format');
    expect(dbcFileProblem({ name: 'car.dbc', size: 11 }, 10)).toBe('size');
  });
  it('splits Message.Signal at the first dot', () => {
    expect(splitSignalRef('EngineData.Speed')).toEqual({ message: 'EngineData', signal: 'Speed' });
  });
});
