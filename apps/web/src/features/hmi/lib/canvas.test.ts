import { describe, expect, it } from 'vitest';
import { appendSamples, clampCell, dragCells, formatValue, gaugeFraction, lampLit, newWidget, nextWidgetId } from './canvas.ts';

describe('HMI canvas helpers', () => {
  it('place a new widget below the others with an unused id', () => {
    const canvas = { row_height: 40, widgets: [{ id: 'w1', type: 'text' as const, x: 0, y: 0, w: 6, h: 3, label: '', text: 'a' }] };
    const g = newWidget(canvas, 'gauge');
    expect(g).toMatchObject({ id: 'w2', type: 'gauge', y: 3, min: 0, max: 100 });
    expect(nextWidgetId({ row_height: 40, widgets: [{ ...canvas.widgets[0], id: 'w2' }] })).toBe('w3');
  });

  it('move and resize by whole cells and keep widgets on the 24-column grid', () => {
    const start = { x: 2, y: 1, w: 4, h: 2 };
    expect(dragCells(start, 95, 41, { width: 50, height: 40 }, 'move')).toEqual({ x: 4, y: 2, w: 4, h: 2 });
    expect(dragCells(start, -500, -500, { width: 50, height: 40 }, 'move')).toEqual({ x: 0, y: 0, w: 4, h: 2 });
    expect(dragCells(start, 5000, 0, { width: 50, height: 40 }, 'move')).toEqual({ x: 20, y: 1, w: 4, h: 2 });
    expect(dragCells(start, 100, 80, { width: 50, height: 40 }, 'resize')).toEqual({ x: 2, y: 1, w: 6, h: 4 });
    expect(clampCell({ x: 22, y: 0, w: 30, h: 0 })).toEqual({ x: 0, y: 0, w: 24, h: 1 });
  });

  it('format values, place a gauge needle and light a lamp', () => {
    expect(formatValue(12.34567)).toBe('12.346');
    expect(formatValue(12.3, 2)).toBe('12.30');
    expect(formatValue(null)).toBe('—');
    expect(formatValue(true)).toBe('1');
    expect(gaugeFraction(50, 0, 200)).toBe(0.25);
    expect(gaugeFraction(-5, 0, 200)).toBe(0);
    expect(gaugeFraction(500, 0, 200)).toBe(1);
    expect(lampLit(5, 5)).toBe(true);
    expect(lampLit(4.9, 5)).toBe(false);
    expect(lampLit(true, 1)).toBe(true);
    expect(lampLit(null, 0)).toBe(false);
  });

  it('a trend takes only numeric samples newer than its last, and keeps the last ones', () => {
    // Stored history, then the twin read again with the same last value (same time) and a new one.
    const h = appendSamples(
      [],
      [
        { t: 1, v: 10 },
        { t: 2, v: 11 },
        { t: 3, v: 'on' },
      ],
      3,
    );
    expect(h).toEqual([
      { t: 1, v: 10 },
      { t: 2, v: 11 },
    ]);
    appendSamples(h, [{ t: 2, v: 11 }], 3);
    expect(h).toHaveLength(2);
    appendSamples(
      h,
      [
        { t: 1.5, v: 99 },
        { t: 4, v: 12 },
        { t: 5, v: Number.NaN },
        { t: 6, v: 13 },
      ],
      3,
    );
    expect(h).toEqual([
      { t: 2, v: 11 },
      { t: 4, v: 12 },
      { t: 6, v: 13 },
    ]);
  });
});
