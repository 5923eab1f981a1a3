// Keeps the database small (docs/decisions/011-write-limits.md): `portal maintenance
// prune`, which the server also runs once a day (cli/serve.ts). Old rows go in batches,
// each its own short write transaction, so saves are never held up behind a big delete.
import { lt, sql } from "drizzle-orm";
import { schema, writeTransaction } from "~/db.server";
import { deleteExpiredSessions } from "~/features/auth/sessions.server";
import { pruneThrottle } from "~/features/auth/throttle.server";
import { portalNow } from "../../../db/clock";

const DAY_MS = 24 * 60 * 60_000;

export const RETENTION = {
  /** Audit rows: a year and a month, so last year's same month can still be compared. */
  auditDays: 400,
  /** Form tokens that stop a resubmitted form from being applied twice: a page is never that old. */
  formTokenDays: 30,
  /** The e-mail reminders sent (one row per customer and day mailed): as long as the audit. */
  reminderLogDays: 400,
} as const;

const BATCH = 5_000;

export type PruneCounts = { sessions: number; throttle: number; audit: number; formTokens: number; reminderLog: number };

/** Deletes rows of `table` whose `at` column is before `before`, BATCH at a time. */
async function deleteOlder(table: typeof schema.auditLog | typeof schema.appliedSubmissions, before: number): Promise<number> {
  let total = 0;
  for (;;) {
    const result = await writeTransaction((tx) =>
      tx.delete(table).where(sql`rowid in (select rowid from ${table} where ${lt(table.at, before)} limit ${BATCH})`),
    );
    total += result.rowsAffected;
    if (result.rowsAffected < BATCH) return total;
  }
}

/** The reminder log's rows made before `before`, BATCH at a time. */
async function deleteOldReminderLog(before: number): Promise<number> {
  const log = schema.reminderLog;
  let total = 0;
  for (;;) {
    const result = await writeTransaction((tx) => tx.delete(log).where(sql`rowid in (select rowid from ${log} where ${lt(log.createdAt, before)} limit ${BATCH})`));
    total += result.rowsAffected;
    if (result.rowsAffected < BATCH) return total;
  }
}

/** Expired sessions, throttle rows that no longer block, audit rows, form tokens and reminder log rows past retention. */
export async function prune(now = portalNow()): Promise<PruneCounts> {
  const sessions = await deleteExpiredSessions(now);
  const throttle = await pruneThrottle(now);
  const audit = await deleteOlder(schema.auditLog, now - RETENTION.auditDays * DAY_MS);
  const formTokens = await deleteOlder(schema.appliedSubmissions, now - RETENTION.formTokenDays * DAY_MS);
  const reminderLog = await deleteOldReminderLog(now - RETENTION.reminderLogDays * DAY_MS);
  return { sessions, throttle, audit, formTokens, reminderLog };
}

export function pruneSummary(c: PruneCounts): string {
  return (
    `${c.sessions} expired sessions, ${c.throttle} throttle rows, ` +
    `${c.audit} audit rows older than ${RETENTION.auditDays} days, ` +
    `${c.formTokens} form tokens older than ${RETENTION.formTokenDays} days, ` +
    `${c.reminderLog} reminder log rows older than ${RETENTION.reminderLogDays} days removed`
  );
}
