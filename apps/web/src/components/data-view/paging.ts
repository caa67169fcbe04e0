/** Spec §9 pagination: default page 1, size 10, sizes 10-50 in steps of 10, nothing past 10000 entries. */
export const DEFAULT_PAGE = 1;
export const DEFAULT_PAGE_SIZE = 10;
export const PAGE_SIZE_OPTIONS = [10, 20, 30, 40, 50] as const;
export const MAX_PAGED_ENTRIES = 10_000;

export interface PageState {
  page: number;
  size: number;
}

export const firstPage = (size: number = DEFAULT_PAGE_SIZE): PageState => ({ page: DEFAULT_PAGE, size });

/** Spec §9: paging is blocked when page × size exceeds 10000 (the server refuses it too). */
export function pageAllowed(page: number, size: number): boolean {
  return page >= 1 && size >= 1 && page * size <= MAX_PAGED_ENTRIES;
}

/**
 * The total the pager counts pages from: above 10000 entries the pages that could not be
 * fetched are not offered at all (spec §9 "paginator hidden above 10000").
 */
export function pagerTotal(total: number, size: number): number {
  const reachable = Math.floor(MAX_PAGED_ENTRIES / size) * size;
  return Math.min(total, reachable);
}

/** The 1-based row number of spec §3 ("rows carry a 1-based index"), continuing across pages. */
export function rowNumber(page: number, size: number, indexOnPage: number): number {
  return (page - 1) * size + indexOnPage + 1;
}
