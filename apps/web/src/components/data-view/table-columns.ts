import { EMPTY } from '../../lib/format.ts';

/** Spec §5 / §9: at most 30 chosen columns ("saveMax" beyond). */
export const MAX_CHOSEN_COLUMNS = 30;

export interface ColumnChoiceItem {
  key: string;
  /** Always shown and not offered in the chooser (e.g. the action column). */
  always?: boolean;
  /** Not ticked until the user chooses it. */
  defaultHidden?: boolean;
}

export function defaultChoice(columns: readonly ColumnChoiceItem[]): string[] {
  return columns.filter((c) => !c.always && !c.defaultHidden).map((c) => c.key);
}

/**
 * The saved choice (a JSON list of column props, spec §3) limited to columns that still exist,
 * in the table's order; null when nothing usable was saved, so the defaults apply (spec §8).
 */
export function parseChoice(value: string | null | undefined, columns: readonly ColumnChoiceItem[]): string[] | null {
  if (!value) return null;
  let list: unknown;
  try {
    list = JSON.parse(value);
  } catch {
    return null;
  }
  if (!Array.isArray(list)) return null;
  const chosen = new Set(list.filter((v): v is string => typeof v === 'string'));
  const keys = columns.filter((c) => !c.always && chosen.has(c.key)).map((c) => c.key);
  return keys.length ? keys : null;
}

export type ChoiceProblem = 'saveMax' | 'empty' | null;

export function checkChoice(keys: readonly string[]): ChoiceProblem {
  if (keys.length > MAX_CHOSEN_COLUMNS) return 'saveMax';
  if (keys.length === 0) return 'empty';
  return null;
}

/** Spec §5: an empty table cell shows "--". */
export function cellText(value: unknown): string {
  if (value === null || value === undefined || value === '') return EMPTY;
  return String(value);
}
