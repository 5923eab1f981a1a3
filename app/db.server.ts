// The app reaches the database only through this module, so db/ never ends up in
// a client bundle.
export { DatabaseBusyError, getDb, isDatabaseBusy, preparedQuery, writeIfFree, writeTransaction, schema } from "../db/client";
export type { Db, Tx } from "../db/client";
