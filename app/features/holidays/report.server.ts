// Svar per helgdag: for one holiday, who answered Öppet, who Stängt and who has
// not answered yet — the reason the holiday rule exists — with counts per distributor,
// filtered by answer and distributor, and the same rows for Excel. Active customers only
// (a deactivated one is not asked). A utb user sees their distributor's customers.
import { and, asc, eq, isNull, sql, type SQL } from "drizzle-orm";
import { getDb, schema } from "~/db.server";
import { pageCount } from "~/lib/paging";
import { svCollator, textMatcher } from "~/lib/search-text";
import type { Sort } from "~/lib/sort";
import { param, readSearch } from "~/lib/search-params";

export type HolidayAnswerFilter = "alla" | "oppet" | "stangt" | "ej-svarat";
export type HolidayReportScope = { distributorIds: number[] | null };

export type HolidayReportRow = { customerId: number; name: string; city: string; distributorId: number; distributor: string; answer: "Öppet" | "Stängt" | "Ej svarat"; answeredAt: number | null };

/** A holiday whose answers staff read: listed, completed or deleted (a deleted holiday keeps its answers). */
export async function getHolidayForReport(holidayId: number) {
  const h = schema.holidays;
  const [row] = await getDb().select({ id: h.id, description: h.description, day: h.day, completed: h.completed, deleted: h.deleted }).from(h).where(eq(h.id, holidayId));
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

/** The customers with their answer, filtered by answer and distributor. */
async function holidayAnswerRows(holidayId: number, scope: HolidayReportScope, filter: { distributorId: number | null; answer: HolidayAnswerFilter }): Promise<HolidayReportRow[]> {
  const c = schema.customers;
  const r = schema.holidayReports;
  const d = schema.distributors;
  const rows = await getDb()
    .select({ customerId: c.id, name: c.name, city: c.city, distributorId: d.id, distributor: d.name, open: r.open, answeredAt: r.updatedAt })
    .from(c)
    .innerJoin(d, eq(d.id, c.distributorId))
    .leftJoin(r, and(eq(r.customerId, c.id), eq(r.holidayId, holidayId)))
    .where(conditions(scope, filter.distributorId, filter.answer))
    .orderBy(asc(d.name), asc(c.id));
  return rows.map(({ open, answeredAt, ...x }) => ({ ...x, answer: open === null ? "Ej svarat" : open ? "Öppet" : "Stängt", answeredAt: open === null ? null : answeredAt }));
}

export const ANSWER_COLUMNS = ["kundnr", "namn", "ort", "utb", "svar", "svarat"] as const;
export type AnswerColumn = (typeof ANSWER_COLUMNS)[number];
export const ANSWERS_PER_PAGE = 100;

/** The list's view in the URL: the answer and distributor filters, a search (`?sok=`), an order and a page. */
export type HolidayAnswerView = {
  answer: HolidayAnswerFilter;
  distributorId: number | null;
  search: string;
  sort: Sort<AnswerColumn>;
};

/** The list's view and page in the URL, read the same by the screen and its export. */
const HOLIDAY_ANSWER_SEARCH = {
  svar: param.oneOf(["alla", "oppet", "stangt", "ej-svarat"], "alla"),
  utb: param.id(),
  sok: param.text(100),
  // Without a chosen order: by distributor, then customer number, as the counts above.
  sort: param.sort(ANSWER_COLUMNS, { column: "utb", descending: false }),
  sida: param.page(),
};

export function readHolidayAnswerView(from: Request | URLSearchParams): HolidayAnswerView & { page: number } {
  const { svar, utb, sok, sort, sida } = readSearch(from, HOLIDAY_ANSWER_SEARCH);
  return { answer: svar, distributorId: utb, search: sok, sort, page: sida };
}

const compareBy: Record<AnswerColumn, (a: HolidayReportRow, b: HolidayReportRow) => number> = {
  kundnr: (a, b) => a.customerId - b.customerId,
  namn: (a, b) => svCollator.compare(a.name, b.name),
  ort: (a, b) => svCollator.compare(a.city, b.city),
  utb: (a, b) => svCollator.compare(a.distributor, b.distributor),
  svar: (a, b) => svCollator.compare(a.answer, b.answer),
  // Unanswered last in either order's first page: null is older than any answer.
  svarat: (a, b) => (a.answeredAt ?? 0) - (b.answeredAt ?? 0),
};

/**
 * Every customer of the view with its answer, searched (number, name or city;
 * case and accents ignored, so "sahin" finds "Şahin Livs") and sorted (ties by number).
 * The whole country is a few thousand active customers, matched in memory as other
 * searched lists are; the screen shows a page of them, the export all.
 */
export async function holidayAnswerList(holidayId: number, scope: HolidayReportScope, view: HolidayAnswerView): Promise<HolidayReportRow[]> {
  const rows = await holidayAnswerRows(holidayId, scope, view);
  const matches = textMatcher(view.search);
  const byColumn = compareBy[view.sort.column];
  const sign = view.sort.descending ? -1 : 1;
  return rows.filter((r) => matches(r.customerId, r.name, r.city)).sort((a, b) => sign * byColumn(a, b) || a.customerId - b.customerId);
}

/** One page of `holidayAnswerList`, with the count of matching customers. */
export async function holidayAnswerPage(holidayId: number, scope: HolidayReportScope, view: HolidayAnswerView, page: number) {
  const all = await holidayAnswerList(holidayId, scope, view);
  const pages = pageCount(all.length, ANSWERS_PER_PAGE);
  const shown = Math.min(page, pages);
  return { rows: all.slice((shown - 1) * ANSWERS_PER_PAGE, shown * ANSWERS_PER_PAGE), matching: all.length, page: shown, pages };
}
