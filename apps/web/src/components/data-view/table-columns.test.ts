import { describe, expect, it } from 'vitest';
import { cellText, checkChoice, defaultChoice, MAX_CHOSEN_COLUMNS, parseChoice } from './table-columns.ts';

const columns = [{ key: 'name' }, { key: 'id' }, { key: 'firmware', defaultHidden: true }, { key: 'actions', always: true }];

describe('column chooser rules', () => {
  it('ticks every optional column not hidden by default', () => {
    expect(defaultChoice(columns)).toEqual(['name', 'id']);
  });

  it('reads a saved JSON list, keeps the table order and drops unknown props', () => {
    expect(parseChoice('["firmware","gone","name"]', columns)).toEqual(['name', 'firmware']);
    expect(parseChoice('["actions"]', columns)).toBeNull();
    expect(parseChoice('not json', columns)).toBeNull();
    expect(parseChoice('{"a":1}', columns)).toBeNull();
    expect(parseChoice(undefined, columns)).toBeNull();
  });

  it('refuses more than 30 columns and an empty choice', () => {
    const many = Array.from({ length: MAX_CHOSEN_COLUMNS + 1 }, (_, i) => `c${i}`);
    expect(checkChoice(many)).toBe('saveMax');
    expect(checkChoice(many.slice(0, 30))).toBeNull();
    expect(checkChoice([])).toBe('empty');
  });

  it('prints empty cells as --', () => {
    expect(cellText(null)).toBe('--');
    expect(cellText('')).toBe('--');
    expect(cellText(0)).toBe('0');
  });
});
