// The invoice forms' schemas (Fakturering): the action parses with them and the screen
// validates with the same ones in the browser (app/ui/form.tsx). Client-safe.
import { CUSTOMER_NUMBER } from "~/catalog";
import { MAGAZINES, NEWSPAPER_GROUPS, NEWSPAPER_VAT, PRODUCT_GROUPS } from "~/catalog";
import { isValidDate } from "~/lib/dates";
import { parseId } from "~/lib/ids";
import { parseKronor } from "~/lib/money";
import { z } from "~/lib/zod";

export { parseKronor } from "~/lib/money";

/** grossPrice = nettoPrice × (1 + vat/100), rounded to whole öre (back-office 5). */
export function grossFromNet(nettoOre: number, vatPercent: number): number {
  return Math.round((nettoOre * (100 + vatPercent)) / 100);
}

const required = { error: "Obligatorisk." };
const kronor = (msg: string) =>
  z.string(required).refine((v) => parseKronor(v) !== null, msg).transform((v) => parseKronor(v)!);
const wholeNumber = z.string(required).regex(/^\d{1,6}$/, "Ange ett heltal.").transform(Number);

/** The form of one line (all values arrive as text). */
export const InvoiceLineSchema = z.object({
  magazineTitle: z.enum(MAGAZINES, required),
  customerNumber: z.string(required).regex(CUSTOMER_NUMBER, "Kundnummer är 1–5 siffror.").transform(Number),
  productGroup: z.enum(PRODUCT_GROUPS, required),
  articleId: z.string().trim().max(40, "Högst 40 tecken.").optional(),
  articleName: z.string(required).trim().min(1, "Obligatorisk.").max(100, "Högst 100 tecken."),
  editionId: z.string().regex(/^\d{1,4}$/, "Ange ett heltal.").transform(Number).optional(),
  productCode: z.string().trim().max(40, "Högst 40 tecken.").optional(),
  deliveryDate: z.string(required).refine(isValidDate, "Ogiltigt datum (ÅÅÅÅ-MM-DD)."),
  deliveredAmount: wholeNumber,
  reclaimAmount: z.string().regex(/^\d{1,6}$/, "Ange ett heltal.").transform(Number).optional(),
  grossPrice: kronor("Ange ett belopp i kronor, t.ex. 12,50.").optional(),
  nettoPrice: kronor("Ange ett belopp i kronor, t.ex. 12,50."),
  vat: z.enum(["0", "6", "12", "25"], { error: "Välj moms." }).transform(Number),
  profitPercentage: z.string().regex(/^\d{1,3}$/, "Ange ett heltal 0–100.").transform(Number).optional(),
  ediReferenceText: z.string().trim().max(100, "Högst 100 tecken.").optional(),
});
export type InvoiceLineInput = z.output<typeof InvoiceLineSchema>;

/** A row's id from a hidden field; a forged one is null (answered "not found"). */
const rowId = z.string().optional().transform((v) => parseId(v));

/** The line form: a new draft, or a change of one (`id`). */
export const NEWSPAPER_VAT_MESSAGE = `Tidningar (Huvudtidning, Bilaga) har ${NEWSPAPER_VAT} % moms.`;
/** A newspaper line (Huvudtidning, Bilaga) carries the newspapers' VAT; other groups any option. */
export const newspaperVatHolds = (line: { productGroup: string; vat: number }) => !NEWSPAPER_GROUPS.includes(line.productGroup) || line.vat === NEWSPAPER_VAT;
export const SaveLineSchema = InvoiceLineSchema.extend({ intent: z.literal("save-line"), id: rowId }).refine(newspaperVatHolds, { path: ["vat"], error: NEWSPAPER_VAT_MESSAGE });

function isChosenFile(v: unknown): v is File {
  if (typeof v !== "object" || v === null || typeof (v as Blob).arrayBuffer !== "function") return false;
  const f = v as File;
  return f.size > 0 || !!f.name;
}

/** The upload form of Exponeringsutrustning (CSV, checked on the server). */
export const UploadOrdersSchema = z.object({
  intent: z.literal("upload"),
  // Any chosen file (an empty file input sends a nameless empty one); the server
  // checks the name and the content.
  file: z.custom<File>((v) => isChosenFile(v), { error: "Vänligen välj en fil först" }),
});

/** Every form of the Fakturering screen, told apart by the button's intent. */
export const InvoiceActionSchema = z.discriminatedUnion("intent", [
  SaveLineSchema,
  z.object({ intent: z.literal("delete-draft"), id: rowId }),
  z.object({ intent: z.literal("send") }),
  z.object({ intent: z.literal("delete-waiting"), id: rowId }),
  UploadOrdersSchema,
  z.object({ intent: z.literal("transfer") }),
  z.object({ intent: z.literal("delete-order"), id: rowId }),
  z.object({ intent: z.literal("delete-order-file"), id: rowId }),
]);

/** Kreditera (decision 032): the invoice, the lines chosen (none: every line not yet credited) and the reason. */
export const CreditInvoiceSchema = z.object({
  intent: z.literal("kreditera", { error: "Ogiltig förfrågan." }),
  faktura: z.string({ error: "Ogiltig förfrågan." }).regex(/^[1-9]\d{0,9}$/, "Ogiltig förfrågan.").transform(Number),
  rad: z.preprocess((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]), z.array(z.string().regex(/^[1-9]\d{0,15}$/, "Ogiltig förfrågan.").transform(Number))),
  motivering: z.string({ error: "Ange varför fakturan krediteras." }).trim().min(1, "Ange varför fakturan krediteras.").max(500, "Högst 500 tecken."),
});
