// A Swedish invoice with everything the law (mervärdesskattelagen 17 kap. 24 §) and the
// payer need, read back from the PDF with pdftotext: the seller's name, address,
// organisationsnummer, momsregistreringsnummer and F-skatt; the buyer's name and address;
// invoice number and date; the lines; VAT per rate with its base; the total; where and how
// to pay — bankgiro and an OCR reference whose check digit Bankgirot accepts.
import { execFileSync } from "node:child_process";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { readConfig } from "~/config.server";
import { luhnValid } from "~/lib/luhn";
import { isRefusal } from "~/lib/refusal";
import { schema } from "../../../db/client";
import { baseData, db, newCustomer, newDelivery } from "../../../tests/unit/helpers";
import { CLI_ACTOR } from "../audit/audit.server";
import { buildInvoicePdf } from "./invoice-pdf.server";
import { getInvoiceDocument } from "./invoices.server";
import { runInvoicing } from "./invoice-run.server";
import { invoiceNumberOfOcr, ocrReference } from "./ocr";

const SELLER_ENV = {
  NODE_ENV: "production",
  SESSION_SECRET: "9f1c2e7a4b8d3f6e0a5c9b2d7e4f1a3c5e8b0d2f4a6c8e1b3d5f7a9c0e2b4d6f",
  PORTAL_URL: "https://retur.example.se",
  SELLER_NAME: "Tidningsretur Sverige AB",
  SELLER_ADDRESS: "Box 1234, 111 20 Stockholm",
  SELLER_ORG_NUMBER: "5590123450",
  SELLER_VAT_NUMBER: "se 559012345001",
  SELLER_BANKGIRO: "50501055",
};

let shop: number;
beforeAll(async () => {
  await baseData();
  shop = await newCustomer({ name: "Şahin Livs" });
  await db().update(schema.customers).set({ address: "Storgatan 7", zip: "211 22", city: "Malmö", orgNumber: "556677-8899" }).where(eq(schema.customers.id, shop));
  await newDelivery(shop, { date: "2027-08-03", delivered: 20, priceOre: 2200 });
});

describe("the OCR reference", () => {
  it("is the invoice number with its modulus-10 check digit, and reads back", () => {
    expect(ocrReference(500161)).toBe("5001615");
    expect(luhnValid(ocrReference(500161))).toBe(true);
    expect(invoiceNumberOfOcr("5001615")).toBe(500161);
    expect(invoiceNumberOfOcr("5001610")).toBeNull();
  });
});

describe("the invoice PDF", () => {
  it("carries every item a Swedish invoice needs, and where and how to pay", async () => {
    const seller = readConfig(SELLER_ENV).seller!;
    expect(seller).toMatchObject({ orgNumber: "559012-3450", vatNumber: "SE559012345001", bankgiro: "5050-1055", fSkatt: true });
    const run = await runInvoicing({ from: "2027-08-01", to: "2027-08-31", actor: CLI_ACTOR, date: "2027-09-05", seller });
    const number = run.firstNumber!;
    const doc = (await getInvoiceDocument(number, shop))!;
    const pdf = await buildInvoicePdf(doc, null);
    const text = execFileSync("pdftotext", ["-layout", "-", "-"], { input: Buffer.from(pdf), encoding: "utf8" }).replace(/[ \t]+/g, " ");
    const ocr = ocrReference(number);
    for (const item of [
      "Tidningsretur Sverige AB",
      "Box 1234, 111 20 Stockholm",
      "Org.nr 559012-3450",
      "Momsreg.nr SE559012345001",
      "Godkänd för F-skatt",
      "Şahin Livs",
      "Storgatan 7",
      "211 22 Malmö",
      `Fakturanummer ${number}`,
      "Fakturadatum 2027-09-05",
      `OCR-nummer ${ocr}`,
      "Summa exkl. moms",
      "Moms 6 % på",
      "Att betala",
      `till bankgiro 5050-1055 senast ${doc.invoice.dueDate}`,
      `Ange OCR-nummer ${ocr} som referens`,
    ]) {
      expect(text, item).toContain(item);
    }
  });

  it("is not made without a seller, and a production start without SELLER_* is refused with one line", async () => {
    // The run refuses to issue invoices that could not name their seller.
    await newDelivery(shop, { date: "2027-10-03", delivered: 5, priceOre: 2200 });
    const noSeller = await runInvoicing({ from: "2027-10-01", to: "2027-10-31", actor: CLI_ACTOR, seller: null }).catch((e: unknown) => e);
    expect(isRefusal(noSeller, "conflict")).toBe(true);
    expect(await db().select().from(schema.invoices).where(eq(schema.invoices.periodFrom, "2027-10-01"))).toEqual([]);
    // An invoice made before sellers were stored prints the configured one, and none without it.
    const [inv] = await db()
      .insert(schema.invoices)
      .values({ customerId: shop, number: 940001, paperType: 1, date: "2026-03-01", dueDate: "2026-03-31", periodFrom: "2026-02-01", periodTo: "2026-02-28", netOre: 10_000, vatOre: 600, amountOre: 10_600, status: "Obetald" })
      .returning();
    await db().insert(schema.invoiceLines).values({ invoiceId: inv.id, description: "Bilagor", quantity: 50, unitPriceOre: 200, vatPermille: 60, netOre: 10_000 });
    const doc = (await getInvoiceDocument(inv.number, shop))!;
    const refused = await buildInvoicePdf(doc, null).catch((e: unknown) => e);
    expect(isRefusal(refused, "conflict")).toBe(true);
    const { SELLER_NAME: _n, SELLER_BANKGIRO: _b, ...partial } = SELLER_ENV;
    expect(() => readConfig(partial)).toThrow("Säljarens uppgifter för fakturorna saknas: SELLER_NAME, SELLER_BANKGIRO");
    expect(() => readConfig({ ...SELLER_ENV, SELLER_VAT_NUMBER: "SE556016068001" })).toThrow(/SELLER_VAT_NUMBER ska vara SE, organisationsnumrets tio siffror och 01: SE559012345001/);
    expect(() => readConfig({ ...SELLER_ENV, SELLER_BANKGIRO: "12345" })).toThrow(/SELLER_BANKGIRO är inget giltigt bankgironummer/);
    // The demo and development print the made-up seller; a lenient read in production gets none.
    expect(readConfig({}).seller?.name).toBe("Returportalen Demo AB");
    expect(readConfig({ NODE_ENV: "production" }, { lenient: true }).seller).toBeNull();
  });
});
