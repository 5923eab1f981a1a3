// Staff's Öppettider request on the Helgspärr screen: from which day retailers are asked,
// from which day it locks, and whose customers (a distributor, or all).
import { missing, rowRef } from "~/lib/form-fields";
import { z } from "~/lib/zod";

const required = { error: missing("Obligatorisk.") };
const date = () => z.string(required).regex(/^\d{4}-\d{2}-\d{2}$/, "Ogiltigt datum (ÅÅÅÅ-MM-DD).");

export const OpeningHoursRequestSchema = z.object({
  intent: z.literal("request-hours"),
  distributorId: z
    .string()
    .regex(/^\d{1,9}$/, "Välj en distributör i listan.")
    .optional()
    .transform((v) => (v === undefined ? null : Number(v))),
  startReportDay: date(),
  startForceReportDay: date(),
  /** Sent by "Spara ändå" once the admin has seen how many retailers the request reaches. */
  confirmed: z.literal("1").optional(),
});

/** Avsluta: the request ends and no longer reminds or locks. */
export const OpeningHoursCloseSchema = z.object({ intent: z.literal("close-hours"), id: rowRef() });
