// A form posted after its session lapsed is carried over the login, for the
// same customer only. The values live here (server side), keyed by a random id that only
// the browser's cookie holds; a row is bound to the customer number of the lapsed
// session, lives an hour at most, holds at most CARRY_LIMITS of text, and is read once.
// Nothing here saves anything: the carried values only fill the form in again.
import { randomBytes } from "node:crypto";
import { eq, lt } from "drizzle-orm";
import { getDb, schema, writeTransaction } from "~/db.server";
import { portalNow } from "../../../db/clock";

export const CARRY_LIMITS = { ttlMs: 60 * 60_000, maxBytes: 64_000, maxFields: 2_000 };

export type CarriedForm = { customerId: number; path: string; entries: [string, string][] };

/** Keeps the posted text fields; the id for the cookie, or null when the form is too large to carry. */
export async function carryForm(form: CarriedForm, now = portalNow()): Promise<string | null> {
  const entries = form.entries.slice(0, CARRY_LIMITS.maxFields + 1);
  if (entries.length > CARRY_LIMITS.maxFields) return null;
  const body = JSON.stringify(entries);
  if (Buffer.byteLength(body) > CARRY_LIMITS.maxBytes) return null;
  const id = randomBytes(32).toString("base64url");
  await writeTransaction(async (tx) => {
    await tx.delete(schema.carriedForms).where(lt(schema.carriedForms.expiresAt, now));
    await tx.insert(schema.carriedForms).values({ id, customerId: form.customerId, path: form.path, body, createdAt: now, expiresAt: now + CARRY_LIMITS.ttlMs });
  });
  return id;
}

/** The carried form behind `id` while it has not expired (not consumed). */
export async function peekCarriedForm(id: string, now = portalNow()): Promise<CarriedForm | null> {
  const [row] = await getDb().select().from(schema.carriedForms).where(eq(schema.carriedForms.id, id));
  if (!row || row.expiresAt <= now) return null;
  return { customerId: row.customerId, path: row.path, entries: JSON.parse(row.body) as [string, string][] };
}

/**
 * Reads the carried form once: the row is gone afterwards whoever asks. Only the
 * customer it was carried for gets the values; anyone else gets null (and the values
 * are discarded).
 */
export async function takeCarriedForm(id: string, customerId: number, now = portalNow()): Promise<CarriedForm | null> {
  const form = await peekCarriedForm(id, now);
  await discardCarriedForm(id);
  return form && form.customerId === customerId ? form : null;
}

export async function discardCarriedForm(id: string): Promise<void> {
  await writeTransaction((tx) => tx.delete(schema.carriedForms).where(eq(schema.carriedForms.id, id)));
}
