// The delivery note's row form (spec 2.6, 5): 'Mottagit' for one delivery. The amount's
// rules (negative, unreasonable) are the save's own (checkReceived), so the page and a
// forged form get the same answers; the schema gives the form its shape.
import { z } from "~/lib/zod";

export const RECEIVED_INTENT = "spara-mottaget";
export const NOT_ON_NOTE = "Leveransen finns inte på din följesedel.";
const BAD_REQUEST = "Ogiltig förfrågan.";

export const receivedSchema = z.object({
  intent: z.literal(RECEIVED_INTENT, { error: BAD_REQUEST }),
  deliveryId: z
    .string({ error: BAD_REQUEST })
    .regex(/^[1-9]\d{0,15}$/, BAD_REQUEST)
    .transform(Number)
    .refine(Number.isSafeInteger, BAD_REQUEST),
  mottagit: z.string().optional(),
});
