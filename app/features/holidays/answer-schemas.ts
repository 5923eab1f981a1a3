// The retailer's Helgspärr answer: Öppet or Stängt for one holiday. The customer comes
// from the session; the form names only the holiday.
import { z } from "~/lib/zod";

export const HOLIDAY_CLOSED_MESSAGE = "Den här helgdagen går inte längre att rapportera.";

export const HOLIDAY_INTENT = { open: "oppet", closed: "stangt" } as const;
/** `fore`: the answer the page showed (issue 15.1); `-` for none (never empty, so always posted). */
export const NO_ANSWER_SHOWN = "-";
export const HOLIDAY_ANSWER_WORD = { true: "Öppet", false: "Stängt" } as const;
/** Issue 15.1: an answer someone else changed (another tab) since the page was loaded. */
export const holidayChangedByOther = (now: boolean | null, chosen: boolean) =>
  `Någon annan har ändrat svaret: nu sparat ${now === null ? "inget" : HOLIDAY_ANSWER_WORD[`${now}`]}, du valde ${HOLIDAY_ANSWER_WORD[`${chosen}`]}. Kontrollera och spara igen.`;

export const holidayAnswerSchema = z.object({
  intent: z.enum([HOLIDAY_INTENT.open, HOLIDAY_INTENT.closed], { error: HOLIDAY_CLOSED_MESSAGE }),
  holidayId: z
    .string({ error: HOLIDAY_CLOSED_MESSAGE })
    .regex(/^[1-9]\d{0,15}$/, HOLIDAY_CLOSED_MESSAGE)
    .transform(Number)
    .refine(Number.isSafeInteger, HOLIDAY_CLOSED_MESSAGE),
  // Absent (a form from before issue 15.1): no check.
  fore: z.enum([HOLIDAY_INTENT.open, HOLIDAY_INTENT.closed, NO_ANSWER_SHOWN]).optional(),
});

/** The shown answer as the rule reads it: true/false/null, undefined when the form did not say. */
export function shownAnswer(fore: string | undefined): boolean | null | undefined {
  return fore === undefined ? undefined : fore === NO_ANSWER_SHOWN ? null : fore === HOLIDAY_INTENT.open;
}
