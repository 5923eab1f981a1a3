import { Link, useSearchParams } from "@remix-run/react";
import type { ReactNode } from "react";

/**
 * Sortable table headers with the state in the URL (`?sortera=<column>&ordning=stigande|fallande`),
 * so a sorted view can be shared and Back works, with or without JavaScript. The loader
 * reads the same parameters with `readSort` (any unknown column falls back to the
 * default) and sorts in SQL; changing the sort goes back to page 1.
 */
export { readSort, type Sort } from "~/lib/sort";
import type { Sort } from "~/lib/sort";

export function SortHeader<C extends string>({ column, sort, children, pageParam = "sida" }: { column: C; sort: Sort<C>; children: ReactNode; pageParam?: string }) {
  const [params] = useSearchParams();
  const active = sort.column === column;
  const next = new URLSearchParams(params);
  next.set("sortera", column);
  next.set("ordning", active && !sort.descending ? "fallande" : "stigande");
  next.delete(pageParam);
  return (
    <th aria-sort={active ? (sort.descending ? "descending" : "ascending") : undefined}>
      <Link to={`?${next}`} className="sort-link">
        {children}
        <span aria-hidden="true">{active ? (sort.descending ? " ▼" : " ▲") : ""}</span>
      </Link>
    </th>
  );
}
