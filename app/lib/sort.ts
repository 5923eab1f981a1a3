// A table's sort order in the URL (`?sortera=<column>&ordning=stigande|fallande`), read the
// same way by loaders and exports; the headers that set it are app/ui/sort.tsx.
export type Sort<C extends string> = { column: C; descending: boolean };

/** The two parameters a sorted table keeps in the URL; a page with two sorted tables names the second's apart. */
export type SortParams = { column: string; order: string };
export const SORT_PARAMS: SortParams = { column: "sortera", order: "ordning" };

export function readSort<C extends string>(url: URL | URLSearchParams, columns: readonly C[], fallback: Sort<C>, names: SortParams = SORT_PARAMS): Sort<C> {
  const params = url instanceof URL ? url.searchParams : url;
  const column = params.get(names.column);
  const order = params.get(names.order);
  if (!column || !(columns as readonly string[]).includes(column)) return fallback;
  return { column: column as C, descending: order === "fallande" };
}

