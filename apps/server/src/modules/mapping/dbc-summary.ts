import type { Dbc, DbcWarning } from '@loggerhead/can';
import { dbcText, parseDbc, summarizeDbc } from '@loggerhead/can';

export { dbcText };

import type { DbcMessageInfo } from '@loggerhead/contract';

export type ParsedDbc = { ok: true; dbc: Dbc; warnings: DbcWarning[] } | { ok: false; error: DbcWarning };

export function parse(text: string): ParsedDbc {
  const r = parseDbc(text);
  return r.ok ? { ok: true, dbc: r.dbc, warnings: r.warnings } : { ok: false, error: r.error };
}

/** The messages view stored beside the file (every message, decodable or not). */
export const summarize = (dbc: Dbc): DbcMessageInfo[] => summarizeDbc(dbc);

/** `Message.Signal` names of a summary, for strategy checks. */
export function signalNames(summary: DbcMessageInfo[]): Set<string> {
  const out = new Set<string>();
  for (const m of summary) for (const s of m.signals) out.add(`${m.name}.${s.name}`);
  return out;
}
