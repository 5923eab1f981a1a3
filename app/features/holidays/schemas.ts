// The Helgspärr form: one schema for the browser and the action. The date order rule
// (startReportDay ≤ startForceReportDay ≤ day) is the feature's (checkHoliday), so
// the CLI keeps it too; the server answers it beside the field.
import { missing, rowId, rowRef, rowVersion } from "~/lib/form-fields";
import { z } from "~/lib/zod";

const required = { error: missing("Obligatorisk.") };
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const date = () => z.string(required).regex(DATE, "Ogiltigt datum (ÅÅÅÅ-MM-DD).");

export const HolidaySaveSchema = z.object({
  intent: z.literal("save").optional(),
  id: rowId("Helgdagen finns inte.").optional(),
  version: rowVersion(),
  description: z.string(required).trim().min(1, "Obligatorisk.").max(100, "Högst 100 tecken."),
  day: date(),
  startReportDay: date(),
  startForceReportDay: date(),
});

/** Klarmarkera or Ta bort, from a row of the list. */
export const HolidayCloseSchema = z.object({ intent: z.enum(["complete", "delete"]), id: rowRef() });

export const HolidayActionSchema = z.discriminatedUnion("intent", [HolidaySaveSchema, HolidayCloseSchema]);
