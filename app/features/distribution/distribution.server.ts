// Distribution monitoring: how the retailers of each distributor report what they
// received (leveransreklamation), aggregated in SQL with a bounded number of queries.
//
// Decision: a "reporting customer" is a customer with at least one delivery in the
// range (after the filters) whose received amount has been reported (received is
// not null). Its amount is the sum over those rows of |delivered − received|, its
// price the sum of |delivered − received| × unit price (öre). Only reported rows
// count and only they are listed as the customer's papers and exported.
import { sql, type SQL } from "drizzle-orm";
import { getDb } from "~/db.server";
import { addDays, today as todayIn } from "~/lib/dates";
import type { Period } from "~/lib/period";
import { deadlineSqlOf } from "~/features/returns/deadlines.server";

export type EditionKey = { titleId: number; editionId: number };

export type DistributionQuery = Period & {
  excludeDates: string[];
  /** Empty: every distributor of the scope. */
  distributorIds: number[];
  /** Empty: every edition. */
  editions: EditionKey[];
};

/** What the staff user may see: null = every distributor, else only these. */
export type DistributorScope = { distributorIds: number[] | null };

export type DistributionCustomer = {
  id: number;
  name: string;
  zip: string;
  city: string;
  distributorId: number;
  /** Days of the last 30 with a reported received amount. */
  frequency: number;
  amount: number;
  priceOre: number;
  anyZero: boolean;
};

export type DistributorEntry = {
  id: number;
  name: string;
  customerCount: number;
  reporting: number;
  amount: number;
  priceOre: number;
  customers: DistributionCustomer[];
};

export type DailyShare = { date: string; reporting: number; customerCount: number };

export type PaperRow = {
  id: number;
  titleId: number;
  editionId: number;
  name: string;
  deliveryDate: string;
  delivered: number;
  received: number;
  priceOre: number;
  amount: number;
  sumOre: number;
};

const list = (values: readonly (string | number)[]) => sql.join(values.map((v) => sql`${v}`), sql`, `);

/** The distributors a query covers: the requested ones within the scope. */
export function effectiveDistributors(query: Pick<DistributionQuery, "distributorIds">, scope: DistributorScope): number[] | null {
  if (scope.distributorIds === null) return query.distributorIds.length ? query.distributorIds : null;
  if (!query.distributorIds.length) return scope.distributorIds;
  return query.distributorIds.filter((id) => scope.distributorIds!.includes(id));
}

/** True when the query names a distributor outside the scope (the route answers 403). */
export function outsideScope(distributorIds: number[], scope: DistributorScope): boolean {
  return scope.distributorIds !== null && distributorIds.some((id) => !scope.distributorIds!.includes(id));
}

/** The row filters of the query on `deliveries d` (range, excluded dates, editions). */
function rowFilter(q: DistributionQuery, lowerBound = true): SQL {
  const parts: SQL[] = [lowerBound ? sql`d.delivery_date between ${q.from} and ${q.to}` : sql`d.delivery_date <= ${q.to}`];
  if (q.excludeDates.length) parts.push(sql`d.delivery_date not in (${list(q.excludeDates)})`);
  if (q.editions.length) parts.push(sql`(d.title_id * 1000 + d.edition_id) in (${list(q.editions.map((e) => e.titleId * 1000 + e.editionId))})`);
  return sql.join(parts, sql` and `);
}

function customerFilter(distributorIds: number[] | null): SQL {
  return distributorIds === null
    ? sql``
    : sql` and d.customer_id in (select id from customers where distributor_id in (${list(distributorIds.length ? distributorIds : [-1])}))`;
}

export async function listDistributors(scope: DistributorScope) {
  const where = scope.distributorIds === null ? sql`` : sql`where id in (${list(scope.distributorIds.length ? scope.distributorIds : [-1])})`;
  return getDb().all<{ id: number; name: string }>(sql`select id, name from distributors ${where} order by name, id`);
}

export async function listEditions() {
  return getDb().all<{ titleId: number; editionId: number; description: string; code: string }>(
    sql`select title_id as titleId, edition_id as editionId, description, code from editions order by title_id, edition_id`,
  );
}

/**
 * The grouped list — per distributor its reporting customers, their amount and price —
 * and the daily share of reporting customers, from one scan of the reported rows:
 * the GROUP BY customer also counts the frequency of the last 30 days and lists the
 * customer's reporting dates of the range, from which the daily share is counted.
 * Two queries whatever the size: distributors with customer counts, and the aggregate
 * joined to the customers' names, returned as one JSON array.
 */
export async function getDistributionOverview(
  query: DistributionQuery,
  scope: DistributorScope,
  today = todayIn(),
): Promise<{ entries: DistributorEntry[]; daily: DailyShare[] }> {
  const db = getDb();
  const ids = effectiveDistributors(query, scope);
  const distWhere = ids === null ? sql`` : sql`where dist.id in (${list(ids.length ? ids : [-1])})`;
  const distributors = await db.all<{ id: number; name: string; customerCount: number }>(sql`
    select dist.id as id, dist.name as name,
      (select count(*) from customers c where c.distributor_id = dist.id and c.deactivated_at is null) as customerCount
    from distributors dist ${distWhere}
    order by dist.name, dist.id`);

  const f30 = addDays(today, -29);
  const scanFrom = query.from < f30 ? query.from : f30;
  const scanTo = query.to > today ? query.to : today;
  const inRange = rowFilter(query);
  // The list comes back as one JSON value: 6,500 customers then cross the driver as one
  // cell instead of 65,000 row properties, which had been half the time of this screen (B3).
  const [{ listed }] = await db.all<{ listed: string }>(sql`
    select json_group_array(json_array(c.id, c.name, c.zip, c.city, c.distributor_id,
        a.frequency, a.amount, a.price_ore, a.any_zero, a.dates) order by c.distributor_id, c.id) as listed
    from (
      select d.customer_id as customer_id,
        group_concat(distinct case when ${inRange} then d.delivery_date end) as dates,
        sum(case when ${inRange} then abs(d.delivered - d.received) else 0 end) as amount,
        sum(case when ${inRange} then abs(d.delivered - d.received) * d.price_ore else 0 end) as price_ore,
        max(case when ${inRange} and d.received = 0 then 1 else 0 end) as any_zero,
        count(distinct case when d.delivery_date between ${f30} and ${today} then d.delivery_date end) as frequency
      from deliveries d
      where d.received is not null and d.delivery_date between ${scanFrom} and ${scanTo}${customerFilter(ids)}
      group by d.customer_id
    ) a
    join customers c on c.id = a.customer_id and c.deactivated_at is null
    where a.dates is not null`);
  type Listed = [id: number, name: string, zip: string, city: string, distributorId: number, frequency: number, amount: number, priceOre: number, anyZero: number, dates: string];

  const byDistributor = new Map<number, DistributorEntry>();
  const entries = distributors.map((d) => {
    const entry: DistributorEntry = { ...d, reporting: 0, amount: 0, priceOre: 0, customers: [] };
    byDistributor.set(d.id, entry);
    return entry;
  });
  const perDate = new Map<string, number>();
  for (const [id, name, zip, city, distributorId, frequency, amount, priceOre, anyZero, dates] of JSON.parse(listed) as Listed[]) {
    const entry = byDistributor.get(distributorId);
    if (!entry) continue;
    entry.customers.push({ id, name, zip, city, distributorId, frequency, amount, priceOre, anyZero: anyZero === 1 });
    entry.reporting++;
    entry.amount += amount;
    entry.priceOre += priceOre;
    for (const date of dates.split(",")) perDate.set(date, (perDate.get(date) ?? 0) + 1);
  }
  const customerCount = distributors.reduce((sum, d) => sum + d.customerCount, 0);
  const daily: DailyShare[] = [];
  for (let date = query.from; date <= query.to; date = addDays(date, 1)) {
    if (query.excludeDates.includes(date)) continue;
    daily.push({ date, reporting: perDate.get(date) ?? 0, customerCount });
  }
  return { entries, daily };
}

export async function getDistribution(query: DistributionQuery, scope: DistributorScope, today = todayIn()): Promise<DistributorEntry[]> {
  return (await getDistributionOverview(query, scope, today)).entries;
}

/** Per date of the range: how many customers reported, out of the distributors' customers. */
export async function getDailyShare(query: DistributionQuery, scope: DistributorScope, today = todayIn()): Promise<DailyShare[]> {
  return (await getDistributionOverview(query, scope, today)).daily;
}

/**
 * One customer's reported papers in the range, or null when the customer does not
 * exist or lies outside the staff user's scope.
 */
export async function getCustomerPapers(customerId: number, query: DistributionQuery, scope: DistributorScope): Promise<PaperRow[] | null> {
  const db = getDb();
  const [customer] = await db.all<{ distributorId: number }>(sql`select distributor_id as distributorId from customers where id = ${customerId}`);
  if (!customer) return null;
  if (scope.distributorIds !== null && !scope.distributorIds.includes(customer.distributorId)) return null;
  return db.all<PaperRow>(sql`
    select d.id as id, d.title_id as titleId, d.edition_id as editionId,
      coalesce(e.description, t.name, '') as name, d.delivery_date as deliveryDate,
      d.delivered as delivered, d.received as received, d.price_ore as priceOre,
      abs(d.delivered - d.received) as amount, abs(d.delivered - d.received) * d.price_ore as sumOre
    from deliveries d
    left join editions e on e.title_id = d.title_id and e.edition_id = d.edition_id
    left join titles t on t.id = d.title_id
    where d.customer_id = ${customerId} and d.received is not null and ${rowFilter(query)}
    order by d.delivery_date, d.title_id, d.edition_id`);
}

export type ExportRow = {
  name: string;
  customerId: number;
  zipCode: string;
  city: string;
  paperName: string;
  deliveryDate: string;
  deliveredAmount: number;
  receivedAmount: number;
  amount: number;
  priceOre: number;
  /** The customer's distributor (null for a customer without one). */
  distributorName: string | null;
};

/**
 * The export rows, yielded a page at a time so a national export never sits in
 * memory. Pages follow the partial covering index (date, customer, title, edition)
 * with a keyset, so each page costs only its own rows and nothing is sorted; rows are
 * therefore ordered by delivery date, then customer and paper.
 */
export async function* exportRows(query: DistributionQuery, scope: DistributorScope, pageSize = 5000): AsyncGenerator<ExportRow[]> {
  const db = getDb();
  const ids = effectiveDistributors(query, scope);
  let after: { date: string; customerId: number; titleId: number; editionId: number } | null = null;
  for (;;) {
    // After the first page the row value is the lower bound: SQLite seeks to it in the index.
    const keyset: SQL = after
      ? sql` and (d.delivery_date, d.customer_id, d.title_id, d.edition_id) > (${after.date}, ${after.customerId}, ${after.titleId}, ${after.editionId})`
      : sql``;
    const rows: (ExportRow & { titleId: number; editionId: number })[] = await db.all(sql`
      select c.name as name, c.id as customerId, c.zip as zipCode, c.city as city,
        coalesce(e.description, t.name, '') as paperName, d.delivery_date as deliveryDate,
        d.delivered as deliveredAmount, d.received as receivedAmount,
        abs(d.delivered - d.received) as amount, abs(d.delivered - d.received) * d.price_ore as priceOre,
        d.title_id as titleId, d.edition_id as editionId, dd.name as distributorName
      from deliveries d
      join customers c on c.id = d.customer_id
      left join distributors dd on dd.id = c.distributor_id
      left join editions e on e.title_id = d.title_id and e.edition_id = d.edition_id
      left join titles t on t.id = d.title_id
      where d.received is not null and ${rowFilter(query, after === null)}${customerFilter(ids)}${keyset}
      order by d.delivery_date, d.customer_id, d.title_id, d.edition_id
      limit ${pageSize}`);
    if (rows.length === 0) return;
    const last = rows[rows.length - 1];
    after = { date: last.deliveryDate, customerId: last.customerId, titleId: last.titleId, editionId: last.editionId };
    yield rows.map(({ titleId: _t, editionId: _e, ...row }) => row);
    if (rows.length < pageSize) return;
  }
}

export type DeadlineFigures = { id: number; name: string; missing: number; lateRows: number; lateCopies: number };

/**
 * Per distributor of the query, the papers of the range still unreported
 * after their last return day, and the returns stored late (policy 'accept'). Two
 * grouped queries on partial indexes (deliveries_unreported, returns_late).
 */
export async function getDeadlineFigures(query: DistributionQuery, scope: DistributorScope, today = todayIn()): Promise<DeadlineFigures[]> {
  const db = getDb();
  const ids = effectiveDistributors(query, scope);
  const distWhere = ids === null ? sql`` : sql`where dist.id in (${list(ids.length ? ids : [-1])})`;
  const range = rowFilter(query);
  const [distributors, missing, late] = await Promise.all([
    db.all<{ id: number; name: string }>(sql`select dist.id as id, dist.name as name from distributors dist ${distWhere} order by dist.name, dist.id`),
    db.all<{ id: number; missing: number }>(sql`
      select c.distributor_id as id, count(*) as missing
      from deliveries d cross join editions e cross join customers c
      where e.title_id = d.title_id and e.edition_id = d.edition_id and c.id = d.customer_id and c.deactivated_at is null
        and d.reported_at is null and ${range}${customerFilter(ids)}
        and ${deadlineSqlOf({ deliveryDate: sql`d.delivery_date`, returnDays: sql`e.return_days`, type: sql`e.type` })} < ${today}
      group by c.distributor_id`),
    db.all<{ id: number; lateRows: number; lateCopies: number }>(sql`
      select c.distributor_id as id, count(*) as lateRows, sum(r.amount) as lateCopies
      from returns r cross join deliveries d cross join customers c
      where d.id = r.delivery_id and c.id = d.customer_id and r.late = 1 and ${range}${customerFilter(ids)}
      group by c.distributor_id`),
  ]);
  const m = new Map(missing.map((x) => [x.id, x.missing]));
  const l = new Map(late.map((x) => [x.id, x]));
  return distributors.map((d) => ({ ...d, missing: m.get(d.id) ?? 0, lateRows: l.get(d.id)?.lateRows ?? 0, lateCopies: l.get(d.id)?.lateCopies ?? 0 }));
}
