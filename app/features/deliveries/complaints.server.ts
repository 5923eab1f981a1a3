// 'Leveransreklamation per utb': deliveries whose reported received amount differs
// from the delivered amount, summed per distributor, and one distributor's rows.
import { sql } from "drizzle-orm";
import { getDb } from "~/db.server";
import type { Period } from "~/lib/period";
import type { DistributorScope } from "~/features/distribution/distribution.server";

export type ComplaintTotals = { id: number; name: string; complaints: number; customers: number; difference: number; priceOre: number };

export type ComplaintRow = {
  id: number;
  customerId: number;
  customerName: string;
  paperName: string;
  deliveryDate: string;
  delivered: number;
  received: number;
  /** received − delivered: negative when copies were missing. */
  difference: number;
  priceOre: number;
};

export const COMPLAINT_PAGE_SIZE = 100;

const list = (values: readonly number[]) => sql.join((values.length ? values : [-1]).map((v) => sql`${v}`), sql`, `);

/** One row per distributor in scope, zeros included, in one GROUP BY. */
export async function complaintTotals(period: Period, scope: DistributorScope): Promise<ComplaintTotals[]> {
  const where = scope.distributorIds === null ? sql`` : sql`where dist.id in (${list(scope.distributorIds)})`;
  return getDb().all<ComplaintTotals>(sql`
    select dist.id as id, dist.name as name,
      coalesce(t.complaints, 0) as complaints, coalesce(t.customers, 0) as customers,
      coalesce(t.difference, 0) as difference, coalesce(t.price_ore, 0) as priceOre
    from distributors dist
    left join (
      select c.distributor_id as distributor_id, count(*) as complaints, count(distinct d.customer_id) as customers,
        sum(d.received - d.delivered) as difference, sum(abs(d.delivered - d.received) * d.price_ore) as price_ore
      from deliveries d join customers c on c.id = d.customer_id
      where d.received is not null and d.received <> d.delivered
        and d.delivery_date between ${period.from} and ${period.to}
      group by c.distributor_id
    ) t on t.distributor_id = dist.id
    ${where}
    order by dist.name, dist.id`);
}

/** One distributor's complaint rows, a page at a time (newest first). */
export async function complaintRows(distributorId: number, period: Period, page = 1) {
  const offset = (Math.max(1, page) - 1) * COMPLAINT_PAGE_SIZE;
  const rows = await getDb().all<ComplaintRow>(sql`
    select d.id as id, c.id as customerId, c.name as customerName,
      coalesce(e.description, '') as paperName, d.delivery_date as deliveryDate,
      d.delivered as delivered, d.received as received, d.received - d.delivered as difference,
      abs(d.delivered - d.received) * d.price_ore as priceOre
    from deliveries d
    join customers c on c.id = d.customer_id
    left join editions e on e.title_id = d.title_id and e.edition_id = d.edition_id
    where c.distributor_id = ${distributorId} and d.received is not null and d.received <> d.delivered
      and d.delivery_date between ${period.from} and ${period.to}
    order by d.delivery_date desc, c.id, d.title_id, d.edition_id
    limit ${COMPLAINT_PAGE_SIZE + 1} offset ${offset}`);
  return { rows: rows.slice(0, COMPLAINT_PAGE_SIZE), hasMore: rows.length > COMPLAINT_PAGE_SIZE };
}
