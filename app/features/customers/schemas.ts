// The staff's customer forms: one schema per form for the browser and the action.
import { CUSTOMER_NUMBER } from "~/catalog";
import { missing, rowVersion } from "~/lib/form-fields";
import { z } from "~/lib/zod";

const required = { error: missing("Obligatorisk.") };

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `Högst ${max} tecken.`)
    .optional()
    .transform((v) => v ?? "");

export const ZIP_RULE = "Postnumret är fem siffror, till exempel 111 20.";

/** A Swedish postcode in the one stored form, "111 20", however it was typed ("11120", "111-20", "S-111 20"); empty is allowed. */
export function zipCode() {
  return z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ?? "").replace(/^(?:SE|S)-?\s*/i, "").replace(/[\s-]/g, ""))
    .refine((v) => v === "" || /^[1-9]\d{4}$/.test(v), ZIP_RULE)
    .transform((v) => (v === "" ? "" : `${v.slice(0, 3)} ${v.slice(3)}`));
}

const email = () =>
  z
    .string()
    .trim()
    .max(200, "Högst 200 tecken.")
    .regex(/^$|^[^\s@;]+@[^\s@;]+\.[^\s@;]+$/, "Ange en e-postadress (namn@exempel.se).")
    .optional()
    .transform((v) => v ?? "");

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
  zip: zipCode(),
  city: z.string().trim().max(100, "Högst 100 tecken.").optional().transform((v) => v ?? ""),
  phone: z.string().trim().max(40, "Högst 40 tecken.").optional().transform((v) => v ?? ""),
  email: email(),
});

/** Uppgifter on a customer's page: every detail but the number. The payout details' check digits are the server's (checkBankDetail). */
export const CustomerEditSchema = z.object({
  version: rowVersion(),
  name: z.string(required).trim().min(1, "Obligatorisk.").max(200, "Högst 200 tecken."),
  distributorId: z.string(required).regex(/^\d{1,9}$/, "Välj distributör.").transform(Number),
  address: optionalText(200),
  coAddress: optionalText(200),
  zip: zipCode(),
  city: optionalText(100),
  contact: optionalText(100),
  phone: optionalText(40),
  email: email(),
  orgNumber: optionalText(20),
  bankgiro: optionalText(20),
  bankAccount: optionalText(30),
});

/** The buttons of a customer's page. */
export const CustomerActionSchema = z.object({ intent: z.enum(["ny-pinkod", "stang-av", "aktivera"]) });

/** The PIN letter: the PIN just shown, posted back to print it (checked against the stored hash). */
