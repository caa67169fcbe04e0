import {
  MAX_PANEL_SIGNALS,
  PANEL_DESCRIPTION_MAX,
  PANEL_NAME_MAX,
  PANEL_WINDOW_MS,
  type PanelChartType,
  type PanelWindow,
} from '@loggerhead/contract/schemas/dashboard.ts';

export type PanelNameProblem = 'required' | 'length' | null;

/** Spec: a panel name of 1-32 characters (spaces around it do not count). */
export function panelNameProblem(name: string | undefined): PanelNameProblem {
  const n = (name ?? '').trim();
  if (!n) return 'required';
  if ([...n].length > PANEL_NAME_MAX) return 'length';
  return null;
}

export function descriptionProblem(text: string | undefined): 'length' | null {
  return [...(text ?? '').trim()].length > PANEL_DESCRIPTION_MAX ? 'length' : null;
}

/** A line panel shows 1-10 signals; a number or gauge panel exactly one. */
export function signalsProblem(chart: PanelChartType, count: number): 'required' | 'max' | 'one' | null {
  if (count === 0) return 'required';
  if (chart !== 'line' && count > 1) return 'one';
  if (count > MAX_PANEL_SIGNALS) return 'max';
  return null;
}

/**
 * How often a line panel asks for its curve again: about every 1/120 of its window (one pixel
 * column of a wide chart), at least every 5 s and at most every 5 min.
 */
export function refreshMs(window: PanelWindow): number {
  return Math.min(300_000, Math.max(5_000, Math.round(PANEL_WINDOW_MS[window] / 120)));
}

/** The ids with the one at `index` moved one place up (-1) or down (+1); unchanged at the ends. */
export function moved(ids: readonly string[], index: number, step: -1 | 1): string[] {
  const out = [...ids];
  const to = index + step;
  if (index < 0 || index >= out.length || to < 0 || to >= out.length) return out;
  [out[index], out[to]] = [out[to], out[index]];
  return out;
}

/** Where a value sits on a gauge's [min, max], 0-100 (clamped); null without a value or a range. */
export function gaugePercent(value: number | null, min: number | null, max: number | null): number | null {
  if (value === null || min === null || max === null || !(max > min)) return null;
  return Math.min(100, Math.max(0, ((value - min) / (max - min)) * 100));
}
