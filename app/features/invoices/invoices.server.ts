// Invoices and guarantee amounts as the retailer sees them (spec 2.11), and the
// data of one invoice for its PDF. The invoice run itself is invoicing.server.ts.
import { LEDGER_TITLE, PAPER_TYPE_HEADING } from "~/catalog";
import { and, asc, desc, eq } from "drizzle-orm";
import { getDb, schema } from "~/db.server";
import { refuse } from "~/lib/refusal";


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
    .select({ id: g.id, amountOre: g.amountOre, ledger: g.ledger, refunded: g.refunded, refundDate: g.refundDate })
    .from(g)
    .where(eq(g.customerId, customerId))
    .orderBy(desc(g.id));
  return rows.map((r) => ({ ...r, title: (LEDGER_TITLE as Record<number, string>)[r.ledger] ?? `Reskontra ${r.ledger}` }));
}

export type InvoiceDocument = {
  invoice: typeof schema.invoices.$inferSelect;
  customer: { id: number; name: string; address: string; coAddress: string; zip: string; city: string; orgNumber: string };
  lines: { description: string; quantity: number; unitPriceOre: number; vatPermille: number; netOre: number }[];
};

/**
 * The stored data of invoice `number` if it belongs to `customerId`, else null.
 * Refuses ("conflict") when its lines are missing or do not add up to the invoice's
 * net amount: such an invoice exists but is never printed.
 */
export async function getInvoiceDocument(invoiceNumber: number, customerId: number): Promise<InvoiceDocument | null> {
  const i = schema.invoices;
  const c = schema.customers;
  const db = getDb();
  const [found] = await db
    .select({
      invoice: i,
      customer: { id: c.id, name: c.name, address: c.address, coAddress: c.coAddress, zip: c.zip, city: c.city, orgNumber: c.orgNumber },
    })
    .from(i)
    .innerJoin(c, eq(c.id, i.customerId))
    .where(and(eq(i.number, invoiceNumber), eq(i.customerId, customerId)));
  if (!found) return null;
  const l = schema.invoiceLines;
  const lines = await db
    .select({ description: l.description, quantity: l.quantity, unitPriceOre: l.unitPriceOre, vatPermille: l.vatPermille, netOre: l.netOre })
    .from(l)
    .where(eq(l.invoiceId, found.invoice.id))
    .orderBy(asc(l.id));
  const sum = lines.reduce((s, line) => s + line.netOre, 0);
  if (lines.length === 0 || sum !== found.invoice.netOre) {
    throw refuse.conflict(`Faktura ${invoiceNumber} saknar rader eller raderna stämmer inte med summan.`);
  }
  return { ...found, lines };
}
