// The staff's customer forms: one schema per form for the browser and the action.
import { CUSTOMER_NUMBER } from "~/catalog";
import { missing, rowVersion } from "~/lib/form-fields";
import { isEmailAddress } from "~/lib/email";
import { z } from "~/lib/zod";

/** What a customer or staff form says of an address that is none (one rule: app/lib/email.ts). */
export const EMAIL_MESSAGE = "Ange en e-postadress (namn@exempel.se).";

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
    .refine((v) => v === "" || isEmailAddress(v), EMAIL_MESSAGE)
    .optional()
    .transform((v) => v ?? "");

/**
 * A customer's details, one rule and one message each: the forms below and the customers
 * file (`portal import customers`) check a name, an address or a postcode alike.
 */
export const customerDetail = {
  name: () => z.string(required).trim().min(1, "Obligatorisk.").max(200, "Högst 200 tecken."),
  address: () => optionalText(200),
  zip: zipCode,
  city: () => optionalText(100),
  phone: () => optionalText(50),
  email,
};

const distributorChoice = () => z.string(required).regex(/^\d{1,9}$/, "Välj distributör.").transform(Number);

export const CustomerAddSchema = z.object({
  kundnummer: z
    .string(required)
    .trim()
    .transform((v) => v.replace(/^0+(?=\d)/, ""))
    .refine((v) => CUSTOMER_NUMBER.test(v) && Number(v) > 0, "Kundnummer är 1–5 siffror.")
    .transform(Number),
  name: customerDetail.name(),
  distributorId: distributorChoice(),
  address: customerDetail.address(),
  zip: customerDetail.zip(),
  city: customerDetail.city(),
  phone: customerDetail.phone(),
  email: customerDetail.email(),
});

/** Uppgifter on a customer's page: every detail but the number. The payout details' check digits are the server's (checkBankDetail). */
export const CustomerEditSchema = z.object({
  version: rowVersion(),
  name: customerDetail.name(),
  distributorId: distributorChoice(),
  address: customerDetail.address(),
  coAddress: optionalText(200),
  zip: customerDetail.zip(),
  city: customerDetail.city(),
  contact: optionalText(100),
  phone: customerDetail.phone(),
  // Checked by the rule only when changed (updateCustomerDetails): an address stored under an
  // older, looser rule does not stop the other details from being saved.
  email: optionalText(200),
  orgNumber: optionalText(20),
  bankgiro: optionalText(20),
  bankAccount: optionalText(30),
});

/** The buttons of a customer's page. */
export const CustomerActionSchema = z.object({ intent: z.enum(["ny-pinkod", "stang-av", "aktivera"]) });

/** The PIN letter: the PIN just shown, posted back to print it (checked against the stored hash). */
