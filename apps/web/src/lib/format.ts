import dayjs from 'dayjs';

/**
 * The one formatter for dates, numbers and byte sizes, so every screen shows them alike.
 * Empty values print as "--" (spec §5: empty table cells).
 */
export const EMPTY = '--';

const UNITS = ['B', 'KB', 'MB', 'GB'] as const;

/** Spec §9: B, KB, MB, GB in steps of 1024, two decimals (whole bytes have none). */
export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes)) return EMPTY;
  let value = Math.abs(bytes);
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const sign = bytes < 0 ? '-' : '';
  return unit === 0 ? `${sign}${value} B` : `${sign}${value.toFixed(2)} ${UNITS[unit]}`;
}

/** Spec §9: a recalled file's size is shown in KB, in MB above 1048576 bytes. */
export function formatRecallSize(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes)) return EMPTY;
  return bytes > 1_048_576 ? `${(bytes / 1_048_576).toFixed(2)} MB` : `${(bytes / 1024).toFixed(2)} KB`;
}

/** Megabytes (the unit capacity figures come in, spec §9) as a byte size. */
export function formatMegabytes(mb: number | null | undefined): string {
  return mb === null || mb === undefined ? EMPTY : formatBytes(mb * 1024 * 1024);
}

export type DateInput = Date | number | string | null | undefined;

export const DATE_TIME = 'YYYY-MM-DD HH:mm:ss';
export const DATE = 'YYYY-MM-DD';

/** Local date and time; numbers are epoch milliseconds. */
export function formatDateTime(value: DateInput, pattern = DATE_TIME): string {
  if (value === null || value === undefined || value === '') return EMPTY;
  const d = dayjs(value);
  return d.isValid() ? d.format(pattern) : EMPTY;
}

export function formatDate(value: DateInput): string {
  return formatDateTime(value, DATE);
}

/** Numbers with the locale's grouping; `decimals` fixes the fraction digits (spec §5 default 2 for decimals). */
export function formatNumber(value: number | null | undefined, lang: 'zh' | 'en' = 'zh', decimals?: number): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return EMPTY;
  // Without fixed decimals, 12 significant digits: a decoded 0.1 × 202 shows as 20.2, not 20.200000000000003.
  return new Intl.NumberFormat(lang === 'zh' ? 'zh-CN' : 'en-US', {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals ?? 20,
  }).format(decimals === undefined ? Number(value.toPrecision(12)) : value);
}

/** A ratio 0..1 as a percentage with two decimals. */
export function formatPercent(ratio: number | null | undefined): string {
  if (ratio === null || ratio === undefined || !Number.isFinite(ratio)) return EMPTY;
  return `${(ratio * 100).toFixed(2)}%`;
}

/** An amount of money in cents, as yuan with two decimals (¥1,234.50). */
export function formatMoney(cents: number | null | undefined): string {
  if (cents === null || cents === undefined || !Number.isFinite(cents)) return EMPTY;
  return `¥${new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(cents / 100)}`;
}
