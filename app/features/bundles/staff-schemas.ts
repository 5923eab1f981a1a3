// The Buntar screen's forms (back-office 9): the action parses with these and the
// screen validates with the same ones in the browser. Client-safe.
import { parseId } from "~/lib/ids";
import { pageParam } from "~/lib/paging";
import { z } from "~/lib/zod";
import { BUNDLE_NUMBER, CUSTOMER_NUMBER } from "~/catalog";

const customerNumber = z
  .string({ error: "Kundnummer saknas." })
  .trim()
  .regex(CUSTOMER_NUMBER, "Kundnummer saknas.")
  .transform(Number);
/** A row's id from a hidden field; a forged one is null (answered "not found"). */
const rowId = z.string().optional().transform((v) => parseId(v));

/** 'Ändra Buntnummer': one bundle's new number. */
export const RenumberBundleSchema = z.object({
  intent: z.literal("change"),
  kund: customerNumber,
  bundleId: rowId,
  newNumber: z
    .string({ error: "Ange ett nytt buntnummer (1–99999)." })
    .trim()
    .regex(BUNDLE_NUMBER, "Ange ett nytt buntnummer (1–99999).")
    .transform(Number),
  sida: z.string().optional().transform((v) => pageParam(v ?? null)),
  /** The number the page showed: renumbering a bundle someone else renumbered since is refused. */
  was: z
    .string()
    .regex(BUNDLE_NUMBER, "Ladda om sidan och försök igen.")
    .transform(Number)
    .optional(),
  /** The issued invoices staff were told credit this bundle, when asked (decision 021). */
  invoiced: z
    .string()
    .regex(/^\d{1,9}(,\d{1,9}){0,49}$/, "Ladda om sidan och försök igen.")
    .optional(),
});

/** Every form of the Buntar screen, told apart by the button's intent. */
export const BundleActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("delete-block"), kund: customerNumber, blockId: rowId }),
  RenumberBundleSchema,
]);
