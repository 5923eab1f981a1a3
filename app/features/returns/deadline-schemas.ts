// The forms of Sista returdag (staff, decision 018): one schema for the browser and the
// action, told apart by intent.
import { rowId } from "~/lib/form-fields";
import { z } from "~/lib/zod";

export const DEADLINE_MESSAGES = {
  days: "Ange 1–14 dagar.",
  edition: "Välj utgåva.",
  distributor: "Okänd distributör.",
  policy: "Välj hur sena returer hanteras.",
} as const;

const days = () =>
  z
    .string({ error: DEADLINE_MESSAGES.days })
    .trim()
    .regex(/^\d{1,2}$/, DEADLINE_MESSAGES.days)
    .transform(Number)
    .refine((n) => n >= 1 && n <= 14, DEADLINE_MESSAGES.days);

/** The windows per paper type; `confirmed` once the admin has seen what the change does to retailers' papers. */
export const ReturnWindowsSchema = z.object({ intent: z.literal("windows"), main: days(), inserts: days(), confirmed: z.literal("1").optional() });

/** An edition's own window; empty = its paper type's. */
export const EditionDaysSchema = z.object({
  intent: z.literal("edition"),
  edition: z.string({ error: DEADLINE_MESSAGES.edition }).regex(/^\d{1,9}:\d{1,9}$/, DEADLINE_MESSAGES.edition),
  days: z.union([z.literal("").transform(() => null), days()]).optional().transform((v) => v ?? null),
  confirmed: z.literal("1").optional(),
});

export const LatePolicySchema = z.object({
  intent: z.literal("policy"),
  distributor: rowId(DEADLINE_MESSAGES.distributor),
  lateReturns: z.enum(["reject", "accept"], { error: DEADLINE_MESSAGES.policy }),
  deadlineLock: z.literal("on").optional().transform((v) => v === "on"),
  confirmed: z.literal("1").optional(),
});

export const DeadlineActionSchema = z.discriminatedUnion("intent", [ReturnWindowsSchema, EditionDaysSchema, LatePolicySchema]);
