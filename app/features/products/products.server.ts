// Product information (Produkt information): product, account and article codes per
// title and edition, optionally for one delivery date. Read by invoicing.
import { and, asc, eq, isNull, ne } from "drizzle-orm";
import { getDb, schema, writeTransaction } from "~/db.server";
import { audit, type Actor } from "~/features/audit/audit.server";
import { isValidDate } from "~/lib/dates";
import { refuse } from "~/lib/refusal";
import { nextVersion } from "~/lib/row-version.server";

export type ProductInput = {
  id?: number;
  /** The `updated_at` the edit form was opened on: a save over a newer row is refused. */
  version?: number;
  titleId: number;
  editionId: number;
  deliveryDate?: string | null;
  productCode: string;
  accountCode: string;
  articleId?: string | null;
};

export type ProductErrors = Partial<Record<"edition" | "deliveryDate" | "productCode" | "accountCode" | "articleId", string>>;

export const PRODUCT_CONFLICT =
  "Produktinformationen har ändrats i en annan flik eller av någon annan sedan du öppnade den. Det som är sparat nu visas nedan; dina ändringar finns kvar i formuläret. Tryck Uppdatera igen för att spara dina ändringar över det.";

/** All editions with their title, for the form's select. */
export function listEditions() {
  const e = schema.editions;
  return getDb()
    .select({ titleId: e.titleId, editionId: e.editionId, description: e.description, code: e.code, type: e.type })
    .from(e)
    .orderBy(asc(e.titleId), asc(e.type), asc(e.editionId));
}

export function listTitles() {
  return getDb().select().from(schema.titles).orderBy(asc(schema.titles.id));
}

/** All product information rows with the edition name, by title then edition. */
export function listProducts() {
  const p = schema.productInformation;
  const e = schema.editions;
  return getDb()
    .select({
      id: p.id,
      titleId: p.titleId,
      editionId: p.editionId,
      edition: e.description,
      deliveryDate: p.deliveryDate,
      productCode: p.productCode,
      accountCode: p.accountCode,
      articleId: p.articleId,
    })
    .from(p)
    .leftJoin(e, and(eq(e.titleId, p.titleId), eq(e.editionId, p.editionId)))
    .orderBy(asc(p.titleId), asc(p.editionId), asc(p.deliveryDate), asc(p.id));
}

export async function getProduct(id: number) {
  const [row] = await getDb().select().from(schema.productInformation).where(eq(schema.productInformation.id, id));
  return row ?? null;
}

/**
 * Saves a row; an empty articleId takes the edition's code (back-office 5). Refuses
 * (invalid, with the message per field) a row that breaks the rules, and an update of
 * a row that is gone.
 */
/** The refusal of a second product information row for the same key. */
export function productTaken(edition: string, deliveryDate: string | null): string {
  return deliveryDate
    ? `Det finns redan produktinformation för ${edition} med leveransdatum ${deliveryDate}. Ändra den raden i stället.`
    : `Det finns redan produktinformation för ${edition} utan leveransdatum. Ändra den raden i stället.`;
}

export async function saveProduct(input: ProductInput, actor: Actor): Promise<number> {
  const errors: ProductErrors = {};
  const [edition] = await getDb()
    .select()
    .from(schema.editions)
    .where(and(eq(schema.editions.titleId, input.titleId), eq(schema.editions.editionId, input.editionId)));
  if (!edition) errors.edition = "Utgåvan hör inte till titeln.";
  if (input.deliveryDate && !isValidDate(input.deliveryDate)) errors.deliveryDate = "Ogiltigt datum (ÅÅÅÅ-MM-DD).";
  if (!input.productCode.trim()) errors.productCode = "Obligatorisk.";
  if (!input.accountCode.trim()) errors.accountCode = "Obligatorisk.";
  if (Object.keys(errors).length > 0) throw refuse.invalid(Object.values(errors)[0]!, { fields: errors });
  const values = {
    titleId: input.titleId,
    editionId: input.editionId,
    deliveryDate: input.deliveryDate || null,
    productCode: input.productCode.trim(),
    accountCode: input.accountCode.trim(),
    articleId: input.articleId?.trim() || edition.code,
  };
  return writeTransaction(async (tx) => {
    let id = input.id;
    // One row per title, edition and delivery date (none = the default row): a second is
    // refused, checked inside the write transaction, so two saves at once
    // cannot both add it.
    const p = schema.productInformation;
    const [twin] = await tx
      .select({ id: p.id })
      .from(p)
      .where(
        and(
          eq(p.titleId, values.titleId),
          eq(p.editionId, values.editionId),
          values.deliveryDate === null ? isNull(p.deliveryDate) : eq(p.deliveryDate, values.deliveryDate),
          id ? ne(p.id, id) : undefined,
        ),
      )
      .limit(1);
    if (twin) throw refuse.invalid(productTaken(edition.description, values.deliveryDate), { field: "edition" });
    if (id) {
      const done = await tx
        .update(p)
        .set({ ...values, updatedAt: nextVersion(p.updatedAt) })
        .where(input.version === undefined ? eq(p.id, id) : and(eq(p.id, id), eq(p.updatedAt, input.version)))
        .returning({ id: p.id });
      if (done.length === 0) {
        const [still] = await tx.select({ id: p.id }).from(p).where(eq(p.id, id));
        if (still) throw refuse.conflict(PRODUCT_CONFLICT, { field: "version" });
        throw refuse.invalid("Raden finns inte längre.", { field: "productCode" });
      }
    } else {
      [{ id }] = await tx.insert(schema.productInformation).values(values).returning({ id: schema.productInformation.id });
    }
    await audit({ actor, action: input.id ? "product.update" : "product.add", target: `product:${id}`, detail: values }, tx);
    return id!;
  });
}

export async function deleteProduct(id: number, actor: Actor): Promise<boolean> {
  return writeTransaction(async (tx) => {
    const gone = await tx.delete(schema.productInformation).where(eq(schema.productInformation.id, id)).returning();
    if (gone.length === 0) return false;
    await audit({ actor, action: "product.delete", target: `product:${id}`, detail: gone[0] }, tx);
    return true;
  });
}
