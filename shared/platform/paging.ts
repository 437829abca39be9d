/**
 * One page of an already ordered list, in the interface's paging vocabulary: `activePage`
 * (1-based, as asked), `maxPages` and the page's `records`. A page past the last is empty.
 * `emptyHasOnePage`: an empty list still answers `maxPages: 1` (the account history's
 * clients page from 1 of 1); otherwise 0.
 */
export function pageOf<T>(ordered: readonly T[], page: number, pageSize: number, options: { emptyHasOnePage?: boolean } = {}) {
  const pages = Math.ceil(ordered.length / pageSize);
  const start = (page - 1) * pageSize;
  return { activePage: page, maxPages: options.emptyHasOnePage ? Math.max(1, pages) : pages, records: ordered.slice(start, start + pageSize) };
}
