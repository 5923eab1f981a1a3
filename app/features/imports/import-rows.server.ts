// What every import kind shares: the row checks, the chunking, and the plan a kind makes
// against what is stored (classify). Each kind is one module (import-<kind>.server.ts);
// the flow that reads a file and applies it in one transaction is imports.server.ts.
import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { type Tx } from "~/db.server";
import { check, type CsvProblem } from "~/lib/csv.server";
import { isValidDate } from "~/lib/dates";

export const CHUNK = 500;
// Rows per INSERT … SELECT FROM json_each(?): one parameter per statement keeps both
// drizzle's query building and SQLite's statement preparation cheap.
export const WRITE_CHUNK = 5000;

/** `column IN (the values)`, passed as one JSON parameter instead of one per value. */
export function inJson(column: SQLWrapper, values: readonly (number | string)[]): SQL {
  return sql`${column} in (select value from json_each(${JSON.stringify(values)}))`;
}
export const MAX_ID = 2 ** 31 - 1;
export const EMAIL = /^[^\s@;]+@[^\s@;]+\.[^\s@;]+$/;

export type Line = { line: number };
export type Parsed<T> = { row: (T & Line) | null; problems: CsvProblem[] };

export function chunks<T>(items: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

// A file has few distinct dates; remember the answer.
const dateValidity = new Map<string, boolean>();
export function validDate(value: string): boolean {
  let ok = dateValidity.get(value);
  if (ok === undefined) {
    ok = isValidDate(value);
    if (dateValidity.size < 10_000) dateValidity.set(value, ok);
  }
  return ok;
}

/** Collects per-column reasons for one row. */
export function rowChecker(line: number) {
  const problems: CsvProblem[] = [];
  return {
    problems,
    int(column: string, value: string, min: number, max: number): number {
      const reason = check.int(value, min, max);
      if (reason) problems.push({ line, column, reason });
      return Number(value);
    },
    oneOf(column: string, value: string, allowed: readonly number[], label: string): number {
      const n = Number(value);
      if (!/^\d+$/.test(value) || !allowed.includes(n)) problems.push({ line, column, reason: `ska vara ${label}` });
      return n;
    },
    text(column: string, value: string, maxLength: number, required: boolean): string {
      const reason = required ? check.required(value, maxLength) : value.length > maxLength ? `längre än ${maxLength} tecken` : null;
      if (reason) problems.push({ line, column, reason });
      return value;
    },
    date(column: string, value: string): string {
      if (!validDate(value)) problems.push({ line, column, reason: "ska vara ett datum ÅÅÅÅ-MM-DD" });
      return value;
    },
    add(column: string, reason: string) {
      problems.push({ line, column, reason });
    },
  };
}


export type Plan<T> = {
  /** Rows to insert or update, already filtered to new + changed. */
  write: (T & Line)[];
  created: number;
  changed: number;
  unchanged: number;
};

export type Handler<T> = {
  parse: (v: Record<string, string>, line: number) => Parsed<T>;
  key: (row: T) => string;
  keyColumns: string;
  /** Reads what exists in bulk, adds database problems, and classifies rows. */
  plan: (tx: Tx, rows: (T & Line)[], problems: CsvProblem[]) => Promise<Plan<T>>;
  apply: (tx: Tx, rows: (T & Line)[], progress: (n: number) => void) => Promise<void>;
};

export const nowMs = sql`(cast(unixepoch('subsec') * 1000 as integer))`;

export function classify<T extends Line>(rows: T[], same: (row: T) => boolean | null): Plan<T> {
  const plan: Plan<T> = { write: [], created: 0, changed: 0, unchanged: 0 };
  for (const row of rows) {
    const s = same(row);
    if (s === null) {
      plan.created++;
      plan.write.push(row);
    } else if (s) {
      plan.unchanged++;
    } else {
      plan.changed++;
      plan.write.push(row);
    }
  }
  return plan;
}

