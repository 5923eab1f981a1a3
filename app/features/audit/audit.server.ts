import { schema, writeTransaction, type Db, type Tx } from "~/db.server";

/**
 * Who did something, for the audit log: built once, by the guard of the request
 * (`staff:7` / `customer:808` with the request's address and id) or by the CLI, and
 * handed to every rule that writes an audit row.
 */
export type Actor = {
  id: string;
  ip?: string | null;
  requestId?: string | null;
  /** In a retailer's portal opened by staff: the customer the staff user (`id`) acts for. */
  onBehalfOf?: string | null;
};

/** The operators' command line. */
export const CLI_ACTOR: Actor = { id: "cli" };

export function staffActor(staffId: number, request: { ip?: string | null; requestId?: string | null } = {}): Actor {
  return { id: `staff:${staffId}`, ip: request.ip ?? null, requestId: request.requestId ?? null };
}

export function customerActor(customerId: number, request: { ip?: string | null; requestId?: string | null } = {}): Actor {
  return { id: `customer:${customerId}`, ip: request.ip ?? null, requestId: request.requestId ?? null };
}

/** A staff user acting in a customer's portal: recorded as the staff user, for the customer. */
export function onBehalfActor(staffId: number, customerId: number, request: { ip?: string | null; requestId?: string | null } = {}): Actor {
  return { ...staffActor(staffId, request), onBehalfOf: `customer:${customerId}` };
}

export type AuditEntry = {
  actor: Actor;
  action: string;
  target?: string | null;
  detail?: unknown;
};

/**
 * Writes one audit row, in the caller's transaction when given one, else in a write
 * transaction of its own (queued with the others, so it never waits in SQLite's busy
 * handler). Never pass a PIN or a password in `detail`.
 */
export async function audit(entry: AuditEntry, db?: Db | Tx): Promise<void> {
  const values = {
    actor: entry.actor.id,
    onBehalfOf: entry.actor.onBehalfOf ?? null,
    action: entry.action,
    target: entry.target ?? null,
    detail: entry.detail === undefined ? null : JSON.stringify(entry.detail),
    ip: entry.actor.ip || null,
    requestId: entry.actor.requestId && entry.actor.requestId !== "-" ? entry.actor.requestId : null,
  };
  if (db) await db.insert(schema.auditLog).values(values);
  else await writeTransaction((tx) => tx.insert(schema.auditLog).values(values));
}
