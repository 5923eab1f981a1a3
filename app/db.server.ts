// The app reaches the database only through this module, so db/ never ends up in
// a client bundle.
export { DATABASE_BUSY_MESSAGE, DATABASE_BUSY_RETRY_AFTER_SECONDS, databaseBusy, databaseUrl, getDb, isDatabaseBusy, preparedQuery, writeIfFree, writeTransaction, schema } from "../db/client";
export type { Db, Tx } from "../db/client";
export type { InvoiceBundleCredit, InvoiceBuyer, InvoiceSeller } from "../db/schema";
