// Alerts (spec 4, DESIGN.md): computed per customer from rules on every retailer
// page, in one query. Imperative alerts lock the menu, and the server sends the
// retailer to what must be done.
import { sql } from "drizzle-orm";
import { preparedQuery, schema } from "~/db.server";
import { today as todayDate } from "~/lib/dates";

export type AlertType = "HELGDAGAR" | "BESTALLBUNT" | "BUNDLES" | "LOP";

export type Alert = {
  type: AlertType;
  text: string;
  imperative: boolean;
  /** Where the alert's button leads. */
  to: string;
  action: string;
};

/** Fewer unused labels than this (over the customer's normal blocks) asks for a new block. */
export const MIN_UNUSED_LABELS = 10;

const ALERTS: Record<AlertType, Omit<Alert, "imperative">> = {
  HELGDAGAR: { type: "HELGDAGAR", text: "Rapportera helgdagar", to: "/helgsparr", action: "Gå till helgspärr" },
  BESTALLBUNT: { type: "BESTALLBUNT", text: "Beställ returetiketter", to: "/order", action: "Gå till beställning" },
  BUNDLES: { type: "BUNDLES", text: "Stäng buntar", to: "/", action: "Gå till öppna buntar" },
  LOP: { type: "LOP", text: "Antal löpsedlar", to: "/lopsedlar", action: "Gå till löpsedlar" },
};

export type AlertFacts = {
  holidaysDue: number;
  holidaysForced: number;
  unusedLabels: number;
  bundleTypesOverOpen: number;
  placardsUnset: number;
};

/** The rules, apart from the database (unit-tested directly). */
export function alertsFrom(f: AlertFacts): Alert[] {
  const out: Alert[] = [];
  if (f.holidaysDue > 0) out.push({ ...ALERTS.HELGDAGAR, imperative: f.holidaysForced > 0 });
  if (f.bundleTypesOverOpen > 0) out.push({ ...ALERTS.BUNDLES, imperative: true });
  if (f.unusedLabels < MIN_UNUSED_LABELS) out.push({ ...ALERTS.BESTALLBUNT, imperative: false });
  if (f.placardsUnset > 0) out.push({ ...ALERTS.LOP, imperative: false });
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
  const unanswered = sql`${h.deleted} = 0 and ${h.completed} = 0 and ${h.day} >= ${today} and ${h.startReportDay} <= ${today}
    and not exists (select 1 from ${hr} where ${hr.customerId} = ${customerId} and ${hr.holidayId} = ${h.id})`;
  return db
    .select({
      holidaysDue: sql<number>`(select count(*) from ${h} where ${unanswered})`.mapWith(Number),
      holidaysForced: sql<number>`(select count(*) from ${h} where ${unanswered} and ${h.startForceReportDay} <= ${today})`.mapWith(Number),
      unusedLabels: sql<number>`(select coalesce(sum(${lb.numberUnused}), 0) from ${lb} where ${lb.customerId} = ${customerId} and ${lb.type} = 0)`.mapWith(Number),
      bundleTypesOverOpen: sql<number>`(select count(*) from (select ${b.type} from ${b} where ${b.customerId} = ${customerId} and ${b.open} = 1
         group by ${b.type} having count(*) > 1))`.mapWith(Number),
      placardsUnset: sql<number>`(select count(*) from ${p} where ${p.customerId} = ${customerId} and ${p.newAmount} is null)`.mapWith(Number),
    })
    .from(sql`(select 1)`)
    .prepare();
});

export async function alertFacts(customerId: number, today = todayDate()): Promise<AlertFacts> {
  const row = await alertFactsOf().get({ customerId, today });
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
  HELGDAGAR: [/^\/helgsparr\/?$/],
  BUNDLES: [/^\/$/, /^\/rapportering\/[12]\/bekrafta\/?$/],
};

/**
 * Where a locked retailer must go instead of `pathname`, or null when the page may
 * be shown (no imperative alert, or the page is where it is resolved).
 */
export function lockRedirect(alerts: Alert[], pathname: string): string | null {
  const imperative = alerts.filter((a) => a.imperative);
  if (imperative.length === 0) return null;
  const allowed = [...ALWAYS_ALLOWED, ...imperative.flatMap((a) => ALLOWED[a.type] ?? [])];
  if (allowed.some((re) => re.test(pathname))) return null;
  return imperative[0].to;
}

/** Session data key set when the retailer has closed the alerts dialog. */
export const ALERTS_SHOWN_KEY = "alertsShown";
