import type { CanFrame } from '../frame.ts';

/**
 * The start written into ASC/BLF headers. Those headers hold milliseconds only, so the start
 * is rounded down to a millisecond and every frame keeps its exact µs as an offset from it.
 * Frames are not required to be sorted; the earliest one bounds the start.
 */
export function startOfRecording(frames: readonly CanFrame[], requested?: number): number {
  let min = Number.POSITIVE_INFINITY;
  for (let i = 0; i < frames.length; i++) if (frames[i].ts < min) min = frames[i].ts;
  if (requested !== undefined && Number.isFinite(requested)) min = Math.min(min, requested);
  if (!Number.isFinite(min) || min < 0) return 0;
  return Math.floor(Math.round(min) / 1000) * 1000;
}
