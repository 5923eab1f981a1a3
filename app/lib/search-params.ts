// A screen's search parameters, read as a form's fields are: by zod. A screen declares
// its parameters as a shape of `param` schemas and `readSearch` parses the URL with it.
// Each key gets its parameter's first value; a `param.list` gets all of them, and a
// parameter that reads several keys (a sort, a period) names them itself. Every `param`
// says what a value it cannot read becomes (the screen's default), so a forged or stale
// link shows the screen, never an error page; the range picker's messages are the
// period's own (`checkedPeriod`). The names are Swedish and one per meaning across the
// screens: `sok`, `sida`, `fran`/`till`, `sortera`/`ordning`, `utb`.
import { isValidDate } from "./dates";
import { parseId } from "./ids";
import { pageParam } from "./paging";
import type { Period } from "./period";
import { SORT_PARAMS, type Sort, type SortParams } from "./sort";
import { z } from "./zod";

type Reader = (params: URLSearchParams, key: string) => unknown;
const readers = new WeakMap<z.ZodType, Reader>();

/** `schema`, fed by `read` instead of the key's first value. */
function reading<S extends z.ZodType>(schema: S, read: Reader): S {
  readers.set(schema, read);
  return schema;
}

const first: Reader = (params, key) => params.get(key) ?? undefined;

const matching = (pattern: RegExp) => z.string().regex(pattern).nullable().catch(null);

export const param = {
  /** Text as typed, trimmed, at most `max` characters; "" when absent. */
  text: (max: number) => z.string().optional().transform((v) => (v ?? "").trim().slice(0, max)),
  /** Text as typed (a field shows it again), at most `max` characters; null when absent. */
  typed: (max: number) => z.string().optional().transform((v) => (v === undefined ? null : v.slice(0, max))),
  /** A row id: digits only, 1 to 2^53 − 1 (app/lib/ids.ts); anything else is null. */
  id: () => z.string().optional().transform((v) => parseId(v)),
  /**
   * A row the link names, by id or as `read` reads it (a customer number typed): undefined
   * when absent or blank, null when unreadable (a forged link is answered, not ignored).
   */
  ref: (read: RegExp | ((value: string) => number | null) = parseId) =>
    z
      .string()
      .optional()
      .transform((v) => (v === undefined || v.trim() === "" ? undefined : typeof read === "function" ? read(v) : read.test(v) ? Number(v) : null)),
  /** A value `pattern` accepts (a week tag "2026-v50"), or null. */
  matching,
  /** A short number the screen names (a bundle, a customer: `pattern`), or null. */
  shortNumber: (pattern: RegExp) => matching(pattern).transform((v) => (v === null ? null : Number(v))),
  /** A page number from 1 (`?sida=`): a huge or odd value is clamped, never an error. */
  page: () => z.string().optional().transform((v) => pageParam(v ?? null)),
  /** One of `values`; anything else, or nothing, is `fallback`. */
  oneOf: <const T extends readonly [string, ...string[]]>(values: T, fallback: T[number]) => z.enum(values).catch(fallback),
  /** One of `values`, or null. */
  maybeOneOf: <const T extends readonly [string, ...string[]]>(values: T) => z.enum(values).nullable().catch(null),
  /** A date ÅÅÅÅ-MM-DD that exists, or null. */
  date: () => z.string().refine(isValidDate).nullable().catch(null),
  /** Whether the key is in the URL at all (a button's name, `?granska`). */
  flag: () => reading(z.boolean(), (params, key) => params.has(key)),
  /** Every value of a repeated key that `pattern` accepts, in order. */
  list: (pattern: RegExp) =>
    reading(
      z.array(z.string()).transform((values) => values.filter((v) => pattern.test(v))),
      (params, key) => params.getAll(key),
    ),
  /** Page numbers of tables named `<prefix><n>` (`sida-3`): n → page, for the tables the URL names. */
  pagesByPrefix: (prefix: string) =>
    reading(
      z.array(z.tuple([z.string(), z.string()])).transform((entries) => {
        const pages = new Map<number, number>();
        for (const [key, value] of entries) {
          const n = parseId(key.slice(prefix.length));
          if (key.startsWith(prefix) && n !== null) pages.set(n, pageParam(value));
        }
        return pages;
      }),
      (params) => [...params.entries()],
    ),
  /**
   * A sorted table's order (`sortera`, `ordning`, or the names a second table on the page
   * uses): an unknown column is `fallback`.
   */
  sort: <C extends string>(columns: readonly C[], fallback: Sort<C>, names: SortParams = SORT_PARAMS) =>
    reading(
      z
        .object({ column: z.string().nullable(), order: z.string().nullable() })
        .transform(({ column, order }): Sort<C> =>
          column !== null && (columns as readonly string[]).includes(column) ? { column: column as C, descending: order === "fallande" } : fallback,
        ),
      (params) => ({ column: params.get(names.column), order: params.get(names.order) }),
    ),
  /** The range picker's period (`fran`, `till`) as typed, or null when neither is in the URL: checked by `checkedPeriod` (app/lib/period.ts). */
  period: () =>
    reading(
      z.object({ from: z.string().nullable(), to: z.string().nullable() }).transform(({ from, to }): Period | null =>
        from === null && to === null ? null : { from: (from ?? "").slice(0, 40), to: (to ?? "").slice(0, 40) },
      ),
      (params) => ({ from: params.get("fran"), to: params.get("till") }),
    ),
};

export type SearchShape = Record<string, z.ZodType>;
export type Search<S extends SearchShape> = z.output<z.ZodObject<S>>;

const objects = new WeakMap<SearchShape, z.ZodObject>();

/** The URL's search parameters read by `shape` (declare it once, at module level). */
export function readSearch<S extends SearchShape>(from: Request | URL | URLSearchParams, shape: S): Search<S> {
  const params = from instanceof URLSearchParams ? from : from instanceof URL ? from.searchParams : new URL(from.url).searchParams;
  let object = objects.get(shape);
  if (!object) objects.set(shape, (object = z.object(shape)));
  const input: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(shape)) input[key] = (readers.get(field) ?? first)(params, key);
  return object.parse(input) as Search<S>;
}
