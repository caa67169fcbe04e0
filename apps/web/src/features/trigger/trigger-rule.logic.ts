/** Link to the rule editor of spec §2: `/Container/EditTriggerRule?things_id=…&id=…` (no id: new rule). */
export function editRuleHref(thingsId: string, id?: string): string {
  const q = new URLSearchParams({ things_id: thingsId });
  if (id) q.set('id', id);
  return `/Container/EditTriggerRule?${q.toString()}`;
}

/** The rules of an import file: an export file (`{rules: [...]}`) or a bare array; null when unusable. */
export function parseImportFile(text: string): Record<string, unknown>[] | null {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  const list = Array.isArray(data) ? data : data && typeof data === 'object' ? (data as { rules?: unknown }).rules : null;
  if (!Array.isArray(list) || list.length === 0 || list.length > 100) return null;
  if (!list.every((r) => r && typeof r === 'object' && !Array.isArray(r))) return null;
  return list as Record<string, unknown>[];
}

/** Spec §5 frame id ranges. */
export const STANDARD_ID_MAX = 0x7ff;
export const EXTENDED_ID_MAX = 0x1fffffff;

/** A typed hex frame id (`1A0` or `0x1A0`) as a number, or null when not hex or out of range for the format. */
export function parseFrameId(text: string, format: 'standard' | 'extended'): number | null {
  const s = text.trim();
  if (!/^(0x)?[0-9a-fA-F]{1,8}$/i.test(s)) return null;
  const n = Number.parseInt(s.replace(/^0x/i, ''), 16);
  return n <= (format === 'extended' ? EXTENDED_ID_MAX : STANDARD_ID_MAX) ? n : null;
}
