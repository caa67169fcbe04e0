/** Spec §9 date shortcuts: hour 1 h, day 24 h, week 7 d, month 30 d, 3 months 90 d, half year 180 d, year 365 d. */
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export const RANGE_SHORTCUTS = [
  { key: 'hour', span: HOUR },
  { key: 'day', span: DAY },
  { key: 'week', span: 7 * DAY },
  { key: 'month', span: 30 * DAY },
  { key: 'threeMonths', span: 90 * DAY },
  { key: 'halfYear', span: 180 * DAY },
  { key: 'year', span: 365 * DAY },
] as const;

export type RangeShortcut = (typeof RANGE_SHORTCUTS)[number]['key'];

/** [begin, end] in epoch ms: the span of a shortcut that ends now. */
export function shortcutRange(key: RangeShortcut, now: number): [number, number] {
  const s = RANGE_SHORTCUTS.find((r) => r.key === key);
  if (!s) throw new Error(`unknown range shortcut ${key}`);
  return [now - s.span, now];
}
