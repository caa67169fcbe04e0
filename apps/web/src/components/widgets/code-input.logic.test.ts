import { describe, expect, it } from 'vitest';
import { backspace, boxesOf, completeCode, emptyBoxes, typeInto } from './code-input.logic.ts';

describe('six-box code input', () => {
  it('a non-digit clears its box and keeps the focus there', () => {
    const s = typeInto(['1', '2', '', '', '', ''], 1, 'x');
    expect(s.digits).toEqual(['1', '', '', '', '', '']);
    expect(s.focus).toBe(1);
  });

  it('a digit fills the box and moves to the next', () => {
    const s = typeInto(emptyBoxes(6), 0, '7');
    expect(s.digits[0]).toBe('7');
    expect(s.focus).toBe(1);
  });

  it('typing over a filled box keeps the new digit', () => {
    expect(typeInto(['1', '', '', '', '', ''], 0, '19').digits[0]).toBe('9');
  });

  it('a paste spreads over the boxes from where it lands and drops what does not fit', () => {
    const s = typeInto(emptyBoxes(6), 2, '12-34 56');
    expect(s.digits).toEqual(['', '', '1', '2', '3', '4']);
    expect(s.focus).toBe(5);
  });

  it('emits only a complete code', () => {
    expect(completeCode(['1', '2', '3', '4', '5', ''])).toBe('');
    expect(completeCode(boxesOf('123456', 6))).toBe('123456');
  });

  it('backspace on an empty box clears the previous one', () => {
    const s = backspace(['1', '2', '', '', '', ''], 2);
    expect(s.digits).toEqual(['1', '', '', '', '', '']);
    expect(s.focus).toBe(1);
  });

  it('reads a value into boxes ignoring non-digits', () => {
    expect(boxesOf('12a3', 6)).toEqual(['1', '2', '3', '', '', '']);
  });
});
