// The alerts dialog's 'Stäng': where to go back to (checked by safeRedirect; anything
// that is not one path goes home).
import { z } from "~/lib/zod";

export const closeAlertsSchema = z.object({
  redirectTo: z.unknown().optional().transform((v) => {
    const to = Array.isArray(v) ? v[0] : v;
    return typeof to === "string" ? to : undefined;
  }),
});
