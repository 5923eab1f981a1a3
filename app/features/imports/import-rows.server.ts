// What every import kind shares: the chunking, and the plan a kind makes
// against what is stored (classify). Each kind is one module (import-<kind>.server.ts);
// the flow that reads a file and applies it in one transaction is imports.server.ts. A kind's
// row is a zod schema over the file's columns (~/lib/csv-columns), sharing the forms' rules.
import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { type Tx } from "~/db.server";
import type { Actor } from "~/features/audit/index.server";
import { type CsvProblem } from "~/lib/csv.server";
import type { z } from "~/lib/zod";

export const CHUNK = 500;
// Rows per INSERT … SELECT FROM json_each(?): one parameter per statement keeps both
// drizzle's query building and SQLite's statement preparation cheap.
export const WRITE_CHUNK = 5000;

/** `column IN (the values)`, passed as one JSON parameter instead of one per value. */
export function inJson(column: SQLWrapper, values: readonly (number | string)[]): SQL {
  return sql`${column} in (select value from json_each(${JSON.stringify(values)}))`;
}
export const MAX_ID = 2 ** 31 - 1;

export type Line = { line: number };

export function chunks<T>(items: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export type Plan<T> = {
  /** Rows to insert or update, already filtered to new + changed. */
  write: (T & Line)[];
  created: number;
  changed: number;
  unchanged: number;
};

export type Handler<T> = {
  /** The file's row: a zod schema over its columns (~/lib/csv-columns). */
  row: z.ZodType<T, Record<string, string>>;
  key: (row: T) => string;
  keyColumns: string;
  /** Reads what exists in bulk, adds database problems, and classifies rows. */
  plan: (tx: Tx, rows: (T & Line)[], problems: CsvProblem[]) => Promise<Plan<T>>;
  /** Writes the planned rows; `actor` is who ran the import (for a kind that logs each row). */
  apply: (tx: Tx, rows: (T & Line)[], progress: (n: number) => void, actor: Actor) => Promise<void>;
};

/** Now in SQL (epoch ms), as the schema's defaults have it: the portal's clock. */
export { sqlNow as nowMs } from "../../../db/schema";

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

