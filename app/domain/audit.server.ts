import { getDb, schema, type Db, type Tx } from "~/db.server";

export type AuditEntry = {
  actor: string;
  action: string;
  target?: string | null;
  detail?: unknown;
  ip?: string | null;
  requestId?: string | null;
};

/** Writes one audit row. Never pass a PIN or a password in `detail`. */
export async function audit(entry: AuditEntry, db: Db | Tx = getDb()): Promise<void> {
  await db.insert(schema.auditLog).values({
    actor: entry.actor,
    action: entry.action,
    target: entry.target ?? null,
    detail: entry.detail === undefined ? null : JSON.stringify(entry.detail),
    ip: entry.ip ?? null,
    requestId: entry.requestId ?? null,
  });
}
