// The Messages form (back-office spec: Messages, §5), one schema for the browser and the
// action. The spec's texts: 'Måste välja typ!', 'Datum ej ifyllt is', 'Perioden felaktig'.
import { missing, rowId, rowRef, rowVersion } from "~/lib/form-fields";
import { z } from "~/lib/zod";

export const MESSAGE_TYPES = [
  { id: 1, label: "Leveransinformation" },
  { id: 2, label: "Följesedel" },
  { id: 3, label: "Kundmeddelande" },
  { id: 4, label: "Returrapportering" },
] as const;

/** Types 3 and 4 may be addressed to some customers; 1 and 2 are for all. */
export const TYPES_WITH_CUSTOMERS: readonly number[] = [3, 4];

export const TYPES_WITHOUT_CUSTOMERS_MESSAGE =
  "Leveransinformation och Följesedel går till alla kunder. Töm Kundnummer, eller välj Kundmeddelande eller Returrapportering.";

export const MESSAGE_HEADER_MAX = 200;
export const MESSAGE_CONTENT_MAX = 20_000;

const DATE = /^\d{4}-\d{2}-\d{2}$/;

export const MessageSaveSchema = z
  .object({
    intent: z.literal("save").optional(),
    id: rowId("Meddelandet finns inte.").optional(),
    version: rowVersion(),
    type: z.enum(["1", "2", "3", "4"], { error: "Måste välja typ!" }),
    startDate: z.string({ error: "Datum ej ifyllt is" }).regex(DATE, "Datum ej ifyllt is"),
    stopDate: z.string().regex(DATE, "Perioden felaktig").optional(),
    header: z.string().trim().max(MESSAGE_HEADER_MAX, `Rubriken får vara högst ${MESSAGE_HEADER_MAX} tecken.`).optional(),
    content: z.string({ error: missing("Innehåll saknas") }).max(MESSAGE_CONTENT_MAX, "Innehållet får vara högst 20 000 tecken."),
    customers: z.string().max(100_000, "Högst 100 000 tecken.").optional(),
    /** Sent by "Spara ändå" once the admin has seen that the message reaches every retailer. */
    confirmed: z.literal("1").optional(),
  })
  .refine((v) => !v.stopDate || v.stopDate >= v.startDate, { message: "Perioden felaktig", path: ["stopDate"] })
  // A list is never dropped silently: types 1 and 2 go to everybody (messages.server.ts).
  .refine((v) => TYPES_WITH_CUSTOMERS.includes(Number(v.type)) || !v.customers?.trim(), { message: TYPES_WITHOUT_CUSTOMERS_MESSAGE, path: ["customers"] });

export const MessageDeleteSchema = z.object({ intent: z.literal("delete"), id: rowRef() });

/** What the Messages screen posts: a save (the form) or a delete (a row's button). */
export const MessageActionSchema = z.discriminatedUnion("intent", [MessageSaveSchema, MessageDeleteSchema]);
