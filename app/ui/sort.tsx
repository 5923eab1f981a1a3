import { Link, useSearchParams } from "@remix-run/react";
import type { ReactNode } from "react";
import { ArrowDownIcon, ArrowUpIcon } from "./icons";

/**
 * Sortable table headers with the state in the URL (`?sortera=<column>&ordning=stigande|fallande`),
 * so a sorted view can be shared and Back works, with or without JavaScript. The loader
 * reads the same parameters with `param.sort` (app/lib/search-params.ts; any unknown column
 * falls back to the default) and sorts in SQL; changing the sort goes back to page 1.
 */
export { type Sort } from "~/lib/sort";
import { SORT_PARAMS, type Sort, type SortParams } from "~/lib/sort";

export function SortHeader<C extends string>({
  column,
  sort,
  children,
  pageParam = "sida",
  className,
  names = SORT_PARAMS,
}: {
  column: C;
  sort: Sort<C>;
  children: ReactNode;
  /** The page parameter(s) a new order resets. */
  pageParam?: string | string[];
  className?: string;
  /** The URL parameters of this table's order (a second sorted table on a page has its own). */
  names?: SortParams;
}) {
  const [params] = useSearchParams();
  const active = sort.column === column;
  const next = new URLSearchParams(params);
  next.set(names.column, column);
  next.set(names.order, active && !sort.descending ? "fallande" : "stigande");
  for (const p of Array.isArray(pageParam) ? pageParam : [pageParam]) next.delete(p);
  return (
    <th scope="col" className={className} aria-sort={active ? (sort.descending ? "descending" : "ascending") : undefined}>
      <Link to={`?${next}`} className="sort-link">
        {children}
        {active ? <> {sort.descending ? <ArrowDownIcon /> : <ArrowUpIcon />}</> : null}
      </Link>
    </th>
  );
}

/**
 * The order of a list that is not a table (cards, bundles): a plain select in the list's
 * GET form, `?sortera=<key>`, its options the keys of `orders` with their Swedish labels.
 */
export function OrderSelect({ id, orders, value }: { id: string; orders: Record<string, string>; value: string }) {
  return (
    <div className="field">
      <label htmlFor={id}>Sortera</label>
      <select id={id} name="sortera" defaultValue={value}>
        {Object.entries(orders).map(([key, label]) => (
          <option key={key} value={key}>
            {label}
          </option>
        ))}
      </select>
    </div>
  );
}
