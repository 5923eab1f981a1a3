// A table's sort order in the URL (`?sortera=<column>&ordning=stigande|fallande`), read the
// same way by loaders and exports (`param.sort`, app/lib/search-params.ts); the headers that set it are app/ui/sort.tsx.
export type Sort<C extends string> = { column: C; descending: boolean };

/** The two parameters a sorted table keeps in the URL; a page with two sorted tables names the second's apart. */
export type SortParams = { column: string; order: string };
export const SORT_PARAMS: SortParams = { column: "sortera", order: "ordning" };
