// The retailer's label forms: 'Skriv ut nödetiketter' (how many, 1–20) and 'Beställ
// returetiketter' (a confirmed order). Both carry the page's one-time token, so a
// resubmitted form allocates nothing new.
import { z } from "~/lib/zod";

export const EMERGENCY_MIN = 1;
export const EMERGENCY_MAX = 20;
export const EMERGENCY_COUNT_MESSAGE = "Välj mellan 1 och 20 etiketter.";
export const BAD_ORDER = "Ogiltig förfrågan.";

/** Parses the 'Antal etiketter' choice: a whole number from 1 to 20, or the reason it is refused. */
export function checkEmergencyCount(input: string | null | undefined): { value: number } | { problem: string } {
  const text = (input ?? "").trim();
  if (!/^\d{1,3}$/.test(text)) return { problem: EMERGENCY_COUNT_MESSAGE };
  const value = Number(text);
  if (value < EMERGENCY_MIN || value > EMERGENCY_MAX) return { problem: EMERGENCY_COUNT_MESSAGE };
  return { value };
}

/** The form's one-time token (empty: none). */
const token = z.preprocess((v) => (Array.isArray(v) ? v[0] : v), z.string().max(200).optional());

export const emergencyLabelsSchema = z.object({
  antal: z
    .string({ error: EMERGENCY_COUNT_MESSAGE })
    .transform((text, ctx) => {
      const check = checkEmergencyCount(text);
      if ("value" in check) return check.value;
      ctx.addIssue({ code: "custom", message: check.problem });
      return z.NEVER;
    }),
  token,
});

export const orderBlockSchema = z.object({
  intent: z.literal("bestall", { error: BAD_ORDER }),
  token,
});
