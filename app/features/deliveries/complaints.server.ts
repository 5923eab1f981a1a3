// 'Leveransreklamation per utb': deliveries whose reported received amount differs
// from the delivered amount, summed per distributor, and the rows: one distributor's a
// page at a time in the chosen order, and every row of the scope for Excel.
import { sql, type SQL } from "drizzle-orm";
import { paperName } from "~/catalog";
import { getDb } from "~/db.server";
import { checkedPeriod, preset, type Period } from "~/lib/period";
import { param, readSearch } from "~/lib/search-params";
import type { Sort } from "~/lib/sort";
import {
  COMPLAINT_COLUMNS,
  COMPLAINT_DEFAULT_SORT,
  COMPLAINT_TOTAL_COLUMNS,
  COMPLAINT_TOTAL_DEFAULT_SORT,
  COMPLAINT_TOTAL_SORT_PARAMS,
  type ComplaintColumn,
  type ComplaintTotalColumn,
} from "./complaint-columns";
import type { DistributorScope } from "~/features/distribution/distribution.server";
import { UNDECIDED, type ClaimState, type ClaimStatus } from "./claim-words";
import { claimOverdueFrom } from "./claims.server";

export type ComplaintTotals = { id: number; name: string; complaints: number; customers: number; difference: number; priceOre: number };

export type ComplaintRow = {
  id: number;
  customerId: number;
  customerName: string;
  distributorName: string | null;
  paperName: string;
  deliveryDate: string;
  delivered: number;
  received: number;
  /** received − delivered: negative when copies were missing. */
  difference: number;
  priceOre: number;
  /** The delivery's claim (Mottagit below Levererat), and from when an open one is overdue for a decision. */
  claim: (ClaimState & { overdueFrom: string | null }) | null;
};

export const COMPLAINT_PAGE_SIZE = 100;

const list = (values: readonly number[]) => sql.join((values.length ? values : [-1]).map((v) => sql`${v}`), sql`, `);

/** One row per distributor in scope, zeros included, in one GROUP BY. */
const TOTAL_ORDER_BY: Record<ComplaintTotalColumn, SQL> = {
  utb: sql`dist.name`,
  reklamationer: sql`complaints`,
  kunder: sql`customers`,
  differens: sql`difference`,
  summa: sql`priceOre`,
};

export async function complaintTotals(period: Period, scope: DistributorScope, sort: Sort<ComplaintTotalColumn> = COMPLAINT_TOTAL_DEFAULT_SORT): Promise<ComplaintTotals[]> {
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
    order by ${TOTAL_ORDER_BY[sort.column]} ${sort.descending ? sql`desc` : sql`asc`}, dist.name, dist.id`);
}


const ORDER_BY: Record<ComplaintColumn, SQL> = {
  datum: sql`d.delivery_date`,
  kund: sql`c.id`,
  tidning: sql`coalesce(t.name, '') || ' ' || coalesce(e.description, '')`,
  foljesedel: sql`d.delivered`,
  mottagit: sql`d.received`,
  differens: sql`d.received - d.delivered`,
  summa: sql`abs(d.delivered - d.received) * d.price_ore`,
};

type SliceRow = Omit<ComplaintRow, "paperName" | "claim"> & { title: string | null; edition: string | null } & {
  claimId: number | null;
  claimCopies: number | null;
  claimStatus: ClaimStatus | null;
  approved: number | null;
  reason: string | null;
  invoice: number | null;
  claimedAt: number | null;
};

/** The complaint rows of some distributors (null: every one) in a period, in the chosen order, from `offset`; `undecided`: only open claims. */
async function complaintSlice(distributorIds: number[] | null, period: Period, sort: Sort<ComplaintColumn>, limit: number, offset: number, undecided = false) {
  const which = distributorIds === null ? sql`` : sql`c.distributor_id in (${list(distributorIds)}) and `;
  const open = undecided ? sql` and k.status = 'open'` : sql``;
  const rows = await getDb().all<SliceRow>(sql`
    select d.id as id, c.id as customerId, c.name as customerName, dist.name as distributorName,
      t.name as title, e.description as edition, d.delivery_date as deliveryDate,
      d.delivered as delivered, d.received as received, d.received - d.delivered as difference,
      abs(d.delivered - d.received) * d.price_ore as priceOre,
      k.id as claimId, k.copies as claimCopies, k.status as claimStatus, k.approved as approved, k.reason as reason, i.number as invoice, k.created_at as claimedAt
    from deliveries d
    join customers c on c.id = d.customer_id
    left join distributors dist on dist.id = c.distributor_id
    left join editions e on e.title_id = d.title_id and e.edition_id = d.edition_id
    left join titles t on t.id = d.title_id
    left join claims k on k.delivery_id = d.id
    left join invoices i on i.id = k.invoice_id
    where ${which}d.received is not null and d.received <> d.delivered
      and d.delivery_date between ${period.from} and ${period.to}${open}
    order by ${ORDER_BY[sort.column]} ${sort.descending ? sql`desc` : sql`asc`}, d.delivery_date desc, c.id, d.title_id, d.edition_id
    limit ${limit} offset ${offset}`);
  // The paper as printed: Kvällsposten is "Expressen – Kvällsposten", never a second "Expressen".
  return rows.map(({ title, edition, claimId, claimCopies, claimStatus, approved, reason, invoice, claimedAt, ...r }) => ({
    ...r,
    paperName: title ? paperName(title, edition) : (edition ?? ""),
    claim:
      claimId === null
        ? null
        : { id: claimId, copies: claimCopies ?? 0, status: claimStatus!, approved, reason, invoice, overdueFrom: claimStatus === "open" && claimedAt !== null ? claimOverdueFrom(claimedAt) : null },
  }));
}

/** One distributor's complaint rows, a page at a time (newest first unless another order is chosen); `undecided`: open claims only. */
export async function complaintRows(distributorId: number, period: Period, page = 1, sort: Sort<ComplaintColumn> = COMPLAINT_DEFAULT_SORT, undecided = false) {
  const offset = (Math.max(1, page) - 1) * COMPLAINT_PAGE_SIZE;
  const rows = await complaintSlice([distributorId], period, sort, COMPLAINT_PAGE_SIZE + 1, offset, undecided);
  return { rows: rows.slice(0, COMPLAINT_PAGE_SIZE), hasMore: rows.length > COMPLAINT_PAGE_SIZE };
}

/** Every complaint row of the distributors (null: all) in the period, in the order, a page at a time for the export. */
export async function* allComplaintRows(distributorIds: number[] | null, period: Period, sort: Sort<ComplaintColumn>, pageSize = 5000, undecided = false): AsyncGenerator<ComplaintRow> {
  for (let offset = 0; ; offset += pageSize) {
    const rows = await complaintSlice(distributorIds, period, sort, pageSize, offset, undecided);
    yield* rows;
    if (rows.length < pageSize) return;
  }
}

/** The list's view in the URL, read the same by the screen and its export. */
const COMPLAINT_SEARCH = {
  period: param.period(),
  utb: param.ref(),
  sida: param.page(),
  sort: param.sort(COMPLAINT_COLUMNS, COMPLAINT_DEFAULT_SORT),
  totalsSort: param.sort(COMPLAINT_TOTAL_COLUMNS, COMPLAINT_TOTAL_DEFAULT_SORT, COMPLAINT_TOTAL_SORT_PARAMS),
  /** `?visa=ej-beslutade`: only claims waiting for a decision. */
  visa: param.maybeOneOf([UNDECIDED] as const),
};

/**
 * The period (`fran`, `till`; the last seven days when neither is given), a distributor
 * (`utb`, a utb user's own when none), the page and the orders. `unknown`: `utb` is no
 * distributor id; `forbidden`: it names a distributor outside the staff user's scope.
 */
export function readComplaintView(from: Request | URLSearchParams, scope: DistributorScope, today: string) {
  const search = readSearch(from, COMPLAINT_SEARCH);
  const own = scope.distributorIds?.length === 1 ? scope.distributorIds[0] : null;
  const asked = search.utb ?? null;
  return {
    ...checkedPeriod(search.period, preset("senaste7", today)),
    distributorId: asked ?? own,
    unknown: search.utb === null,
    forbidden: asked !== null && scope.distributorIds !== null && !scope.distributorIds.includes(asked),
    page: search.sida,
    sort: search.sort,
    totalsSort: search.totalsSort,
    undecided: search.visa === UNDECIDED,
  };
}
