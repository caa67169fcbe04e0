/**
 * Bounds of an export by a read-only session (the experience account, shared by every visitor):
 * small, few at a time, its own, and soon gone (docs/decisions/0096-least-privilege.md).
 */
export const EXPERIENCE_EXPORT = {
  /** One hour: the history tab's default range. */
  maxRangeMs: 3_600_000,
  /** Frames of a data export; rows of a signals CSV export. */
  maxFrames: 150_000,
  /** Unfinished exports at once: per session, and for all sessions together. */
  perSession: 1,
  running: 2,
  /** Tasks (and files) kept for all sessions together, and for how long at most. */
  kept: 6,
  keepMs: 30 * 60_000,
} as const;
