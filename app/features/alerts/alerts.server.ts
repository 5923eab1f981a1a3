// Alerts (spec 4, docs/architecture.md "Alerts"): computed per customer from rules on every retailer
// page, in one query. Imperative alerts lock the menu, and the server sends the
// retailer to what must be done.
import { sql } from "drizzle-orm";
import { preparedQuery, schema } from "~/db.server";
import { addDays, today as todayDate } from "~/lib/dates";
import { openingHoursDueSql } from "~/features/opening-hours/opening-hours.server";
import { deadlineSqlOf, MAX_RETURN_DAYS } from "~/features/returns/deadlines.server";
import { openRecallsSql } from "~/features/recalls/recalls.server";

export type AlertType = "ATERKALLELSE" | "HELGDAGAR" | "OPPETTIDER" | "BESTALLBUNT" | "BUNDLES" | "LOP" | "RETURDAG";

export type Alert = {
  /** One of AlertType, or another type whose name is its text (spec 4). */
  type: AlertType | (string & {});
  text: string;
  imperative: boolean;
  /** Where the alert's button leads. */
  to: string;
  action: string;
};

/** Fewer unused labels than this (over the customer's normal blocks) asks for a new block. */
export const MIN_UNUSED_LABELS = 10;

/** A placard amount left unset this many days after staff added the title locks (LOP). */
export const LOP_FORCE_AFTER_DAYS = 14;

const ALERTS: Record<AlertType, Omit<Alert, "imperative">> = {
  // A recall to acknowledge (decision 036): first, and always imperative.
  ATERKALLELSE: { type: "ATERKALLELSE", text: "Bekräfta återkallelse", to: "/aterkallelser", action: "Gå till återkallelser" },
  HELGDAGAR: { type: "HELGDAGAR", text: "Rapportera helgdagar", to: "/helgsparr", action: "Gå till helgspärr" },
  OPPETTIDER: { type: "OPPETTIDER", text: "Rapportera öppettider", to: "/oppettider", action: "Gå till öppettider" },
  BESTALLBUNT: { type: "BESTALLBUNT", text: "Beställ returetiketter", to: "/order", action: "Gå till beställning" },
  BUNDLES: { type: "BUNDLES", text: "Stäng buntar", to: "/", action: "Gå till öppna buntar" },
  LOP: { type: "LOP", text: "Antal löpsedlar", to: "/lopsedlar", action: "Gå till löpsedlar" },
  // Papers whose last return day is today or tomorrow are not reported.
  RETURDAG: { type: "RETURDAG", text: "Rapportera returer före sista returdag", to: "/rapportering/1", action: "Gå till returrapportering" },
};

export type AlertFacts = {
  /** Open recalls reaching the customer that it has not acknowledged. */
  recallsOpen: number;
  holidaysDue: number;
  holidaysForced: number;
  unusedLabels: number;
  bundleTypesOverOpen: number;
  placardsUnset: number;
  /** Unset placard amounts older than LOP_FORCE_AFTER_DAYS. */
  placardsOverdue: number;
  openingHoursDue: number;
  openingHoursForced: number;
  /** Unreported papers whose last return day is today or tomorrow. */
  returnsDue: number;
  /** The customer's distributor makes RETURDAG imperative (deadline_lock). */
  returnsDueLock: boolean;
};

/** An alert's text (spec 4): the known types' texts; any other type shows its name. */
export function alertText(type: string): string {
  return type in ALERTS ? ALERTS[type as AlertType].text : type;
}

/** The rules, apart from the database (unit-tested directly). */
export function alertsFrom(f: AlertFacts): Alert[] {
  const out: Alert[] = [];
  if (f.recallsOpen > 0) out.push({ ...ALERTS.ATERKALLELSE, imperative: true });
  if (f.holidaysDue > 0) out.push({ ...ALERTS.HELGDAGAR, imperative: f.holidaysForced > 0 });
  if (f.openingHoursDue > 0) out.push({ ...ALERTS.OPPETTIDER, imperative: f.openingHoursForced > 0 });
  if (f.bundleTypesOverOpen > 0) out.push({ ...ALERTS.BUNDLES, imperative: true });
  if (f.unusedLabels < MIN_UNUSED_LABELS) out.push({ ...ALERTS.BESTALLBUNT, imperative: false });
  if (f.placardsUnset > 0) out.push({ ...ALERTS.LOP, imperative: f.placardsOverdue > 0 });
  if (f.returnsDue > 0) out.push({ ...ALERTS.RETURDAG, imperative: f.returnsDueLock });
  return out;
}

/** Reads the facts behind the alerts in one round trip; every part is served by an index. */
const alertFactsOf = preparedQuery((db) => {
  const h = schema.holidays;
  const hr = schema.holidayReports;
  const lb = schema.labelBlocks;
  const b = schema.bundles;
  const p = schema.placards;
  const customerId = sql.placeholder("customerId");
  const today = sql.placeholder("today");
  const overdueBefore = sql.placeholder("overdueBefore");
  const windowStart = sql.placeholder("windowStart");
  const tomorrow = sql.placeholder("tomorrow");
  const unanswered = sql`${h.deleted} = 0 and ${h.completed} = 0 and ${h.day} >= ${today} and ${h.startReportDay} <= ${today}
    and not exists (select 1 from ${hr} where ${hr.customerId} = ${customerId} and ${hr.holidayId} = ${h.id})`;
  return db
    .select({
      recallsOpen: sql<number>`${openRecallsSql(customerId)}`.mapWith(Number),
      holidaysDue: sql<number>`(select count(*) from ${h} where ${unanswered})`.mapWith(Number),
      holidaysForced: sql<number>`(select count(*) from ${h} where ${unanswered} and ${h.startForceReportDay} <= ${today})`.mapWith(Number),
      unusedLabels: sql<number>`(select coalesce(sum(${lb.numberUnused}), 0) from ${lb} where ${lb.customerId} = ${customerId} and ${lb.type} = 0)`.mapWith(Number),
      bundleTypesOverOpen: sql<number>`(select count(*) from (select ${b.type} from ${b} where ${b.customerId} = ${customerId} and ${b.open} = 1
         group by ${b.type} having count(*) > 1))`.mapWith(Number),
      placardsUnset: sql<number>`(select count(*) from ${p} where ${p.customerId} = ${customerId} and ${p.newAmount} is null)`.mapWith(Number),
      placardsOverdue: sql<number>`(select count(*) from ${p} where ${p.customerId} = ${customerId} and ${p.newAmount} is null
         and ${p.createdAt} < ${overdueBefore})`.mapWith(Number),
      openingHoursDue: sql<number>`${openingHoursDueSql(customerId, today, false)}`.mapWith(Number),
      openingHoursForced: sql<number>`${openingHoursDueSql(customerId, today, true)}`.mapWith(Number),
      // Raw aliases: in a select list drizzle writes bare column names, ambiguous in a join.
      returnsDue: sql<number>`(select count(*) from deliveries d join editions e on e.title_id = d.title_id and e.edition_id = d.edition_id
         where d.customer_id = ${customerId} and d.delivery_date between ${windowStart} and ${today} and d.reported_at is null
         and ${deadlineSqlOf({ deliveryDate: sql`d.delivery_date`, returnDays: sql`e.return_days`, type: sql`e.type` })} between ${today} and ${tomorrow})`.mapWith(Number),
      returnsDueLock: sql<boolean>`(select dist.deadline_lock from customers c join distributors dist on dist.id = c.distributor_id where c.id = ${customerId})`.mapWith(
        (v) => Number(v) === 1,
      ),
    })
    .from(sql`(select 1)`)
    .prepare();
});

export async function alertFacts(customerId: number, today = todayDate()): Promise<AlertFacts> {
  // Placards added before the start of the day LOP_FORCE_AFTER_DAYS ago (Swedish time).
  const overdueBefore = Date.parse(`${addDays(today, -LOP_FORCE_AFTER_DAYS)}T00:00:00Z`);
  const row = await alertFactsOf().get({ customerId, today, overdueBefore, windowStart: addDays(today, -MAX_RETURN_DAYS), tomorrow: addDays(today, 1) });
  if (!row) throw new Error("alert facts: no row");
  return row;
}

export async function listAlerts(customerId: number, today = todayDate()): Promise<Alert[]> {
  return alertsFrom(await alertFacts(customerId, today));
}

// What stays reachable while an imperative alert is pending: the place where it is
// resolved, the contact page, and for open bundles the return flow's confirm step,
// where bundles are closed.
const ALWAYS_ALLOWED = [/^\/kontakt\/?$/];
const ALLOWED: Partial<Record<AlertType, RegExp[]>> = {
  ATERKALLELSE: [/^\/aterkallelser\/?$/],
  HELGDAGAR: [/^\/helgsparr\/?$/],
  OPPETTIDER: [/^\/oppettider\/?$/],
  LOP: [/^\/lopsedlar\/?$/],
  BUNDLES: [/^\/$/, /^\/rapportering\/[12]\/bekrafta\/?$/],
  RETURDAG: [/^\/rapportering\/[12](\/bekrafta)?\/?$/],
};

/**
 * Where a locked retailer must go instead of `pathname`, or null when the page may
 * be shown (no imperative alert, or the page is where it is resolved).
 */
export function lockRedirect(alerts: Alert[], pathname: string): string | null {
  const imperative = alerts.filter((a) => a.imperative);
  if (imperative.length === 0) return null;
  const allowed = [...ALWAYS_ALLOWED, ...imperative.flatMap((a) => ALLOWED[a.type as AlertType] ?? [])];
  if (allowed.some((re) => re.test(pathname))) return null;
  return imperative[0].to;
}

/** What a retailer sent away from a locked page reads (the redirect never happens silently). */
export function lockedMessage(alerts: Alert[]): string {
  return `Sidan är låst tills detta är gjort: ${alerts
    .filter((a) => a.imperative)
    .map((a) => a.text)
    .join(", ")}.`;
}

/** Session data key set when the retailer has closed the alerts dialog. */
export const ALERTS_SHOWN_KEY = "alertsShown";
