import { liveCurvesConfigKey } from '@loggerhead/contract/schemas/signals.ts';
import { MAX_CURVES_SHOWN, MAX_SAVED_CURVES } from '../lib/names.ts';

/** One saved curve of the real-time view: a named signal of a channel, drawn when `shown`. */
export interface CurveEntry {
  name: string;
  signal: string;
  channel: number;
  shown: boolean;
}

/** The user-config key a device's curves are saved under (the server edits it on unbind). */
export const curvesConfigKey = liveCurvesConfigKey;

export function parseCurves(value: string | null): CurveEntry[] {
  if (!value) return [];
  try {
    const list = JSON.parse(value) as unknown;
    if (!Array.isArray(list)) return [];
    return list
      .filter(
        (c): c is CurveEntry =>
          c && typeof c.name === 'string' && typeof c.signal === 'string' && Number.isInteger(c.channel) && typeof c.shown === 'boolean',
      )
      .slice(0, MAX_SAVED_CURVES);
  } catch {
    return [];
  }
}

export type AddProblem = 'full' | 'duplicate' | null;

/** A new curve is refused past 30 saved, or when the name is taken; it is drawn if fewer than 10 are. */
export function addCurve(list: CurveEntry[], entry: Omit<CurveEntry, 'shown'>): { list: CurveEntry[]; problem: AddProblem } {
  if (list.length >= MAX_SAVED_CURVES) return { list, problem: 'full' };
  if (list.some((c) => c.name === entry.name)) return { list, problem: 'duplicate' };
  const shown = list.filter((c) => c.shown).length < MAX_CURVES_SHOWN;
  return { list: [...list, { ...entry, shown }], problem: null };
}

/** Ticks a curve on or off; an eleventh ticked curve is refused. */
export function toggleCurve(list: CurveEntry[], name: string, shown: boolean): { list: CurveEntry[]; refused: boolean } {
  if (shown && list.filter((c) => c.shown && c.name !== name).length >= MAX_CURVES_SHOWN) return { list, refused: true };
  return { list: list.map((c) => (c.name === name ? { ...c, shown } : c)), refused: false };
}
