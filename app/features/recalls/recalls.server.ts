// Återkallelser (decision 036): a publisher withdraws editions of a title delivered on
// some dates; every shop that got them must take them off the shelf and say so. A recall
// names its customers when it is made (every active customer of the chosen distributors
// with a delivery of those editions and dates, and no one else); each acknowledges with
// the copies taken off the shelf. Staff follow who has and who has not; a recall can be
// ended. Every step is in Logg.
import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import { getDb, schema, writeTransaction } from "~/db.server";
import { audit, type Actor } from "~/features/audit/audit.server";
import type { DistributorScope } from "~/features/distribution/distribution.server";
import { addDays, isValidDate, stockholmMoment } from "~/lib/dates";
import { refuse } from "~/lib/refusal";
import { escapeHtml } from "~/lib/html.server";
import { stockholmTime } from "~/lib/dates";
import { RECALL_ACTION_TEXT, RECALL_ACTIONS, RECALL_TEXTS, recallHeading, type RecallAction } from "./recall-words";
import { portalNow } from "../../../db/clock";

export type NewRecall = {
  titleId: number;
  editionIds: number[];
  from: string;
  to: string;
  reason: string;
  action: RecallAction;
  /** null: every distributor. */
  distributorIds: number[] | null;
  /** The deadline, Stockholm time. */
  deadlineDate: string;
  deadlineTime: string;
};

/** The longest period one recall covers: a recall is about days, not a season. */
export const MAX_RECALL_DAYS = 31;

/** How long after its deadline recalled copies may still be returned (decision 036). */
export const RECALL_RETURN_GRACE_DAYS = 14;

/**
 * Creates a recall and names its customers in one transaction. Refused (invalid, on the
 * field) for an edition not of the title, a period backwards or longer than 31 days, a
 * deadline in the past, an unknown distributor, or no delivery to anyone in scope.
 */
export async function createRecall(input: NewRecall, actor: Actor, now = portalNow()): Promise<{ id: number; customers: number }> {
  const reason = input.reason.trim();
  if (!reason) throw refuse.invalid(RECALL_TEXTS.reasonMissing, { field: "orsak" });
  if (reason.length > 1000) throw refuse.invalid("Högst 1000 tecken.", { field: "orsak" });
  if (input.editionIds.length === 0) throw refuse.invalid(RECALL_TEXTS.editionsMissing, { field: "utgavor" });
  if (!isValidDate(input.from)) throw refuse.invalid("Ogiltigt datum (ÅÅÅÅ-MM-DD).", { field: "fran" });
  if (!isValidDate(input.to)) throw refuse.invalid("Ogiltigt datum (ÅÅÅÅ-MM-DD).", { field: "till" });
  if (input.to < input.from) throw refuse.invalid("Till-datum får inte vara före från-datum.", { field: "till" });
  if (addDays(input.from, MAX_RECALL_DAYS - 1) < input.to) throw refuse.invalid(`En återkallelse gäller högst ${MAX_RECALL_DAYS} dagar.`, { field: "till" });
  if (!isValidDate(input.deadlineDate)) throw refuse.invalid("Ogiltigt datum (ÅÅÅÅ-MM-DD).", { field: "senastDatum" });
  if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(input.deadlineTime)) throw refuse.invalid("Ange en tid, TT:MM.", { field: "senastTid" });
  const deadlineAt = stockholmMoment(input.deadlineDate, input.deadlineTime);
  if (deadlineAt <= now) throw refuse.invalid(RECALL_TEXTS.deadlinePassed, { field: "senastDatum" });
  if (!RECALL_ACTIONS.includes(input.action)) throw refuse.invalid(RECALL_TEXTS.actionMissing, { field: "atgard" });
  const editionIds = [...new Set(input.editionIds)];
  const distributorIds = input.distributorIds === null ? null : [...new Set(input.distributorIds)];
  if (distributorIds !== null && distributorIds.length === 0) throw refuse.invalid(RECALL_TEXTS.distributorsMissing, { field: "distributorer" });

  return writeTransaction(async (tx) => {
    const e = schema.editions;
    const known = await tx.select({ editionId: e.editionId }).from(e).where(and(eq(e.titleId, input.titleId), inArray(e.editionId, editionIds)));
    if (known.length !== editionIds.length) throw refuse.invalid(RECALL_TEXTS.editionsOfTitle, { field: "utgavor" });
    if (distributorIds !== null) {
      const found = await tx.select({ id: schema.distributors.id }).from(schema.distributors).where(inArray(schema.distributors.id, distributorIds));
      if (found.length !== distributorIds.length) throw refuse.invalid("Distributören finns inte.", { field: "distributorer" });
    }
    const [recall] = await tx
      .insert(schema.recalls)
      .values({
        titleId: input.titleId,
        dateFrom: input.from,
        dateTo: input.to,
        reason,
        action: input.action,
        allDistributors: distributorIds === null,
        deadlineAt,
        returnUntil: addDays(input.deadlineDate, RECALL_RETURN_GRACE_DAYS),
        createdBy: actor.id,
      })
      .returning({ id: schema.recalls.id });
    await tx.insert(schema.recallEditions).values(editionIds.map((editionId) => ({ recallId: recall.id, editionId })));
    if (distributorIds !== null) await tx.insert(schema.recallDistributors).values(distributorIds.map((distributorId) => ({ recallId: recall.id, distributorId })));
    // Every active customer in scope with a delivery of the editions on the dates: one row
    // each, with the copies delivered, made by one statement (6,500 shops in one go).
    const inserted = await tx.run(sql`
      insert into recall_customers (recall_id, customer_id, delivered)
      select ${recall.id}, d.customer_id, sum(d.delivered)
      from deliveries d
      join customers c on c.id = d.customer_id
      where d.title_id = ${input.titleId}
        and d.edition_id in (select edition_id from recall_editions where recall_id = ${recall.id})
        and d.delivery_date between ${input.from} and ${input.to}
        and c.deactivated_at is null
        and (${distributorIds === null ? 1 : 0} = 1 or c.distributor_id in (select distributor_id from recall_distributors where recall_id = ${recall.id}))
      group by d.customer_id`);
    const customers = inserted.rowsAffected;
    if (customers === 0) throw refuse.invalid(RECALL_TEXTS.nobodyAffected, { field: "utgavor" });
    await audit(
      { actor, action: "recall.create", target: `recall:${recall.id}`, detail: { titleId: input.titleId, editionIds, from: input.from, to: input.to, action: input.action, distributorIds, deadlineAt, customers } },
      tx,
    );
    return { id: recall.id, customers };
  });
}

/** Ends a recall: no retailer is asked any more. False when it had already ended. */
export async function endRecall(id: number, actor: Actor, now = portalNow()): Promise<boolean> {
  return writeTransaction(async (tx) => {
    const r = schema.recalls;
    const [found] = await tx.select({ id: r.id }).from(r).where(eq(r.id, id));
    if (!found) throw refuse.notFound(RECALL_TEXTS.notFound(id));
    const ended = await tx.update(r).set({ endedAt: now, endedBy: actor.id, updatedAt: now }).where(and(eq(r.id, id), isNull(r.endedAt))).returning({ id: r.id });
    if (ended.length === 0) return false;
    await audit({ actor, action: "recall.end", target: `recall:${id}` }, tx);
    return true;
  });
}

export type RecallSummary = {
  id: number;
  titleId: number;
  dateFrom: string;
  dateTo: string;
  reason: string;
  action: RecallAction;
  deadlineAt: number;
  /** The last day its copies may be returned (decision 036). */
  returnUntil: string;
  createdAt: number;
  endedAt: number | null;
  editions: { editionId: number; description: string }[];
  /** Null: every distributor. */
  distributors: { id: number; name: string }[] | null;
  affected: number;
  acknowledged: number;
  delivered: number;
  removed: number;
};

async function editionsOf(ids: number[]) {
  if (ids.length === 0) return new Map<number, { editionId: number; description: string }[]>();
  const re = schema.recallEditions;
  const rows = await getDb()
    .select({ recallId: re.recallId, editionId: re.editionId, description: schema.editions.description })
    .from(re)
    .innerJoin(schema.recalls, eq(schema.recalls.id, re.recallId))
    .innerJoin(schema.editions, and(eq(schema.editions.titleId, schema.recalls.titleId), eq(schema.editions.editionId, re.editionId)))
    .where(inArray(re.recallId, ids))
    .orderBy(asc(re.editionId));
  const out = new Map<number, { editionId: number; description: string }[]>();
  for (const r of rows) out.set(r.recallId, [...(out.get(r.recallId) ?? []), { editionId: r.editionId, description: r.description }]);
  return out;
}

async function distributorsOf(ids: number[]) {
  if (ids.length === 0) return new Map<number, { id: number; name: string }[]>();
  const rd = schema.recallDistributors;
  const rows = await getDb()
    .select({ recallId: rd.recallId, id: schema.distributors.id, name: schema.distributors.name })
    .from(rd)
    .innerJoin(schema.distributors, eq(schema.distributors.id, rd.distributorId))
    .where(inArray(rd.recallId, ids))
    .orderBy(asc(schema.distributors.id));
  const out = new Map<number, { id: number; name: string }[]>();
  for (const r of rows) out.set(r.recallId, [...(out.get(r.recallId) ?? []), { id: r.id, name: r.name }]);
  return out;
}

/** A distributor scope as SQL on a customers alias `c` (admin and sales: everyone). */
function scopeSql(scope: DistributorScope) {
  if (scope.distributorIds === null) return sql`1 = 1`;
  if (scope.distributorIds.length === 0) return sql`0 = 1`;
  return sql`c.distributor_id in (${sql.join(scope.distributorIds.map((d) => sql`${d}`), sql`, `)})`;
}

/**
 * Recalls, newest first, with their counts among the customers in `scope` (a utb user's
 * distributor). A utb user sees only recalls that reach their distributor. `only`: just
 * these recalls (one recall's page, a retailer's own), not every recall there is.
 */
export async function listRecalls(scope: DistributorScope, only?: number[]): Promise<RecallSummary[]> {
  if (only?.length === 0) return [];
  const rows = await getDb().all<Omit<RecallSummary, "editions" | "distributors"> & { allDistributors: number }>(sql`
    select r.id, r.title_id as titleId, r.date_from as dateFrom, r.date_to as dateTo, r.reason, r.action, r.deadline_at as deadlineAt, r.return_until as returnUntil,
      r.created_at as createdAt, r.ended_at as endedAt, r.all_distributors as allDistributors,
      count(rc.customer_id) as affected, count(rc.acknowledged_at) as acknowledged,
      coalesce(sum(rc.delivered), 0) as delivered, coalesce(sum(rc.removed_copies), 0) as removed
    from recalls r
    left join recall_customers rc on rc.recall_id = r.id and rc.customer_id in (select c.id from customers c where ${scopeSql(scope)})
    ${only ? sql`where r.id in (${sql.join(only.map((id) => sql`${id}`), sql`, `)})` : sql``}
    group by r.id
    having ${scope.distributorIds === null ? sql`1 = 1` : sql`count(rc.customer_id) > 0`}
    order by r.created_at desc, r.id desc`);
  const ids = rows.map((r) => r.id);
  const [editions, distributors] = await Promise.all([editionsOf(ids), distributorsOf(ids)]);
  return rows.map((r) => ({
    ...r,
    affected: Number(r.affected),
    acknowledged: Number(r.acknowledged),
    delivered: Number(r.delivered),
    removed: Number(r.removed),
    editions: editions.get(r.id) ?? [],
    distributors: Number(r.allDistributors) === 1 ? null : (distributors.get(r.id) ?? []),
  }));
}

export type RecallCustomerRow = {
  customerId: number;
  name: string;
  phone: string;
  distributorId: number | null;
  distributorName: string | null;
  delivered: number;
  acknowledgedAt: number | null;
  removed: number | null;
  /** Copies of the recalled deliveries returned so far. */
  returned: number;
};

export type RecallFollowUp = {
  recall: RecallSummary;
  acknowledged: RecallCustomerRow[];
  /** Sorted by distributor, then customer number: a call list. */
  waiting: RecallCustomerRow[];
  perDistributor: { distributorId: number | null; name: string; affected: number; acknowledged: number; removed: number; returned: number }[];
  returned: number;
};

/** One recall's follow-up among the customers in `scope`, or null (unknown, or none of a utb user's). */
export async function recallFollowUp(id: number, scope: DistributorScope): Promise<RecallFollowUp | null> {
  const [recall] = await listRecalls(scope, [id]);
  if (!recall) return null;
  const rows = await getDb().all<RecallCustomerRow>(sql`
    select rc.customer_id as customerId, c.name, c.phone, c.distributor_id as distributorId, dist.name as distributorName,
      rc.delivered, rc.acknowledged_at as acknowledgedAt, rc.removed_copies as removed,
      coalesce((select sum(rt.amount) from returns rt join deliveries d on d.id = rt.delivery_id
        where d.customer_id = rc.customer_id and d.title_id = r.title_id and d.delivery_date between r.date_from and r.date_to
          and d.edition_id in (select edition_id from recall_editions where recall_id = r.id)), 0) as returned
    from recall_customers rc
    join recalls r on r.id = rc.recall_id
    join customers c on c.id = rc.customer_id
    left join distributors dist on dist.id = c.distributor_id
    where rc.recall_id = ${id} and ${scopeSql(scope)}
    order by coalesce(c.distributor_id, 1e9), rc.customer_id`);
  const customers = rows.map((r) => ({ ...r, returned: Number(r.returned) }));
  const per = new Map<string, RecallFollowUp["perDistributor"][number]>();
  for (const c of customers) {
    const key = String(c.distributorId);
    const d = per.get(key) ?? { distributorId: c.distributorId, name: c.distributorName ?? "Utan distributör", affected: 0, acknowledged: 0, removed: 0, returned: 0 };
    d.affected++;
    if (c.acknowledgedAt !== null) d.acknowledged++;
    d.removed += c.removed ?? 0;
    d.returned += c.returned;
    per.set(key, d);
  }
  return {
    recall,
    acknowledged: customers.filter((c) => c.acknowledgedAt !== null).sort((a, b) => a.acknowledgedAt! - b.acknowledgedAt! || a.customerId - b.customerId),
    waiting: customers.filter((c) => c.acknowledgedAt === null),
    perDistributor: [...per.values()],
    returned: customers.reduce((s, c) => s + c.returned, 0),
  };
}

export type CustomerRecall = RecallSummary & { delivered: number; acknowledgedAt: number | null; removedCopies: number | null };

/** A customer's recalls, the ones still to acknowledge first, then newest first. */
export async function customerRecalls(customerId: number): Promise<CustomerRecall[]> {
  const rc = schema.recallCustomers;
  const mine = await getDb().select().from(rc).where(eq(rc.customerId, customerId));
  if (mine.length === 0) return [];
  const byId = new Map(mine.map((m) => [m.recallId, m]));
  return (await listRecalls({ distributorIds: null }, [...byId.keys()]))
    .map((r) => ({ ...r, delivered: byId.get(r.id)!.delivered, acknowledgedAt: byId.get(r.id)!.acknowledgedAt, removedCopies: byId.get(r.id)!.removedCopies }))
    .sort((a, b) => Number(a.acknowledgedAt !== null || a.endedAt !== null) - Number(b.acknowledgedAt !== null || b.endedAt !== null) || b.createdAt - a.createdAt);
}

/**
 * A retailer acknowledges a recall with the copies taken off the shelf (0 allowed). Once:
 * a second acknowledgement (another tab) is refused with what was stored. Refused for a
 * recall the customer is not in (not found), or one that has ended.
 */
export async function acknowledgeRecall(customerId: number, recallId: number, removed: number, actor: Actor, now = portalNow()): Promise<void> {
  if (!Number.isInteger(removed) || removed < 0 || removed > 100_000) throw refuse.invalid(RECALL_TEXTS.removedInvalid, { field: "antal" });
  await writeTransaction(async (tx) => {
    const rc = schema.recallCustomers;
    const [row] = await tx
      .select({ acknowledgedAt: rc.acknowledgedAt, removed: rc.removedCopies, endedAt: schema.recalls.endedAt })
      .from(rc)
      .innerJoin(schema.recalls, eq(schema.recalls.id, rc.recallId))
      .where(and(eq(rc.recallId, recallId), eq(rc.customerId, customerId)));
    if (!row) throw refuse.notFound(RECALL_TEXTS.notFound(recallId));
    if (row.acknowledgedAt !== null) throw refuse.conflict(RECALL_TEXTS.alreadyAcknowledged(row.removed ?? 0), { field: "antal" });
    if (row.endedAt !== null) throw refuse.conflict(RECALL_TEXTS.ended, { field: "antal" });
    await tx.update(rc).set({ acknowledgedAt: now, removedCopies: removed, acknowledgedBy: actor.id }).where(and(eq(rc.recallId, recallId), eq(rc.customerId, customerId)));
    await audit({ actor, action: "recall.acknowledge", target: `recall:${recallId}`, detail: { customerId, removed } }, tx);
  });
}

/**
 * The last day a delivery may be returned because it is recalled (decision 036): the latest
 * `return_until` (the deadline's Stockholm date + RECALL_RETURN_GRACE_DAYS) of a recall
 * reaching the customer that covers the delivery; null when none does.
 */
export function recallReturnBySqlOf(c: { customerId: unknown; titleId: unknown; editionId: unknown; deliveryDate: unknown }) {
  return sql<string | null>`(select max(r.return_until)
    from recall_customers rc join recalls r on r.id = rc.recall_id
    where rc.customer_id = ${c.customerId} and r.title_id = ${c.titleId} and ${c.deliveryDate} between r.date_from and r.date_to
      and exists (select 1 from recall_editions re where re.recall_id = r.id and re.edition_id = ${c.editionId}))`;
}

/** How many open recalls this customer has not acknowledged (the alert's fact). */
export function openRecallsSql(customerId: unknown) {
  return sql`(select count(*) from recall_customers rc join recalls r on r.id = rc.recall_id
    where rc.customer_id = ${customerId} and rc.acknowledged_at is null and r.ended_at is null)`;
}

/** Exit status facts for `portal recall status`: the customers of an open recall not yet acknowledged. */
export async function unacknowledgedCount(id: number): Promise<number> {
  const rc = schema.recallCustomers;
  const [row] = await getDb()
    .select({ n: sql<number>`count(*)` })
    .from(rc)
    .where(and(eq(rc.recallId, id), isNull(rc.acknowledgedAt)));
  return Number(row?.n ?? 0);
}

/**
 * A customer's acknowledged recalls as messages (Meddelanden, the banners at the top of
 * every page), each with its deadline, while its copies may still come back (until
 * return_until). An unacknowledged one is not a message: it locks the portal instead.
 * Ids are negative so they never meet a staff message's.
 */
export async function recallMessages(customerId: number, on: string): Promise<{ id: number; header: string; html: string }[]> {
  const recalls = (await customerRecalls(customerId)).filter((r) => r.acknowledgedAt !== null && r.returnUntil >= on);
  return recalls.map((r) => ({
    id: -r.id,
    header: recallHeading(r),
    html: `<p>${escapeHtml(r.reason)}</p><p>${escapeHtml(`${RECALL_ACTION_TEXT[r.action]}, senast ${stockholmTime(r.deadlineAt).slice(0, 16)}. Bekräftad: ${r.removedCopies ?? 0} ex borttagna. Återkallade exemplar kan returneras till och med ${r.returnUntil}.`)}</p><p><a href="/aterkallelser">Visa återkallelser</a></p>`,
  }));
}
