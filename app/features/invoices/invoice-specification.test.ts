// The invoice a shop can check line by line (decision 038), read back from the PDF with
// pdftotext: per paper and price Levererat, Returer, Reklamerat and Sålda adding up to the
// sold lines; the appendix day by day as on the delivery notes; the returns of an earlier
// period the next invoice settles, with their bundle. Prices as the deliveries were billed.
import { execFileSync } from "node:child_process";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createBundle, createReturn } from "../../../cli/seed/factories";
import { schema } from "../../../db/client";
import { baseData, db, newCustomer, newDelivery } from "../../../tests/unit/helpers";
import { CLI_ACTOR, staffActor } from "../audit/audit.server";
import { decideClaims } from "../deliveries/claims.server";
import { renderInvoicePdf } from "./invoice-pdf.server";
import { runInvoicing } from "./invoice-run.server";
import { getInvoiceDocument } from "./invoices.server";

const pdfText = (pdf: Uint8Array) => execFileSync("pdftotext", ["-layout", "-", "-"], { input: Buffer.from(pdf), encoding: "utf8" }).replace(/[ \t]+/g, " ");

let shop: number;
let firstNumber: number;
let laterNumber: number;
beforeAll(async () => {
  await baseData();
  shop = await newCustomer({ name: "Şahin Livs" });
  const bundle = await createBundle(db(), { customerId: shop, number: 7, type: 0 });
  // Aftonbladet three days (a price change on the third), Kvällsposten two, one sold out.
  const ab1 = await newDelivery(shop, { date: "2027-03-01", titleId: 1, editionId: 1, delivered: 13, priceOre: 2219 });
  const ab2 = await newDelivery(shop, { date: "2027-03-02", titleId: 1, editionId: 1, delivered: 37, priceOre: 2219 });
  await newDelivery(shop, { date: "2027-03-03", titleId: 1, editionId: 1, delivered: 20, priceOre: 2319 });
  const kvp1 = await newDelivery(shop, { date: "2027-03-01", titleId: 2, editionId: 2, delivered: 9, priceOre: 2163 });
  await newDelivery(shop, { date: "2027-03-02", titleId: 2, editionId: 2, delivered: 9, priceOre: 2163 });
  await createReturn(db(), { customerId: shop, bundleId: bundle.id, deliveryId: ab1.id, amount: 3 });
  await createReturn(db(), { customerId: shop, bundleId: bundle.id, deliveryId: ab2.id, amount: 5 });
  const kvpReturn = await createReturn(db(), { customerId: shop, bundleId: bundle.id, deliveryId: kvp1.id, amount: 4 });
  // Two Kvällsposten copies never arrived: a claim, approved before the run.
  await db().update(schema.deliveries).set({ received: 7 }).where(eq(schema.deliveries.id, kvp1.id));
  const [claim] = await db().insert(schema.claims).values({ deliveryId: kvp1.id, customerId: shop, copies: 2 }).returning();
  await decideClaims([claim.id], { decision: "approve" }, { distributorIds: null }, staffActor(1));
  const march = await runInvoicing({ from: "2027-03-01", to: "2027-03-31", actor: CLI_ACTOR, date: "2027-04-05" });
  firstNumber = march.firstNumber!;
  // One more Kvällsposten copy found after the run: settled on April's invoice.
  await db().update(schema.returns).set({ amount: 5 }).where(eq(schema.returns.id, kvpReturn.id));
  await newDelivery(shop, { date: "2027-04-01", titleId: 1, editionId: 1, delivered: 10, priceOre: 2319 });
  const april = await runInvoicing({ from: "2027-04-01", to: "2027-04-30", actor: CLI_ACTOR, date: "2027-05-05" });
  laterNumber = april.firstNumber!;
}, 60_000);

describe("the invoice's specification", () => {
  it("names per paper and price what was delivered, returned, claimed and sold, adding up to the sold lines", async () => {
    const doc = (await getInvoiceDocument(firstNumber, shop))!;
    expect(doc.specification!.papers).toEqual([
      { paper: "Aftonbladet", priceOre: 2219, delivered: 50, returned: 8, claimed: 0, sold: 42 },
      { paper: "Aftonbladet", priceOre: 2319, delivered: 20, returned: 0, claimed: 0, sold: 20 },
      { paper: "Expressen – Kvällsposten", priceOre: 2163, delivered: 18, returned: 4, claimed: 2, sold: 14 },
    ]);
    const sold = doc.lines.filter((l) => l.description.includes("sålda exemplar")).map((l) => [l.quantity, l.unitPriceOre]);
    expect(sold).toEqual([
      [42, 2219],
      [20, 2319],
      [14, 2163],
    ]);
    const text = pdfText((await renderInvoicePdf(firstNumber, shop))!);
    expect(text).toContain("Specifikation per tidning");
    expect(text).toContain("Tidning À-pris Levererat Returer Reklamerat Sålda");
    expect(text).toContain("Aftonbladet 22,19 50 8 0 42");
    expect(text).toContain("Aftonbladet 23,19 20 0 0 20");
    expect(text).toContain("Expressen – Kvällsposten 21,63 18 4 2 14");
    expect(text).toContain("Totalt 88 12 2 76");
    expect(text).toContain(`Bilaga till faktura ${firstNumber}: dag för dag 2027-03-01 – 2027-03-31`);
    expect(text).toContain("Datum Tidning À-pris Levererat Returer Sålda");
    for (const row of [
      "2027-03-01 Aftonbladet 22,19 13 3 10",
      "2027-03-01 Expressen – Kvällsposten 21,63 9 4 5",
      "2027-03-02 Aftonbladet 22,19 37 5 32",
      "2027-03-02 Expressen – Kvällsposten 21,63 9 0 9",
      "2027-03-03 Aftonbladet 23,19 20 0 20",
    ]) {
      expect(text, row).toContain(row);
    }
    // The bundle the returns went back in, with its copies.
    expect(text).toContain("Krediterade returer per bunt");
    expect(text).toContain("Bunt 7 12");
  });

  it("lists the returns of an earlier period the next invoice settles, with their bundle", async () => {
    const text = pdfText((await renderInvoicePdf(laterNumber, shop))!);
    expect(text).toContain("Returer från tidigare perioder som krediteras på denna faktura");
    expect(text).toContain("2027-03-01 Expressen – Kvällsposten Bunt 7 1");
    expect(text).toContain("2027-04-01 Aftonbladet 23,19 10 0 10");
    // No claims on this invoice: no claims column.
    expect(text).not.toContain("Reklamerat");
  });

  it("is part of the invoice's record: a delivery changed by hand afterwards prints nothing new", async () => {
    const c = await newCustomer({ name: "Kiosk Ändrad" });
    const d = await newDelivery(c, { date: "2027-06-02", delivered: 10, priceOre: 2219 });
    const run = await runInvoicing({ from: "2027-06-01", to: "2027-06-30", actor: CLI_ACTOR, date: "2027-07-05" });
    const before = (await renderInvoicePdf(run.firstNumber!, c))!;
    expect(pdfText(before)).toContain("2027-06-02 Aftonbladet 22,19 10 0 10");
    await db().update(schema.deliveries).set({ delivered: 12, priceOre: 9900 }).where(eq(schema.deliveries.id, d.id));
    expect(Buffer.from((await renderInvoicePdf(run.firstNumber!, c))!).equals(Buffer.from(before))).toBe(true);
    // Written once, like the rest of the record.
    const refused = await db()
      .update(schema.invoices)
      .set({ specification: { papers: [], days: [], later: [] } })
      .where(eq(schema.invoices.number, run.firstNumber!))
      .then(
        () => null,
        (e: Error & { cause?: Error }) => e.cause?.message ?? e.message,
      );
    expect(refused).toMatch(/an issued invoice never changes/);
  });
});
