// Svar per helgdag: for one holiday, who answered Öppet, who Stängt and who has
// not answered yet — the reason the holiday rule exists — with counts per distributor,
// filtered by answer and distributor, and the same rows for Excel. Active customers only
// (a deactivated one is not asked). A utb user sees their distributor's customers.
import { and, asc, eq, isNull, sql, type SQL } from "drizzle-orm";
import { getDb, schema } from "~/db.server";

export type HolidayAnswerFilter = "alla" | "oppet" | "stangt" | "ej-svarat";
export type HolidayReportScope = { distributorIds: number[] | null };

export type HolidayReportRow = { customerId: number; name: string; city: string; distributorId: number; distributor: string; answer: "Öppet" | "Stängt" | "Ej svarat"; answeredAt: number | null };

export async function getHolidayForReport(holidayId: number) {
  const h = schema.holidays;
  const [row] = await getDb().select({ id: h.id, description: h.description, day: h.day, completed: h.completed }).from(h).where(and(eq(h.id, holidayId), eq(h.deleted, false)));
  return row ?? null;
}

function conditions(scope: HolidayReportScope, distributorId: number | null, answer: HolidayAnswerFilter): SQL | undefined {
  const c = schema.customers;
  const r = schema.holidayReports;
  const parts: (SQL | undefined)[] = [isNull(c.deactivatedAt)];
  if (scope.distributorIds) parts.push(sql`${c.distributorId} in (select value from json_each(${JSON.stringify(scope.distributorIds)}))`);
  if (distributorId) parts.push(eq(c.distributorId, distributorId));
  if (answer === "oppet") parts.push(eq(r.open, true));
  if (answer === "stangt") parts.push(eq(r.open, false));
  if (answer === "ej-svarat") parts.push(isNull(r.holidayId));
  return and(...parts);
}

/** Counts per distributor (Öppet, Stängt, Ej svarat), one query. */
export async function holidayCounts(holidayId: number, scope: HolidayReportScope) {
  const c = schema.customers;
  const r = schema.holidayReports;
  const d = schema.distributors;
  const rows = await getDb()
    .select({
      distributorId: d.id,
      distributor: d.name,
      open: sql<number>`sum(case when ${r.open} = 1 then 1 else 0 end)`,
      closed: sql<number>`sum(case when ${r.open} = 0 then 1 else 0 end)`,
      unanswered: sql<number>`sum(case when ${r.holidayId} is null then 1 else 0 end)`,
    })
    .from(c)
    .innerJoin(d, eq(d.id, c.distributorId))
    .leftJoin(r, and(eq(r.customerId, c.id), eq(r.holidayId, holidayId)))
    .where(conditions(scope, null, "alla"))
    .groupBy(d.id, d.name)
    .orderBy(asc(d.name));
  return rows.map((x) => ({ ...x, open: Number(x.open), closed: Number(x.closed), unanswered: Number(x.unanswered) }));
}

/** The customers with their answer, filtered; `limit` null for every row (the export). */
export async function holidayAnswerRows(holidayId: number, scope: HolidayReportScope, filter: { distributorId: number | null; answer: HolidayAnswerFilter }, limit: number | null = 500): Promise<HolidayReportRow[]> {
  const c = schema.customers;
  const r = schema.holidayReports;
  const d = schema.distributors;
  const query = getDb()
    .select({ customerId: c.id, name: c.name, city: c.city, distributorId: d.id, distributor: d.name, open: r.open, answeredAt: r.updatedAt })
    .from(c)
    .innerJoin(d, eq(d.id, c.distributorId))
    .leftJoin(r, and(eq(r.customerId, c.id), eq(r.holidayId, holidayId)))
    .where(conditions(scope, filter.distributorId, filter.answer))
    .orderBy(asc(d.name), asc(c.id));
  const rows = limit === null ? await query : await query.limit(limit);
  return rows.map(({ open, answeredAt, ...x }) => ({ ...x, answer: open === null ? "Ej svarat" : open ? "Öppet" : "Stängt", answeredAt: open === null ? null : answeredAt }));
}
