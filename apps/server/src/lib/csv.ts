/**
 * The one CSV writer of every export (devices, signals, statistics, tenants, test reports, the
 * `decode` command): RFC 4180 cells, and no text a spreadsheet would run. A text cell that starts
 * with `=`, `+`, `-`, `@`, a TAB or a CR is a formula to Excel, LibreOffice and Google Sheets
 * (`=cmd|' /C calc'!A0`, `@SUM(…)`, a TAB before `=`); it is written with a leading `'`, which they
 * show as text. Numbers, booleans and dates are values, never text: `-5` stays the number -5.
 */

/** Text a spreadsheet would take for a formula: its first character. */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A cell with one of these is quoted (its quotes doubled). */
const NEEDS_QUOTES = /[",\r\n]/;

/** One cell: a number, boolean or date as its value; any other value as text, neutralised and quoted where needed. */
export function csvCell(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  if (v instanceof Date) return v.toISOString();
  return csvText(String(v));
}

/** A text cell, whatever it looks like (a name such as `-5` or `+86` is text too). */
export function csvText(s: string): string {
  const safe = FORMULA_START.test(s) ? `'${s}` : s;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** One row: its cells joined by commas, ended by `eol` (CRLF unless told). */
export function csvLine(cells: readonly unknown[], eol = '\r\n'): string {
  return `${cells.map(csvCell).join(',')}${eol}`;
}

/** Put first in a file: spreadsheet programs then read its UTF-8 (Chinese names) right. */
export const CSV_BOM = '\uFEFF';
