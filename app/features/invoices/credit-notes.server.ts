// Credit notes (kreditfakturor, decision 032): an admin credits an issued invoice, whole or
// chosen lines, with a reason. The credit note has its own number series, names the invoice
// and its date (mervärdesskattelagen 17 kap. 22 §), carries the invoice's buyer and seller,
// negative amounts with VAT per rate, and is never changed (triggers, migration 0022). Each
// invoice line is credited at most once; the invoice's status says it was credited.
import { and, asc, desc, eq, inArray, max } from "drizzle-orm";
import { config } from "~/config.server";
import { getDb, schema, writeTransaction, type InvoiceBuyer, type InvoiceSeller } from "~/db.server";
import { audit, type Actor } from "~/features/audit/audit.server";
import { today } from "~/lib/dates";
import { vatPerRate } from "~/lib/money";
import { refuse } from "~/lib/refusal";
import { portalNow } from "../../../db/clock";

export const FIRST_CREDIT_NOTE_NUMBER = 900001;
export const CREDIT_REASON_MAX = 500;

export const CREDIT_NOTE_TEXTS = {
  reasonRequired: "Ange varför fakturan krediteras.",
  reasonTooLong: `Högst ${CREDIT_REASON_MAX} tecken.`,
  noInvoice: (n: number) => `Faktura ${n} finns inte.`,
  noLine: (id: number, n: number) => `Rad ${id} finns inte på faktura ${n}.`,
  lineCredited: (n: number) => `Raden är redan krediterad på faktura ${n}.`,
  allCredited: (n: number) => `Faktura ${n} är redan krediterad i sin helhet.`,
  /** What the credit note says of the invoice it credits. */
  creditOf: (n: number, date: string) => `Kreditering av faktura ${n} daterad ${date}`,
} as const;

export type CreditNoteResult = { number: number; invoice: number; netOre: number; vatOre: number; amountOre: number; lines: number };

/**
 * Credits invoice `invoiceNumber`: the chosen lines (their ids), or every line not yet
 * credited. Refused: no reason, an unknown invoice or line ("not-found"), a line already
 * credited or nothing left to credit ("conflict").
 */
export async function creditInvoice(input: { invoiceNumber: number; reason: string; lineIds?: number[]; actor: Actor; date?: string }): Promise<CreditNoteResult> {
  const reason = input.reason.trim();
  if (reason === "") throw refuse.invalid(CREDIT_NOTE_TEXTS.reasonRequired, { field: "motivering" });
  if (reason.length > CREDIT_REASON_MAX) throw refuse.invalid(CREDIT_NOTE_TEXTS.reasonTooLong, { field: "motivering" });
  return writeTransaction(async (tx) => {
    const inv = schema.invoices;
    const [invoice] = await tx.select().from(inv).where(eq(inv.number, input.invoiceNumber));
    if (!invoice) throw refuse.notFound(CREDIT_NOTE_TEXTS.noInvoice(input.invoiceNumber));
    const lines = await tx.select().from(schema.invoiceLines).where(eq(schema.invoiceLines.invoiceId, invoice.id)).orderBy(asc(schema.invoiceLines.id));
    const credited = new Set(
      (await tx.select({ id: schema.creditNoteLines.invoiceLineId }).from(schema.creditNoteLines).where(inArray(schema.creditNoteLines.invoiceLineId, lines.map((l) => l.id).concat(-1)))).map((r) => r.id),
    );
    let chosen = lines.filter((l) => !credited.has(l.id));
    if (input.lineIds && input.lineIds.length > 0) {
      const wanted = [...new Set(input.lineIds)];
      for (const id of wanted) {
        if (!lines.some((l) => l.id === id)) throw refuse.notFound(CREDIT_NOTE_TEXTS.noLine(id, invoice.number), { field: "rad" });
        if (credited.has(id)) throw refuse.conflict(CREDIT_NOTE_TEXTS.lineCredited(invoice.number), { field: "rad" });
      }
      chosen = lines.filter((l) => wanted.includes(l.id));
    }
    if (chosen.length === 0) throw refuse.conflict(CREDIT_NOTE_TEXTS.allCredited(invoice.number));
    const creditLines = chosen.map((l) => ({ invoiceLineId: l.id, description: l.description, quantity: -l.quantity, unitPriceOre: l.unitPriceOre, vatPermille: l.vatPermille, netOre: -l.netOre }));
    const netOre = creditLines.reduce((s, l) => s + l.netOre, 0);
    const vatOre = vatPerRate(creditLines).reduce((s, r) => s + r.vatOre, 0);
    const cn = schema.creditNotes;
    const [{ top }] = await tx.select({ top: max(cn.number) }).from(cn);
    const number = Math.max(FIRST_CREDIT_NOTE_NUMBER, (top ?? 0) + 1);
    const [note] = await tx
      .insert(cn)
      .values({
        number,
        invoiceId: invoice.id,
        customerId: invoice.customerId,
        paperType: invoice.paperType,
        date: input.date ?? today(),
        reason,
        netOre,
        vatOre,
        amountOre: netOre + vatOre,
        buyer: invoice.buyer,
        seller: invoice.seller ?? config.seller,
        actor: input.actor.id,
      })
      .returning({ id: cn.id });
    await tx.insert(schema.creditNoteLines).values(creditLines.map((l) => ({ ...l, creditNoteId: note.id })));
    const whole = lines.every((l) => credited.has(l.id) || chosen.includes(l));
    await tx.update(inv).set({ status: whole ? "Krediterad" : "Delvis krediterad", updatedAt: portalNow() }).where(eq(inv.id, invoice.id));
    await audit({ actor: input.actor, action: "invoice.credit", target: `invoice:${invoice.number}`, detail: { creditNote: number, customer: invoice.customerId, lines: chosen.map((l) => l.id), amountOre: netOre + vatOre, reason } }, tx);
    return { number, invoice: invoice.number, netOre, vatOre, amountOre: netOre + vatOre, lines: chosen.length };
  });
}

export type CreditNoteDocument = {
  note: typeof schema.creditNotes.$inferSelect;
  invoice: { number: number; date: string; periodFrom: string; periodTo: string };
  customer: InvoiceBuyer;
  seller: InvoiceSeller | null;
  lines: { description: string; quantity: number; unitPriceOre: number; vatPermille: number; netOre: number }[];
};

/** Credit note `number` if it belongs to `customerId`, else null. */
export async function getCreditNoteDocument(number: number, customerId: number): Promise<CreditNoteDocument | null> {
  const cn = schema.creditNotes;
  const [row] = await getDb()
    .select({ note: cn, invoice: { number: schema.invoices.number, date: schema.invoices.date, periodFrom: schema.invoices.periodFrom, periodTo: schema.invoices.periodTo } })
    .from(cn)
    .innerJoin(schema.invoices, eq(schema.invoices.id, cn.invoiceId))
    .where(and(eq(cn.number, number), eq(cn.customerId, customerId)));
  if (!row || !row.note.buyer) return null;
  const l = schema.creditNoteLines;
  const lines = await getDb()
    .select({ description: l.description, quantity: l.quantity, unitPriceOre: l.unitPriceOre, vatPermille: l.vatPermille, netOre: l.netOre })
    .from(l)
    .where(eq(l.creditNoteId, row.note.id))
    .orderBy(asc(l.id));
  return { note: row.note, invoice: row.invoice, customer: row.note.buyer, seller: row.note.seller, lines };
}

/** The customer's credit notes per credited invoice number, newest first. One query. */
export async function creditNotesByInvoice(customerId: number): Promise<Map<number, { number: number; date: string; amountOre: number }[]>> {
  const cn = schema.creditNotes;
  const rows = await getDb()
    .select({ invoice: schema.invoices.number, number: cn.number, date: cn.date, amountOre: cn.amountOre })
    .from(cn)
    .innerJoin(schema.invoices, eq(schema.invoices.id, cn.invoiceId))
    .where(eq(cn.customerId, customerId))
    .orderBy(desc(cn.number));
  const out = new Map<number, { number: number; date: string; amountOre: number }[]>();
  for (const r of rows) out.set(r.invoice, [...(out.get(r.invoice) ?? []), { number: r.number, date: r.date, amountOre: r.amountOre }]);
  return out;
}

/** One invoice of the customer's with its lines and what of them was credited, for staff's Kreditera. */
export async function invoiceForCredit(number: number, customerId: number) {
  const inv = schema.invoices;
  const [invoice] = await getDb().select().from(inv).where(and(eq(inv.number, number), eq(inv.customerId, customerId)));
  if (!invoice) return null;
  const l = schema.invoiceLines;
  const cl = schema.creditNoteLines;
  const lines = await getDb()
    .select({ id: l.id, description: l.description, quantity: l.quantity, unitPriceOre: l.unitPriceOre, vatPermille: l.vatPermille, netOre: l.netOre, creditNote: schema.creditNotes.number })
    .from(l)
    .leftJoin(cl, eq(cl.invoiceLineId, l.id))
    .leftJoin(schema.creditNotes, eq(schema.creditNotes.id, cl.creditNoteId))
    .where(eq(l.invoiceId, invoice.id))
    .orderBy(asc(l.id));
  const notes = (await creditNotesByInvoice(customerId)).get(number) ?? [];
  return { invoice, lines, notes };
}
