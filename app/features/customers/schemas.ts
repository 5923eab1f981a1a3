// The staff's customer forms: one schema per form for the browser and the action.
import { CUSTOMER_NUMBER } from "~/catalog";
import { missing } from "~/lib/form-fields";
import { z } from "~/lib/zod";

const required = { error: missing("Obligatorisk.") };

export const CustomerAddSchema = z.object({
  kundnummer: z
    .string(required)
    .trim()
    .transform((v) => v.replace(/^0+(?=\d)/, ""))
    .refine((v) => CUSTOMER_NUMBER.test(v) && Number(v) > 0, "Kundnummer är 1–5 siffror.")
    .transform(Number),
  name: z.string(required).trim().min(1, "Obligatorisk.").max(200, "Högst 200 tecken."),
  distributorId: z.string(required).regex(/^\d{1,9}$/, "Välj distributör.").transform(Number),
  address: z.string().trim().max(200, "Högst 200 tecken.").optional().transform((v) => v ?? ""),
  zip: z.string().trim().max(20, "Högst 20 tecken.").optional().transform((v) => v ?? ""),
  city: z.string().trim().max(100, "Högst 100 tecken.").optional().transform((v) => v ?? ""),
  phone: z.string().trim().max(40, "Högst 40 tecken.").optional().transform((v) => v ?? ""),
  email: z
    .string()
    .trim()
    .max(200, "Högst 200 tecken.")
    .regex(/^$|^[^\s@;]+@[^\s@;]+\.[^\s@;]+$/, "Ange en e-postadress (namn@exempel.se).")
    .optional()
    .transform((v) => v ?? ""),
});

/** The buttons of a customer's page. */
export const CustomerActionSchema = z.object({ intent: z.enum(["ny-pinkod", "stang-av", "aktivera"]) });

/** The PIN letter: the PIN just shown, posted back to print it (checked against the stored hash). */
