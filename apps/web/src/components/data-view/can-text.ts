/** How raw CAN values are written on screen: ids and payload bytes in upper-case hex. */

/** `0102AB` → `01 02 AB` (spec device-type display format "spaced bytes"). */
export function spacedHex(hex: string): string {
  let out = '';
  for (let i = 0; i < hex.length; i += 2) out += (i ? ' ' : '') + hex.slice(i, i + 2);
  return out;
}

/** Standard ids as 3 hex digits, extended (29-bit) ids as 8, the way candump writes them. */
export function formatCanId(id: number, ext: boolean): string {
  return id
    .toString(16)
    .toUpperCase()
    .padStart(ext ? 8 : 3, '0');
}

/**
 * Ids typed by the user: separated by commas or spaces, hexadecimal with or without `0x`
 * (CAN ids are always spoken of in hex). Returns null when a value is not a valid id.
 * Spec §9: at most 8 id filters.
 */
export const MAX_ID_FILTERS = 8;

export function parseIdList(text: string): number[] | null {
  const parts = text
    .split(/[\s,，;]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  const ids: number[] = [];
  for (const p of parts) {
    const m = /^(?:0x)?([0-9a-f]{1,8})$/i.exec(p);
    if (!m) return null;
    const n = Number.parseInt(m[1], 16);
    if (n > 0x1fffffff) return null;
    if (!ids.includes(n)) ids.push(n);
  }
  return ids.length > MAX_ID_FILTERS ? null : ids;
}

/** µs since the epoch → the time of day with microseconds, e.g. `12:30:05.123456`. */
export function formatMicroTime(tsUs: number, withDate = false): string {
  const ms = Math.floor(tsUs / 1000);
  const d = new Date(ms);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}${pad(Math.floor(tsUs) % 1000, 3)}`;
  return withDate ? `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${time}` : time;
}
