// The invoice run's rules against the real database.
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { schema } from "../../../db/client";
import { createBundle, createReturn } from "../../../cli/seed/factories";
import { createClient } from "@libsql/client";
import { databaseUrl } from "../../../db/client";
import { invoicePreview, listInvoiceRuns, runInvoicing } from "./invoice-run.server";
import { baseData, db, newCustomer, newDelivery } from "../../../tests/unit/helpers";

let a: number;
let b: number;
const FROM = "2026-02-01";
const TO = "2026-02-28";

async function extraFile() {
  const [f] = await db().insert(schema.extraInvoiceFiles).values({}).returning();
  return f.id;
}

beforeAll(async () => {
  await baseData();
  a = await newCustomer();
  b = await newCustomer();
  const ab = await newDelivery(a, { date: "2026-02-02", titleId: 1, editionId: 1, delivered: 20, priceOre: 2219 });
  await newDelivery(a, { date: "2026-02-03", titleId: 2, editionId: 1, delivered: 10, priceOre: 2163 });
  const ins = await newDelivery(a, { date: "2026-02-08", titleId: 1, editionId: 20, delivered: 8, priceOre: 1090 });
  await newDelivery(a, { date: "2026-03-01", titleId: 1, editionId: 1, delivered: 50, priceOre: 2219 });
  const bundle0 = await createBundle(db(), { customerId: a, number: 1, type: 0 });
  const bundle1 = await createBundle(db(), { customerId: a, number: 2, type: 1 });
  await createReturn(db(), { customerId: a, bundleId: bundle0.id, deliveryId: ab.id, amount: 5 });
  await createReturn(db(), { customerId: a, bundleId: bundle1.id, deliveryId: ins.id, amount: 8 });
  // b returned everything: no invoice.
  const bd = await newDelivery(b, { date: "2026-02-02", delivered: 6 });
  const bb = await createBundle(db(), { customerId: b, number: 1, type: 0 });
  await createReturn(db(), { customerId: b, bundleId: bb.id, deliveryId: bd.id, amount: 6 });

  const fileId = await extraFile();
  const extra = {
    fileId,
    magazineTitle: "Aftonbladet",
    customerId: a,
    productGroup: "Bilaga",
    articleName: "Extrabilaga",
    deliveryDate: "2026-02-10",
    deliveredAmount: 3,
    reclaimAmount: 1,
    grossPriceOre: 625,
    nettoPriceOre: 500,
    vatPermille: 250,
  };
  await db().insert(schema.extraInvoiceLines).values([extra, { ...extra, deliveryDate: "2026-03-02" }]);
  const [of] = await db().insert(schema.orderFiles).values({ filename: "o.csv", rowCount: 2, uploadedBy: "staff:1" }).returning();
  const order = { fileId: of.id, customerId: a, orderDate: "2026-02-05", articleNumber: "LS-1", articleDescription: "Löpsedelsställ", amount: 2, priceOre: 49900, ledger: 83 };
  await db().insert(schema.orderLines).values([{ ...order, transferredAt: Date.now() }, { ...order, articleNumber: "LS-2" }]);
  await db().insert(schema.invoices).values({
    number: 600010, customerId: b, paperType: 0, date: "2026-01-05", dueDate: "2026-02-04", periodFrom: "2026-01-01", periodTo: "2026-01-31", netOre: 0, vatOre: 0, amountOre: 0, status: "Betald",
  });
});

describe("runInvoicing", () => {
  it("a dry run reports the totals and creates nothing", async () => {
    const s = await runInvoicing({ from: FROM, to: TO, dryRun: true, actor: { id: "test" }, date: "2026-03-05" });
    expect(s.perPaperType).toEqual([
      { paperType: 0, invoices: 1, netOre: 154715, vatOre: 28245, amountOre: 182960 },
      { paperType: 1, invoices: 1, netOre: 1000, vatOre: 250, amountOre: 1250 },
    ]);
    expect((await db().select().from(schema.invoices).where(eq(schema.invoices.customerId, a))).length).toBe(0);
  });

  it("bills (delivered − returned) × price with 6 % VAT, plus sent extra lines and transferred orders", async () => {
    const s = await runInvoicing({ from: FROM, to: TO, actor: { id: "test" }, date: "2026-03-05" });
    expect(s).toMatchObject({ created: 2, firstNumber: 600011, lastNumber: 600012 });
    const invoices = await db().select().from(schema.invoices).where(eq(schema.invoices.customerId, a)).orderBy(schema.invoices.paperType);
    expect(invoices.map((i) => [i.number, i.paperType, i.date, i.dueDate, i.periodFrom, i.periodTo, i.netOre, i.vatOre, i.amountOre, i.status])).toEqual([
      [600011, 0, "2026-03-05", "2026-04-04", FROM, TO, 154715, 28245, 182960, "Obetald"],
      [600012, 1, "2026-03-05", "2026-04-04", FROM, TO, 1000, 250, 1250, "Obetald"],
    ]);
    const lines = await db().select().from(schema.invoiceLines).where(eq(schema.invoiceLines.invoiceId, invoices[0].id)).orderBy(schema.invoiceLines.id);
    expect(lines.map((l) => [l.quantity, l.unitPriceOre, l.vatPermille, l.netOre])).toEqual([
      [15, 2219, 60, 33285],
      [10, 2163, 60, 21630],
      [2, 49900, 250, 99800],
    ]);
    expect(lines[0].description).toBe(`Aftonbladet, sålda exemplar ${FROM}–${TO}`);
    // Lines are marked invoiced; the later extra line and the untransferred order wait.
    const extras = await db().select().from(schema.extraInvoiceLines).where(eq(schema.extraInvoiceLines.customerId, a)).orderBy(schema.extraInvoiceLines.id);
    expect(extras.map((x) => x.invoiceId)).toEqual([invoices[1].id, null]);
    const orders = await db().select().from(schema.orderLines).where(eq(schema.orderLines.customerId, a)).orderBy(schema.orderLines.id);
    expect(orders.map((x) => x.invoiceId)).toEqual([invoices[0].id, null]);
    // b returned everything.
    expect((await db().select().from(schema.invoices).where(sql`${schema.invoices.customerId} = ${b} and ${schema.invoices.periodFrom} = ${FROM}`)).length).toBe(0);
    const [log] = await db().select().from(schema.auditLog).where(eq(schema.auditLog.action, "invoice.run"));
    expect(log).toMatchObject({ actor: "test", target: `${FROM}..${TO}` });
  });

  it("a second run for the same period creates nothing", async () => {
    const before = await db().select({ n: sql<number>`count(*)` }).from(schema.invoiceLines);
    const s = await runInvoicing({ from: FROM, to: TO, actor: { id: "test" }, date: "2026-03-06" });
    expect(s).toMatchObject({ created: 0, existing: 2, perPaperType: [] });
    expect(await db().select({ n: sql<number>`count(*)` }).from(schema.invoiceLines)).toEqual(before);
    // The history has both runs: the one that made the invoices, and this one,
    // which found them made; a dry run is not history.
    const runs = await listInvoiceRuns();
    const ours = runs.filter((r) => r.periodFrom === FROM && r.periodTo === TO);
    expect(ours.map((r) => r.created)).toEqual([0, 2]);
    expect(ours[1]).toMatchObject({ existing: 0, actor: "test" });
    expect(ours[1].amountOre).toBeGreaterThan(0);
    expect(ours[0].id).toBe(s.runId);
  });

  it("refuses a period overlapping an invoiced one, and a reversed period", async () => {
    await expect(runInvoicing({ from: "2026-02-15", to: "2026-03-15", actor: { id: "test" } })).rejects.toMatchObject({ code: "invalid", message: expect.stringContaining("Perioden överlappar") });
    await expect(runInvoicing({ from: "2026-02-15", to: "2026-03-15", actor: { id: "test" } })).rejects.toThrow("överlappar den redan fakturerade perioden 2026-02-01–2026-02-28");
    await expect(runInvoicing({ from: "2026-04-02", to: "2026-04-01", actor: { id: "test" } })).rejects.toMatchObject({ code: "invalid", message: "Periodens början ligger efter dess slut." });
  });

  it("the preview is a read, lists each invoice's lines, and says where a line dated in an invoiced period goes", async () => {
    const fileId = await extraFile();
    await db().insert(schema.extraInvoiceLines).values({
      fileId, magazineTitle: "Expressen", customerId: a, productGroup: "Huvudtidning", articleName: "Sen rättelse", deliveryDate: "2026-02-20",
      deliveredAmount: 2, reclaimAmount: 0, grossPriceOre: 700, nettoPriceOre: 600, vatPermille: 60,
    });
    // Another connection holds the write lock the whole time: the preview never waits for it.
    const other = createClient({ url: databaseUrl() });
    const lock = await other.transaction("write");
    await lock.execute("insert into extra_invoice_files default values");
    try {
      const { summary, rows, late } = await invoicePreview({ from: "2026-03-01", to: "2026-03-31", actor: { id: "test" } });
      expect(summary.dryRun).toBe(true);
      expect(late).toEqual([{ customerId: a, name: `Kiosk ${a}`, description: "Sen rättelse (Expressen) 2026-02-20", date: "2026-02-20" }]);
      const main = rows.find((r) => r.customerId === a && r.paperType === 0)!;
      expect(main.lines.map((l) => [l.kind, l.description])).toEqual([
        ["sold", expect.stringContaining("sålda exemplar 2026-03-01–2026-03-31")],
        ["extra", "Sen rättelse (Expressen) 2026-02-20"],
      ]);
    } finally {
      await lock.rollback();
      other.close();
    }
  });

  it("the next period continues the numbering and picks up the waiting extra line", async () => {
    const s = await runInvoicing({ from: "2026-03-01", to: "2026-03-31", actor: { id: "test" }, date: "2026-04-02" });
    expect(s.firstNumber).toBe(600013);
    const [x] = await db().select().from(schema.extraInvoiceLines).where(eq(schema.extraInvoiceLines.deliveryDate, "2026-03-02"));
    expect(x.invoiceId).not.toBeNull();
  });
});
