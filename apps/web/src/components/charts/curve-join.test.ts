import { describe, expect, it } from 'vitest';
import { appendWindow, curveStats, joinCurves, panRange, zoomRange } from './curve-join.ts';

const raw = (t: number[], v: number[]) => ({ t, min: v, max: v, avg: v, bucket_ms: 0 });

describe('joinCurves', () => {
  it('puts curves with different times on one sorted x column, null where a curve has no point', () => {
    const { x, ys } = joinCurves([raw([10, 30], [1, 3]), raw([20, 30, 40], [7, 8, 9])]);
    expect(x).toEqual([10, 20, 30, 40]);
    expect(ys[0]).toEqual([1, null, 3, null]);
    expect(ys[1]).toEqual([null, 7, 8, 9]);
  });
  it('places a bucket at its middle and draws its mean', () => {
    const { x, ys } = joinCurves([{ t: [0, 100], min: [0, 5], max: [2, 9], avg: [1, 7], bucket_ms: 100 }]);
    expect(x).toEqual([50, 150]);
    expect(ys[0]).toEqual([1, 7]);
    expect(joinCurves([{ t: [0, 100], min: [0, 5], max: [2, 9], avg: [1, 7], bucket_ms: 100 }]).bands[0]).toEqual({
      low: [0, 5],
      high: [2, 9],
    });
    expect(joinCurves([raw([1], [1])]).bands[0]).toBeNull();
  });
});

describe('appendWindow', () => {
  it('skips points already held and drops those out of the window', () => {
    let s = appendWindow({ t: [], v: [] }, [1, 2, 3], [10, 20, 30], 0);
    s = appendWindow(s, [2, 3, 4, 5], [20, 30, 40, 50], 3);
    expect(s).toEqual({ t: [3, 4, 5], v: [30, 40, 50] });
  });
});

describe('zoom and pan', () => {
  it('zooms about the middle and pans by a fraction of the span', () => {
    expect(zoomRange([100, 200], 0.5)).toEqual([125, 175]);
    expect(zoomRange([100, 200], 2)).toEqual([50, 250]);
    expect(panRange([100, 200], -0.5)).toEqual([50, 150]);
  });
});

describe('curveStats', () => {
  it('takes extremes from min/max and weights the mean by sample count', () => {
    expect(curveStats({ min: [1, 4], max: [3, 9], avg: [2, 6], count: [1, 3] })).toEqual({ min: 1, max: 9, avg: 5 });
    expect(curveStats({ min: [], max: [], avg: [], count: [] })).toBeNull();
  });
});
