// The retailer's Helgspärr answer: Öppet or Stängt for one holiday. The customer comes
// from the session; the form names only the holiday.
import { z } from "~/lib/zod";
import { HOLIDAY_CLOSED_MESSAGE, HOLIDAY_INTENT, NO_ANSWER_SHOWN } from "./answer-words";

export const holidayAnswerSchema = z.object({
  intent: z.enum([HOLIDAY_INTENT.open, HOLIDAY_INTENT.closed], { error: HOLIDAY_CLOSED_MESSAGE }),
  holidayId: z
    .string({ error: HOLIDAY_CLOSED_MESSAGE })
    .regex(/^[1-9]\d{0,15}$/, HOLIDAY_CLOSED_MESSAGE)
    .transform(Number)
    .refine(Number.isSafeInteger, HOLIDAY_CLOSED_MESSAGE),
  // Absent (a form from before the check existed): no check.
  fore: z.enum([HOLIDAY_INTENT.open, HOLIDAY_INTENT.closed, NO_ANSWER_SHOWN]).optional(),
});
