// Placards (löpsedlar): per title the amount delivered now and the amount the
// retailer wants. Every title is listed; a row is created on the first save.
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { getDb, schema, writeTransaction } from "~/db.server";
import { MAX_PLACARDS } from "./schemas";

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

export type PlacardSave = { ok: true } | { ok: false; reason: "unknown-title" | "bad-amount" };

/** Saves all desired amounts at once (spec 5: saving happens only if all are set). */
export async function savePlacards(customerId: number, wanted: { titleId: number; newAmount: number }[]): Promise<PlacardSave> {
  if (wanted.some((w) => !Number.isInteger(w.newAmount) || w.newAmount < 0 || w.newAmount > MAX_PLACARDS)) {
    return { ok: false, reason: "bad-amount" };
  }
  return writeTransaction(async (tx) => {
    const ids = [...new Set(wanted.map((w) => w.titleId))];
    const known = ids.length ? await tx.select({ id: t.id }).from(t).where(inArray(t.id, ids)) : [];
    if (known.length !== ids.length) return { ok: false, reason: "unknown-title" } as const;
    const now = Date.now();
    for (const w of wanted) {
      await tx
        .insert(p)
        .values({ customerId, titleId: w.titleId, amount: 0, newAmount: w.newAmount, createdAt: now, updatedAt: now })
        .onConflictDoUpdate({ target: [p.customerId, p.titleId], set: { newAmount: w.newAmount, updatedAt: now } });
    }
    return { ok: true } as const;
  });
}
