import { describe, expect, it } from 'vitest';
import { visibleWindow } from './virtual-window.ts';

describe('virtual list window', () => {
  it('renders only the visible rows plus 15 on each side', () => {
    // 360 px viewport = 10 rows (+1 partly visible); scrolled to row 100.
    expect(visibleWindow(3600, 360, 10_000)).toEqual({ start: 85, end: 126 });
  });

  it('stays inside the list', () => {
    expect(visibleWindow(0, 360, 5)).toEqual({ start: 0, end: 5 });
    expect(visibleWindow(-50, 360, 100)).toEqual({ start: 0, end: 26 });
    expect(visibleWindow(36 * 9_990, 360, 10_000)).toEqual({ start: 9_975, end: 10_000 });
    expect(visibleWindow(0, 360, 0)).toEqual({ start: 0, end: 0 });
  });
});
