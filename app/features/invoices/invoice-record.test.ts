// An issued invoice is a record (decision 021): renumbering a bundle, correcting a return,
// renaming the customer or changing the configured seller afterwards leaves its PDF the
// same bytes, and the renumbering asks first and names the invoice.
import { execFileSync } from "node:child_process";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { readConfig } from "~/config.server";
import { changeBundleNumber } from "~/features/bundles/index.server";
import { isRefusal } from "~/lib/refusal";
import { schema } from "../../../db/client";
import { createBundle, createLabelBlock, createReturn } from "../../../cli/seed/factories";
import { baseData, db, newCustomer, newDelivery } from "../../../tests/unit/helpers";
import { CLI_ACTOR } from "../audit/audit.server";
import { creditsByInvoice } from "./credits.server";
import { renderInvoicePdf } from "./invoice-pdf.server";
import { runInvoicing } from "./invoice-run.server";

const pdfText = (pdf: Uint8Array) => execFileSync("pdftotext", ["-layout", "-", "-"], { input: Buffer.from(pdf), encoding: "utf8" }).replace(/[ \t]+/g, " ");

let shop: number;
let bundleId: number;
let returnId: number;
beforeAll(async () => {
  await baseData();
  shop = await newCustomer({ name: "Pressbyrån Åre Torg" });
  await db().update(schema.customers).set({ address: "Torget 1", zip: "837 52", city: "Åre" }).where(eq(schema.customers.id, shop));
  await createLabelBlock(db(), { customerId: shop, type: 0, status: "Aktiv", fromDate: "2027-01-01", toDate: "2027-12-31", fromNumber: 1, toNumber: 99 });
  const bundle = await createBundle(db(), { customerId: shop, number: 5, type: 0 });
  bundleId = bundle.id;
  const delivery = await newDelivery(shop, { date: "2027-05-04", delivered: 30, priceOre: 2000 });
  returnId = (await createReturn(db(), { customerId: shop, bundleId, deliveryId: delivery.id, amount: 4 })).id;
});

describe("an issued invoice", () => {
  it("prints the same bytes after a renumbering, a corrected return, a renamed customer and a new seller", async () => {
    const seller = readConfig({}).seller!;
    const run = await runInvoicing({ from: "2027-05-01", to: "2027-05-31", actor: CLI_ACTOR, date: "2027-06-03", seller });
    const number = run.firstNumber!;
    const before = (await renderInvoicePdf(number, shop))!;
    const text = pdfText(before);
    for (const item of ["Pressbyrån Åre Torg", "Torget 1", "837 52 Åre", "Bunt 5 4 80,00", seller.name]) expect(text, item).toContain(item);

    // Renumbering asks first, naming the invoice; the same Spara with the invoices confirmed goes through.
    const asked = await changeBundleNumber(shop, bundleId, 55, CLI_ACTOR, 5).catch((e: unknown) => e);
    expect(isRefusal(asked, "conflict")).toBe(true);
    expect((asked as Error).message).toBe(
      `Bunt 5 finns på utfärdad faktura ${number}. Fakturan ändras inte: den visar fortfarande bunt 5, bara nya dokument visar bunt 55. Tryck Spara igen för att ändra numret ändå.`,
    );
    expect((await db().select().from(schema.bundles).where(eq(schema.bundles.id, bundleId)))[0].number).toBe(5);
    await changeBundleNumber(shop, bundleId, 55, CLI_ACTOR, 5, String(number));
    expect((await db().select().from(schema.bundles).where(eq(schema.bundles.id, bundleId)))[0].number).toBe(55);

    await db().update(schema.returns).set({ amount: 9 }).where(eq(schema.returns.id, returnId));
    await db().update(schema.customers).set({ name: "Nytt Namn AB", address: "Annan väg 2", zip: "111 20", city: "Stockholm" }).where(eq(schema.customers.id, shop));
    await db().update(schema.deliveries).set({ priceOre: 9900 }).where(eq(schema.deliveries.customerId, shop));

    const after = (await renderInvoicePdf(number, shop))!;
    expect(Buffer.from(after).equals(Buffer.from(before))).toBe(true);
    expect((await creditsByInvoice(shop, [number])).get(number)).toEqual([{ bundle: 5, copies: 4, valueOre: 8000 }]);
  });

  it("refuses any change to its amounts, lines or recorded buyer in the database itself", async () => {
    const [inv] = await db().select().from(schema.invoices).where(eq(schema.invoices.customerId, shop));
    const attempts = [
      () => db().update(schema.invoices).set({ amountOre: 1 }).where(eq(schema.invoices.id, inv.id)),
      () => db().update(schema.invoiceLines).set({ quantity: 1 }).where(eq(schema.invoiceLines.invoiceId, inv.id)),
      () => db().update(schema.invoices).set({ buyer: { ...inv.buyer!, name: "Annan" } }).where(eq(schema.invoices.id, inv.id)),
      () => db().update(schema.invoices).set({ credits: [] }).where(eq(schema.invoices.id, inv.id)),
    ];
    for (const attempt of attempts) {
      const refused = await attempt().then(
        () => null,
        (e: Error & { cause?: Error }) => e.cause?.message ?? e.message,
      );
      expect(refused).toMatch(/an issued invoice never changes/);
    }
    // Its status is no part of the record.
    await db().update(schema.invoices).set({ status: "Betald" }).where(eq(schema.invoices.id, inv.id));
  });
});
