// Optimistic concurrency for the staff edit forms (docs/reliability.md "Nothing lost"):
// a save's UPDATE is conditional on the `updated_at` the form was opened with, and
// moves it strictly forward, so two saves in the same millisecond still differ.
import { sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { sqlNow } from "../../db/schema";

/** The next version of a row: now (ms), but always above the one it replaces. */
export function nextVersion(updatedAt: SQLiteColumn): SQL<number> {
  return sql<number>`max(${sqlNow}, ${updatedAt} + 1)`;
}
