// Delivery claims (reklamationer, decision 031). A Mottagit below Levererat on the delivery
// note is a claim with a case number for life; it may be made until the claim deadline
// (CLAIM_DEADLINE, by default 12:00 the day after delivery, Stockholm time). Staff decide
// it; the approved copies are credited on the customer's next invoice (the invoice run,
// app/features/invoices/invoice-run.server.ts). Every function that touches a retailer's
// claims takes the customer id; staff's take their distributor scope.
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { config, type ClaimDeadline } from "~/config.server";
import { getDb, schema, writeTransaction, type Tx } from "~/db.server";
import { audit, type Actor } from "~/features/audit/audit.server";
import type { DistributorScope } from "~/features/distribution/distribution.server";
import { paperName } from "~/catalog";
import { addDays, stockholmDate, stockholmMoment } from "~/lib/dates";
import { refuse } from "~/lib/refusal";
import { addWorkingDays } from "~/lib/working-days";
import { CLAIM_TEXTS, type ClaimState, type ClaimStatus } from "./claim-words";
import { portalNow } from "../../../db/clock";

/** The moment a delivery's claim window closes, and how it is said ("2026-11-28 kl. 12:00"). */
export function claimDeadline(deliveryDate: string, deadline: ClaimDeadline = config.claimDeadline): { at: number; text: string } {
  const date = addDays(deliveryDate, deadline.days);
  return { at: stockholmMoment(date, deadline.time), text: `${date} kl. ${deadline.time}` };
}

/** Undecided this many working days after it came in, a claim is marked on Leveransreklamation. */
export const CLAIM_DECIDE_DAYS = 2;

/** When an open claim that came in at `createdAt` is overdue for a decision (a Stockholm date: from that day on). */
export function claimOverdueFrom(createdAt: number): string {
  return addWorkingDays(stockholmDate(createdAt), CLAIM_DECIDE_DAYS);
}

/**
 * After a Mottagit is stored (in the same transaction): below Levererat opens or updates the
 * delivery's claim; at or above it withdraws an open one. A decided claim never gets here
 * (saveReceived refuses the change first).
 */
export async function recordClaim(tx: Tx, delivery: { id: number; customerId: number; delivered: number }, received: number, now: number) {
  const c = schema.claims;
  if (received < delivery.delivered) {
    await tx
      .insert(c)
      .values({ deliveryId: delivery.id, customerId: delivery.customerId, copies: delivery.delivered - received, status: "open", createdAt: now, updatedAt: now })
      .onConflictDoUpdate({ target: c.deliveryId, set: { copies: delivery.delivered - received, status: "open", updatedAt: now } });
  } else {
    await tx.update(c).set({ status: "withdrawn", updatedAt: now }).where(and(eq(c.deliveryId, delivery.id), eq(c.status, "open")));
  }
}

/** The claim of a delivery, as the delivery note needs it before a change: decided ones lock Mottagit. */
export async function decidedClaim(tx: Tx, deliveryId: number): Promise<{ id: number; status: ClaimStatus } | null> {
  const c = schema.claims;
  const [row] = await tx.select({ id: c.id, status: c.status }).from(c).where(eq(c.deliveryId, deliveryId));
  return row && row.status !== "open" && row.status !== "withdrawn" ? { id: row.id, status: row.status as ClaimStatus } : null;
}

const stateColumns = () => {
  const c = schema.claims;
  return {
    id: c.id,
    deliveryId: c.deliveryId,
    copies: c.copies,
    status: c.status,
    approved: c.approved,
    reason: c.reason,
    invoice: schema.invoices.number,
  };
};

type StateRow = { id: number; deliveryId: number; copies: number; status: string; approved: number | null; reason: string | null; invoice: number | null };
const toState = (r: StateRow): ClaimState => ({ id: r.id, copies: r.copies, status: r.status as ClaimStatus, approved: r.approved, reason: r.reason, invoice: r.invoice });

/** The claims of these deliveries of the customer's, by delivery id (others' are simply absent). One query. */
export async function claimsOfDeliveries(customerId: number, deliveryIds: number[]): Promise<Map<number, ClaimState>> {
  if (deliveryIds.length === 0) return new Map();
  const c = schema.claims;
  const rows = await getDb()
    .select(stateColumns())
    .from(c)
    .leftJoin(schema.invoices, eq(schema.invoices.id, c.invoiceId))
    .where(and(eq(c.customerId, customerId), inArray(c.deliveryId, deliveryIds)));
  return new Map(rows.map((r) => [r.deliveryId, toState(r)]));
}

export type MyClaim = ClaimState & { deliveryDate: string; paper: string; delivered: number; received: number | null; createdAt: number };

/** Mina reklamationer: the customer's claims, newest first (withdrawn ones too: their number stays). */
export async function listMyClaims(customerId: number, limit = 200): Promise<MyClaim[]> {
  const c = schema.claims;
  const d = schema.deliveries;
  const rows = await getDb()
    .select({ ...stateColumns(), deliveryDate: d.deliveryDate, title: schema.titles.name, edition: schema.editions.description, delivered: d.delivered, received: d.received, createdAt: c.createdAt })
    .from(c)
    .innerJoin(d, eq(d.id, c.deliveryId))
    .innerJoin(schema.titles, eq(schema.titles.id, d.titleId))
    .innerJoin(schema.editions, and(eq(schema.editions.titleId, d.titleId), eq(schema.editions.editionId, d.editionId)))
    .leftJoin(schema.invoices, eq(schema.invoices.id, c.invoiceId))
    .where(eq(c.customerId, customerId))
    .orderBy(desc(d.deliveryDate), desc(c.id))
    .limit(limit);
  return rows.map((r) => ({ ...toState(r), deliveryDate: r.deliveryDate, paper: paperName(r.title, r.edition), delivered: r.delivered, received: r.received, createdAt: r.createdAt }));
}

export type ClaimDecision = { decision: "approve" } | { decision: "partly"; copies: number; reason: string } | { decision: "reject"; reason: string };

/**
 * Staff decide open claims (admin any, utb their distributor's; others' and unknown ones are
 * not found). One by one any decision; several at once approve or reject. A decided claim is
 * not decided again ("conflict"). Each decision is audited. Answers the claims decided.
 */
export async function decideClaims(ids: number[], decision: ClaimDecision, scope: DistributorScope, actor: Actor, now = portalNow()): Promise<number[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) throw refuse.invalid(CLAIM_TEXTS.noneChosen);
  if (decision.decision === "partly" && unique.length !== 1) throw refuse.invalid(CLAIM_TEXTS.partlyOneByOne);
  if (decision.decision !== "approve" && decision.reason.trim() === "") throw refuse.invalid(CLAIM_TEXTS.reasonRequired, { field: "motivering" });
  return writeTransaction(async (tx) => {
    const c = schema.claims;
    const rows = await tx
      .select({ id: c.id, copies: c.copies, status: c.status, distributorId: schema.customers.distributorId, customerId: c.customerId })
      .from(c)
      .innerJoin(schema.customers, eq(schema.customers.id, c.customerId))
      .where(inArray(c.id, unique));
    const visible = rows.filter((r) => scope.distributorIds === null || scope.distributorIds.includes(r.distributorId));
    if (visible.length !== unique.length) {
      const missing = unique.find((id) => !visible.some((r) => r.id === id))!;
      throw refuse.notFound(CLAIM_TEXTS.notFound(missing));
    }
    const decided = visible.find((r) => r.status !== "open");
    if (decided) throw refuse.conflict(decided.status === "withdrawn" ? CLAIM_TEXTS.withdrawn(decided.id) : CLAIM_TEXTS.alreadyDecided(decided.id));
    for (const r of visible) {
      const approved = decision.decision === "approve" ? r.copies : decision.decision === "reject" ? 0 : decision.copies;
      if (decision.decision === "partly" && !(approved >= 1 && approved < r.copies)) throw refuse.invalid(CLAIM_TEXTS.partlyRange(r.copies), { field: "antal" });
      const status = decision.decision === "approve" ? "approved" : decision.decision === "reject" ? "rejected" : "partly";
      const reason = decision.decision === "approve" ? null : decision.reason.trim();
      await tx.update(c).set({ status, approved, reason, decidedBy: actor.id, decidedAt: now, updatedAt: now }).where(and(eq(c.id, r.id), eq(c.status, "open")));
      await audit({ actor, action: "claim.decide", target: `claim:${r.id}`, detail: { customer: r.customerId, status, approved, copies: r.copies, reason } }, tx);
    }
    return visible.map((r) => r.id);
  });
}

/** Claims of the distributors in scope (null: all) that are still open, for the staff start page and the filter. */
export async function openClaimCount(scope: DistributorScope): Promise<number> {
  const c = schema.claims;
  const where = scope.distributorIds === null ? eq(c.status, "open") : and(eq(c.status, "open"), inArray(schema.customers.distributorId, scope.distributorIds));
  const [row] = await getDb().select({ n: sql<number>`count(*)`.mapWith(Number) }).from(c).innerJoin(schema.customers, eq(schema.customers.id, c.customerId)).where(where);
  return row?.n ?? 0;
}

export type StaffClaim = MyClaim & { customerId: number; customerName: string; distributorId: number; overdueFrom: string | null };

/** One claim as staff decide it, if it is in their scope (others' and unknown ones: null). */
export async function staffClaim(id: number, scope: DistributorScope): Promise<StaffClaim | null> {
  const c = schema.claims;
  const d = schema.deliveries;
  const cu = schema.customers;
  const [r] = await getDb()
    .select({
      ...stateColumns(),
      deliveryDate: d.deliveryDate,
      title: schema.titles.name,
      edition: schema.editions.description,
      delivered: d.delivered,
      received: d.received,
      createdAt: c.createdAt,
      customerId: c.customerId,
      customerName: cu.name,
      distributorId: cu.distributorId,
    })
    .from(c)
    .innerJoin(d, eq(d.id, c.deliveryId))
    .innerJoin(cu, eq(cu.id, c.customerId))
    .innerJoin(schema.titles, eq(schema.titles.id, d.titleId))
    .innerJoin(schema.editions, and(eq(schema.editions.titleId, d.titleId), eq(schema.editions.editionId, d.editionId)))
    .leftJoin(schema.invoices, eq(schema.invoices.id, c.invoiceId))
    .where(eq(c.id, id));
  if (!r || (scope.distributorIds !== null && !scope.distributorIds.includes(r.distributorId))) return null;
  return {
    ...toState(r),
    deliveryDate: r.deliveryDate,
    paper: paperName(r.title, r.edition),
    delivered: r.delivered,
    received: r.received,
    createdAt: r.createdAt,
    customerId: r.customerId,
    customerName: r.customerName,
    distributorId: r.distributorId,
    overdueFrom: r.status === "open" ? claimOverdueFrom(r.createdAt) : null,
  };
}
