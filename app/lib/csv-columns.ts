// The columns of the `;`-separated files (docs/formats.md) as zod rules. A file's row is a
// zod object over its columns, so a file is checked as a form is: by schemas, and where a
// form holds the same detail (a customer's name, a product's EAN) by that form's own rule
// and message. A broken rule is the problem `line N: <column>: <reason>`.
import type { CsvProblem } from "./csv.server";
import { isValidDate } from "./dates";
import { z } from "./zod";

/** A rule's reason on the row, or the value the row keeps. */
function rule<T>(read: (value: string) => { value: T } | { reason: string }) {
  return z.string().transform((value, ctx) => {
    const result = read(value);
    if ("reason" in result) {
      ctx.addIssue({ code: "custom", message: result.reason });
      return z.NEVER;
    }
    return result.value;
  });
}

// A file has few distinct dates; remember the answer.
const dateValidity = new Map<string, boolean>();
function validDate(value: string): boolean {
  let ok = dateValidity.get(value);
  if (ok === undefined) {
    ok = isValidDate(value);
    if (dateValidity.size < 10_000) dateValidity.set(value, ok);
  }
  return ok;
}

export const column = {
  /** A whole number from `min` to `max`. */
  int: (min: number, max: number) =>
    rule<number>((value) => {
      if (!/^-?\d+$/.test(value)) return { reason: "ska vara ett heltal" };
      const n = Number(value);
      return n < min || n > max ? { reason: `ska vara mellan ${min} och ${max}` } : { value: n };
    }),
  /** One of the codes, `label` naming them for the reason ("80 (Expressen) eller 83 (Aftonbladet)"). */
  oneOf: <N extends number>(allowed: readonly N[], label: string) =>
    rule<N>((value) => {
      const code = allowed.find((n) => String(n) === value);
      return code === undefined ? { reason: `ska vara ${label}` } : { value: code };
    }),
  /** Text of at most `max` characters, required or not. */
  text: (max: number, required: boolean) =>
    rule<string>((value) => {
      if (required && value === "") return { reason: "saknas" };
      return value.length > max ? { reason: `längre än ${max} tecken` } : { value };
    }),
  /** A date ÅÅÅÅ-MM-DD that exists. */
  date: () => rule<string>((value) => (validDate(value) ? { value } : { reason: "ska vara ett datum ÅÅÅÅ-MM-DD" })),
};

/** One row of a file through its schema: the row with its line, or each broken rule as a problem of its column. */
export function csvRow<T>(schema: z.ZodType<T, Record<string, string>>, values: Record<string, string>, line: number) {
  const parsed = schema.safeParse(values);
  if (parsed.success) return { row: Object.assign(parsed.data as object, { line }) as T & { line: number }, problems: [] as CsvProblem[] };
  return { row: null, problems: parsed.error.issues.map((issue): CsvProblem => ({ line, column: String(issue.path[0] ?? "-"), reason: issue.message })) };
}
