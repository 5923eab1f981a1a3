import { and, asc, eq, sql } from "drizzle-orm";
import { getDb, schema } from "~/db.server";

export type OpenBundle = { number: number; type: number; total: number };

/** The customer's open bundles with their total returns, by type then number. */
export async function listOpenBundles(customerId: number, type?: 0 | 1): Promise<OpenBundle[]> {
  const b = schema.bundles;
  const r = schema.returns;
  return getDb()
    .select({ number: b.number, type: b.type, total: sql<number>`coalesce(sum(${r.amount}), 0)` })
    .from(b)
    .leftJoin(r, eq(r.bundleId, b.id))
    .where(and(eq(b.customerId, customerId), eq(b.open, true), type === undefined ? undefined : eq(b.type, type)))
    .groupBy(b.id)
    .orderBy(asc(b.type), asc(b.number));
}
