// The Öppettider form (the OPPETTIDER alert's screen): seven days, each either Stängt or
// with both times, Stänger after Öppnar (00:00 is midnight). One message per day.
import { z } from "~/lib/zod";
import { NEVER_REPORTED, OPENING_HOURS_MESSAGES as M, VERSION_FIELD, WEEKDAYS, closedField, closesField, dayField, normalizeTime, opensField } from "./words";

export type DayHours = { weekday: number; opens: string | null; closes: string | null };

const text = (v: unknown) => (typeof (Array.isArray(v) ? v[0] : v) === "string" ? String(Array.isArray(v) ? v[0] : v).trim() : "");

export const openingHoursSchema = z
  .record(z.string(), z.unknown())
  .superRefine((form, ctx) => {
    for (let d = 1; d <= WEEKDAYS.length; d++) {
      if (text(form[closedField(d)]) !== "") continue;
      const opens = text(form[opensField(d)]);
      const closes = text(form[closesField(d)]);
      if (opens === "" || closes === "") ctx.addIssue({ code: "custom", path: [dayField(d)], message: M.missing });
      else if (normalizeTime(opens) === null || normalizeTime(closes) === null) ctx.addIssue({ code: "custom", path: [dayField(d)], message: M.badTime });
      else if (!closesAfter(normalizeTime(opens)!, normalizeTime(closes)!)) ctx.addIssue({ code: "custom", path: [dayField(d)], message: M.closesBeforeOpens });
    }
  })
  .transform((form) => ({
    days: WEEKDAYS.map((_, i): DayHours => {
      const d = i + 1;
      if (text(form[closedField(d)]) !== "") return { weekday: d, opens: null, closes: null };
      return { weekday: d, opens: normalizeTime(text(form[opensField(d)])), closes: normalizeTime(text(form[closesField(d)])) };
    }),
    version: text(form[VERSION_FIELD]) || NEVER_REPORTED,
  }));

/** Stänger after Öppnar; a shop open until midnight closes at 00:00. */
export function closesAfter(opens: string, closes: string): boolean {
  return closes === "00:00" ? opens !== "00:00" : closes > opens;
}
