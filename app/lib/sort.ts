// A table's sort order in the URL (`?sortera=<column>&ordning=stigande|fallande`), read the
// same way by loaders and exports; the headers that set it are app/ui/sort.tsx.
export type Sort<C extends string> = { column: C; descending: boolean };

export function readSort<C extends string>(url: URL | URLSearchParams, columns: readonly C[], fallback: Sort<C>): Sort<C> {
  const params = url instanceof URL ? url.searchParams : url;
  const column = params.get("sortera");
  const order = params.get("ordning");
  if (!column || !(columns as readonly string[]).includes(column)) return fallback;
  return { column: column as C, descending: order === "fallande" };
}

