// The delivery note's row form (spec 2.6, 5): 'Mottagit' for one delivery. The amount's
// rules (negative, unreasonable) are the save's own (checkReceived), so the page and a
// forged form get the same answers; the schema gives the form its shape.
import { z } from "~/lib/zod";

import { RECEIVED_INTENT, SAVE_CHANGED } from "./words";
import { APPROVE_CHOSEN, CLAIM_TEXTS, DECIDE_CLAIM, REJECT_CHOSEN } from "./claim-words";

const BAD_REQUEST = "Ogiltig förfrågan.";

/** `rad.<id>` / `fore.<id>` as conform parses them: delivery id → text (anything else dropped). */
function rowValues(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!value || typeof value !== "object" || Array.isArray(value)) return out;
  for (const [id, v] of Object.entries(value)) {
    const text = Array.isArray(v) ? v[0] : v;
    if (/^[1-9]\d{0,15}$/.test(id) && Number.isSafeInteger(Number(id)) && typeof text === "string") out[id] = text.slice(0, 20);
  }
  return out;
}

/**
 * The whole note is one form (so a save keeps every row's typed value, JS off too):
 * `rad.<id>` is a row's Mottagit as typed, `fore.<id>` what the page showed for it, and
 * the pressed button's `deliveryId` the row to save (`andrade`: every changed row).
 * A form of one row (`deliveryId` + `mottagit`) is read too.
 */
export const receivedSchema = z.object({
  intent: z.literal(RECEIVED_INTENT, { error: BAD_REQUEST }),
  deliveryId: z
    .string({ error: BAD_REQUEST })
    .refine((v) => v === SAVE_CHANGED || (/^[1-9]\d{0,15}$/.test(v) && Number.isSafeInteger(Number(v))), BAD_REQUEST)
    .transform((v) => (v === SAVE_CHANGED ? SAVE_CHANGED : Number(v))),
  mottagit: z.string().optional(),
  rad: z.unknown().optional().transform(rowValues),
  fore: z.unknown().optional().transform(rowValues),
  /** `ja.<id>`: the amount above delivered the user was asked about and saves again. */
  ja: z.unknown().optional().transform(rowValues),
});

/** What the note answers when it does not redirect: every row as typed, the refused rows' messages, the rows saved. */
export type DeliveryNoteAnswer = {
  rows: Record<string, string>;
  errors: Record<string, string>;
  saved: number[];
  /** The unsaved rows' `fore` as their page showed it. */
  shown?: Record<string, string>;
  /** The rows whose `errors` entry is a question (more than delivered), not a refusal. */
  asks?: number[];
};

const claimId = z
  .string({ error: BAD_REQUEST })
  .regex(/^[1-9]\d{0,15}$/, BAD_REQUEST)
  .transform(Number);
const reason = z.string().trim().max(500, "Högst 500 tecken.").optional();

/** One claim's decision (Leveransreklamation → Besluta): Godkänn, Godkänn delvis (how many), Avslå; a reason for the last two. */
export const ClaimDecisionSchema = z
  .object({
    intent: z.literal(DECIDE_CLAIM, { error: BAD_REQUEST }),
    arende: claimId,
    beslut: z.enum(["godkann", "delvis", "avsla"], { error: "Välj ett beslut." }),
    antal: z.string().trim().regex(/^\d{1,3}$/, "Ange ett antal ex.").transform(Number).optional(),
    motivering: reason,
  })
  .superRefine((v, ctx) => {
    if (v.beslut === "delvis" && v.antal === undefined) ctx.addIssue({ code: "custom", path: ["antal"], message: "Ange hur många ex som godkänns." });
    if (v.beslut !== "godkann" && !v.motivering) ctx.addIssue({ code: "custom", path: ["motivering"], message: CLAIM_TEXTS.reasonRequired });
  });

/** Several claims at once (the list's boxes): approve them, or reject them with one reason. */
export const ClaimsAtOnceSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal(APPROVE_CHOSEN), arende: z.preprocess((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]), z.array(claimId).min(1, CLAIM_TEXTS.noneChosen)), motivering: reason }),
  z.object({
    intent: z.literal(REJECT_CHOSEN),
    arende: z.preprocess((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]), z.array(claimId).min(1, CLAIM_TEXTS.noneChosen)),
    motivering: z.string({ error: CLAIM_TEXTS.reasonRequired }).trim().min(1, CLAIM_TEXTS.reasonRequired).max(500, "Högst 500 tecken."),
  }),
]);
