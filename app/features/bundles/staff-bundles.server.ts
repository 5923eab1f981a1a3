// Staff view of bundles (Buntar): label blocks, bundle contents and bundle number
// changes. Every function takes the customer number and filters by it.
import { and, asc, count, desc, eq, gte, inArray, lte, sql } from "drizzle-orm";
import type { BundleOrder } from "./bundle-orders";
import { getDb, schema, writeTransaction, type Db, type Tx } from "~/db.server";
import { audit, type Actor } from "~/features/audit/audit.server";
import { refuse } from "~/lib/refusal";
import { nextVersion } from "~/lib/row-version.server";

import { BUNDLE_PAGE_SIZE as PAGE_SIZE } from "~/catalog";
import { portalNow } from "../../../db/clock";
// Title filter of back-office 9: AB = title ids 1, 16; EX = 2, 4, 8, 32.
export const TITLE_GROUPS = { AB: [1, 16], EX: [2, 4, 8, 32] } as const;

export async function customerExists(customerId: number): Promise<boolean> {
  const [row] = await getDb().select({ id: schema.customers.id }).from(schema.customers).where(eq(schema.customers.id, customerId));
  return !!row;
}

export function listLabelBlocks(customerId: number) {
  const l = schema.labelBlocks;
  return getDb()
    .select({
      id: l.id,
      type: l.type,
      status: l.status,
      fromDate: l.fromDate,
      toDate: l.toDate,
      fromNumber: l.fromNumber,
      toNumber: l.toNumber,
      numberUnused: l.numberUnused,
    })
    .from(l)
    .where(eq(l.customerId, customerId))
    .orderBy(asc(l.fromNumber));
}

const BLOCK_NOT_FOUND = "Blocket finns inte.";

/**
 * Deletes a block unless one of its numbers is already a bundle of the customer. Refused:
 * a block that is not the customer's (or already deleted, 404), one in use (400).
 */
export async function deleteLabelBlock(customerId: number, blockId: number | null, actor: Actor): Promise<void> {
  // A forged form can send any text; NaN cannot be bound as a query parameter.
  if (blockId === null || !Number.isSafeInteger(blockId)) throw refuse.notFound(BLOCK_NOT_FOUND);
  await writeTransaction(async (tx) => {
    const [block] = await tx
      .select()
      .from(schema.labelBlocks)
      .where(and(eq(schema.labelBlocks.id, blockId), eq(schema.labelBlocks.customerId, customerId)));
    if (!block) throw refuse.notFound(BLOCK_NOT_FOUND);
    const b = schema.bundles;
    const [used] = await tx
      .select({ n: count() })
      .from(b)
      .where(and(eq(b.customerId, customerId), gte(b.number, block.fromNumber), lte(b.number, block.toNumber)));
    if (used.n > 0) throw refuse.invalid("Blocket kan inte tas bort: buntnummer i blocket används redan.");
    await tx.delete(schema.labelBlocks).where(eq(schema.labelBlocks.id, blockId));
    await audit({ actor, action: "label-block.delete", target: `customer:${customerId}`, detail: block }, tx);
  });
}

export type BundleSearch = {
  customerId: number;
  from: string;
  to: string;
  status: "open" | "closed" | "all";
  title?: keyof typeof TITLE_GROUPS;
  number?: number;
  page: number;
  /** Default: the highest bundle number first. */
  order?: BundleOrder;
};

export type BundleContent = {
  id: number;
  number: number;
  type: number;
  open: boolean;
  closedDate: string | null;
  returns: { deliveryDate: string; paper: string; amount: number }[];
  total: number;
};

/**
 * The customer's bundles holding returns of deliveries in the range (and matching
 * title group), PAGE_SIZE per page; two queries whatever the page size.
 */
export async function searchBundleContents(q: BundleSearch): Promise<{ bundles: BundleContent[]; total: number }> {
  const b = schema.bundles;
  const r = schema.returns;
  const d = schema.deliveries;
  const e = schema.editions;
  const where = and(
    eq(b.customerId, q.customerId),
    eq(r.customerId, q.customerId),
    gte(d.deliveryDate, q.from),
    lte(d.deliveryDate, q.to),
    q.status === "all" ? undefined : eq(b.open, q.status === "open"),
    q.title ? inArray(d.titleId, [...TITLE_GROUPS[q.title]]) : undefined,
    q.number !== undefined ? eq(b.number, q.number) : undefined,
  );
  const db = getDb();
  const matching = await db
    .select({ id: b.id, number: b.number, type: b.type, open: b.open, closedDate: b.closedDate, n: sql<number>`count(*) over ()` })
    .from(b)
    .innerJoin(r, eq(r.bundleId, b.id))
    .innerJoin(d, eq(d.id, r.deliveryId))
    .where(where)
    .groupBy(b.id)
    .orderBy(
      ...(q.order === "nummer-stigande"
        ? [asc(b.number), asc(b.id)]
        : q.order === "stangd-fallande"
          ? // Open bundles (no closing date) after the closed ones.
            [sql`${b.closedDate} is null`, desc(b.closedDate), desc(b.number), desc(b.id)]
          : [desc(b.number), desc(b.id)]),
    )
    .limit(PAGE_SIZE)
    .offset((Math.max(1, q.page) - 1) * PAGE_SIZE);
  if (matching.length === 0) return { bundles: [], total: 0 };
  const rows = await db
    .select({ bundleId: r.bundleId, deliveryDate: d.deliveryDate, paper: e.description, amount: r.amount })
    .from(r)
    .innerJoin(d, eq(d.id, r.deliveryId))
    .leftJoin(e, and(eq(e.titleId, d.titleId), eq(e.editionId, d.editionId)))
    .where(
      and(
        eq(r.customerId, q.customerId),
        inArray(r.bundleId, matching.map((m) => m.id)),
        gte(d.deliveryDate, q.from),
        lte(d.deliveryDate, q.to),
        q.title ? inArray(d.titleId, [...TITLE_GROUPS[q.title]]) : undefined,
      ),
    )
    .orderBy(asc(d.deliveryDate), asc(e.description));
  const bundles = matching.map(({ n: _n, ...m }) => {
    const returns = rows.filter((x) => x.bundleId === m.id).map((x) => ({ deliveryDate: x.deliveryDate, paper: x.paper ?? "", amount: x.amount }));
    return { ...m, returns, total: returns.reduce((s, x) => s + x.amount, 0) };
  });
  return { bundles, total: matching[0].n };
}

/** The customer's bundles whose number staff may change, newest number first, paged. */
export async function listChangeableBundles(customerId: number, page: number) {
  const b = schema.bundles;
  const db = getDb();
  const [rows, [{ n }]] = await Promise.all([
    db
      .select({ id: b.id, number: b.number, type: b.type, open: b.open, closedDate: b.closedDate })
      .from(b)
      .where(eq(b.customerId, customerId))
      .orderBy(desc(b.open), desc(b.number))
      .limit(PAGE_SIZE)
      .offset((Math.max(1, page) - 1) * PAGE_SIZE),
    db.select({ n: count() }).from(b).where(eq(b.customerId, customerId)),
  ]);
  const invoiced = await invoicesOfBundles(rows.map((r) => r.id));
  return { bundles: rows.map((r) => ({ ...r, invoices: invoiced.get(r.id) ?? [] })), total: n };
}

/** Per bundle id, the numbers of the issued invoices that credited its returns, in order. One query. */
async function invoicesOfBundles(bundleIds: number[], db: Db | Tx = getDb()): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>();
  if (bundleIds.length === 0) return out;
  const r = schema.returns;
  const c = schema.invoiceCredits;
  const i = schema.invoices;
  const rows = await db
    .selectDistinct({ bundleId: r.bundleId, number: i.number })
    .from(c)
    .innerJoin(r, eq(r.id, c.returnId))
    .innerJoin(i, eq(i.id, c.invoiceId))
    .where(inArray(r.bundleId, bundleIds))
    .orderBy(asc(i.number));
  for (const row of rows) out.set(row.bundleId, [...(out.get(row.bundleId) ?? []), row.number]);
  return out;
}

/**
 * Renumbering a bundle an issued invoice credited: the invoice keeps the old number
 * (decision 021), and staff are told so before it happens.
 */
export function invoicedBundleQuestion(from: number, to: number, invoices: number[]): string {
  const which = invoices.length === 1 ? `utfärdad faktura ${invoices[0]}` : `utfärdade fakturor ${invoices.join(", ")}`;
  return `Bunt ${from} finns på ${which}. Fakturan ändras inte: den visar fortfarande bunt ${from}, bara nya dokument visar bunt ${to}. Tryck Spara igen för att ändra numret ändå.`;
}

/** A renumbering from a page opened before someone else renumbered the bundle. */
export function bundleConflict(storedNumber: number): string {
  return `Bunten har ändrats i en annan flik eller av någon annan sedan du öppnade sidan: den har nu nummer ${storedNumber}. Ditt nummer finns kvar i formuläret; tryck Spara igen för att ge den det.`;
}

/**
 * Gives a bundle a new number. The number must be free for the customer and lie in
 * one of the customer's label blocks; that block's unused count goes down by one.
 */
export async function changeBundleNumber(
  customerId: number,
  bundleId: number,
  newNumber: number,
  actor: Actor,
  /** The number the page showed (the row's version for this form): another number now is a conflict. */
  shownNumber?: number,
  /** The issued invoices staff were told credit this bundle ("1,2"): without them, or with others, they are asked first. */
  confirmedInvoices?: string,
): Promise<void> {
  if (!Number.isInteger(newNumber) || newNumber < 1 || newNumber > 99999) {
    throw refuse.invalid("Nytt buntnummer måste vara ett heltal mellan 1 och 99999.", { field: "newNumber" });
  }
  if (!Number.isSafeInteger(bundleId)) throw refuse.invalid("Bunten finns inte hos kunden.", { field: "newNumber" });
  await writeTransaction(async (tx) => {
    const b = schema.bundles;
    const [bundle] = await tx.select().from(b).where(and(eq(b.id, bundleId), eq(b.customerId, customerId)));
    if (!bundle) throw refuse.invalid("Bunten finns inte hos kunden.", { field: "newNumber" });
    if (shownNumber !== undefined && bundle.number !== shownNumber) throw refuse.conflict(bundleConflict(bundle.number), { field: "newNumber" });
    if (bundle.number === newNumber) throw refuse.invalid("Bunten har redan det numret.", { field: "newNumber" });
    const [clash] = await tx.select({ id: b.id }).from(b).where(and(eq(b.customerId, customerId), eq(b.number, newNumber)));
    if (clash) throw refuse.invalid(`Buntnummer ${newNumber} används redan av kunden.`, { field: "newNumber" });
    const l = schema.labelBlocks;
    const [block] = await tx
      .select({ id: l.id, numberUnused: l.numberUnused })
      .from(l)
      .where(and(eq(l.customerId, customerId), lte(l.fromNumber, newNumber), gte(l.toNumber, newNumber)))
      .limit(1);
    if (!block) throw refuse.invalid(`Buntnummer ${newNumber} ligger inte i något av kundens buntblock.`, { field: "newNumber" });
    const invoices = (await invoicesOfBundles([bundleId], tx)).get(bundleId) ?? [];
    if (invoices.length > 0 && confirmedInvoices !== invoices.join(",")) {
      throw refuse.conflict(invoicedBundleQuestion(bundle.number, newNumber, invoices), { field: "invoiced" });
    }
    // Conditional on the number read above, inside the write transaction.
    const moved = await tx
      .update(b)
      .set({ number: newNumber, updatedAt: nextVersion(b.updatedAt) })
      .where(and(eq(b.id, bundleId), eq(b.number, bundle.number)))
      .returning({ id: b.id });
    if (moved.length === 0) throw refuse.conflict(bundleConflict(bundle.number), { field: "newNumber" });
    if (block.numberUnused > 0) {
      await tx.update(l).set({ numberUnused: block.numberUnused - 1, updatedAt: portalNow() }).where(eq(l.id, block.id));
    }
    await audit(
      { actor, action: "bundle.renumber", target: `customer:${customerId}`, detail: { bundleId, from: bundle.number, to: newNumber, ...(invoices.length > 0 ? { invoices } : {}) } },
      tx,
    );
  });
}
