// Extra invoice lines (Fakturaposter). The old client's "local list" is a server
// side draft per staff user (file_id null); 'Skicka' groups the drafts into an
// extra_invoice_files row, and `portal invoice run` bills lines that have a file.
import { and, asc, count, desc, eq, isNotNull, isNull } from "drizzle-orm";
import { getDb, schema, writeTransaction } from "~/db.server";
import { audit, type Actor } from "~/features/audit/audit.server";
import { grossFromNet, NEWSPAPER_VAT_MESSAGE, newspaperVatHolds, type InvoiceLineInput } from "./schemas";
import { refuse } from "~/lib/refusal";
import { portalNow } from "../../../db/clock";

export { InvoiceLineSchema, grossFromNet, parseKronor, type InvoiceLineInput } from "./schemas";

async function toRow(input: InvoiceLineInput) {
  const errors: Record<string, string> = {};
  const [customer] = await getDb().select({ id: schema.customers.id }).from(schema.customers).where(eq(schema.customers.id, input.customerNumber));
  if (!customer) errors.customerNumber = `Kund ${input.customerNumber} finns inte.`;
  if ((input.reclaimAmount ?? 0) > input.deliveredAmount) errors.reclaimAmount = "Får inte vara större än levererat antal.";
  if ((input.profitPercentage ?? 0) > 100) errors.profitPercentage = "Ange ett heltal 0–100.";
  if (!newspaperVatHolds(input)) errors.vat = NEWSPAPER_VAT_MESSAGE;
  const computed = input.productGroup === "Exponeringsutrustning";
  if (!computed && input.grossPrice === undefined) errors.grossPrice = "Obligatorisk.";
  if (Object.keys(errors).length > 0) throw refuse.invalid(Object.values(errors)[0], { fields: errors });
  return {
    magazineTitle: input.magazineTitle,
    customerId: input.customerNumber,
    productGroup: input.productGroup,
    articleId: input.articleId ?? "",
    articleName: input.articleName,
    editionId: input.editionId ?? null,
    productCode: input.productCode ?? "",
    deliveryDate: input.deliveryDate,
    deliveredAmount: input.deliveredAmount,
    reclaimAmount: input.reclaimAmount ?? 0,
    nettoPriceOre: input.nettoPrice,
    grossPriceOre: computed ? grossFromNet(input.nettoPrice, input.vat) : input.grossPrice!,
    vatPermille: input.vat * 10,
    profitPercentage: input.profitPercentage ?? 0,
    ediReferenceText: input.ediReferenceText ?? "",
  };
}

const lineColumns = () => {
  const x = schema.extraInvoiceLines;
  return {
    id: x.id,
    fileId: x.fileId,
    magazineTitle: x.magazineTitle,
    customerId: x.customerId,
    productGroup: x.productGroup,
    articleId: x.articleId,
    articleName: x.articleName,
    editionId: x.editionId,
    productCode: x.productCode,
    deliveryDate: x.deliveryDate,
    deliveredAmount: x.deliveredAmount,
    reclaimAmount: x.reclaimAmount,
    grossPriceOre: x.grossPriceOre,
    nettoPriceOre: x.nettoPriceOre,
    vatPermille: x.vatPermille,
    profitPercentage: x.profitPercentage,
    ediReferenceText: x.ediReferenceText,
  };
};

/** The staff user's draft lines (not yet sent). */
export function listDrafts(staffId: number) {
  const x = schema.extraInvoiceLines;
  return getDb()
    .select(lineColumns())
    .from(x)
    .where(and(isNull(x.fileId), isNull(x.invoiceId), eq(x.createdBy, staffId)))
    .orderBy(asc(x.id));
}

export async function getDraft(staffId: number, id: number) {
  const x = schema.extraInvoiceLines;
  const [row] = await getDb()
    .select(lineColumns())
    .from(x)
    .where(and(eq(x.id, id), isNull(x.fileId), eq(x.createdBy, staffId)));
  return row ?? null;
}

/** Adds a draft line, or changes one of the user's drafts when `id` is given. */
export async function saveDraft(staffId: number, input: InvoiceLineInput, actor: Actor, id?: number): Promise<number> {
  const row = await toRow(input);
  return writeTransaction(async (tx) => {
    const x = schema.extraInvoiceLines;
    let lineId = id;
    if (id) {
      const done = await tx
        .update(x)
        .set({ ...row, updatedAt: portalNow() })
        .where(and(eq(x.id, id), isNull(x.fileId), eq(x.createdBy, staffId)))
        .returning({ id: x.id });
      if (done.length === 0) throw refuse.invalid("Raden finns inte längre bland dina utkast.", { field: "articleName" });
    } else {
      [{ id: lineId }] = await tx.insert(x).values({ ...row, createdBy: staffId }).returning({ id: x.id });
    }
    await audit({ actor, action: id ? "extra-invoice.draft-update" : "extra-invoice.draft-add", target: `extra-invoice-line:${lineId}`, detail: row }, tx);
    return lineId!;
  });
}

export async function deleteDraft(staffId: number, id: number, actor: Actor): Promise<boolean> {
  return writeTransaction(async (tx) => {
    const x = schema.extraInvoiceLines;
    const gone = await tx.delete(x).where(and(eq(x.id, id), isNull(x.fileId), eq(x.createdBy, staffId))).returning();
    if (gone.length === 0) return false;
    await audit({ actor, action: "extra-invoice.draft-delete", target: `extra-invoice-line:${id}`, detail: gone[0] }, tx);
    return true;
  });
}

/** 'Skicka': the user's drafts become one file waiting for the invoice run. */
export async function sendDrafts(staffId: number, actor: Actor): Promise<{ fileId: number; count: number } | null> {
  return writeTransaction(async (tx) => {
    const x = schema.extraInvoiceLines;
    const drafts = await tx.select({ id: x.id }).from(x).where(and(isNull(x.fileId), isNull(x.invoiceId), eq(x.createdBy, staffId)));
    if (drafts.length === 0) return null;
    const [file] = await tx.insert(schema.extraInvoiceFiles).values({ createdBy: staffId }).returning({ id: schema.extraInvoiceFiles.id });
    await tx
      .update(x)
      .set({ fileId: file.id, updatedAt: portalNow() })
      .where(and(isNull(x.fileId), isNull(x.invoiceId), eq(x.createdBy, staffId)));
    await audit({ actor, action: "extra-invoice.send", target: `extra-invoice-file:${file.id}`, detail: { lines: drafts.length } }, tx);
    return { fileId: file.id, count: drafts.length };
  });
}

/** Sent lines waiting for invoicing, newest file first; `per` null means all. */
export async function listWaiting(page: number, per: number | null) {
  const x = schema.extraInvoiceLines;
  const where = and(isNotNull(x.fileId), isNull(x.invoiceId));
  const db = getDb();
  const base = db.select(lineColumns()).from(x).where(where).orderBy(desc(x.fileId), asc(x.id));
  const [lines, [{ n }]] = await Promise.all([
    per === null ? base : base.limit(per).offset((Math.max(1, page) - 1) * per),
    db.select({ n: count() }).from(x).where(where),
  ]);
  return { lines, total: n };
}

/** Deletes a sent line that is not invoiced yet. */
export async function deleteWaiting(id: number, actor: Actor): Promise<boolean> {
  return writeTransaction(async (tx) => {
    const x = schema.extraInvoiceLines;
    const gone = await tx.delete(x).where(and(eq(x.id, id), isNotNull(x.fileId), isNull(x.invoiceId))).returning();
    if (gone.length === 0) return false;
    await audit({ actor, action: "extra-invoice.delete", target: `extra-invoice-line:${id}`, detail: gone[0] }, tx);
    return true;
  });
}
