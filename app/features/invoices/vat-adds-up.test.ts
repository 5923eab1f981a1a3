// The printed VAT adds up (decision 030): every invoice a run makes over 1,200 generated
// customers (odd prices, newspapers at 6 %, equipment at 25 %) stores as its VAT the sum of
// the per-rate amounts its PDF prints, and the PDF's "Moms totalt" is that sum.
import { execFileSync } from "node:child_process";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { schema } from "../../../db/client";
import { seededRandom } from "../../../cli/seed/factories";
import { baseData, db, newCustomer } from "../../../tests/unit/helpers";
import { vatPerRate } from "~/lib/money";
import { CLI_ACTOR } from "../audit/audit.server";
import { renderInvoicePdf } from "./invoice-pdf.server";
import { runInvoicing } from "./invoice-run.server";

const rnd = seededRandom(2026);
const ore = (text: string) => Number(text.replace(/[\s\u00a0]/g, "").replace("−", "-").replace(",", ""));

beforeAll(async () => {
  await baseData();
  const deliveries: (typeof schema.deliveries.$inferInsert)[] = [];
  const [file] = await db().insert(schema.orderFiles).values({ filename: "bestallningar.csv", rowCount: 0, uploadedBy: "test" }).returning();
  const orders: (typeof schema.orderLines.$inferInsert)[] = [];
  for (let i = 0; i < 1200; i++) {
    const c = await newCustomer();
    for (let day = 1; day <= rnd.int(1, 6); day++) {
      deliveries.push({ customerId: c, titleId: 1, editionId: 1, deliveryDate: `2028-02-${String(day).padStart(2, "0")}`, delivered: rnd.int(1, 60), priceOre: rnd.int(1500, 2999) });
      if (rnd.chance(0.5)) deliveries.push({ customerId: c, titleId: 2, editionId: rnd.int(1, 2), deliveryDate: `2028-02-${String(day).padStart(2, "0")}`, delivered: rnd.int(1, 40), priceOre: rnd.int(1500, 2999) });
    }
    if (rnd.chance(0.3)) orders.push({ fileId: file.id, customerId: c, orderDate: "2028-02-10", articleNumber: "A1", ledger: 83, articleDescription: "Ställ", amount: rnd.int(1, 3), priceOre: rnd.int(1001, 99_999), transferredAt: Date.now() });
  }
  for (let i = 0; i < deliveries.length; i += 500) await db().insert(schema.deliveries).values(deliveries.slice(i, i + 500));
  if (orders.length > 0) await db().insert(schema.orderLines).values(orders);
}, 120_000);

describe("the printed VAT", () => {
  it("is per rate on the rate's base, and Moms totalt is their sum, on every invoice", async () => {
    const run = await runInvoicing({ from: "2028-02-01", to: "2028-02-29", actor: CLI_ACTOR, date: "2028-03-01" });
    expect(run.created).toBe(1200);
    const invoices = await db().select().from(schema.invoices);
    const lines = await db().select().from(schema.invoiceLines);
    const byInvoice = new Map<number, (typeof lines)[number][]>();
    for (const l of lines) byInvoice.set(l.invoiceId, [...(byInvoice.get(l.invoiceId) ?? []), l]);
    let twoRates = 0;
    for (const inv of invoices) {
      const rates = vatPerRate(byInvoice.get(inv.id)!);
      if (rates.length > 1) twoRates++;
      expect(inv.vatOre, `faktura ${inv.number}`).toBe(rates.reduce((s, r) => s + r.vatOre, 0));
      expect(inv.amountOre).toBe(inv.netOre + inv.vatOre);
    }
    expect(twoRates).toBeGreaterThan(100);
    // The PDFs of those with two rates say the same.
    const [{ n }] = await db().all<{ n: number }>(sql`select count(*) as n from invoices`);
    expect(n).toBe(invoices.length);
    const sample = invoices.filter((i) => vatPerRate(byInvoice.get(i.id)!).length > 1).slice(0, 12);
    for (const inv of sample) {
      const text = execFileSync("pdftotext", ["-layout", "-", "-"], { input: Buffer.from((await renderInvoicePdf(inv.number, inv.customerId))!), encoding: "utf8" });
      const printed = [...text.matchAll(/Moms [\d,]+ % på [−\d\s\u00a0,]+ kr\s+([−\d\s\u00a0,]+) kr/g)].map((m) => ore(m[1]));
      const total = ore(/Moms totalt\s+([−\d\s\u00a0,]+) kr/.exec(text)![1]);
      expect(printed).toHaveLength(2);
      expect(total, `faktura ${inv.number}`).toBe(printed[0] + printed[1]);
      const [stored] = await db().select({ vat: schema.invoices.vatOre }).from(schema.invoices).where(eq(schema.invoices.id, inv.id));
      expect(total).toBe(stored.vat);
    }
  });
});
