// Back office B domain rules against a real database: holidays, product information,
// bundles, order files, extra invoice lines, daily products and guarantee payouts.
import { eq } from "drizzle-orm";
import { PDFDocument } from "pdf-lib";
import { beforeAll, describe, expect, it } from "vitest";
import { schema } from "../../db/client";
import { createBundle, createLabelBlock, createStaff } from "../../cli/seed/factories";
import { addDays, isoWeek, nextMonday, today } from "../../app/lib/dates";
import { checkHoliday, closeHoliday, listAdminHolidays, saveHoliday } from "../../app/features/holidays/holidays.server";
import { saveProduct } from "../../app/features/products/products.server";
import { changeBundleNumber, deleteLabelBlock, searchBundleContents } from "../../app/features/bundles/staff-bundles.server";
import { applyOrders, checkOrdersFile, NOT_A_CSV_FILE, parseOrdersFile, refusedOrderLines, transferOrders } from "../../app/features/invoices/orders.server";
import { InvoiceLineSchema, deleteDraft, grossFromNet, listDrafts, listWaiting, parseKronor, saveDraft, sendDrafts } from "../../app/features/invoices/extra-lines.server";
import { SaveLineSchema } from "../../app/features/invoices/schemas";
import { detectImageType, getImage, saveExtraDescription, uploadCover } from "../../app/features/products/daily-products.server";
import { importFile } from "../../app/features/imports/imports.server";
import {
  INCOMPLETE,
  incompletePayouts,
  addToRefund,
  setRefundDate,
  undoRefund,
  buildPayoutFiles,
  completeRefunds,
  listPendingRefunds,
  payoutCsvFiles,
  updateBankDetail,
} from "../../app/features/guarantees/guarantees.server";
import { kronor } from "../../app/features/guarantees/payout-csv.server";
import { baseData, db, newCustomer, newDelivery } from "./helpers";

const actor = { id: "staff:test" };
const day = today();

beforeAll(async () => {
  await baseData();
});

async function audits(action: string) {
  return db().select().from(schema.auditLog).where(eq(schema.auditLog.action, action));
}

describe("holidays", () => {
  it("requires startReportDay <= startForceReportDay <= day", () => {
    expect(checkHoliday({ description: "x", day: "2026-06-06", startReportDay: "2026-06-01", startForceReportDay: "2026-06-03" })).toEqual({});
    expect(checkHoliday({ description: "x", day: "2026-06-06", startReportDay: "2026-06-04", startForceReportDay: "2026-06-03" }).startReportDay).toBeTruthy();
    expect(checkHoliday({ description: "x", day: "2026-06-02", startReportDay: "2026-06-01", startForceReportDay: "2026-06-03" }).startForceReportDay).toBeTruthy();
    expect(checkHoliday({ description: " ", day: "2026-02-30", startReportDay: "", startForceReportDay: "2026-06-03" })).toEqual({
      description: "Obligatorisk.",
      day: "Ogiltigt datum (ÅÅÅÅ-MM-DD).",
      startReportDay: "Obligatorisk.",
    });
  });

  it("saves with an audit row, and completing or deleting removes it from the list once", async () => {
    await expect(saveHoliday({ description: "Fel", day: "2026-01-01", startReportDay: "2026-01-05", startForceReportDay: "2026-01-01" }, actor)).rejects.toMatchObject({ code: "invalid", fields: { startReportDay: "Start rapportering får inte vara efter Tvingande från." } });
    const id = await saveHoliday({ description: "Trettondagen", day: "2026-01-06", startReportDay: "2025-12-20", startForceReportDay: "2026-01-01" }, actor, "2025-12-01");
    expect((await listAdminHolidays()).map((h) => h.id)).toContain(id);
    expect((await audits("holiday.add")).some((a) => a.target === `holiday:${id}`)).toBe(true);
    expect(await closeHoliday(id, "complete", actor)).toBe(true);
    expect(await closeHoliday(id, "delete", actor)).toBe(false);
    expect((await listAdminHolidays()).map((h) => h.id)).not.toContain(id);
  });

  it("refuses the same holiday twice, also from two admins at once, and a holiday in the past", async () => {
    const h = { description: "Midsommarafton", day: "2027-06-25", startReportDay: "2027-06-20", startForceReportDay: "2027-06-23" };
    await expect(saveHoliday({ ...h, day: "2026-06-19", startReportDay: "2026-06-10", startForceReportDay: "2026-06-15" }, actor, "2026-11-23")).rejects.toMatchObject({
      code: "invalid",
      fields: { day: "Dagen har redan varit. En helgdag läggs in före dagen." },
    });
    const results = await Promise.allSettled([saveHoliday(h, actor, "2026-11-23"), saveHoliday({ ...h, description: "Midsommar" }, actor, "2026-11-23")]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ code: "invalid", fields: { day: expect.stringMatching(/^Det finns redan en helgdag 2027-06-25: Midsommar/) } });
    // Editing the one holiday keeps its own day; deleting it frees the day.
    const [kept] = (await listAdminHolidays()).filter((x) => x.day === "2027-06-25");
    await saveHoliday({ ...h, id: kept.id, description: "Midsommarafton (ändrad)" }, actor, "2026-11-23");
    expect(await closeHoliday(kept.id, "delete", actor)).toBe(true);
    await saveHoliday(h, actor, "2026-11-23");
  });
});

describe("product information", () => {
  it("defaults an empty articleId to the edition code and refuses an edition of another title", async () => {
    const id = await saveProduct({ titleId: 2, editionId: 21, productCode: "P1", accountCode: "A1", articleId: "" }, actor);
    const [row] = await db().select().from(schema.productInformation).where(eq(schema.productInformation.id, id));
    expect(row.articleId).toBe("EXLB");
    await expect(saveProduct({ titleId: 1, editionId: 2, productCode: "P", accountCode: "A" }, actor)).rejects.toMatchObject({ code: "invalid", fields: { edition: "Utgåvan hör inte till titeln." } });
  });

  it("the database itself holds one row per title, edition and date (a writer that skips the check, e.g. an import)", async () => {
    const row = { titleId: 1, editionId: 2, productCode: "DB1", accountCode: "A", articleId: "X" };
    await db().insert(schema.productInformation).values(row);
    await expect(db().insert(schema.productInformation).values({ ...row, productCode: "DB2" })).rejects.toThrow();
    await db().insert(schema.productInformation).values({ ...row, deliveryDate: "2027-02-01" });
    await expect(db().insert(schema.productInformation).values({ ...row, deliveryDate: "2027-02-01" })).rejects.toThrow();
  });

  it("refuses a second row for the same title, edition and delivery date (none counts as one date)", async () => {
    const base = { titleId: 1, editionId: 1, productCode: "P2", accountCode: "A2" };
    const results = await Promise.allSettled([saveProduct(base, actor), saveProduct({ ...base, productCode: "P3" }, actor)]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect((results.find((r) => r.status === "rejected") as PromiseRejectedResult).reason).toMatchObject({
      code: "invalid",
      fields: { edition: expect.stringContaining("utan leveransdatum") },
    });
    const dated = await saveProduct({ ...base, deliveryDate: "2027-01-01" }, actor);
    await expect(saveProduct({ ...base, deliveryDate: "2027-01-01" }, actor)).rejects.toMatchObject({ fields: { edition: expect.stringContaining("med leveransdatum 2027-01-01") } });
    // Saving the row itself again is no duplicate.
    expect(await saveProduct({ ...base, id: dated, deliveryDate: "2027-01-01", productCode: "P4" }, actor)).toBe(dated);
  });
});

describe("staff bundles", () => {
  async function setup() {
    const c = await newCustomer();
    const used = await createLabelBlock(db(), { customerId: c, type: 0, status: "Levererad", fromDate: day, toDate: day, fromNumber: 1, toNumber: 50 });
    const free = await createLabelBlock(db(), { customerId: c, type: 0, status: "Beställd", fromDate: day, toDate: day, fromNumber: 51, toNumber: 100 });
    const b = await createBundle(db(), { customerId: c, number: 5, type: 0 });
    await createBundle(db(), { customerId: c, number: 6, type: 1 });
    return { c, used, free, b };
  }

  it("refuses deleting a block whose numbers are used, deletes a free one, and never another customer's", async () => {
    const { c, used, free } = await setup();
    const other = await setup();
    await expect(deleteLabelBlock(c, used.id, actor)).rejects.toMatchObject({ code: "invalid", message: "Blocket kan inte tas bort: buntnummer i blocket används redan." });
    await expect(deleteLabelBlock(c, other.free.id, actor)).rejects.toMatchObject({ code: "not-found", message: "Blocket finns inte." });
    await deleteLabelBlock(c, free.id, actor);
    // Deleted twice (two tabs): the second finds nothing.
    await expect(deleteLabelBlock(c, free.id, actor)).rejects.toMatchObject({ code: "not-found" });
    expect(await db().select().from(schema.labelBlocks).where(eq(schema.labelBlocks.id, other.free.id))).toHaveLength(1);
  });

  it("changes a bundle number only to a free number in the customer's blocks", async () => {
    const { c, b, free } = await setup();
    const other = await setup();
    await expect(changeBundleNumber(c, b.id, 6, actor)).rejects.toThrow("Buntnummer 6 används redan av kunden.");
    await expect(changeBundleNumber(c, b.id, 101, actor)).rejects.toThrow("ligger inte i något av kundens buntblock");
    await expect(changeBundleNumber(c, other.b.id, 60, actor)).rejects.toMatchObject({ code: "invalid", message: "Bunten finns inte hos kunden." });
    await changeBundleNumber(c, b.id, 60, actor);
    const [row] = await db().select().from(schema.bundles).where(eq(schema.bundles.id, b.id));
    expect(row.number).toBe(60);
    const [block] = await db().select().from(schema.labelBlocks).where(eq(schema.labelBlocks.id, free.id));
    expect(block.numberUnused).toBe(49);
  });

  it("searches contents by range, title group and status, 10 bundles per page", async () => {
    const c = await newCustomer();
    const ab = await newDelivery(c, { date: addDays(day, -2), titleId: 1 });
    const ex = await newDelivery(c, { date: addDays(day, -2), titleId: 2 });
    for (let n = 1; n <= 12; n++) {
      const b = await createBundle(db(), { customerId: c, number: n, type: 0, open: n === 12 });
      await db().insert(schema.returns).values({ customerId: c, bundleId: b.id, deliveryId: n % 2 ? ab.id : ex.id, amount: n });
    }
    const base = { customerId: c, from: addDays(day, -30), to: day, status: "all" as const, page: 1 };
    const first = await searchBundleContents(base);
    expect(first.total).toBe(12);
    expect(first.bundles).toHaveLength(10);
    expect((await searchBundleContents({ ...base, page: 2 })).bundles).toHaveLength(2);
    const abOnly = await searchBundleContents({ ...base, title: "AB" });
    expect(abOnly.total).toBe(6);
    expect(abOnly.bundles.every((b) => b.number % 2 === 1)).toBe(true);
    const open = await searchBundleContents({ ...base, status: "open" });
    expect(open.bundles.map((b) => b.number)).toEqual([12]);
    expect(open.bundles[0].total).toBe(12);
    expect((await searchBundleContents({ ...base, from: addDays(day, -1) })).total).toBe(0);
  });
});

describe("order files", () => {
  const header = "customerNumber;orderDate;articleNumber;articleDescription;amount;price;ledger";

  it("reports bad rows by line and duplicate keys", () => {
    const r = parseOrdersFile(`${header}\n1;2026-01-01;A;Ställ;1;100;83\nx;2026-02-30;;S;1.5;-1;81\n1;2026-01-01;A;Ställ;2;100;83\n`);
    expect(r.rows).toHaveLength(1);
    expect(r.problems.map((p) => `${p.line}:${p.column}`)).toEqual(["3:customerNumber", "3:orderDate", "3:articleNumber", "3:amount", "3:price", "3:ledger", "4:-"]);
  });

  it("applies nothing when a customer is unknown; upserts by customer, date, article and ledger; transfers", async () => {
    const c = await newCustomer();
    const bad = parseOrdersFile(`${header}\n${c};2026-01-01;A1;Ställ;1;100;83\n99999;2026-01-01;A1;Ställ;1;100;83\n`);
    await expect(applyOrders(bad.rows, "bad.csv", actor).catch((e) => refusedOrderLines(e)?.length)).resolves.toBeGreaterThan(0);
    expect(await db().select().from(schema.orderLines).where(eq(schema.orderLines.customerId, c))).toHaveLength(0);

    const one = parseOrdersFile(`${header}\n${c};2026-01-01;A1;Ställ;1;100;83\n${c};2026-01-01;A1;Ställ;1;100;80\n`);
    expect((await applyOrders(one.rows, "a.csv", actor)).count).toBe(2);
    const again = parseOrdersFile(`${header}\n${c};2026-01-01;A1;Ställ stor;3;250;83\n`);
    await applyOrders(again.rows, "b.csv", actor);
    const lines = await db().select().from(schema.orderLines).where(eq(schema.orderLines.customerId, c));
    expect(lines).toHaveLength(2);
    const l83 = lines.find((l) => l.ledger === 83)!;
    expect([l83.amount, l83.priceOre, l83.articleDescription]).toEqual([3, 250, "Ställ stor"]);
    expect(await transferOrders(actor)).toBeGreaterThanOrEqual(2);
    const after = await db().select().from(schema.orderLines).where(eq(schema.orderLines.customerId, c));
    expect(after.every((l) => l.transferredAt !== null)).toBe(true);
  });

  it("reads a file Excel saved on a Swedish Windows (Windows-1252, `;`) and a UTF-8 one with `,` and a BOM", async () => {
    const c = await newCustomer({ name: "Café Göta" });
    // "Löpsedelsställ Åhléns" in Windows-1252: ö = F6, Å = C5, é = E9.
    const cp1252 = Buffer.from(`${header}\r\n${c};2026-04-01;LS-1;L\xf6psedelsst\xe4ll \xc5hl\xe9ns;1;49900;83\r\n`, "latin1");
    const checked = await checkOrdersFile(cp1252);
    expect(checked).toMatchObject({ encoding: "windows-1252" });
    expect(checked.rows[0].articleDescription).toBe("Löpsedelsställ Åhléns");
    const comma = Buffer.from(`\uFEFF${header.replaceAll(";", ",")}\n${c},2026-04-02,LS-2,"Ställ, Łódź",2,100,80\n`, "utf8");
    const second = await checkOrdersFile(comma);
    expect(second).toMatchObject({ encoding: "utf-8" });
    expect(second.rows[0]).toMatchObject({ articleDescription: "Ställ, Łódź", amount: 2, ledger: 80 });
    await expect(checkOrdersFile(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00]))).rejects.toMatchObject({ code: "invalid", message: NOT_A_CSV_FILE });
    // An upload's name is the feature's rule too (it was the route's): .csv or .txt, any case.
    await expect(checkOrdersFile(cp1252, "beställningar.xlsx")).rejects.toMatchObject({ code: "invalid", fields: { file: NOT_A_CSV_FILE } });
    expect((await checkOrdersFile(cp1252, "BESTÄLLNINGAR.TXT")).rows).toHaveLength(checked.rows.length);
  });

  it("reports every bad line at once — the file's and the database's — and stores nothing", async () => {
    const c = await newCustomer();
    const file = [header, `${c};2026-05-01;A1;Ställ;1;100;83`, `99998;2026-05-01;A1;Ställ;1;100;83`, `${c};2026-13-01;A2;Ställ;1;100;83`, `99997;2026-05-01;A3;Ställ;x;100;83`].join("\n");
    const problems = await checkOrdersFile(Buffer.from(file)).then(
      () => [],
      (e: unknown) => refusedOrderLines(e) ?? [],
    );
    expect(problems.map((p) => `${p.line}:${p.column}`)).toEqual(["3:customerNumber", "4:orderDate", "5:amount"]);
    expect(problems[0].reason).toBe("kund 99998 finns inte");
    expect(await db().select().from(schema.orderLines).where(eq(schema.orderLines.customerId, c))).toHaveLength(0);
  });
});

describe("extra invoice lines", () => {
  const raw = {
    magazineTitle: "Expressen",
    customerNumber: "1",
    productGroup: "Exponeringsutrustning",
    articleName: "Ställ",
    deliveryDate: "2026-01-10",
    deliveredAmount: "3",
    nettoPrice: "80,50",
    grossPrice: "1,00",
    vat: "25",
  };
  const form = Object.assign((over: Record<string, string> = {}) => InvoiceLineSchema.parse({ ...raw, ...over }), { raw });

  it("parses kronor and computes gross = netto × (1 + vat/100) for Exponeringsutrustning", () => {
    expect(parseKronor("80,50")).toBe(8050);
    expect(parseKronor("12.5")).toBe(1250);
    expect(parseKronor("1 200")).toBe(120000);
    expect(parseKronor("abc")).toBeNull();
    expect(grossFromNet(8050, 25)).toBe(10063);
    expect(grossFromNet(10000, 6)).toBe(10600);
  });

  it("keeps drafts per staff user until sent, then they wait in a file", async () => {
    const c = await newCustomer();
    const s1 = await createStaff(db(), { email: "drafts1@test.example", name: "A", password: "x-password-1", roles: "admin" });
    const s2 = await createStaff(db(), { email: "drafts2@test.example", name: "B", password: "x-password-2", roles: "admin" });
    const id = await saveDraft(s1.id, form({ customerNumber: String(c) }), actor);
    await saveDraft(s1.id, form({ customerNumber: String(c), productGroup: "Bilaga", grossPrice: "99,00", vat: "6" }), actor);
    await expect(saveDraft(s1.id, form({ customerNumber: "99999" }), actor)).rejects.toThrow();
    // A newspaper line at 25 % is refused, by the form's schema and by the rule alike.
    await expect(saveDraft(s1.id, form({ customerNumber: String(c), productGroup: "Huvudtidning", grossPrice: "99,00" }), actor)).rejects.toMatchObject({ message: "Tidningar (Huvudtidning, Bilaga) har 6 % moms." });
    expect(SaveLineSchema.safeParse({ ...form.raw, intent: "save-line", productGroup: "Bilaga" }).error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([["vat", "Tidningar (Huvudtidning, Bilaga) har 6 % moms."]]);
    const drafts = await listDrafts(s1.id);
    expect(drafts.map((d) => d.grossPriceOre)).toEqual([10063, 9900]);
    expect(await listDrafts(s2.id)).toEqual([]);
    expect(await deleteDraft(s2.id, id, actor)).toBe(false);
    expect(await sendDrafts(s2.id, actor)).toBeNull();
    const sent = await sendDrafts(s1.id, actor);
    expect(sent?.count).toBe(2);
    expect(await listDrafts(s1.id)).toEqual([]);
    const waiting = await listWaiting(1, null);
    expect(waiting.lines.filter((l) => l.fileId === sent!.fileId)).toHaveLength(2);
    expect((await audits("extra-invoice.send")).length).toBeGreaterThan(0);
  });
});

const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");

describe("daily products", () => {
  it("detects image types by magic bytes", () => {
    expect(detectImageType(PNG)).toBe("image/png");
    expect(detectImageType(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe("image/jpeg");
    expect(detectImageType(Buffer.from("RIFF\0\0\0\0WEBPVP8 "))).toBe("image/webp");
    expect(detectImageType(Buffer.from("GIF89a"))).toBeNull();
  });

  it("keeps a cover pending until the product is saved, then publishes it", async () => {
    await expect(uploadCover({ titleId: 1, editionId: 1, date: "2031-03-03", filename: "x.gif", bytes: Buffer.from("GIF89a") }, actor)).rejects.toThrow();
    const { imageId, published } = await uploadCover({ titleId: 1, editionId: 1, date: "2031-03-03", filename: "a.png", bytes: PNG }, actor);
    expect(published).toBe(false);
    expect(await getImage(imageId, false)).toBeNull();
    expect(await getImage(imageId, true)).not.toBeNull();
    // A description never creates or prices a product: refused while there is none.
    await expect(saveExtraDescription({ titleId: 1, editionId: 1, date: "2031-03-03", extraDescription: "Extra" }, actor)).rejects.toMatchObject({
      code: "not-found",
      fields: { extraDescription: expect.stringContaining("En beskrivning skapar ingen produkt") },
    });
    expect(await db().select().from(schema.dailyProducts).where(eq(schema.dailyProducts.startDate, "2031-03-03"))).toEqual([]);
    // The product comes with the products file (import products), priced; then it can be described.
    const imported = await importFile("products", "title_id;edition_id;start_date;end_date;heading;description;price_ore;ean_code\n1;1;2031-03-03;2031-03-03;;Aftonbladet;2200;7388000000001\n", { actor, source: "produkter.csv" });
    expect(imported).toMatchObject({ applied: true, created: 1 });
    // The file takes Ny produkt's write path: the waiting cover is attached and published at
    // once, and Logg has the product added by whoever ran the import (before: neither).
    const [fromFile] = await db().select().from(schema.dailyProducts).where(eq(schema.dailyProducts.startDate, "2031-03-03"));
    expect(fromFile.coverImageId).toBe(imageId);
    expect(await getImage(imageId, false)).not.toBeNull();
    const logged = await db().select().from(schema.auditLog).where(eq(schema.auditLog.target, `daily-product:${fromFile.id}`));
    expect(logged.map((l) => [l.action, l.actor])).toEqual([["daily-product.add", actor.id]]);
    const productId = await saveExtraDescription({ titleId: 1, editionId: 1, date: "2031-03-03", extraDescription: "Extra" }, actor);
    const [p] = await db().select().from(schema.dailyProducts).where(eq(schema.dailyProducts.id, productId));
    expect([p.coverImageId, p.extraDescription, p.description, p.priceOre]).toEqual([imageId, "Extra", "Aftonbladet", 2200]);
    // A re-import keeps the staff's description and cover, and changes the price.
    const again = await importFile("products", "title_id;edition_id;start_date;end_date;heading;description;price_ore;ean_code\n1;1;2031-03-03;2031-03-04;;Aftonbladet;2500;7388000000001\n", { actor, source: "produkter.csv" });
    expect(again).toMatchObject({ applied: true, changed: 1 });
    const [p2] = await db().select().from(schema.dailyProducts).where(eq(schema.dailyProducts.id, productId));
    expect([p2.coverImageId, p2.extraDescription, p2.priceOre, p2.endDate]).toEqual([imageId, "Extra", 2500, "2031-03-04"]);
    const bad = await importFile("products", "title_id;edition_id;start_date;end_date;heading;description;price_ore;ean_code\n1;999;2031-03-05;2031-03-04;;;0;12\n", { actor, source: "x.csv" });
    expect(bad.applied).toBe(false);
    expect(bad.problems.map((x) => x.column).sort()).toEqual(["description", "ean_code", "end_date", "price_ore"]);
    expect((await getImage(imageId, false))?.contentType).toBe("image/png");
    // A cover for an existing product is published at once.
    expect((await uploadCover({ titleId: 1, editionId: 1, date: "2031-03-03", filename: "b.png", bytes: PNG }, actor)).published).toBe(true);
  });
});

describe("guarantee payouts", () => {
  it("adds to refund on next Monday, refuses incomplete bank details, writes CSV and PDFs, completes", async () => {
    const c = await newCustomer({ name: "Kiosk; \"Hörnet\"" });
    await db().update(schema.customers).set({ orgNumber: "", bankgiro: "", bankAccount: "" }).where(eq(schema.customers.id, c));
    const [g83, g80] = await db()
      .insert(schema.guarantees)
      .values([
        { customerId: c, ledger: 83, amountOre: 123450 },
        { customerId: c, ledger: 80, amountOre: 5 },
      ])
      .returning();
    const other = await newCustomer();
    // Another customer's amount, and one added twice: the spec's refusal, nothing written.
    await expect(addToRefund(other, g83.id, actor)).rejects.toMatchObject({ code: "invalid", message: "Misslyckades med att spara utbetalning." });
    await addToRefund(c, g83.id, actor, "2026-11-18");
    await expect(addToRefund(c, g83.id, actor)).rejects.toMatchObject({ code: "invalid", message: "Misslyckades med att spara utbetalning." });
    await addToRefund(c, g80.id, actor, "2026-11-18");
    // Taken back by mistake, then again: twice is a no-op; another customer's is refused.
    expect(await undoRefund(other, g80.id, actor)).toBe(false);
    expect(await undoRefund(c, g80.id, actor)).toBe(true);
    expect(await undoRefund(c, g80.id, actor)).toBe(false);
    const [undone] = await db().select().from(schema.guarantees).where(eq(schema.guarantees.id, g80.id));
    expect([undone.refunded, undone.refundDate]).toEqual([false, null]);
    await addToRefund(c, g80.id, actor, "2026-11-18");
    // The refund date moves for the customer's payouts; not into the past.
    await expect(setRefundDate(c, "2026-11-17", actor, "2026-11-18")).rejects.toMatchObject({ code: "invalid", fields: { refundDate: "Utbetalningsdatum kan inte vara före i dag." } });
    await expect(setRefundDate(other, "2026-11-30", actor, "2026-11-18")).rejects.toMatchObject({ code: "not-found" });
    expect(await setRefundDate(c, "2026-11-30", actor, "2026-11-18")).toBe(2);
    await setRefundDate(c, "2026-11-23", actor, "2026-11-18");
    const [row] = await db().select().from(schema.guarantees).where(eq(schema.guarantees.id, g83.id));
    expect(row.refundDate).toBe(nextMonday("2026-11-18"));
    expect(row.refundDate).toBe("2026-11-23");

    // The only payout lacks its details: nothing to make.
    await expect(payoutCsvFiles(actor)).rejects.toMatchObject({ code: "invalid", message: INCOMPLETE });
    await expect(completeRefunds(actor)).rejects.toMatchObject({ code: "invalid", message: INCOMPLETE });
    // Another customer's complete payout is not blocked by it: the files and the batch hold
    // the complete one, and the incomplete one waits, listed apart.
    const ready = await newCustomer({ name: "Kiosk Klar" });
    await db().update(schema.customers).set({ orgNumber: "556016-0680", bankgiro: "5050-1055" }).where(eq(schema.customers.id, ready));
    const [readyAmount] = await db().insert(schema.guarantees).values({ customerId: ready, ledger: 83, amountOre: 4_200 }).returning();
    await addToRefund(ready, readyAmount.id, actor, "2026-11-18");
    const readyFiles = (await payoutCsvFiles(actor, {}, "2026-11-18")).map((f) => String(f.content)).join("");
    expect(readyFiles).toContain(`${ready};Kiosk Klar;556016-0680;5050-1055;;42,00;`);
    expect(readyFiles).not.toContain(`${c};`);
    expect(await incompletePayouts()).toEqual([expect.stringMatching(new RegExp(`^${c} `))]);
    expect(await completeRefunds(actor, "2026-11-18")).toBe(1);
    const [readyDone] = await db().select().from(schema.guarantees).where(eq(schema.guarantees.id, readyAmount.id));
    expect(readyDone.completedAt).not.toBeNull();
    expect((await listPendingRefunds()).map((r) => r.customerId)).toEqual([c]);
    await updateBankDetail(c, "bankAccount", "8327-9, 123 456 789-7", actor);
    await updateBankDetail(c, "orgNumber", "556677-8899", actor);
    await expect(updateBankDetail(c, "bankgiro", "12ab", actor)).rejects.toThrow();
    await updateBankDetail(c, "bankgiro", "-1", actor);
    const refund = (await listPendingRefunds()).find((r) => r.customerId === c)!;
    expect(refund.bankgiro).toBe("");

    const files = await buildPayoutFiles(actor, "2026-11-18");
    const week = String(isoWeek("2026-11-23").week).padStart(2, "0");
    const names = files.map((f) => f.filename);
    expect(names).toEqual(
      expect.arrayContaining([`aftonbladet-2026-v${week}.csv`, `expressen-2026-v${week}.csv`, `underlag-aftonbladet-2026-v${week}.pdf`, `underlag-${c}-2026-v${week}.pdf`]),
    );
    const csv = files.find((f) => f.filename.startsWith("aftonbladet"))!.content as string;
    expect(csv.startsWith("\uFEFFkundnummer;namn;orgnummer;bankgiro;bankkonto;belopp;utbetalningsdatum\r\n")).toBe(true);
    expect(csv).toContain(`${c};"Kiosk; ""Hörnet""";556677-8899;;8327-9, 123 456 789-7;1234,50;2026-11-23\r\n`);
    expect(files.find((f) => f.filename.startsWith("expressen"))!.content).toContain(";0,05;");
    const pdf = await PDFDocument.load(files.find((f) => f.filename === `underlag-${c}-2026-v${week}.pdf`)!.content as Uint8Array);
    expect(pdf.getPageCount()).toBe(1);
    expect(pdf.getTitle()).toContain(String(c));
    expect((await audits("payout.file")).length).toBeGreaterThanOrEqual(files.length);

    expect(await completeRefunds(actor)).toBeGreaterThanOrEqual(2);
    expect((await listPendingRefunds()).find((r) => r.customerId === c)).toBeUndefined();
  });

  it("formats kronor with a decimal comma", () => {
    expect([kronor(0), kronor(5), kronor(123450), kronor(-250)]).toEqual(["0,00", "0,05", "1234,50", "-2,50"]);
  });
});
