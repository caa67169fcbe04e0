import { dbcText, type parseDbc, summarizeDbc } from '@loggerhead/can';

export { dbcText };

import type { DbcMessageInfo } from '@loggerhead/contract/schemas/dbc.ts';

/**
 * What the import page shows before uploading: the messages and signals the file declares, the
 * statements the parser skipped, or the line and column where it fails. The parser is passed in
 * so this stays a pure function of the bytes.
 */
export function readDbcPreview(bytes: Uint8Array, parse: typeof parseDbc) {
  const r = parse(dbcText(bytes));
  if (!r.ok) return { messages: [], warnings: [], problem: { line: r.error.line, col: r.error.col, reason: r.error.reason } };
  const messages: DbcMessageInfo[] = summarizeDbc(r.dbc);
  return { messages, warnings: r.warnings.map((w) => ({ line: w.line, col: w.col, reason: w.reason })), problem: null };
}
