// Holidays (helgspärr): the retailer side. Staff create holidays; each retailer
// answers per holiday whether the shop is open (Öppet) or closed (Stängt).
import { and, asc, desc, eq, gte, sql } from "drizzle-orm";
import { refuse } from "~/lib/refusal";
import { getDb, schema, writeTransaction } from "~/db.server";
import { today as todayDate } from "~/lib/dates";
import { HOLIDAY_CLOSED_MESSAGE, holidayChangedByOther } from "./answer-words";
import { portalNow } from "../../../db/clock";

export type HolidayCard = { id: number; day: string; description: string; open: boolean | null };
export type HolidayAnswer = { holidayId: number; day: string; description: string; open: boolean };

const h = schema.holidays;
const r = schema.holidayReports;

/** Coming holidays (today included) that are still open for answers, with this customer's answer. */
export async function listComingHolidays(customerId: number, today = todayDate()): Promise<HolidayCard[]> {
  return getDb()
    .select({ id: h.id, day: h.day, description: h.description, open: r.open })
    .from(h)
    .leftJoin(r, and(eq(r.holidayId, h.id), eq(r.customerId, customerId)))
    .where(and(eq(h.deleted, false), eq(h.completed, false), gte(h.day, today)))
    .orderBy(asc(h.day), asc(h.id));
}

/** 'Tidigare rapporterat': this customer's answers, newest holiday first. */
export async function listHolidayAnswers(customerId: number, limit = 100): Promise<HolidayAnswer[]> {
  return getDb()
    .select({ holidayId: h.id, day: h.day, description: h.description, open: r.open })
    .from(r)
    .innerJoin(h, eq(h.id, r.holidayId))
    .where(and(eq(r.customerId, customerId), eq(h.deleted, false)))
    .orderBy(desc(h.day), desc(h.id))
    .limit(limit);
}

export { HOLIDAY_CLOSED_MESSAGE };

/**
 * Stores the customer's answer. Refuses (invalid) when the holiday is not open for answers
 * (unknown, deleted, completed or already past), and (conflict) when someone else changed
 * the answer since the page showed it. Answering again changes it.
 */
export async function answerHoliday(
  customerId: number,
  holidayId: number,
  open: boolean,
  today = todayDate(),
  /** The answer the page showed (null: none); undefined: no check. */
  shown?: boolean | null,
): Promise<void> {
  return writeTransaction(async (tx) => {
    const [holiday] = await tx.select().from(h).where(eq(h.id, holidayId));
    if (!holiday || holiday.deleted || holiday.completed || holiday.day < today) {
      throw refuse.invalid(HOLIDAY_CLOSED_MESSAGE);
    }
    // Optimistic concurrency: changed by someone else since the page showed it,
    // to something other than this answer: refused, both named.
    if (shown !== undefined) {
      const [stored] = await tx.select({ open: r.open }).from(r).where(and(eq(r.holidayId, holidayId), eq(r.customerId, customerId)));
      const current = stored ? stored.open : null;
      if (current !== shown && current !== open) throw refuse.conflict(holidayChangedByOther(current, open));
    }
    const now = portalNow();
    await tx
      .insert(r)
      .values({ holidayId, customerId, open, createdAt: now, updatedAt: now })
      .onConflictDoUpdate({ target: [r.customerId, r.holidayId], set: { open, updatedAt: sql`${now}` } });
  });
}
