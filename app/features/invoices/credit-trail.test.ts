// The credit trail against a real database — what an invoice run records as
// credited, per return and per bundle, that a rerun never credits twice, and what the
// trail says for a return changed or reported after the run.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { schema } from "../../../db/client";
import { createBundle, createReturn } from "../../../cli/seed/factories";
import { baseData, db, newCustomer, newDelivery } from "../../../tests/unit/helpers";
import { CLI_ACTOR } from "../audit/audit.server";
import { creditsByInvoice, creditTrails } from "./credits.server";
import { renderInvoicePdf } from "./invoice-pdf.server";
import { runInvoicing } from "./invoice-run.server";

const FROM = "2027-05-01";
const TO = "2027-05-31";

let shop: number;
let allBack: number;
let other: number;
const ids: Record<string, number> = {};

beforeAll(async () => {
  await baseData();
  shop = await newCustomer({ name: "Şahin Livs" });
  allBack = await newCustomer({ name: "Kiosk Łódź" });
  other = await newCustomer({ name: "Nguyễn Tobak" });
  const b101 = await createBundle(db(), { customerId: shop, number: 101, type: 0 });
  const b102 = await createBundle(db(), { customerId: shop, number: 102, type: 0 });
  const d1 = await newDelivery(shop, { date: "2027-05-03", delivered: 20, priceOre: 2000 });
  const d2 = await newDelivery(shop, { date: "2027-05-04", titleId: 2, editionId: 1, delivered: 10, priceOre: 1500 });
  ids.first = (await createReturn(db(), { customerId: shop, bundleId: b101.id, deliveryId: d1.id, amount: 5 })).id;
  ids.second = (await createReturn(db(), { customerId: shop, bundleId: b102.id, deliveryId: d2.id, amount: 4 })).id;
  ids.third = (await createReturn(db(), { customerId: shop, bundleId: b102.id, deliveryId: d1.id, amount: 3 })).id;
  // Everything back: nothing to bill, no invoice.
  const bAll = await createBundle(db(), { customerId: allBack, number: 7, type: 0 });
  const dAll = await newDelivery(allBack, { date: "2027-05-05", delivered: 6 });
  ids.allBack = (await createReturn(db(), { customerId: allBack, bundleId: bAll.id, deliveryId: dAll.id, amount: 6 })).id;
  // A later period: waits.
  const dJune = await newDelivery(shop, { date: "2027-06-02", delivered: 20, priceOre: 2000 });
  ids.june = (await createReturn(db(), { customerId: shop, bundleId: b101.id, deliveryId: dJune.id, amount: 2 })).id;
});

const creditRows = async () => (await db().select({ n: sql<number>`count(*)` }).from(schema.invoiceCredits))[0].n;

describe("the credit trail", () => {
  it("says 'Väntar på kreditering' until the run, then names the invoice that credited each return", async () => {
    expect((await creditTrails(shop, [ids.first]))).toEqual(new Map([[ids.first, { credits: [], amount: 5, pending: 0 }]]));
    const run = await runInvoicing({ from: FROM, to: TO, actor: CLI_ACTOR, date: "2027-06-10" });
    expect(run.created).toBe(1);
    const trails = await creditTrails(shop, [ids.first, ids.second, ids.third, ids.june]);
    const invoice = run.firstNumber!;
    expect(trails.get(ids.first)).toEqual({ credits: [{ invoice, amount: 5, from: FROM, to: TO }], amount: 5, pending: 0 });
    expect(trails.get(ids.second)?.credits).toEqual([{ invoice, amount: 4, from: FROM, to: TO }]);
    expect(trails.get(ids.june)).toEqual({ credits: [], amount: 2, pending: 0 });
    // The invoice credits per bundle: 101 five copies at 20 kr, 102 four at 15 kr and three at 20 kr.
    expect((await creditsByInvoice(shop, [invoice])).get(invoice)).toEqual([
      { bundle: 101, copies: 5, valueOre: 10_000 },
      { bundle: 102, copies: 7, valueOre: 12_000 },
    ]);
    // The invoice is net of exactly those copies: Aftonbladet 20 − 8 = 12 sold, Expressen 10 − 4 = 6.
    const [inv] = await db().select().from(schema.invoices).where(eq(schema.invoices.number, invoice));
    expect(inv.netOre).toBe(12 * 2000 + 6 * 1500);
    // The PDF the retailer downloads lists the same credits per bundle.
    const pdf = await renderInvoicePdf(invoice, shop);
    const text = execFileSync("pdftotext", ["-layout", "-", "-"], { input: Buffer.from(pdf!), encoding: "utf8" });
    expect(text).toContain("Krediterade returer per bunt");
    expect(text).toMatch(/Bunt 101\s+5\s+100,00/);
    expect(text).toMatch(/Bunt 102\s+7\s+120,00/);
    expect(text).toMatch(/Totalt\s+12\s+220,00/);
  });

  it("records a customer who sent everything back as settled with nothing to bill", async () => {
    expect((await creditTrails(allBack, [ids.allBack])).get(ids.allBack)).toEqual({
      credits: [{ invoice: null, amount: 6, from: FROM, to: TO }],
      amount: 6,
      pending: 0,
    });
  });

  it("never credits a return twice when the period is run again", async () => {
    const before = await creditRows();
    const again = await runInvoicing({ from: FROM, to: TO, actor: CLI_ACTOR, date: "2027-06-11" });
    expect(again.created).toBe(0);
    expect(await creditRows()).toBe(before);
    expect((await creditTrails(shop, [ids.first])).get(ids.first)?.credits).toHaveLength(1);
  });

  it("settles a return changed or reported after the run on the next invoice, naming the invoice that billed the delivery", async () => {
    await db().update(schema.returns).set({ amount: 7 }).where(eq(schema.returns.id, ids.first));
    const [d] = await db().select().from(schema.deliveries).where(eq(schema.deliveries.deliveryDate, "2027-05-04"));
    const b = await createBundle(db(), { customerId: shop, number: 103, type: 0 });
    const late = await createReturn(db(), { customerId: shop, bundleId: b.id, deliveryId: d.id, amount: 1 });
    // A third run of the period (nothing new to invoice) leaves both alone: they were not on the invoice.
    await runInvoicing({ from: FROM, to: TO, actor: CLI_ACTOR, date: "2027-06-12" });
    let trails = await creditTrails(shop, [ids.first, late.id]);
    expect(trails.get(ids.first)).toMatchObject({ amount: 7, credits: [{ amount: 5 }], pending: 2 });
    expect(trails.get(late.id)).toEqual({ credits: [], amount: 1, pending: 1 });
    const [may] = await db().select().from(schema.invoices).where(eq(schema.invoices.customerId, shop));

    // June's run: June's sales, and May's late copies credited at May's prices.
    const june = await runInvoicing({ from: "2027-06-01", to: "2027-06-30", actor: CLI_ACTOR, date: "2027-07-01" });
    const [juneInvoice] = await db().select().from(schema.invoices).where(eq(schema.invoices.number, june.firstNumber!));
    const lines = await db().select().from(schema.invoiceLines).where(eq(schema.invoiceLines.invoiceId, juneInvoice.id));
    expect(lines.map((l) => [l.description, l.quantity, l.unitPriceOre, l.netOre])).toEqual([
      ["Aftonbladet, sålda exemplar 2027-06-01–2027-06-30", 18, 2000, 36_000],
      [`Returer efter fakturering, ${FROM}–${TO}: Aftonbladet 2 ex (faktura ${may.number})`, -2, 2000, -4000],
      [`Returer efter fakturering, ${FROM}–${TO}: Expressen 1 ex (faktura ${may.number})`, -1, 1500, -1500],
    ]);
    expect(juneInvoice.netOre).toBe(30_500);
    trails = await creditTrails(shop, [ids.first, late.id]);
    expect(trails.get(ids.first)).toEqual({
      amount: 7,
      pending: 0,
      credits: [
        { invoice: may.number, amount: 5, from: FROM, to: TO },
        { invoice: juneInvoice.number, amount: 2, from: "2027-06-01", to: "2027-06-30", after: { invoice: may.number } },
      ],
    });
    expect(trails.get(late.id)?.credits).toEqual([{ invoice: juneInvoice.number, amount: 1, from: "2027-06-01", to: "2027-06-30", after: { invoice: may.number } }]);
    // A rerun of June credits nothing again.
    const rerun = await runInvoicing({ from: "2027-06-01", to: "2027-06-30", actor: CLI_ACTOR, date: "2027-07-02" });
    expect(rerun.created).toBe(0);

    // Decreased after both runs: charged back on July's invoice.
    await db().update(schema.returns).set({ amount: 4 }).where(eq(schema.returns.id, ids.first));
    expect((await creditTrails(shop, [ids.first])).get(ids.first)?.pending).toBe(-3);
    const july = await runInvoicing({ from: "2027-07-01", to: "2027-07-31", actor: CLI_ACTOR, date: "2027-08-01" });
    const [julyInvoice] = await db().select().from(schema.invoices).where(eq(schema.invoices.number, july.firstNumber!));
    const julyLines = await db().select().from(schema.invoiceLines).where(eq(schema.invoiceLines.invoiceId, julyInvoice.id));
    expect(julyLines.map((l) => [l.description, l.quantity, l.netOre])).toEqual([[`Minskade returer efter fakturering, ${FROM}–${TO}: Aftonbladet 3 ex (faktura ${may.number})`, 3, 6000]]);
    expect(julyInvoice).toMatchObject({ netOre: 6000, vatOre: 360, amountOre: 6360, status: "Obetald" });
    const settled = (await creditTrails(shop, [ids.first])).get(ids.first)!;
    expect(settled.pending).toBe(0);
    expect(settled.credits.reduce((s, c) => s + c.amount, 0)).toBe(4);
  });

  it("reads an invoice made before the trail was kept: credited if made after the return was reported, else settled by the next run", async () => {
    const legacy = await newCustomer({ name: "Kiosk Äppelträdet" });
    const b = await createBundle(db(), { customerId: legacy, number: 9, type: 0 });
    const d1 = await newDelivery(legacy, { date: "2027-08-03", delivered: 10 });
    const d2 = await newDelivery(legacy, { date: "2027-08-04", delivered: 10 });
    const before = await createReturn(db(), { customerId: legacy, bundleId: b.id, deliveryId: d1.id, amount: 4, createdAt: 1_000, updatedAt: 1_000 });
    const after = await createReturn(db(), { customerId: legacy, bundleId: b.id, deliveryId: d2.id, amount: 2, createdAt: 3_000, updatedAt: 3_000 });
    await db().insert(schema.invoices).values({
      number: 990_001, customerId: legacy, paperType: 0, date: "2027-09-05", dueDate: "2027-10-05", periodFrom: "2027-08-01", periodTo: "2027-08-31",
      netOre: 0, vatOre: 0, amountOre: 0, status: "Obetald", createdAt: 2_000, updatedAt: 2_000,
    });
    // What migration 0020 did to the returns there were.
    const sqlText = readFileSync(new URL("../../../db/migrations/0020_late-returns-credited.sql", import.meta.url), "utf8");
    const backfill = sqlText.split("--> statement-breakpoint").find((s) => s.includes("UPDATE"))!;
    await db().run(sql.raw(`${backfill.trim().replace(/;$/, "")} WHERE customer_id = ${legacy}`));
    const trails = await creditTrails(legacy, [before.id, after.id]);
    expect(trails.get(before.id)).toEqual({ credits: [{ invoice: 990_001, amount: 4, from: "2027-08-01", to: "2027-08-31" }], amount: 4, pending: 0 });
    expect(trails.get(after.id)).toEqual({ credits: [], amount: 2, pending: 2 });
  });

  it("gives one customer nothing of another's returns", async () => {
    expect((await creditTrails(other, [ids.first, ids.second])).size).toBe(0);
    const [any] = await db().select().from(schema.invoices).where(eq(schema.invoices.customerId, shop));
    expect((await creditsByInvoice(other, [any.number])).size).toBe(0);
  });
});
