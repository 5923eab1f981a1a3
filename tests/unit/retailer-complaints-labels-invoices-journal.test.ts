// Retailer services A: delivery complaints, label allocation, invoices and the PDFs.
import { execFile, execFileSync } from "node:child_process";
import { stockholmMoment } from "../../app/lib/dates";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { schema } from "../../db/client";
import { createBundle, createLabelBlock, createReturn } from "../../cli/seed/factories";
import { addDays } from "../../app/lib/dates";
import {
  RECEIVED_MESSAGES,
  checkReceived,
  journalMonth,
  listDeliveryNote,
  saveReceived,
} from "../../app/features/deliveries/deliveries.server";
import {
  BLOCK_SIZE,
  LABEL_MESSAGES,
  checkEmergencyCount,
  labelBarcodeText,
  listUsableBlocks,
  orderBlock,
  orderEmergencyLabels,
} from "../../app/features/labels/labels.server";
import { listGuarantees, listInvoices } from "../../app/features/invoices/invoices.server";
import { renderInvoicePdf } from "../../app/features/invoices/invoice-pdf.server";
import { code128Modules, renderLabelsPdf } from "../../app/features/labels/labels-pdf.server";
import { renderJournalPdf } from "../../app/features/deliveries/journal-pdf.server";
import { baseData, db, newCustomer, newDelivery } from "./helpers";

const TODAY = "2026-03-18";
/** Within the claim window of TODAY's deliveries (decision 031): the afternoon of the day. */
const AT = stockholmMoment(TODAY, "15:00");
const work = mkdtempSync(join(tmpdir(), "services-a-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

beforeAll(async () => {
  // As in production (db/client.ts prepareDb): WAL, so the two-connection test sees real locking.
  await db().$client.execute("PRAGMA journal_mode=WAL");
  await baseData();
});

function pdfText(bytes: Uint8Array): string {
  const file = join(work, `doc-${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, bytes);
  return execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
}
function pdfInfo(bytes: Uint8Array): string {
  const file = join(work, `info-${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, bytes);
  return execFileSync("pdfinfo", [file], { encoding: "utf8" });
}

describe("delivery complaint validation", () => {
  it("accepts 0–998 and refuses negative, unreasonable and non-numeric values", () => {
    expect(checkReceived("0")).toEqual({ value: 0 });
    expect(checkReceived(" 17 ")).toEqual({ value: 17 });
    expect(checkReceived("998")).toEqual({ value: 998 });
    expect(checkReceived("-1")).toEqual({ problem: RECEIVED_MESSAGES.negative });
    expect(checkReceived("999")).toEqual({ problem: RECEIVED_MESSAGES.unreasonable });
    expect(checkReceived("12a")).toEqual({ problem: RECEIVED_MESSAGES.unreasonable });
    expect(checkReceived("")).toEqual({ problem: RECEIVED_MESSAGES.unreasonable });
    expect(checkReceived("1.5")).toEqual({ problem: RECEIVED_MESSAGES.unreasonable });
    expect(RECEIVED_MESSAGES).toMatchObject({
      negative: "Kan inte vara negativt.",
      unreasonable: "Orimligt värde.",
      onlyDeviations: "Du ska bara rapportera avvikelser.",
    });
  });

  it("saves the received amount, flags equal-to-delivered, and never touches another customer's delivery", async () => {
    const a = await newCustomer();
    const b = await newCustomer();
    const mine = await newDelivery(a, { date: TODAY, delivered: 20 });
    const theirs = await newDelivery(b, { date: TODAY, delivered: 20 });

    expect(await saveReceived(a, mine.id, "18", TODAY, AT)).toEqual({ status: "saved", equalsDelivered: false });
    expect(await saveReceived(a, mine.id, "20", TODAY, AT)).toEqual({ status: "saved", equalsDelivered: true });
    await expect(saveReceived(a, mine.id, "-3", TODAY, AT)).rejects.toMatchObject({ code: "invalid", message: "Kan inte vara negativt.", fields: { mottagit: "Kan inte vara negativt." } });
    await expect(saveReceived(a, mine.id, "999", TODAY, AT)).rejects.toMatchObject({ code: "invalid", message: "Orimligt värde." });
    await expect(saveReceived(a, theirs.id, "5", TODAY, AT)).rejects.toMatchObject({ code: "not-found", message: "Leveransen finns inte på din följesedel." });

    const rows = await db().select().from(schema.deliveries).where(eq(schema.deliveries.customerId, b));
    expect(rows[0].received).toBeNull();
    const [saved] = await db().select().from(schema.deliveries).where(eq(schema.deliveries.id, mine.id));
    expect(saved.received).toBe(20);
  });

  it("keeps the delivery note one week: older deliveries are neither listed nor changeable", async () => {
    const a = await newCustomer();
    const old = await newDelivery(a, { date: addDays(TODAY, -7), delivered: 10 });
    await newDelivery(a, { date: addDays(TODAY, -6), delivered: 11 });
    await newDelivery(a, { date: TODAY, delivered: 12, titleId: 2, editionId: 1 });
    await newDelivery(a, { date: TODAY, delivered: 3, titleId: 1, editionId: 21 });
    const days = await listDeliveryNote(a, TODAY);
    expect(days.map((d) => d.date)).toEqual([TODAY, addDays(TODAY, -6)]);
    expect(days[0].rows.map((r) => [r.title, r.description, r.type, r.delivered])).toEqual([
      ["Expressen", "Expressen", 0, 12],
      ["Aftonbladet", "Sportbladet", 1, 3],
    ]);
    await expect(saveReceived(a, old.id, "5", TODAY, AT)).rejects.toMatchObject({ code: "not-found" });
  });

  it("attaches the delivery-day message (type 1) for everyone or for this customer only", async () => {
    const a = await newCustomer();
    const b = await newCustomer();
    await newDelivery(a, { date: TODAY });
    await newDelivery(a, { date: addDays(TODAY, -1) });
    await newDelivery(b, { date: TODAY });
    await db().insert(schema.messages).values({ type: 1, header: "Sen leverans", content: "Bilen var <b>sen</b>.<script>x</script>", startDate: TODAY, stopDate: TODAY });
    const [own] = await db()
      .insert(schema.messages)
      .values({ type: 1, header: "Bara för B", content: "Hej", startDate: addDays(TODAY, -1), stopDate: addDays(TODAY, -1) })
      .returning();
    await db().insert(schema.messageCustomers).values({ messageId: own.id, customerId: b });
    // Type 3 is a banner, not delivery information.
    await db().insert(schema.messages).values({ type: 3, header: "Banner", content: "x", startDate: addDays(TODAY, -1), stopDate: addDays(TODAY, -1) });

    const daysA = await listDeliveryNote(a, TODAY);
    expect(daysA[0].message?.header).toBe("Sen leverans");
    expect(daysA[0].message?.html).toContain("<b>sen</b>");
    expect(daysA[0].message?.html).not.toContain("script");
    expect(daysA[1].message).toBeNull();
  });
});

describe("label allocation", () => {
  it("orders the next free series of 50 after the customer's highest number, status Beställd", async () => {
    const a = await newCustomer();
    const other = await newCustomer();
    await createLabelBlock(db(), { customerId: a, type: 0, status: "Levererad", fromDate: "2026-01-01", toDate: "2027-01-01", fromNumber: 1, toNumber: 50, numberUnused: 0 });
    await createLabelBlock(db(), { customerId: a, type: 0, status: "Levererad", fromDate: "2026-02-01", toDate: "2027-02-01", fromNumber: 51, toNumber: 100 });
    await createLabelBlock(db(), { customerId: other, type: 0, status: "Levererad", fromDate: "2026-02-01", toDate: "2027-02-01", fromNumber: 1, toNumber: 500 });

    const block = await orderBlock(a, TODAY);
    expect(block).toMatchObject({ type: 0, status: "Beställd", fromNumber: 101, toNumber: 150, numberUnused: BLOCK_SIZE, fromDate: TODAY });
    const emergency = await orderEmergencyLabels(a, 20, TODAY);
    expect(emergency).toMatchObject({ type: 7, status: "Beställd", fromNumber: 151, toNumber: 170, numberUnused: 20 });

    // The list: only blocks with unused numbers, newest from-date first.
    const list = await listUsableBlocks(a);
    expect(list.map((b) => [b.fromNumber, b.toNumber])).toEqual([
      [151, 170],
      [101, 150],
      [51, 100],
    ]);
    expect((await listUsableBlocks(other)).map((b) => b.fromNumber)).toEqual([1]);
  });

  it("never hands out a number twice under concurrent orders", async () => {
    const a = await newCustomer();
    // The order limits (app/features/labels/label-order-limits.test.ts) refuse some of the 24; those allocated are checked.
    const settled = await Promise.allSettled(
      Array.from({ length: 24 }, (_, i) => (i % 3 === 0 ? orderBlock(a, TODAY) : orderEmergencyLabels(a, 1 + (i % 20), TODAY))),
    );
    const orders = settled.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
    expect(orders).toHaveLength(10);
    const numbers = orders.flatMap((b) => Array.from({ length: b.toNumber - b.fromNumber + 1 }, (_, k) => b.fromNumber + k));
    expect(new Set(numbers).size).toBe(numbers.length);
    expect(Math.min(...numbers)).toBe(1);
    expect(Math.max(...numbers)).toBe(numbers.length);
  });

  it("never hands out a number twice when two processes (two app servers) allocate at once", async () => {
    const a = await newCustomer();
    const worker = (n: number) =>
      new Promise<([number, number] | string)[]>((resolve, reject) => {
        execFile(
          process.execPath,
          ["--import", "tsx", "tests/unit/label-order-worker.ts", String(a), String(n), TODAY],
          { env: { ...process.env }, encoding: "utf8" },
          (error, stdout, stderr) => (error ? reject(new Error(stderr || String(error))) : resolve(JSON.parse(stdout))),
        );
      });
    const [one, two] = await Promise.all([worker(15), worker(15)]);
    // The order limits let 5 of the 30 through (app/features/labels/label-order-limits.test.ts); those must not overlap.
    const ranges = [...one, ...two].filter((r) => typeof r !== "string").sort((x, y) => x[0] - y[0]);
    expect(ranges).toHaveLength(5);
    for (let i = 1; i < ranges.length; i++) expect(ranges[i][0]).toBe(ranges[i - 1][1] + 1);
    expect(ranges[ranges.length - 1][1]).toBe(25);
  }, 60_000);

  it("applies a resubmitted order form only once", async () => {
    const a = await newCustomer();
    const first = await orderBlock(a, TODAY, "token-1");
    const again = await orderBlock(a, TODAY, "token-1");
    expect(again.id).toBe(first.id);
    const labels = await orderEmergencyLabels(a, 3, TODAY, "token-2");
    expect(await orderEmergencyLabels(a, 3, TODAY, "token-2")).toMatchObject({ id: labels.id });
    const rows = await db().select().from(schema.labelBlocks).where(eq(schema.labelBlocks.customerId, a));
    expect(rows).toHaveLength(2);
  });

  it("accepts 1–20 emergency labels only", async () => {
    expect(checkEmergencyCount("1")).toEqual({ value: 1 });
    expect(checkEmergencyCount("20")).toEqual({ value: 20 });
    for (const bad of ["0", "21", "", "abc", "-2", "2.5"]) {
      expect(checkEmergencyCount(bad)).toEqual({ problem: LABEL_MESSAGES.emergencyCount });
    }
    const a = await newCustomer();
    await expect(orderEmergencyLabels(a, 21, TODAY)).rejects.toThrow();
    expect(await db().select().from(schema.labelBlocks).where(eq(schema.labelBlocks.customerId, a))).toHaveLength(0);
  });

  it("encodes customer and bundle number padded to 5 digits each, in CODE128 code set C", async () => {
    expect(labelBarcodeText(1001, 7)).toBe("0100100007");
    expect(labelBarcodeText(12345, 99999)).toBe("1234599999");
    const modules = await code128Modules("0100100007");
    // Start C is bars/spaces 2 1 1 2 3 2; Start B would be 2 1 1 2 1 4.
    expect(modules.slice(0, 6)).toEqual([2, 1, 1, 2, 3, 2]);
    // Start + 5 digit pairs + check symbol (6 modules each) + stop (7): every digit pair is one symbol, so no switch to B.
    expect(modules.length).toBe(7 * 6 + 7);
  });

  it("renders one A4 page per bundle with six decodable barcodes", async () => {
    const pdf = await renderLabelsPdf({ customerId: 1234, customerName: "Kiosken", fromNumber: 98, toNumber: 100 });
    const info = pdfInfo(pdf);
    expect(info).toMatch(/Pages:\s+3/);
    expect(info).toMatch(/Page size:\s+595\.28 x 841\.89 pts \(A4\)/);
    const text = pdfText(pdf);
    expect(text).toContain("0098");
    expect(text).toContain("0100");
    expect(text.match(/0123400099/g)).toHaveLength(6);
  });
});

describe("invoices", () => {
  async function invoice(customerId: number, values: Partial<typeof schema.invoices.$inferInsert> & { number: number }, lines = true) {
    const [row] = await db()
      .insert(schema.invoices)
      .values({
        customerId,
        paperType: 0,
        date: "2026-03-01",
        dueDate: "2026-03-31",
        periodFrom: `2026-02-${String(values.number % 28 + 1).padStart(2, "0")}`,
        periodTo: "2026-02-28",
        netOre: 10_000,
        vatOre: 600,
        amountOre: 10_600,
        status: "Obetald",
        ...values,
      })
      .returning();
    if (lines) {
      await db().insert(schema.invoiceLines).values([
        { invoiceId: row.id, description: "Aftonbladet, sålda exemplar", quantity: 40, unitPriceOre: 200, vatPermille: 60, netOre: 8_000 },
        { invoiceId: row.id, description: "Sportbladet", quantity: 10, unitPriceOre: 200, vatPermille: 60, netOre: 2_000 },
      ]);
    }
    return row;
  }

  it("lists a customer's own invoices per paper type, newest first", async () => {
    const a = await newCustomer();
    const b = await newCustomer();
    await invoice(a, { number: 900001, date: "2026-01-01" });
    await invoice(a, { number: 900002, date: "2026-02-01" });
    await invoice(a, { number: 900003, paperType: 1 });
    await invoice(b, { number: 900004 });
    const groups = await listInvoices(a);
    expect(groups.map((g) => g.name)).toEqual(["Huvudtidningar", "Bilagor"]);
    expect(groups[0].invoices.map((i) => i.number)).toEqual([900002, 900001]);
    expect(groups[1].invoices.map((i) => i.number)).toEqual([900003]);
    expect((await listInvoices(b))[0].invoices.map((i) => i.number)).toEqual([900004]);
  });

  it("renders the invoice PDF for its customer only, and refuses an invoice whose lines do not add up", async () => {
    const a = await newCustomer({ name: "Pressbyrån Testgatan" });
    const b = await newCustomer();
    await invoice(a, { number: 910001 });
    const pdf = await renderInvoicePdf(910001, a);
    expect(pdf).not.toBeNull();
    expect(pdf!.length).toBeGreaterThan(1000);
    const text = pdfText(pdf!);
    for (const s of ["Faktura", "910001", "2026-03-31", "Pressbyrån Testgatan", "Sportbladet", "106,00 kr", "6 %"]) expect(text).toContain(s);
    expect(await renderInvoicePdf(910001, b)).toBeNull();

    await invoice(a, { number: 910002 }, false);
    await expect(renderInvoicePdf(910002, a)).rejects.toMatchObject({ code: "conflict", message: "Faktura 910002 saknar rader eller raderna stämmer inte med summan." });
  });

  it("lists guarantee amounts with the title from the ledger, refunded only once the payout is done", async () => {
    const a = await newCustomer();
    await db().insert(schema.guarantees).values([
      { customerId: a, ledger: 83, amountOre: 12_550 },
      { customerId: a, ledger: 80, amountOre: 5_000, refunded: true, refundDate: "2026-03-23", completedAt: Date.parse("2026-03-24T23:30:00Z") },
      // Added to a payout by staff, the money not yet sent: not "Återbetald".
      { customerId: a, ledger: 83, amountOre: 7_000, refunded: true, refundDate: "2026-03-30" },
    ]);
    const rows = await listGuarantees(a);
    expect(rows.map((g) => [g.title, g.amountOre, g.refunded, g.refundDate])).toEqual([
      ["Aftonbladet", 7_000, false, null],
      // Done at 00:30 Stockholm time on the 25th.
      ["Expressen", 5_000, true, "2026-03-25"],
      ["Aftonbladet", 12_550, false, null],
    ]);
  });
});

describe("newspaper journal", () => {
  it("lists delivered, returned and sold per edition and day of the month, for this customer only", async () => {
    const a = await newCustomer({ name: "Journalkiosken" });
    const b = await newCustomer();
    const d1 = await newDelivery(a, { date: "2026-02-02", delivered: 20 });
    const d2 = await newDelivery(a, { date: "2026-02-03", delivered: 15 });
    await newDelivery(a, { date: "2026-03-01", delivered: 99 });
    await newDelivery(b, { date: "2026-02-02", delivered: 50 });
    const bundle = await createBundle(db(), { customerId: a, number: 1, type: 0 });
    const bundle2 = await createBundle(db(), { customerId: a, number: 2, type: 0 });
    await createReturn(db(), { customerId: a, bundleId: bundle.id, deliveryId: d1.id, amount: 4 });
    await createReturn(db(), { customerId: a, bundleId: bundle2.id, deliveryId: d1.id, amount: 1 });
    await createReturn(db(), { customerId: a, bundleId: bundle.id, deliveryId: d2.id, amount: 15 });

    const editions = await journalMonth(a, "2026-02");
    expect(editions).toHaveLength(1);
    expect(editions[0].title).toBe("Aftonbladet");
    expect(Object.fromEntries(editions[0].days)).toEqual({
      "2026-02-02": { delivered: 20, returned: 5, sold: 15 },
      "2026-02-03": { delivered: 15, returned: 15, sold: 0 },
    });

    const pdf = await renderJournalPdf({ month: "2026-02", customerId: a, customerName: "Journalkiosken", editions });
    const text = pdfText(pdf);
    expect(text).toContain("Tidningsjournal februari 2026");
    expect(text).toContain("Journalkiosken");
    expect(text).toMatch(/mån 2\s+20\s+5\s+15/);
    expect(text).toMatch(/Summa\s+35\s+20\s+15/);
    expect(text).toContain("lör 28");
    expect(pdfInfo(pdf)).toMatch(/Pages:\s+1/);

    const empty = await renderJournalPdf({ month: "2026-01", customerId: a, customerName: "Journalkiosken", editions: await journalMonth(a, "2026-01") });
    expect(pdfText(empty)).toContain("Inga leveranser den här månaden.");
  });
});



