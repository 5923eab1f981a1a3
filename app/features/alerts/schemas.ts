// The alerts dialog's 'Stäng': where to go back to (checked by safeRedirect).
import { z } from "~/lib/zod";

export const closeAlertsSchema = z.object({
  redirectTo: z.preprocess((v) => (Array.isArray(v) ? v[0] : v), z.string().optional()),
});
