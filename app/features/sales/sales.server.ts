// Försäljning: per title and ISO week, what the retailer got delivered,
// returned and so sold, for the last 13 weeks — one grouped query over the customer's
// deliveries (index deliveries_customer_date) with each delivery's returns summed by the
// returns_delivery index. The retailer's own data only: the customer comes from the session.
import { sql } from "drizzle-orm";
import { preparedQuery, schema } from "~/db.server";
import { addDays, isoWeek, isoWeekday, today as todayDate } from "~/lib/dates";
import { HIGH_RETURN_RATE, HINT_WEEKS, LOW_RETURN_RATE, SALES_WEEKS } from "./words";

export type SalesWeek = { monday: string; week: number; year: number; delivered: number; returned: number; sold: number };
export type TitleSales = { titleId: number; title: string; weeks: SalesWeek[]; delivered: number; returned: number; hint: "decrease" | "increase" | null };

/** The same aggregate for one customer or for every customer of one distributor (staff). */
function salesQuery(of: "customer" | "distributor") {
  return preparedQuery((db) => {
    const d = schema.deliveries;
    const r = schema.returns;
    const t = schema.titles;
    const c = schema.customers;
    // The Monday of the delivery's week (SQLite's %w: 0 Sunday … 6 Saturday).
    const monday = sql<string>`date(${d.deliveryDate}, '-' || ((cast(strftime('%w', ${d.deliveryDate}) as integer) + 6) % 7) || ' days')`;
    const who =
      of === "customer"
        ? sql`${d.customerId} = ${sql.placeholder("id")}`
        : sql`${d.customerId} in (select ${c.id} from ${c} where ${c.distributorId} = ${sql.placeholder("id")})`;
    return db
      .select({
        titleId: d.titleId,
        title: sql<string>`coalesce(${t.name}, 'Titel ' || ${d.titleId})`,
        monday,
        delivered: sql<number>`sum(${d.delivered})`.mapWith(Number),
        returned: sql<number>`sum((select coalesce(sum(${r.amount}), 0) from ${r} where ${r.deliveryId} = ${d.id}))`.mapWith(Number),
      })
      .from(d)
      .leftJoin(t, sql`${t.id} = ${d.titleId}`)
      .where(sql`${who} and ${d.deliveryDate} between ${sql.placeholder("from")} and ${sql.placeholder("to")}`)
      .groupBy(d.titleId, monday)
      .prepare();
  });
}
const salesOf = { customer: salesQuery("customer"), distributor: salesQuery("distributor") };

/** The hint for a title: only when its last HINT_WEEKS weeks all had deliveries and all agree. */
export function salesHint(weeks: SalesWeek[]): TitleSales["hint"] {
  const recent = weeks.filter((w) => w.delivered > 0).slice(-HINT_WEEKS);
  if (recent.length < HINT_WEEKS) return null;
  if (recent.every((w) => w.returned / w.delivered >= HIGH_RETURN_RATE)) return "decrease";
  if (recent.every((w) => w.returned / w.delivered <= LOW_RETURN_RATE)) return "increase";
  return null;
}

/** The retailer's own titles (the customer comes from the session). */
export function listSales(customerId: number, today = todayDate()): Promise<TitleSales[]> {
  return salesFor("customer", customerId, today);
}

/** Every customer of a distributor together (staff, distribution monitor; the route checks the scope). */
export function listDistributorSales(distributorId: number, today = todayDate()): Promise<TitleSales[]> {
  return salesFor("distributor", distributorId, today);
}

async function salesFor(of: "customer" | "distributor", id: number, today: string): Promise<TitleSales[]> {
  const thisMonday = addDays(today, 1 - isoWeekday(today));
  const firstMonday = addDays(thisMonday, -7 * (SALES_WEEKS - 1));
  const rows = await salesOf[of]().all({ id, from: firstMonday, to: today });
  const mondays = Array.from({ length: SALES_WEEKS }, (_, i) => addDays(firstMonday, 7 * i));
  const byTitle = new Map<number, { title: string; rows: Map<string, { delivered: number; returned: number }> }>();
  for (const row of rows) {
    const entry = byTitle.get(row.titleId) ?? { title: row.title, rows: new Map() };
    entry.rows.set(row.monday, { delivered: row.delivered, returned: row.returned });
    byTitle.set(row.titleId, entry);
  }
  return [...byTitle.entries()]
    .sort(([a], [b]) => a - b)
    .map(([titleId, { title, rows: weekRows }]) => {
      const weeks = mondays.map((monday) => {
        const w = weekRows.get(monday) ?? { delivered: 0, returned: 0 };
        const { year, week } = isoWeek(monday);
        return { monday, week, year, delivered: w.delivered, returned: w.returned, sold: Math.max(w.delivered - w.returned, 0) };
      });
      // The week in progress is not yet reported: the hint reads the finished weeks.
      const finished = weeks.slice(0, -1);
      return {
        titleId,
        title,
        weeks,
        delivered: weeks.reduce((s, w) => s + w.delivered, 0),
        returned: weeks.reduce((s, w) => s + w.returned, 0),
        hint: salesHint(finished),
      };
    });
}
