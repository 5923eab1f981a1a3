// Server-side sessions: the cookie holds only a random id; this table holds the rest.
import { randomBytes } from "node:crypto";
import { and, eq, inArray, lt, ne, or, sql } from "drizzle-orm";
import { isDatabaseBusy, preparedQuery, schema, writeIfFree, writeTransaction, type Tx } from "~/db.server";
import { audit, staffActor } from "~/features/audit/audit.server";
import { portalNow } from "../../../db/clock";

export const SESSION_LIMITS = {
  idleMs: 2 * 60 * 60_000,
  absoluteMs: 12 * 60 * 60_000,
  // lastSeenAt is written at most this often, so reading a page does not write.
  touchEveryMs: 60_000,
};

export type SessionData = {
  customerId?: number;
  staffId?: number;
  impersonatorId?: number;
  /** In an impersonated session: the staff user's own session, resumed on the way back. */
  staffSessionId?: string;
  /** The form token of this session (app/auth/csrf.server.ts); every session has its own. */
  csrf?: string;
  [key: string]: unknown;
};

function newFormToken(): string {
  return randomBytes(32).toString("base64url");
}

export async function createSessionRow(given: SessionData, now = portalNow()): Promise<string> {
  const id = randomBytes(32).toString("base64url");
  // A new session never inherits a token, even when its data was copied from another.
  const data: SessionData = { ...given, csrf: newFormToken() };
  // An impersonation never outlives the staff session that started it.
  let expiresAt = now + SESSION_LIMITS.absoluteMs;
  if (data.staffSessionId) {
    const staffRow = await sessionById().get({ id: data.staffSessionId });
    if (staffRow) expiresAt = Math.min(expiresAt, staffRow.expiresAt);
  }
  await writeTransaction((tx) =>
    tx.insert(schema.sessions).values({
      id,
      customerId: data.customerId ?? null,
      // A login waiting for its code is the user's too: it ends with their other sessions.
      staffId: data.staffId ?? (typeof data.pendingStaffId === "number" ? data.pendingStaffId : null),
      impersonatorId: data.impersonatorId ?? null,
      data: JSON.stringify(data),
      createdAt: now,
      lastSeenAt: now,
      expiresAt,
    }),
  );
  return id;
}

const sessionById = preparedQuery((db) =>
  db.select().from(schema.sessions).where(eq(schema.sessions.id, sql.placeholder("id"))).prepare(),
);

export async function readSessionRow(id: string, now = portalNow()): Promise<SessionData | null> {
  const row = await sessionById().get({ id });
  if (!row) return null;
  if (row.expiresAt <= now || row.lastSeenAt + SESSION_LIMITS.idleMs <= now) {
    // A retailer's own session that ran out: remembered briefly, so the request that
    // met it can carry its form over the login (takeLapsedRetailer).
    if (row.customerId !== null && row.impersonatorId === null) rememberLapsed(id, row.customerId, now);
    // Ended either way; while another process holds the database the row waits for the next prune.
    await deleteSessionRow(id).catch((error: unknown) => {
      if (!isDatabaseBusy(error)) throw error;
    });
    return null;
  }
  const data = JSON.parse(row.data) as SessionData;
  if (now - row.lastSeenAt >= SESSION_LIMITS.touchEveryMs) {
    // Skipped while writes queue or the database is locked elsewhere, so reading a page
    // never waits for a lock; a later request touches it. An impersonation keeps the
    // staff session it came from alive, so the way back finds it.
    const ids = typeof data.staffSessionId === "string" ? [id, data.staffSessionId] : [id];
    await writeIfFree((tx) => tx.update(schema.sessions).set({ lastSeenAt: now }).where(inArray(schema.sessions.id, ids)));
  }
  return typeof data.csrf === "string" && data.csrf ? data : withFormToken(id, data);
}

/**
 * A session from before form tokens gets one on its first read. The update only applies
 * while the row has none, so parallel first reads agree on one token (the loser reads it
 * back). While the database is locked the session goes on without one this time.
 */
async function withFormToken(id: string, data: SessionData): Promise<SessionData> {
  const token = newFormToken();
  try {
    const result = await writeTransaction((tx) =>
      tx
        .update(schema.sessions)
        .set({ data: sql`json_set(${schema.sessions.data}, '$.csrf', ${token})` })
        .where(and(eq(schema.sessions.id, id), sql`json_extract(${schema.sessions.data}, '$.csrf') IS NULL`)),
    );
    if (result.rowsAffected === 1) return { ...data, csrf: token };
    const row = await sessionById().get({ id });
    return row ? (JSON.parse(row.data) as SessionData) : data;
  } catch (error) {
    if (isDatabaseBusy(error)) return data;
    throw error;
  }
}

// Session ids that lapsed in this process within the last minute, and whose they were.
// Read by the guard of the same request (takeLapsedRetailer); bounded, entries read once.
const lapsed = new Map<string, { customerId: number; until: number }>();
const LAPSED_LIMIT = 1_000;
function rememberLapsed(id: string, customerId: number, now: number) {
  if (lapsed.size >= LAPSED_LIMIT) lapsed.clear();
  lapsed.set(id, { customerId, until: now + 60_000 });
}

/** The customer whose session `id` was just found lapsed (by readSessionRow), once; else null. */
export function takeLapsedRetailer(id: string, now = portalNow()): number | null {
  const found = lapsed.get(id);
  lapsed.delete(id);
  return found && found.until > now ? found.customerId : null;
}

export async function updateSessionRow(id: string, data: SessionData, now = portalNow()): Promise<void> {
  await writeTransaction((tx) =>
    tx.update(schema.sessions).set({ data: JSON.stringify(data), lastSeenAt: now }).where(eq(schema.sessions.id, id)),
  );
}

export async function deleteSessionRow(id: string): Promise<void> {
  await writeTransaction((tx) => tx.delete(schema.sessions).where(eq(schema.sessions.id, id)));
}

/** Ends one session of a staff user (the one a retailer portal was opened from); false when it had ended. */
export async function endSessionOf(id: string, staffId: number): Promise<boolean> {
  const s = schema.sessions;
  const result = await writeTransaction((tx) => tx.delete(s).where(and(eq(s.id, id), eq(s.staffId, staffId))));
  return result.rowsAffected > 0;
}

/** Ends every session of a retailer (staff action), impersonations included. */
export async function endCustomerSessions(customerId: number): Promise<number> {
  const result = await writeTransaction((tx) =>
    tx.delete(schema.sessions).where(eq(schema.sessions.customerId, customerId)),
  );
  return result.rowsAffected;
}

/**
 * Ends every session of a staff user — logins still waiting for their code included —
 * and every retailer portal they have opened.
 */
export async function endStaffSessions(staffId: number, tx?: Tx, options: { except?: string | null } = {}): Promise<number> {
  const s = schema.sessions;
  const theirs = or(eq(s.staffId, staffId), eq(s.impersonatorId, staffId));
  const run = (t: Tx) => t.delete(s).where(options.except ? and(theirs, ne(s.id, options.except)) : theirs);
  const result = await (tx ? run(tx) : writeTransaction(run));
  return result.rowsAffected;
}

export async function deleteExpiredSessions(now = portalNow()): Promise<number> {
  const result = await writeTransaction((tx) =>
    tx
      .delete(schema.sessions)
      .where(or(lt(schema.sessions.expiresAt, now), lt(schema.sessions.lastSeenAt, now - SESSION_LIMITS.idleMs))),
  );
  return result.rowsAffected;
}

/**
 * Staff action 'Logga ut kund': ends every session of the retailer and audits it in the
 * same transaction. null when the customer does not exist.
 */
export async function revokeCustomerSessions(
  staffId: number,
  customerId: number,
  meta: { ip?: string | null; requestId?: string | null } = {},
): Promise<number | null> {
  return writeTransaction(async (tx) => {
    const [customer] = await tx.select({ id: schema.customers.id }).from(schema.customers).where(eq(schema.customers.id, customerId));
    if (!customer) return null;
    const result = await tx.delete(schema.sessions).where(eq(schema.sessions.customerId, customerId));
    await audit(
      { actor: staffActor(staffId, meta), action: "customer.sessions.end", target: `customer:${customerId}`, detail: { ended: result.rowsAffected } },
      tx,
    );
    return result.rowsAffected;
  });
}
