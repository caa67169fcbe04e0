import type { UploadResult } from '@loggerhead/contract/schemas/data.ts';

/** One file of an upload batch, as the dialog shows it. */
export interface UploadItem {
  key: string;
  file: File;
  state: 'queued' | 'sending' | 'reading' | 'done' | 'failed' | 'cancelled';
  /** 0-100 while sending. */
  percent: number;
  result?: UploadResult;
  /** Why it failed (already translated), and where in the file when the server said. */
  error?: string;
  at?: { line?: number; offset?: number };
}

/** The next file to send: one at a time, in the order they were added; none while one is on its way. */
export function nextToSend(items: readonly UploadItem[]): UploadItem | undefined {
  if (items.some((i) => i.state === 'sending' || i.state === 'reading')) return undefined;
  return items.find((i) => i.state === 'queued');
}

/** Where each skipped unit was: `line 7` / `byte 144` keys with their number, the reason, and how many more were not listed. */
export function skippedPlaces(r: UploadResult): {
  places: { key: 'line' | 'byte'; n: number; reason: string }[];
  more: number;
  byLine: boolean;
} {
  const places = r.skipped.map((s) =>
    s.line !== undefined
      ? { key: 'line' as const, n: s.line, reason: s.reason }
      : { key: 'byte' as const, n: s.offset ?? 0, reason: s.reason },
  );
  return { places, more: Math.max(0, r.skipped_count - r.skipped.length), byLine: places.length === 0 || places[0].key === 'line' };
}
