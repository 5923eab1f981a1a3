// Placards (löpsedlar): per title the amount delivered now and the amount the
// retailer wants. Every title is listed; a row is created on the first save.
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { getDb, schema, writeTransaction } from "~/db.server";
import { refuse } from "~/lib/refusal";
import { MAX_PLACARDS, NOTHING_SHOWN, PLACARD_MESSAGES, amountField, unlikelyPlacards } from "./words";
import { portalNow } from "../../../db/clock";

export type PlacardRow = { titleId: number; title: string; amount: number; newAmount: number | null };

const p = schema.placards;
const t = schema.titles;

export async function listPlacards(customerId: number): Promise<PlacardRow[]> {
  return getDb()
    .select({ titleId: t.id, title: t.name, amount: sql<number>`coalesce(${p.amount}, 0)`, newAmount: p.newAmount })
    .from(t)
    .leftJoin(p, and(eq(p.titleId, t.id), eq(p.customerId, customerId)))
    .orderBy(asc(t.id));
}

export { MAX_PLACARDS };

/** Refused on the rows it is about, each with its own words; the first over the form. */
function refusedRows(messages: [titleId: number, message: string][]): never {
  throw refuse.invalid(messages[0]![1], { fields: Object.fromEntries(messages.map(([titleId, message]) => [amountField(titleId), message])) });
}

/**
 * Saves all desired amounts at once (spec 5: saving happens only if all are set), saying
 * how many rows were written. With `shown` (what the page showed: a number or `-`), a
 * title the user left as shown is not written. Refused, nothing stored: an amount outside
 * 0–999 or an unknown title ("Något gick fel!"); a row someone else changed since (both
 * values, on its field); a changed amount ten times the current one not yet confirmed
 * (asked once, on its field).
 */
export async function savePlacards(
  customerId: number,
  wanted: { titleId: number; newAmount: number; shown?: string; confirmed?: string }[],
): Promise<{ saved: number }> {
  // No row, a title id that names no title (not a whole number), or an amount out of range.
  if (wanted.length === 0 || wanted.some((w) => !Number.isSafeInteger(w.titleId) || !Number.isInteger(w.newAmount) || w.newAmount < 0 || w.newAmount > MAX_PLACARDS)) {
    throw refuse.invalid(PLACARD_MESSAGES.failed);
  }
  return writeTransaction(async (tx) => {
    const ids = [...new Set(wanted.map((w) => w.titleId))];
    const known = ids.length ? await tx.select({ id: t.id }).from(t).where(inArray(t.id, ids)) : [];
    if (known.length !== ids.length) throw refuse.invalid(PLACARD_MESSAGES.failed);
    const storedRows = ids.length
      ? await tx
          .select({ titleId: p.titleId, amount: p.amount, newAmount: p.newAmount })
          .from(p)
          .where(and(eq(p.customerId, customerId), inArray(p.titleId, ids)))
      : [];
    const stored = new Map(storedRows.map((r) => [r.titleId, r.newAmount]));
    const current = new Map(storedRows.map((r) => [r.titleId, r.amount]));
    const conflicts: [number, string][] = [];
    const writes = wanted.filter((w) => {
      if (w.shown === undefined) return true;
      const shown = w.shown === NOTHING_SHOWN ? null : /^\d+$/.test(w.shown) ? Number(w.shown) : undefined;
      if (shown === undefined) return true;
      const now = stored.get(w.titleId) ?? null;
      if (w.newAmount === shown) return false; // untouched on this page: what is stored stays
      if (now !== shown && now !== w.newAmount) conflicts.push([w.titleId, PLACARD_MESSAGES.changedByOther(now, w.newAmount)]);
      return now !== w.newAmount;
    });
    if (conflicts.length > 0) refusedRows(conflicts);
    const questions = writes
      .map((w) => ({ titleId: w.titleId, typed: w.newAmount, current: current.get(w.titleId) ?? 0, confirmed: w.confirmed }))
      .filter((q) => unlikelyPlacards(q.typed, q.current) && q.confirmed !== String(q.typed))
      .map((q): [number, string] => [q.titleId, PLACARD_MESSAGES.unlikely(q.typed, q.current)]);
    if (questions.length > 0) refusedRows(questions);
    const now = portalNow();
    for (const w of writes) {
      await tx
        .insert(p)
        .values({ customerId, titleId: w.titleId, amount: 0, newAmount: w.newAmount, createdAt: now, updatedAt: now })
        .onConflictDoUpdate({ target: [p.customerId, p.titleId], set: { newAmount: w.newAmount, updatedAt: now } });
    }
    return { saved: writes.length };
  });
}
