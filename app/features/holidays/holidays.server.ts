// Staff side of holidays (Helgspärr): the rules that drive the retailers' holiday
// screen and the HELGDAGAR alert. The retailer side lives in holidays.server.ts.
import { and, asc, desc, eq, ne, or, sql } from "drizzle-orm";
import { getDb, schema, writeTransaction } from "~/db.server";
import { audit, type Actor } from "~/features/audit/audit.server";
import { isValidDate, today } from "~/lib/dates";
import { refuse } from "~/lib/refusal";
import { nextVersion } from "~/lib/row-version.server";

export type HolidayInput = {
  id?: number;
  /** The `updated_at` the edit form was opened on: a save over a newer row is refused. */
  version?: number;
  description: string;
  day: string;
  startReportDay: string;
  startForceReportDay: string;
};

export type HolidayErrors = Partial<
  Record<
    "description" | "day" | "startReportDay" | "startForceReportDay",
    string
  >
>;

export const HOLIDAY_CONFLICT =
  "Helgdagen har ändrats i en annan flik eller av någon annan sedan du öppnade den. Det som är sparat nu visas nedan; dina ändringar finns kvar i formuläret. Tryck Uppdatera igen för att spara dina ändringar över det.";

/** The date rule: startReportDay <= startForceReportDay <= day. */
export function checkHoliday(input: HolidayInput): HolidayErrors {
  const errors: HolidayErrors = {};
  if (!input.description.trim()) errors.description = "Obligatorisk.";
  for (const k of ["day", "startReportDay", "startForceReportDay"] as const) {
    if (!input[k]) errors[k] = "Obligatorisk.";
    else if (!isValidDate(input[k])) errors[k] = "Ogiltigt datum (ÅÅÅÅ-MM-DD).";
  }
  if (
    !errors.startReportDay &&
    !errors.startForceReportDay &&
    input.startReportDay > input.startForceReportDay
  ) {
    errors.startReportDay =
      "Start rapportering får inte vara efter Tvingande från.";
  }
  if (
    !errors.startForceReportDay &&
    !errors.day &&
    input.startForceReportDay > input.day
  ) {
    errors.startForceReportDay = "Tvingande från får inte vara efter Dag.";
  }
  return errors;
}

/** How many retailers answered a holiday (Öppet or Stängt), for a select of `holidays`. */
const answeredCount = () =>
  sql<number>`(select count(*) from ${schema.holidayReports} where ${schema.holidayReports.holidayId} = ${schema.holidays.id})`.mapWith(
    Number
  );

/** Holidays still listed for staff: neither completed nor deleted, by day, with how many retailers answered. */
export function listAdminHolidays() {
  const h = schema.holidays;
  return getDb()
    .select({
      id: h.id,
      description: h.description,
      day: h.day,
      startReportDay: h.startReportDay,
      startForceReportDay: h.startForceReportDay,
      answered: answeredCount(),
    })
    .from(h)
    .where(and(eq(h.completed, false), eq(h.deleted, false)))
    .orderBy(asc(h.day), asc(h.id));
}

/** Holidays taken off the list (completed or deleted), newest day first, with how many answered: their answers stay readable. */
export function listEndedHolidays(limit = 50) {
  const h = schema.holidays;
  return getDb()
    .select({
      id: h.id,
      description: h.description,
      day: h.day,
      deleted: h.deleted,
      answered: answeredCount(),
    })
    .from(h)
    .where(or(eq(h.completed, true), eq(h.deleted, true)))
    .orderBy(desc(h.day), desc(h.id))
    .limit(limit);
}

export async function getAdminHoliday(id: number) {
  const [row] = await getDb()
    .select()
    .from(schema.holidays)
    .where(
      and(
        eq(schema.holidays.id, id),
        eq(schema.holidays.deleted, false),
        eq(schema.holidays.completed, false)
      )
    );
  return row ?? null;
}

/**
 * Adds a holiday, or updates a listed one when `id` is set. Refuses (invalid, with the
 * message per field) what checkHoliday finds, and an update of a holiday that has left
 * the list.
 */
export const HOLIDAY_PAST =
  "Dagen har redan varit. En helgdag läggs in före dagen.";

/** The refusal of a second holiday on a day that has one (listed or completed). */
export function holidayTaken(description: string, day: string): string {
  return `Det finns redan en helgdag ${day}: ${description}.`;
}

export async function saveHoliday(
  input: HolidayInput,
  actor: Actor,
  now = today()
): Promise<number> {
  const errors = checkHoliday(input);
  // A holiday in the past can no longer be reported for.
  if (!errors.day && input.day < now) errors.day = HOLIDAY_PAST;
  if (Object.keys(errors).length > 0)
    throw refuse.invalid(Object.values(errors)[0]!, { fields: errors });
  const values = {
    description: input.description.trim(),
    day: input.day,
    startReportDay: input.startReportDay,
    startForceReportDay: input.startForceReportDay,
  };
  return writeTransaction(async (tx) => {
    let id = input.id;
    // One holiday per day: the same holiday twice is refused, inside the write
    // transaction so two admins saving at once cannot both add it.
    const h = schema.holidays;
    const [taken] = await tx
      .select({ description: h.description })
      .from(h)
      .where(
        and(
          eq(h.day, values.day),
          eq(h.deleted, false),
          id ? ne(h.id, id) : undefined
        )
      )
      .limit(1);
    if (taken)
      throw refuse.invalid(holidayTaken(taken.description, values.day), {
        field: "day",
      });
    if (id) {
      const listed = and(
        eq(h.id, id),
        eq(h.deleted, false),
        eq(h.completed, false)
      );
      const updated = await tx
        .update(h)
        .set({ ...values, updatedAt: nextVersion(h.updatedAt) })
        .where(
          input.version === undefined
            ? listed
            : and(listed, eq(h.updatedAt, input.version))
        )
        .returning({ id: h.id });
      if (updated.length === 0) {
        const [still] = await tx.select({ id: h.id }).from(h).where(listed);
        if (still)
          throw refuse.conflict(HOLIDAY_CONFLICT, { field: "version" });
        throw refuse.invalid("Helgdagen finns inte längre.", {
          field: "description",
        });
      }
    } else {
      [{ id }] = await tx
        .insert(schema.holidays)
        .values(values)
        .returning({ id: schema.holidays.id });
    }
    await audit(
      {
        actor,
        action: input.id ? "holiday.update" : "holiday.add",
        target: `holiday:${id}`,
        detail: values,
      },
      tx
    );
    return id!;
  });
}

/** How many retailers answered Öppet or Stängt for a holiday; a deleted holiday keeps its answers. */
export async function countHolidayAnswers(id: number): Promise<number> {
  const r = schema.holidayReports;
  const [row] = await getDb()
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(r)
    .where(eq(r.holidayId, id));
  return row?.n ?? 0;
}

/** Klarmarkera (completed) or Ta bort (deleted): either way it leaves the list. */
export async function closeHoliday(
  id: number,
  how: "complete" | "delete",
  actor: Actor
): Promise<boolean> {
  return writeTransaction(async (tx) => {
    const changed = await tx
      .update(schema.holidays)
      .set(
        how === "complete"
          ? {
              completed: true,
              updatedAt: nextVersion(schema.holidays.updatedAt),
            }
          : { deleted: true, updatedAt: nextVersion(schema.holidays.updatedAt) }
      )
      .where(
        and(
          eq(schema.holidays.id, id),
          eq(schema.holidays.deleted, false),
          eq(schema.holidays.completed, false)
        )
      )
      .returning({ id: schema.holidays.id });
    if (changed.length === 0) return false;
    await audit(
      { actor, action: `holiday.${how}`, target: `holiday:${id}` },
      tx
    );
    return true;
  });
}
