/** Where "now" comes from: the wall clock in production, a hand-moved one in tests. */
export interface Clock {
  now(): number;
}
export const systemClock: Clock = { now: () => Date.now() };

/**
 * Action frequency (spec §9) per rule and device: an action kind may go out again only when its
 * interval has passed since it last went out. `marks` (kind → ms) is persisted with the rule state.
 */
export function allow(marks: Record<string, number>, kind: string, now: number, intervalMs: number): boolean {
  const last = marks[kind];
  if (last !== undefined && now - last < intervalMs && now >= last) return false;
  marks[kind] = now;
  return true;
}
