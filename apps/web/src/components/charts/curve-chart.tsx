import { Empty, theme } from 'antd';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import './curve-chart.css';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/format.ts';

/** Ten hues that read on light and dark backgrounds alike (spec: at most 10 curves). */
export const CURVE_COLORS = ['#1677ff', '#f5222d', '#52c41a', '#fa8c16', '#722ed1', '#13c2c2', '#eb2f96', '#a0d911', '#faad14', '#2f54eb'];

/** Tick labels as the rest of the console writes times (24 h), finer as the span narrows. */
export function tickPattern(spanMs: number): string {
  if (spanMs <= 10_000) return 'HH:mm:ss.SSS';
  if (spanMs <= 2 * 86_400_000) return 'HH:mm:ss';
  return 'MM-DD HH:mm';
}

export interface ChartSeries {
  label: string;
  values: (number | null)[];
  color?: string;
  /** Bucket minima and maxima: drawn as a bar per point behind the mean line, so a spike never hides in a mean. */
  band?: { low: (number | null)[]; high: (number | null)[] } | null;
}

export interface CurveChartProps {
  /** Times in epoch ms, ascending. */
  x: number[];
  series: ChartSeries[];
  height?: number;
  /** Fixed x range (ms); without it the data decides. */
  range?: [number, number];
  /** Drag-select on the plot calls this with the chosen time range (zoom). */
  onSelectRange?: (range: [number, number]) => void;
  /** The plot area's width in CSS pixels, whenever it changes (history queries ask for that many points). */
  onWidth?: (width: number) => void;
  /** A vertical marker (playback position), epoch ms. */
  marker?: number | null;
  testId?: string;
}

/**
 * A uPlot time chart that follows its container's width, the theme's text colours, and redraws
 * in place when data changes (a new chart only when the set of curves changes).
 */
export function CurveChart({ x, series, height = 320, range, onSelectRange, onWidth, marker, testId }: CurveChartProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const markerRef = useRef<number | null | undefined>(marker);
  const seriesRef = useRef(series);
  seriesRef.current = series;
  const handlers = useRef({ onSelectRange, onWidth });
  handlers.current = { onSelectRange, onWidth };
  const [width, setWidth] = useState(0);
  const layout = `${series.map((s) => `${s.label}|${s.color ?? ''}`).join(',')}|${height}|${token.colorTextSecondary}|${Boolean(onSelectRange)}`;

  // The container's width; the chart is sized to it and the owner learns it.
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => setWidth(Math.max(200, Math.floor(el.clientWidth)));
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: rebuilt only when the layout key changes; data goes through setData.
  useEffect(() => {
    const el = box.current;
    if (!el || !width || !series.length) return;
    const axis = { stroke: token.colorTextSecondary, grid: { stroke: token.colorSplit, width: 1 }, ticks: { stroke: token.colorSplit } };
    const opts: uPlot.Options = {
      width,
      height,
      ms: 1,
      legend: { show: true },
      cursor: { drag: { x: Boolean(handlers.current.onSelectRange), y: false, setScale: false } },
      scales: {
        x: { time: true },
        // The y range covers the bands too, not only the means.
        y: {
          range: (_u, min, max) => {
            let lo = min;
            let hi = max;
            for (const sr of seriesRef.current) {
              for (const v of sr.band?.low ?? []) if (v !== null && v < lo) lo = v;
              for (const v of sr.band?.high ?? []) if (v !== null && v > hi) hi = v;
            }
            if (!Number.isFinite(lo) || !Number.isFinite(hi)) return [0, 1];
            const pad = (hi - lo) * 0.05 || Math.abs(hi) * 0.05 || 1;
            return [lo - pad, hi + pad];
          },
        },
      },
      axes: [
        {
          ...axis,
          // Room for the widest label of the span, so ticks never run into each other on a narrow chart.
          space: (_u, _i, min, max) => tickPattern(max - min).length * 7 + 20,
          values: (u, splits) => splits.map((v) => formatDateTime(v, tickPattern((u.scales.x.max ?? 0) - (u.scales.x.min ?? 0)))),
        },
        { ...axis, size: 60 },
      ],
      series: [
        { label: t('charts.curve.time'), value: (_u, v) => (v === null ? '--' : formatDateTime(v, 'YYYY-MM-DD HH:mm:ss.SSS')) },
        ...series.map((s, i) => ({
          label: s.label,
          stroke: s.color ?? CURVE_COLORS[i % CURVE_COLORS.length],
          width: 1.5,
          spanGaps: true,
          points: { show: (u: uPlot) => (u.data[0]?.length ?? 0) < 200 },
        })),
      ],
      hooks: {
        setSelect: [
          (u) => {
            if (u.select.width < 4) return;
            const a = u.posToVal(u.select.left, 'x');
            const b = u.posToVal(u.select.left + u.select.width, 'x');
            u.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
            handlers.current.onSelectRange?.([a, b]);
          },
        ],
        drawSeries: [
          (u, si) => {
            const sr = seriesRef.current[si - 1];
            if (!sr?.band) return;
            const ctx = u.ctx;
            const xs = u.data[0];
            ctx.save();
            ctx.strokeStyle = sr.color ?? CURVE_COLORS[(si - 1) % CURVE_COLORS.length];
            ctx.globalAlpha = 0.35;
            ctx.lineWidth = Math.max(1, devicePixelRatio);
            ctx.beginPath();
            for (let i = 0; i < xs.length; i++) {
              const lo = sr.band.low[i];
              const hi = sr.band.high[i];
              if (lo === null || hi === null) continue;
              const px = Math.round(u.valToPos(xs[i], 'x', true));
              ctx.moveTo(px, u.valToPos(lo, 'y', true));
              ctx.lineTo(px, u.valToPos(hi, 'y', true) - 1);
            }
            ctx.stroke();
            ctx.restore();
          },
        ],
        draw: [
          (u) => {
            const m = markerRef.current;
            if (m === null || m === undefined) return;
            const px = Math.round(u.valToPos(m, 'x', true));
            const ctx = u.ctx;
            ctx.save();
            ctx.strokeStyle = token.colorError;
            ctx.lineWidth = 2 * devicePixelRatio;
            ctx.beginPath();
            ctx.moveTo(px, u.bbox.top);
            ctx.lineTo(px, u.bbox.top + u.bbox.height);
            ctx.stroke();
            ctx.restore();
          },
        ],
      },
    };
    const u = new uPlot(opts, [x, ...series.map((s) => s.values)] as uPlot.AlignedData, el);
    plot.current = u;
    if (range) u.setScale('x', { min: range[0], max: range[1] });
    return () => {
      u.destroy();
      plot.current = null;
    };
  }, [layout, width > 0]);

  // Resizing keeps the chart and tells the owner the plot area's new width in CSS pixels.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a rebuilt chart (new layout) has a new plot width to report.
  useEffect(() => {
    const u = plot.current;
    if (!width) return;
    if (u && u.width !== width) u.setSize({ width, height });
    handlers.current.onWidth?.(u ? Math.round(u.bbox.width / devicePixelRatio) : width);
  }, [width, height, layout]);

  // New data (and range) redraw the same chart.
  useEffect(() => {
    const u = plot.current;
    if (!u || u.series.length !== series.length + 1) return;
    u.setData([x, ...series.map((s) => s.values)] as uPlot.AlignedData, !range);
    if (range) u.setScale('x', { min: range[0], max: range[1] });
  }, [x, series, range]);

  useEffect(() => {
    markerRef.current = marker;
    plot.current?.redraw(false);
  }, [marker]);

  return (
    <div data-testid={testId} data-points={x.length} className="lh-curve" style={{ position: 'relative' }}>
      <div ref={box} style={{ width: '100%', minHeight: series.length ? height : 0 }} />
      {series.length > 0 && x.length === 0 && (
        <div className="lh-curve__empty" style={{ color: token.colorTextTertiary }}>
          {t('charts.curve.noData')}
        </div>
      )}
      {!series.length && (
        <div style={{ height, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('charts.curve.empty')} />
        </div>
      )}
    </div>
  );
}
