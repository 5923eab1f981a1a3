// Opening hours (Öppettider): staff ask every retailer to report their hours (a
// request: from a day, imperative from a later day — the OPPETTIDER alert, like
// HELGDAGAR); a retailer answers by saving all seven days, which also counts as a
// confirmation when nothing changed. docs/decisions/015-opening-hours-and-placard-alerts.md
import { and, desc, eq, isNull, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { getDb, schema, writeTransaction } from "~/db.server";
import { audit, type Actor } from "~/features/audit/audit.server";
import { isValidDate, today as todayDate } from "~/lib/dates";
import { countOf } from "~/lib/count";
import type { Question } from "~/lib/question";
import { refuse } from "~/lib/refusal";
import type { DayHours } from "./schemas";
import { NEVER_REPORTED, OPENING_HOURS_MESSAGES, WEEKDAYS } from "./words";
import { portalNow } from "../../../db/clock";

const oh = schema.openingHours;
const rep = schema.openingHoursReports;
const req = schema.openingHoursRequests;

export type OpeningHours = {
  days: DayHours[];
  /** The day last reported, or null when never. */
  reportedDay: string | null;
  /** What a save from this page must find stored (two tabs): the report's version. */
  version: string;
};

export async function getOpeningHours(customerId: number): Promise<OpeningHours> {
  const db = getDb();
  const [rows, [report]] = await Promise.all([
    db.select({ weekday: oh.weekday, opens: oh.opens, closes: oh.closes }).from(oh).where(eq(oh.customerId, customerId)),
    db.select({ reportedDay: rep.reportedDay, updatedAt: rep.updatedAt }).from(rep).where(eq(rep.customerId, customerId)),
  ]);
  const byDay = new Map(rows.map((r) => [r.weekday, r]));
  return {
    days: WEEKDAYS.map((_, i) => ({ weekday: i + 1, opens: byDay.get(i + 1)?.opens ?? null, closes: byDay.get(i + 1)?.closes ?? null })),
    reportedDay: report?.reportedDay ?? null,
    version: report ? String(report.updatedAt) : NEVER_REPORTED,
  };
}

/**
 * Stores all seven days for the session's customer and records the report (today);
 * says whether any hours changed (else the save confirmed them). Refused (409), nothing
 * stored, when the hours were saved elsewhere since `version` was read.
 */
export async function saveOpeningHours(customerId: number, days: DayHours[], version: string, today = todayDate()): Promise<{ changed: boolean }> {
  if (days.length !== WEEKDAYS.length) throw new Error("saveOpeningHours: seven days");
  return writeTransaction(async (tx) => {
    const [report] = await tx.select({ updatedAt: rep.updatedAt }).from(rep).where(eq(rep.customerId, customerId));
    const stored = report ? String(report.updatedAt) : NEVER_REPORTED;
    if (stored !== version) throw refuse.conflict(OPENING_HOURS_MESSAGES.changedByOther);
    const before = await tx.select({ weekday: oh.weekday, opens: oh.opens, closes: oh.closes }).from(oh).where(eq(oh.customerId, customerId));
    const was = new Map(before.map((r) => [r.weekday, r]));
    const changed = days.some((d) => !was.has(d.weekday) || was.get(d.weekday)!.opens !== d.opens || was.get(d.weekday)!.closes !== d.closes);
    // Strictly newer than the version read, even within one millisecond.
    const now = Math.max(portalNow(), (report?.updatedAt ?? 0) + 1);
    for (const d of days) {
      await tx
        .insert(oh)
        .values({ customerId, weekday: d.weekday, opens: d.opens, closes: d.closes, createdAt: now, updatedAt: now })
        .onConflictDoUpdate({ target: [oh.customerId, oh.weekday], set: { opens: d.opens, closes: d.closes, updatedAt: now } });
    }
    await tx
      .insert(rep)
      .values({ customerId, reportedDay: today, createdAt: now, updatedAt: now })
      .onConflictDoUpdate({ target: rep.customerId, set: { reportedDay: today, updatedAt: now } });
    return { changed };
  });
}

// ---- Staff: the request -------------------------------------------------------------

export type OpeningHoursRequest = {
  id: number;
  /** Null: every distributor's customers. */
  distributorId: number | null;
  distributorName: string | null;
  startReportDay: string;
  startForceReportDay: string;
  answered: number;
  customers: number;
};

/** The customers a request asks: the active ones of its distributor, or (null) of every distributor. */
function askedBy(distributorId: SQLWrapper | number | null): SQL {
  const c = schema.customers;
  return sql`${c.deactivatedAt} is null and (${distributorId} is null or ${c.distributorId} = ${distributorId})`;
}

/** The current or closed requests of the same reach as a request for `distributorId`. */
function sameReach(distributorId: number | null): SQL | undefined {
  return distributorId === null ? isNull(req.distributorId) : eq(req.distributorId, distributorId);
}

/** The current requests (not closed), each with how many of its active customers have answered. */
export async function listOpeningHoursRequests(): Promise<OpeningHoursRequest[]> {
  const c = schema.customers;
  const d = schema.distributors;
  const inScope = askedBy(req.distributorId);
  return getDb()
    .select({
      id: req.id,
      distributorId: req.distributorId,
      distributorName: d.name,
      startReportDay: req.startReportDay,
      startForceReportDay: req.startForceReportDay,
      customers: sql<number>`(select count(*) from ${c} where ${inScope})`.mapWith(Number),
      answered: sql<number>`(select count(*) from ${c} join ${rep} on ${rep.customerId} = ${c.id} where ${inScope} and ${rep.reportedDay} >= ${req.startReportDay})`.mapWith(Number),
    })
    .from(req)
    .leftJoin(d, eq(d.id, req.distributorId))
    .where(eq(req.closed, false))
    .orderBy(desc(req.id));
}

type RequestErrors = Partial<Record<"startReportDay" | "startForceReportDay", string>>;

/**
 * A request's two days: real dates, and locking not before reminding. Refused on the fields,
 * all at once; checked before the question and again when the request is stored.
 */
export function checkOpeningHoursRequest(input: { startReportDay: string; startForceReportDay: string }): void {
  const errors: RequestErrors = {};
  for (const k of ["startReportDay", "startForceReportDay"] as const) {
    if (!input[k]) errors[k] = "Obligatorisk.";
    else if (!isValidDate(input[k])) errors[k] = "Ogiltigt datum (ÅÅÅÅ-MM-DD).";
  }
  if (!errors.startReportDay && !errors.startForceReportDay && input.startReportDay > input.startForceReportDay) {
    errors.startForceReportDay = "Lås från får inte vara före Påminn från.";
  }
  const first = Object.values(errors)[0];
  if (first) throw refuse.invalid(first, { fields: errors });
}

/**
 * The question before a request reaches the retailers (decision 029): how many are asked,
 * from when they are reminded and locked, and which current request it replaces. Null
 * when the distributor does not exist.
 */
export async function openingHoursRequestQuestion(input: { distributorId: number | null; startReportDay: string; startForceReportDay: string }): Promise<Question | null> {
  const c = schema.customers;
  const d = schema.distributors;
  let reach = "Alla distributörer";
  if (input.distributorId !== null) {
    const [dist] = await getDb().select({ name: d.name }).from(d).where(eq(d.id, input.distributorId));
    if (!dist) return null;
    reach = dist.name;
  }
  const [[{ n }], [current]] = await Promise.all([
    getDb()
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(c)
      .where(askedBy(input.distributorId)),
    getDb()
      .select({ startReportDay: req.startReportDay, startForceReportDay: req.startForceReportDay })
      .from(req)
      .where(and(eq(req.closed, false), sameReach(input.distributorId)))
      .orderBy(desc(req.id))
      .limit(1),
  ]);
  const customers = countOf(n, "kund", "kunder");
  const replaced = current ? ` Begäran som gäller nu (påminn från ${current.startReportDay}, lås från ${current.startForceReportDay}) ersätts.` : "";
  return {
    title: "Begär öppettider?",
    text: `${reach}: ${customers} ombeds rapportera sina öppettider. De påminns från ${input.startReportDay}, och från ${input.startForceReportDay} är menyn låst för den som inte har svarat.${replaced}`,
  };
}

/** Asks the retailers in reach for their hours; replaces the current request of the same reach. */
export async function requestOpeningHours(
  input: { distributorId: number | null; startReportDay: string; startForceReportDay: string },
  actor: Actor,
): Promise<number> {
  checkOpeningHoursRequest(input);
  return writeTransaction(async (tx) => {
    await tx.update(req).set({ closed: true, updatedAt: portalNow() }).where(and(eq(req.closed, false), sameReach(input.distributorId)));
    const [row] = await tx
      .insert(req)
      .values({ distributorId: input.distributorId, startReportDay: input.startReportDay, startForceReportDay: input.startForceReportDay })
      .returning({ id: req.id });
    await audit({ actor, action: "opening-hours.request", target: `opening-hours-request:${row.id}`, detail: input }, tx);
    return row.id;
  });
}

/** Ends a request: the alert goes away. False when it was already ended (twice, two tabs). */
export async function closeOpeningHoursRequest(id: number, actor: Actor): Promise<boolean> {
  return writeTransaction(async (tx) => {
    const done = await tx
      .update(req)
      .set({ closed: true, updatedAt: portalNow() })
      .where(and(eq(req.id, id), eq(req.closed, false)))
      .returning({ id: req.id });
    if (done.length === 0) return false;
    await audit({ actor, action: "opening-hours.close-request", target: `opening-hours-request:${id}` }, tx);
    return true;
  });
}

/** For the alert rules (alerts.server.ts): the SQL that counts this customer's unanswered requests. */
export function openingHoursDueSql(customerId: unknown, today: unknown, forced: boolean) {
  const c = schema.customers;
  return sql`(select count(*) from ${req} where ${req.closed} = 0 and ${req.startReportDay} <= ${today}
    ${forced ? sql`and ${req.startForceReportDay} <= ${today}` : sql``}
    and (${req.distributorId} is null or ${req.distributorId} = (select ${c.distributorId} from ${c} where ${c.id} = ${customerId}))
    and not exists (select 1 from ${rep} where ${rep.customerId} = ${customerId} and ${rep.reportedDay} >= ${req.startReportDay}))`;
}
