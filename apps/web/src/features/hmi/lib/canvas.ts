import {
  HMI_GRID_COLS,
  HMI_GRID_ROWS,
  type HmiBinding,
  type HmiCanvas,
  type HmiWidget,
  type HmiWidgetType,
} from '@loggerhead/contract/schemas/hmi.ts';

/** The key of a bound value: the same for every widget showing the same signal or property. */
export function bindingKey(b: HmiBinding): string {
  return b.source === 'signal' ? `${b.things_id}/${b.channel}/${b.signal}` : `${b.things_id}/p/${b.property}`;
}

/** A new widget's size on the grid, by type. */
const SIZES: Record<HmiWidgetType, { w: number; h: number }> = {
  value: { w: 4, h: 2 },
  gauge: { w: 5, h: 4 },
  lamp: { w: 3, h: 2 },
  trend: { w: 8, h: 4 },
  button: { w: 4, h: 2 },
  image: { w: 4, h: 4 },
  text: { w: 6, h: 1 },
};

/** A widget id not used on the canvas yet (`w1`, `w2`, …). */
export function nextWidgetId(canvas: HmiCanvas): string {
  const used = new Set(canvas.widgets.map((w) => w.id));
  let i = canvas.widgets.length + 1;
  while (used.has(`w${i}`)) i++;
  return `w${i}`;
}

/** The first free row below every widget: where a new one goes. */
export function nextRow(canvas: HmiCanvas): number {
  return Math.min(
    HMI_GRID_ROWS - 1,
    canvas.widgets.reduce((m, w) => Math.max(m, w.y + w.h), 0),
  );
}

/** A new widget of a type, below the others; the fields its type needs start empty or with a sensible value. */
export function newWidget(canvas: HmiCanvas, type: HmiWidgetType): HmiWidget {
  const base: HmiWidget = { id: nextWidgetId(canvas), type, x: 0, y: nextRow(canvas), ...SIZES[type], label: '' };
  if (type === 'gauge') return { ...base, min: 0, max: 100 };
  if (type === 'lamp') return { ...base, threshold: 1 };
  if (type === 'text') return { ...base, text: 'Text' };
  return base;
}

/** Keeps a widget on the grid: inside the columns, within the rows, at least one cell. */
export function clampCell(w: Pick<HmiWidget, 'x' | 'y' | 'w' | 'h'>): Pick<HmiWidget, 'x' | 'y' | 'w' | 'h'> {
  const width = Math.max(1, Math.min(HMI_GRID_COLS, Math.round(w.w)));
  const height = Math.max(1, Math.min(40, Math.round(w.h)));
  const x = Math.max(0, Math.min(HMI_GRID_COLS - width, Math.round(w.x)));
  const y = Math.max(0, Math.min(HMI_GRID_ROWS - 1, Math.round(w.y)));
  return { x, y, w: width, h: height };
}

/** Where a widget moves (or how far it grows) for a pointer moved by dx, dy pixels: whole cells. */
export function dragCells(
  start: Pick<HmiWidget, 'x' | 'y' | 'w' | 'h'>,
  dx: number,
  dy: number,
  cell: { width: number; height: number },
  mode: 'move' | 'resize',
) {
  const cx = Math.round(dx / cell.width);
  const cy = Math.round(dy / cell.height);
  return clampCell(mode === 'move' ? { ...start, x: start.x + cx, y: start.y + cy } : { ...start, w: start.w + cx, h: start.h + cy });
}

/** A value as a widget shows it: fixed decimals when set, else up to 3; a non-number as text. */
export function formatValue(v: unknown, decimals?: number): string {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) return String(v);
    return decimals !== undefined ? v.toFixed(decimals) : String(Math.round(v * 1000) / 1000);
  }
  if (typeof v === 'boolean') return v ? '1' : '0';
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** A gauge's needle position, 0 to 1 (out-of-range values pinned to the ends). */
export function gaugeFraction(v: number, min: number, max: number): number {
  if (!(max > min)) return 0;
  return Math.max(0, Math.min(1, (v - min) / (max - min)));
}

/** A lamp is lit when its value is at or above its threshold (true counts as 1). */
export function lampLit(v: unknown, threshold: number): boolean {
  if (v === null || v === undefined || v === '') return false;
  const n = typeof v === 'boolean' ? (v ? 1 : 0) : typeof v === 'number' ? v : Number(v);
  return Number.isFinite(n) && n >= threshold;
}

/**
 * Adds the numeric samples newer than the last one kept (a twin read again reports the same value
 * with the same time; a history read may overlap what came live), keeping the last `max`.
 */
export function appendSamples(history: { t: number; v: number }[], samples: { t: number; v: unknown }[], max: number) {
  for (const s of samples) {
    if (typeof s.v !== 'number' || !Number.isFinite(s.v)) continue;
    const last = history[history.length - 1];
    if (last && s.t <= last.t) continue;
    history.push({ t: s.t, v: s.v });
  }
  if (history.length > max) history.splice(0, history.length - max);
  return history;
}
