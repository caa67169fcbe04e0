/** Spec: playback speeds 0.5× to 16×. */
export const PLAYBACK_SPEEDS = [0.5, 1, 2, 4, 8, 16] as const;
export type PlaybackSpeed = (typeof PLAYBACK_SPEEDS)[number];

/** Index of the last time ≤ `t` in an ascending list, -1 when all are later. */
export function lastIndexAtOrBefore(times: ArrayLike<number>, t: number): number {
  let lo = 0;
  let hi = times.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (times[mid] <= t) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/**
 * Where a replay stands: data time advances `speed` times as fast as the wall clock from the
 * moment (wall, position) it was last started or sought, and stops at the end.
 */
export function playbackPosition(anchor: { wall: number; position: number }, wallNow: number, speed: number, end: number): number {
  return Math.min(end, anchor.position + (wallNow - anchor.wall) * speed);
}
