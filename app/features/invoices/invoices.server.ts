// Invoices and guarantee amounts as the retailer sees them (spec 2.11), and the
// data of one invoice for its PDF. The invoice run itself is invoicing.server.ts.
import { LEDGER_TITLE, PAPER_TYPE_HEADING } from "~/catalog";
import { and, asc, desc, eq } from "drizzle-orm";
import { getDb, schema } from "~/db.server";
import type { InvoiceBuyer } from "~/db.server";
import { stockholmDate } from "~/lib/dates";
import { refuse } from "~/lib/refusal";
import { readSpecification, type InvoiceSpecification } from "./invoice-specification.server";


export type InvoiceListRow = {
  number: number;
  date: string;
  dueDate: string;
  amountOre: number;
  status: string;
};

/** The customer's invoices per paper type (0, 1), newest first. One query on invoices_customer. */
export async function listInvoices(customerId: number): Promise<{ paperType: number; name: string; invoices: InvoiceListRow[] }[]> {
  const i = schema.invoices;
  const rows = await getDb()
    .select({ paperType: i.paperType, number: i.number, date: i.date, dueDate: i.dueDate, amountOre: i.amountOre, status: i.status })
    .from(i)
    .where(eq(i.customerId, customerId))
    .orderBy(asc(i.paperType), desc(i.date), desc(i.number));
  return [0, 1].map((paperType) => ({
    paperType,
    name: PAPER_TYPE_HEADING[paperType],
    invoices: rows.filter((r) => r.paperType === paperType).map(({ paperType: _p, ...r }) => r),
  }));
}

export type GuaranteeRow = { id: number; amountOre: number; ledger: number; title: string; refunded: boolean; refundDate: string | null };

/** The customer's guarantee amounts (garantibelopp), newest first. */
export async function listGuarantees(customerId: number): Promise<GuaranteeRow[]> {
  const g = schema.guarantees;
  const rows = await getDb()
    .select({ id: g.id, amountOre: g.amountOre, ledger: g.ledger, completedAt: g.completedAt })
    .from(g)
    .where(eq(g.customerId, customerId))
    .orderBy(desc(g.id));
  // Refunded once the payout is marked done (the money has moved), not when staff add it to one.
  return rows.map(({ completedAt, ...r }) => ({
    ...r,
    refunded: completedAt !== null,
    refundDate: completedAt === null ? null : stockholmDate(new Date(completedAt)),
    title: (LEDGER_TITLE as Record<number, string>)[r.ledger] ?? `Reskontra ${r.ledger}`,
  }));
}

export type InvoiceDocument = {
  invoice: typeof schema.invoices.$inferSelect;
  /** The buyer as it was when the invoice was made (decision 021). */
  customer: InvoiceBuyer;
  lines: { description: string; quantity: number; unitPriceOre: number; vatPermille: number; netOre: number }[];
  /** Per paper and day what the paper lines are made of (decision 038); null on invoices made before it was recorded. */
  specification?: InvoiceSpecification | null;
};

/**
 * The stored record of invoice `number` if it belongs to `customerId`, else null: what it
 * showed the day it was made, whatever changed since (decision 021). Refuses ("conflict")
 * when its lines are missing or do not add up to the invoice's net amount, or its buyer
 * was never recorded: such an invoice exists but is never printed.
 */
export async function getInvoiceDocument(invoiceNumber: number, customerId: number): Promise<InvoiceDocument | null> {
  const i = schema.invoices;
  const db = getDb();
  const [invoice] = await db
    .select()
    .from(i)
    .where(and(eq(i.number, invoiceNumber), eq(i.customerId, customerId)));
  if (!invoice) return null;
  const l = schema.invoiceLines;
  const lines = await db
    .select({ description: l.description, quantity: l.quantity, unitPriceOre: l.unitPriceOre, vatPermille: l.vatPermille, netOre: l.netOre })
    .from(l)
    .where(eq(l.invoiceId, invoice.id))
    .orderBy(asc(l.id));
  const sum = lines.reduce((s, line) => s + line.netOre, 0);
  if (lines.length === 0 || sum !== invoice.netOre || !invoice.buyer) {
    throw refuse.conflict(`Faktura ${invoiceNumber} saknar rader eller raderna stämmer inte med summan.`);
  }
  return { invoice, customer: invoice.buyer, lines, specification: invoice.specification ? readSpecification(invoice.specification) : null };
}
