// The month end's long lists — the invoices a preview would make and the invoices a run made
// — searched by customer number, name or invoice number and paged, so 13,000 invoices are one
// page at a time and none is out of reach. Client-safe.
import { pageCount } from "~/lib/paging";
import { textMatcher } from "~/lib/search-text";

export const RUN_ROWS_PER_PAGE = 50;

export function searchedPage<R extends { customerId: number; name: string; number?: number }>(rows: R[], search: string, page: number) {
  const matches = textMatcher(search.slice(0, 100));
  const shown = rows.filter((r) => matches(r.customerId, r.name, r.number));
  const pages = pageCount(shown.length, RUN_ROWS_PER_PAGE);
  const current = Math.min(Math.max(1, page), pages);
  return { search: search.slice(0, 100), matching: shown.length, total: rows.length, page: current, pages, rows: shown.slice((current - 1) * RUN_ROWS_PER_PAGE, current * RUN_ROWS_PER_PAGE) };
}
