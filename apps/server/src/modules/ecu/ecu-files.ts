import { parseUnlockFile } from '@loggerhead/can/uds/seed-key.ts';
import { parseDtcCode } from '@loggerhead/can/uds/uds.ts';
import type { FaultCode } from '@loggerhead/contract';

/**
 * Fault-code file import: a JSON list `[{"code": "P0123", "name": "…"}]` (or `{"list": […]}`), or CSV
 * lines `code,name` (a header line `code,name` is skipped; names may be quoted). Codes are SAE
 * (`P0123`, `U0100-87`) or 3-byte hex (`0x012345`). Returns the entries or a reason.
 */
export function parseFaultCodeFile(text: string): FaultCode[] | string {
  const t = text.replace(/^\uFEFF/, '').trim();
  let items: { code?: unknown; name?: unknown }[];
  if (t.startsWith('[') || t.startsWith('{')) {
    let j: unknown;
    try {
      j = JSON.parse(t);
    } catch {
      return 'not valid JSON';
    }
    const list = Array.isArray(j) ? j : (j as { list?: unknown }).list;
    if (!Array.isArray(list)) return 'expected a list of {code, name}';
    items = list as typeof items;
  } else {
    items = [];
    for (const [i, raw] of t.split(/\r?\n/).entries()) {
      const line = raw.trim();
      if (!line || (i === 0 && /^code\s*[,;]/i.test(line))) continue;
      const m = /^([^,;]+)[,;]\s*(?:"((?:[^"]|"")*)"|(.*))$/.exec(line);
      if (!m) return `line ${i + 1}: expected code,name`;
      items.push({ code: m[1].trim(), name: (m[2] !== undefined ? m[2].replaceAll('""', '"') : (m[3] ?? '')).trim() });
    }
  }
  if (items.length === 0) return 'no fault codes';
  if (items.length > 100_000) return 'at most 100000 fault codes';
  const out: FaultCode[] = [];
  const seen = new Set<number>();
  for (const [i, it] of items.entries()) {
    if (typeof it?.code !== 'string' || typeof it.name !== 'string' || !it.name) return `entry ${i + 1}: code and name are required`;
    const n = parseDtcCode(it.code);
    if (n === null) return `entry ${i + 1}: "${it.code}" is not a fault code`;
    if (seen.has(n)) return `entry ${i + 1}: "${it.code}" appears twice`;
    seen.add(n);
    out.push({ code: it.code.trim().toUpperCase(), name: it.name.slice(0, 256) });
  }
  return out;
}

/** Looks a DTC up in a fault-code list: exact 3-byte match first, then the 2-byte SAE code (any failure type). */
export function faultCodeName(list: FaultCode[], dtc: number): string | null {
  let loose: string | null = null;
  for (const e of list) {
    const n = parseDtcCode(e.code);
    if (n === null) continue;
    if (n === dtc && !/^[PCBU][0-9A-F]{4}$/i.test(e.code)) return e.name;
    if (n >> 8 === dtc >> 8 && /^[PCBU][0-9A-F]{4}$/i.test(e.code)) loose ??= e.name;
    if (n === dtc) loose ??= e.name;
  }
  return loose;
}

export function parseUnlock(text: string) {
  try {
    return parseUnlockFile(JSON.parse(text));
  } catch {
    return 'not valid JSON';
  }
}
