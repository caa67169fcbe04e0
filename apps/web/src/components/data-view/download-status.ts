import { DownloadStatus } from '@loggerhead/contract/schemas/data.ts';

/** Spec §4 wire codes (1 initialising, 4 querying, 2 organising, 5 generating, 3 done) plus ours, 6 cancelled and 7 failed. */
export type DownloadPhase = 'running' | 'done' | 'cancelled' | 'failed';

export function phaseOf(status: number, rate: number): DownloadPhase {
  if (status === DownloadStatus.cancelled) return 'cancelled';
  if (status === DownloadStatus.failed) return 'failed';
  if (status === DownloadStatus.done && rate >= 100) return 'done';
  return 'running';
}

/** The translation key of a status code; unknown codes read as "initialising". */
export function statusKey(status: number): string {
  const known: number[] = Object.values(DownloadStatus);
  return `device.progress.status.${known.includes(status) ? status : DownloadStatus.initialising}`;
}

/** Spec §4: the dialog closes 2 s after process_rate reaches 100. */
export const CLOSE_AFTER_DONE_MS = 2_000;

/** File extension of each export format (used when the server sends no file name). */
export const EXPORT_EXTENSIONS = { candump: 'log', asc: 'asc', blf: 'blf', trc: 'trc', mf4: 'mf4', csv: 'csv' } as const;
