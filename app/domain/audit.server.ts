import { schema, writeTransaction, type Db, type Tx } from "~/db.server";

export type AuditEntry = {
  actor: string;
  action: string;
  target?: string | null;
  detail?: unknown;
  ip?: string | null;
  requestId?: string | null;
};

/**
 * Writes one audit row, in the caller's transaction when given one, else in a write
 * transaction of its own (queued with the others, so it never waits in SQLite's busy
 * handler). Never pass a PIN or a password in `detail`.
 */
export async function audit(entry: AuditEntry, db?: Db | Tx): Promise<void> {
  const values = {
    actor: entry.actor,
    action: entry.action,
    target: entry.target ?? null,
    detail: entry.detail === undefined ? null : JSON.stringify(entry.detail),
    ip: entry.ip ?? null,
    requestId: entry.requestId ?? null,
  };
  if (db) await db.insert(schema.auditLog).values(values);
  else await writeTransaction((tx) => tx.insert(schema.auditLog).values(values));
}
