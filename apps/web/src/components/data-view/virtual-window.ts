/** Spec §9 virtual list: row height 36, 15 rows rendered beyond each edge of the viewport. */
export const VIRTUAL_ROW_HEIGHT = 36;
export const VIRTUAL_OVERSCAN = 15;

/** The rows [start, end) to render for a scroll position: only what is visible plus the overscan. */
export function visibleWindow(
  scrollTop: number,
  viewport: number,
  count: number,
  rowHeight = VIRTUAL_ROW_HEIGHT,
  overscan = VIRTUAL_OVERSCAN,
): { start: number; end: number } {
  const first = Math.floor(Math.max(0, scrollTop) / rowHeight);
  const shown = Math.ceil(viewport / rowHeight) + 1;
  const start = Math.max(0, first - overscan);
  const end = Math.min(count, first + shown + overscan);
  return { start, end: Math.max(start, end) };
}
