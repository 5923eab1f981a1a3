// The specification of an invoice (decision 038): per paper and price the copies delivered,
// returned, claimed and sold, and day by day, so a shop owner can tick the invoice off
// against the delivery notes; and the returns of earlier periods it settles, with their
// bundle. Made by the invoice run from what it bills, in the same transaction, and stored
// with the invoice as part of its record (decision 021): it prints the same for good.
import { sql } from "drizzle-orm";
import { paperName } from "~/catalog";
import type { InvoiceSpecificationRecord, Tx } from "~/db.server";

export type SpecificationPaper = { paper: string; priceOre: number; delivered: number; returned: number; claimed: number; sold: number };
export type SpecificationDay = { date: string; paper: string; priceOre: number; delivered: number; returned: number; sold: number };
/** A return of an earlier period settled on this invoice (reported or changed after its run). */
export type SpecificationLater = { date: string; paper: string; bundle: number; copies: number };
export type InvoiceSpecification = { papers: SpecificationPaper[]; days: SpecificationDay[]; later: SpecificationLater[]; claims: boolean };

/** One delivery of the period as the run bills it: its returns are the copies the run credits. */
export type BilledDay = { customerId: number; paperType: number; date: string; titleId: number; editionId: number; title: string; edition: string; priceOre: number; delivered: number; returned: number };

/** The period's deliveries of customers lo..hi with their returns now, in date and paper order. One read of the customer and date index. */
export async function billedDays(tx: Tx, from: string, to: string, range: { lo: number; hi: number }): Promise<BilledDay[]> {
  return tx.all<BilledDay>(sql`
    select d.customer_id as customerId, e.type as paperType, d.delivery_date as date, d.title_id as titleId, d.edition_id as editionId,
      t.name as title, e.description as edition, d.price_ore as priceOre, d.delivered as delivered,
      (select coalesce(sum(r.amount), 0) from returns r where r.delivery_id = d.id) as returned
    from customers cu
    join deliveries d on d.customer_id = cu.id
    join editions e on e.title_id = d.title_id and e.edition_id = d.edition_id
    join titles t on t.id = d.title_id
    where cu.id between ${range.lo} and ${range.hi} and d.delivery_date between ${from} and ${to}
    order by d.customer_id, d.delivery_date, d.title_id, d.edition_id`);
}

type Claimed = { kind: string; titleId?: number; editionId?: number; unitPriceOre: number; quantity: number };

/**
 * The record of one invoice's specification: its customer's and paper type's days of the
 * period, the claims it credits (its claim lines) and the later returns it settles.
 */
export function specificationRecord(days: BilledDay[], lines: Claimed[], later: SpecificationLater[]): InvoiceSpecificationRecord {
  const key = (titleId: number, editionId: number, priceOre: number) => `${titleId}/${editionId}/${priceOre}`;
  const papers = new Map<string, { order: number[]; row: InvoiceSpecificationRecord["papers"][number] }>();
  for (const d of days) {
    const k = key(d.titleId, d.editionId, d.priceOre);
    const p = papers.get(k) ?? { order: [d.titleId, d.editionId, d.priceOre], row: [paperName(d.title, d.edition), d.priceOre, 0, 0, 0] };
    p.row[2] += d.delivered;
    p.row[3] += d.returned;
    papers.set(k, p);
  }
  for (const l of lines) {
    if (l.kind !== "claim" || l.titleId === undefined || l.editionId === undefined) continue;
    const p = papers.get(key(l.titleId, l.editionId, l.unitPriceOre));
    if (p) p.row[4] += -l.quantity;
  }
  // In the order of the invoice's lines: title, edition, price.
  const sorted = [...papers.entries()].sort(([, a], [, b]) => a.order[0] - b.order[0] || a.order[1] - b.order[1] || a.order[2] - b.order[2]);
  const index = new Map(sorted.map(([k], i) => [k, i]));
  return {
    papers: sorted.map(([, p]) => p.row),
    days: days.map((d) => [d.date, index.get(key(d.titleId, d.editionId, d.priceOre))!, d.delivered, d.returned]),
    later: later.filter((x) => x.copies !== 0).map((x) => [x.date, x.paper, x.bundle, x.copies]),
  };
}

/** The stored record as the PDF prints it. */
export function readSpecification(record: InvoiceSpecificationRecord): InvoiceSpecification {
  const papers = record.papers.map(([paper, priceOre, delivered, returned, claimed]) => ({ paper, priceOre, delivered, returned, claimed, sold: delivered - returned }));
  return {
    papers,
    days: record.days.map(([date, i, delivered, returned]) => ({ date, paper: papers[i].paper, priceOre: papers[i].priceOre, delivered, returned, sold: delivered - returned })),
    later: record.later.map(([date, paper, bundle, copies]) => ({ date, paper, bundle, copies })),
    claims: papers.some((p) => p.claimed !== 0),
  };
}
