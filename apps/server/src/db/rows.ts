/**
 * Row → DTO pieces every module needs. Both drivers return `timestamptz` as a Date; a text value
 * (a row read back from JSON) is read the same way.
 */

/** A timestamp column as epoch milliseconds; null stays null. */
export const epochMs = (d: Date | string | null): number | null => (d ? new Date(d).getTime() : null);
