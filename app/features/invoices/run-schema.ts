// The invoice run's form (Fakturakörning): the period.
import { z } from "~/lib/zod";

export const InvoiceRunSchema = z.object({
  fran: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "Ange ett datum (ÅÅÅÅ-MM-DD)."),
  till: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "Ange ett datum (ÅÅÅÅ-MM-DD)."),
});
