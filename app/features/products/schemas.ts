// The forms of Produkt information and Dagens produkter: one schema each for the
// browser and the action.
import { missing, rowId, rowRef, rowVersion } from "~/lib/form-fields";
import { isValidDate } from "~/lib/dates";
import { parseKronor } from "~/lib/money";
import { z } from "~/lib/zod";

const required = { error: missing("Obligatorisk.") };
const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** "titleId:editionId": edition ids repeat across titles. */
const EDITION = /^\d{1,9}:\d{1,9}$/;

/** The edition select's value, "titleId:editionId", as numbers. */
export function splitEdition(value: string): { titleId: number; editionId: number } {
  const [titleId, editionId] = value.split(":").map(Number);
  return { titleId, editionId };
}

const titleField = () => z.string({ error: "Välj titel." }).regex(/^[1-9]\d{0,8}$/, "Välj titel.").transform(Number);
const editionField = () => z.string({ error: "Välj utgåva." }).regex(EDITION, "Välj utgåva.");

/** An edition must be one of the chosen title's (the server checks it exists). */
function editionOfTitle(v: { titleId: number; edition: string }) {
  return splitEdition(v.edition).titleId === v.titleId;
}
const NOT_OF_TITLE = { message: "Utgåvan hör inte till titeln.", path: ["edition"] };

export const ProductSaveSchema = z
  .object({
    intent: z.literal("save").optional(),
    id: rowId("Raden finns inte.").optional(),
    version: rowVersion(),
    titleId: titleField(),
    edition: editionField(),
    deliveryDate: z.string().regex(DATE, "Ogiltigt datum (ÅÅÅÅ-MM-DD).").optional(),
    productCode: z.string(required).trim().min(1, "Obligatorisk.").max(40, "Högst 40 tecken."),
    accountCode: z.string(required).trim().min(1, "Obligatorisk.").max(40, "Högst 40 tecken."),
    articleId: z.string().trim().max(40, "Högst 40 tecken.").optional(),
  })
  .refine(editionOfTitle, NOT_OF_TITLE);

export const ProductDeleteSchema = z.object({ intent: z.literal("delete"), id: rowRef() });

export const ProductActionSchema = z.discriminatedUnion("intent", [ProductSaveSchema, ProductDeleteSchema]);

/** Dagens produkter: what both buttons need (title, edition, date, description). */
const dailyProductFields = {
  titleId: titleField(),
  edition: editionField(),
  date: z.string(required).trim().regex(DATE, "Ogiltigt datum (ÅÅÅÅ-MM-DD)."),
  extraDescription: z.string().max(500, "Högst 500 tecken.").optional(),
};

/** The form as the browser checks it, whichever button is pressed (the server checks the file). */
export const DailyProductFormSchema = z.object({ ...dailyProductFields, file: z.instanceof(File).optional() }).refine(editionOfTitle, NOT_OF_TITLE);

/** The action: Spara beskrivning, or Ladda upp omslag (which needs a file). */
export const DailyProductActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("describe"), ...dailyProductFields }).refine(editionOfTitle, NOT_OF_TITLE),
  z
    .object({ intent: z.literal("upload"), ...dailyProductFields, file: z.instanceof(File, { error: "Välj en bild." }) })
    .refine(editionOfTitle, NOT_OF_TITLE),
]);

/** A product's EAN: 8–14 digits (the products file's rule too). */
export const EAN_CODE = /^\d{8,14}$/;
export const EAN_RULE = "EAN-koden är 8–14 siffror.";
export const LAST_DAY_RULE = "Sista dag kan inte vara före första dag.";
export const PRICE_RULE = "Ange ett pris i kronor, till exempel 29,00.";

/** A daily product's price in öre, the form's (in kronor) and the products file's (price_ore) alike. */
export const PRICE_ORE = { min: 1, max: 10_000_000 };

const kronorPrice = () =>
  z
    .string(required)
    .refine((v) => {
      const ore = parseKronor(v);
      return ore !== null && ore >= PRICE_ORE.min && ore <= PRICE_ORE.max;
    }, PRICE_RULE)
    .transform((v) => parseKronor(v)!);

/**
 * A daily product's details, one rule and one message each: Ny produkt and the products
 * file (`portal import products`) check a heading, a description or an EAN alike.
 */
export const productDetail = {
  heading: () => z.string().trim().max(100, "Högst 100 tecken.").optional().transform((v) => v ?? ""),
  description: () => z.string(required).trim().min(1, "Obligatorisk.").max(200, "Högst 200 tecken."),
  eanCode: () =>
    z
      .string()
      .trim()
      .optional()
      .transform((v) => v ?? "")
      .refine((v) => v === "" || EAN_CODE.test(v), EAN_RULE),
};

/** The last day is the first day or later (checked once both are dates). */
export function lastDayNotBeforeFirst<K extends string>(
  first: K,
  last: K,
): [(v: Record<K, string>) => boolean, { message: string; path: string[]; when: (payload: { value: unknown }) => boolean }] {
  const bothDates = ({ value }: { value: unknown }) => {
    const v = value as Record<K, unknown>;
    return typeof v[first] === "string" && typeof v[last] === "string" && isValidDate(v[first]) && isValidDate(v[last]);
  };
  // Checked whenever both days are dates, beside any other field's problem, so a form or a
  // file's line says every problem at once.
  return [(v) => v[last] >= v[first], { message: LAST_DAY_RULE, path: [last], when: bothDates }];
}

/** Ny produkt: create a product for title, edition and first day, or price the one there is. */
export const DailyProductCreateSchema = z
  .object({
    titleId: titleField(),
    edition: editionField(),
    date: z.string(required).trim().regex(DATE, "Ogiltigt datum (ÅÅÅÅ-MM-DD)."),
    endDate: z.string(required).trim().regex(DATE, "Ogiltigt datum (ÅÅÅÅ-MM-DD)."),
    heading: productDetail.heading(),
    description: productDetail.description(),
    price: kronorPrice(),
    eanCode: productDetail.eanCode(),
  })
  .refine(editionOfTitle, NOT_OF_TITLE)
  .refine(...lastDayNotBeforeFirst("date", "endDate"));
