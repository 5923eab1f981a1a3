// The app reaches the database only through this module, so db/ never ends up in
// a client bundle.
import { isDatabaseBusy, writeTransaction as writeInDb, type Db, type Tx } from "../db/client";
import { refuse } from "~/lib/refusal";

export { databaseUrl, errorReason, getDb, isDatabaseBusy, preparedQuery, writeIfFree, schema } from "../db/client";
export { databaseFile, databaseUrlProblem, writeWaitMsOf, writeWaitProblem } from "../db/database-url";
export { clockOffsetProblem } from "../db/clock";
export type { Db, Tx } from "../db/client";
export type { InvoiceBundleCredit, InvoiceBuyer, InvoiceSeller, InvoiceSpecificationRecord } from "../db/schema";

/** What a user is told when a save found the database locked for the whole wait. */
export const DATABASE_BUSY_MESSAGE = "Inget har sparats, eftersom portalen är upptagen just nu. Försök igen om en stund – det du skrev finns kvar.";
export const DATABASE_BUSY_RETRY_AFTER_SECONDS = 5;

/**
 * One write transaction (db/client.ts writeTransaction). A database another process
 * held for the whole write wait is the "busy" refusal: nothing was written, and whoever
 * answers refusals (the form contract, a download, entry.server for the rest) answers
 * 503 with Retry-After and the form as typed. The app's one way to meet a busy database.
 */
export async function writeTransaction<T>(fn: (tx: Tx) => Promise<T>, db?: Db, waitMs?: number): Promise<T> {
  try {
    return await writeInDb(fn, db, waitMs);
  } catch (error) {
    if (isDatabaseBusy(error)) throw refuse.busy(DATABASE_BUSY_MESSAGE, { retryAfterSeconds: DATABASE_BUSY_RETRY_AFTER_SECONDS, cause: error });
    throw error;
  }
}
