// One distributor's customer table on Distribution: searched, sorted and paged in the
// URL (`?sok=`, `?sortera=&ordning=`, `?sida-<distributor>=`), so a view can be shared
// and Back works. The overview already holds every reporting customer of the range (one
// query, bench B3); this only chooses which of them the page shows, so a distributor with
// thousands of customers sends one page of rows, not all of them.
import { pageCount } from "~/lib/paging";
import { param, readSearch } from "~/lib/search-params";
import { svCollator, textMatcher } from "~/lib/search-text";
import type { Sort } from "~/lib/sort";
import type { DistributionCustomer } from "./distribution.server";

export const CUSTOMER_COLUMNS = ["kundnr", "namn", "postnr", "ort", "antal", "summa"] as const;
export type CustomerColumn = (typeof CUSTOMER_COLUMNS)[number];
export const CUSTOMERS_PER_PAGE = 100;

/** The query-string key of a distributor's page. */
const PAGE_KEY = "sida-";
export const pageKeyOf = (distributorId: number) => `${PAGE_KEY}${distributorId}`;

/** `sortChosen`: the URL names an order (a header was clicked), so the filters keep it. */
export type CustomerTableView = { search: string; sort: Sort<CustomerColumn>; sortChosen: boolean };

/** The tables' search, order and each distributor's page (`sida-<distributor>`). */
export const CUSTOMER_TABLE_SEARCH = {
  sok: param.text(100),
  sort: param.sort(CUSTOMER_COLUMNS, { column: "kundnr", descending: false }),
  sortera: param.flag(),
  pages: param.pagesByPrefix(PAGE_KEY),
};

export function readCustomerTableView(from: Request | URLSearchParams): { view: CustomerTableView; pages: Map<number, number> } {
  const { sok, sort, sortera, pages } = readSearch(from, CUSTOMER_TABLE_SEARCH);
  return { view: { search: sok, sort, sortChosen: sortera }, pages };
}

const compare: Record<CustomerColumn, (a: DistributionCustomer, b: DistributionCustomer) => number> = {
  kundnr: (a, b) => a.id - b.id,
  namn: (a, b) => svCollator.compare(a.name, b.name),
  postnr: (a, b) => svCollator.compare(a.zip, b.zip),
  ort: (a, b) => svCollator.compare(a.city, b.city),
  antal: (a, b) => a.amount - b.amount,
  summa: (a, b) => a.priceOre - b.priceOre,
};

/**
 * The rows of one distributor's table: those matching the search (number, name, postal
 * code or city; case and diacritics ignored), in the chosen order (ties by number), one
 * page of them. Without a page in the URL, the page holding `selectedId` (the open
 * customer), so opening a customer never hides it.
 */
export function customerTable(
  customers: DistributionCustomer[],
  distributorId: number,
  askedPages: Map<number, number>,
  view: CustomerTableView,
  selectedId: number | null,
) {
  const matches = textMatcher(view.search);
  const byColumn = compare[view.sort.column];
  const sign = view.sort.descending ? -1 : 1;
  const filtered = customers.filter((c) => matches(c.id, c.name, c.zip, c.city)).sort((a, b) => sign * byColumn(a, b) || a.id - b.id);
  const pages = pageCount(filtered.length, CUSTOMERS_PER_PAGE);
  const key = pageKeyOf(distributorId);
  const selectedIndex = selectedId === null ? -1 : filtered.findIndex((c) => c.id === selectedId);
  const asked = askedPages.get(distributorId);
  const wanted = asked !== undefined ? asked : selectedIndex >= 0 ? Math.floor(selectedIndex / CUSTOMERS_PER_PAGE) + 1 : 1;
  const page = Math.min(wanted, pages);
  return {
    rows: filtered.slice((page - 1) * CUSTOMERS_PER_PAGE, page * CUSTOMERS_PER_PAGE),
    matching: filtered.length,
    page,
    pages,
    pageKey: key,
    /** The URL asks for this table (a search, an order or a page): it opens by itself. */
    asked: view.search !== "" || view.sortChosen || asked !== undefined,
  };
}
