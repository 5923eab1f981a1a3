// The Garantibelopp screen's forms and the payout file buttons: one schema per form
// for the browser and the action.
import { LEDGERS, type Ledger } from "~/catalog";
import { rowId } from "~/lib/form-fields";
import { z } from "~/lib/zod";

export const BANK_FIELDS = ["bankgiro", "bankAccount", "orgNumber"] as const;
export type BankField = (typeof BANK_FIELDS)[number];

/** The search the screen goes back to after an action (the "Kundnummer" box). */
const search = z.string().optional();

/** One bank detail of one customer, as the browser checks it (the button names the field). */
export const BankDetailFormSchema = z.object({
  kund: rowId("Kunden finns inte."),
  search,
  value: z.string().max(40, "Högst 40 tecken.").optional(),
  /** The value the page showed (empty arrives as absent): stored otherwise now is a conflict. */
  was: z
    .string()
    .max(40, "Ladda om sidan och försök igen.")
    .optional()
    .transform((v) => v ?? ""),
});

/** A customer's refund date ('Utbetalningsdatum'), changed in the added payouts. */
export const RefundDateFormSchema = z.object({
  kund: rowId("Kunden finns inte."),
  search,
  refundDate: z.string({ error: "Ange ett datum." }).regex(/^\d{4}-\d{2}-\d{2}$/, "Ogiltigt datum (ÅÅÅÅ-MM-DD)."),
});

export const GuaranteeActionSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("refund"),
    kund: rowId("Misslyckades med att spara utbetalning."),
    guaranteeId: rowId("Misslyckades med att spara utbetalning."),
    search,
  }),
  z.object({
    intent: z.literal("undo-refund"),
    kund: rowId("Utbetalningen finns inte längre."),
    guaranteeId: rowId("Utbetalningen finns inte längre."),
    search,
  }),
  RefundDateFormSchema.extend({ intent: z.literal("refund-date") }),
  BankDetailFormSchema.extend({ intent: z.enum(BANK_FIELDS) }),
  z.object({ intent: z.literal("complete"), search }),
]);

const NO_PAYOUTS = "Det finns inga utbetalningar för den tidningen.";
const ledger = z
  .string({ error: NO_PAYOUTS })
  .regex(/^\d{1,3}$/, NO_PAYOUTS)
  .transform(Number)
  .refine((n): n is Ledger => (LEDGERS as number[]).includes(n), NO_PAYOUTS);

/** An ISO week of payment, "2026-v50"; absent: every week (the CLI's and old pages' way). */
const week = z
  .string()
  .regex(/^\d{4}-v\d{2}$/, NO_PAYOUTS)
  .optional();

/**
 * The payout file buttons: a CSV, the bank's ISO 20022 file or the underlag of one title and week, one customer's
 * underlag, or a file kept by an earlier Klarmarkera (decision 022).
 */
export const PayoutFileSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("csv"), ledger, week }),
  z.object({ intent: z.literal("pain001"), ledger, week }),
  z.object({ intent: z.literal("underlag"), ledger, week }),
  z.object({ intent: z.literal("underlag-customer"), kund: rowId("Kunden finns inte.") }),
  z.object({ intent: z.literal("kept"), fil: rowId("Filen finns inte.") }),
]);
