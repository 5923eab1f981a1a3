// History (spec 2.13, 5): what the customer reported in a date range.
import { and, asc, between, desc, eq, isNotNull, or } from "drizzle-orm";
import { getDb, schema } from "~/db.server";
import { deadlineSql } from "./deadlines.server";
import { addMonths, isValidDate, today } from "~/lib/dates";

export const HISTORY_MONTHS_BACK = 3;

// The spec gives no texts for these; chosen to say what to do.
export const HISTORY_MESSAGES = {
  fromRequired: "Ange ett från-datum.",
  toRequired: "Ange ett till-datum.",
  invalid: "Ange datumet som ÅÅÅÅ-MM-DD.",
  order: "Från-datumet måste vara före till-datumet.",
  tooOld: (earliest: string) => `Historiken sträcker sig tre månader tillbaka, inte före ${earliest}.`,
  future: "Datumet kan inte vara efter dagens datum.",
} as const;

export function historyLimits(on: string = today()) {
  return { earliest: addMonths(on, -HISTORY_MONTHS_BACK), latest: on };
}

/** Default range: the last month up to today. */
export function defaultHistoryRange(on: string = today()) {
  return { from: addMonths(on, -1), to: on };
}

export type RangeErrors = { from?: string; to?: string };

/** Both dates required, start earlier than end (spec 5), nothing older than three months, nothing after today. */
export function checkHistoryRange(from: string, to: string, on: string = today()): RangeErrors {
  const { earliest, latest } = historyLimits(on);
  const errors: RangeErrors = {};
  const one = (value: string, required: string) => {
    if (!value) return required;
    if (!isValidDate(value)) return HISTORY_MESSAGES.invalid;
    if (value < earliest) return HISTORY_MESSAGES.tooOld(earliest);
    if (value > latest) return HISTORY_MESSAGES.future;
    return undefined;
  };
  const f = one(from, HISTORY_MESSAGES.fromRequired);
  const t = one(to, HISTORY_MESSAGES.toRequired);
  if (f) errors.from = f;
  if (t) errors.to = t;
  if (!f && !t && from >= to) errors.from = HISTORY_MESSAGES.order;
  return errors;
}

export type HistoryRow = {
  /** The return line's id (null: a delivery with only a received amount). */
  returnId: number | null;
  deliveryId: number;
  date: string;
  title: string;
  edition: string;
  type: number;
  bundle: number | null;
  returned: number | null;
  delivered: number;
  received: number | null;
  /** Delivered − received when received is reported (leveransreklamation), else null. */
  claimed: number | null;
  /** Sista returdag. */
  deadline: string;
  /** The return was reported or changed after the last return day (policy 'accept'). */
  late: boolean;
};

/**
 * Deliveries in the range that were reported (returns) or claimed (received set),
 * one row per return line; newest first. One query on deliveries_customer_date.
 */
export async function listHistory(customerId: number, from: string, to: string): Promise<HistoryRow[]> {
  const d = schema.deliveries;
  const r = schema.returns;
  const b = schema.bundles;
  const t = schema.titles;
  const e = schema.editions;
  const rows = await getDb()
    .select({
      returnId: r.id,
      deliveryId: d.id,
      date: d.deliveryDate,
      title: t.name,
      edition: e.description,
      type: e.type,
      bundle: b.number,
      returned: r.amount,
      delivered: d.delivered,
      received: d.received,
      deadline: deadlineSql(),
      late: r.late,
    })
    .from(d)
    .innerJoin(t, eq(t.id, d.titleId))
    .innerJoin(e, and(eq(e.titleId, d.titleId), eq(e.editionId, d.editionId)))
    .leftJoin(r, and(eq(r.deliveryId, d.id), eq(r.customerId, customerId)))
    .leftJoin(b, eq(b.id, r.bundleId))
    .where(and(eq(d.customerId, customerId), between(d.deliveryDate, from, to), or(isNotNull(d.reportedAt), isNotNull(d.received))))
    .orderBy(desc(d.deliveryDate), asc(d.titleId), asc(d.editionId), asc(b.number));
  return rows.map((x) => ({ ...x, late: x.late === true, claimed: x.received === null ? null : x.delivered - x.received }));
}
