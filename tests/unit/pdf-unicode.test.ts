// Every document renders every name. Each PDF the portal makes is rendered
// for a customer whose name is outside Latin-1 and read back with pdftotext; the label
// barcodes are rasterised and decoded; the kit replaces what the font lacks instead of
// throwing; and the embedded font subset really has the letters (not blank glyphs).
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fontkit from "@pdf-lib/fontkit";
import { PDFDict, PDFDocument, PDFName, PDFRawStream, decodePDFRawStream } from "pdf-lib";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { schema } from "../../db/client";
import { createBundle, createReturn } from "../../cli/seed/factories";
import { renderLabelsPdf } from "../../app/features/labels/labels-pdf.server";
import { labelBarcodeText, orderEmergencyLabels } from "../../app/features/labels/labels.server";
import { returnsPdf } from "../../app/features/returns/returns-pdf.server";
import { listPapers } from "../../app/features/returns/returns.server";
import { renderJournalPdf } from "../../app/features/deliveries/journal-pdf.server";
import { journalMonth } from "../../app/features/deliveries/deliveries.server";
import { renderInvoicePdf } from "../../app/features/invoices/invoice-pdf.server";
import { renderUnderlagPdf } from "../../app/features/guarantees/payout-pdf.server";
import { addToRefund, underlagFiles } from "../../app/features/guarantees/guarantees.server";
import { STAND_IN, createPdf, drawText, fit, fontFile, formatKr, printable, wrap } from "../../app/pdf/index.server";
import { baseData, db, newCustomer, newDelivery } from "./helpers";

const NAME = "Şahin Livs – Łódź Nguyễn Ελλάδα Київ";
const TODAY = "2026-03-18";
const work = mkdtempSync(join(tmpdir(), "pdf-unicode-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let customer: number;
beforeAll(async () => {
  await baseData();
  customer = await newCustomer({ name: NAME });
  await db().update(schema.customers).set({ orgNumber: "556677-8899", bankgiro: "123-4566", coAddress: "Åsa Öberg" }).where(eq(schema.customers.id, customer));
});

function save(bytes: Uint8Array, name: string): string {
  const file = join(work, name);
  writeFileSync(file, bytes);
  return file;
}
/** pdftotext without -layout: a long name stays on one line. */
function text(bytes: Uint8Array, name: string): string {
  return execFileSync("pdftotext", [save(bytes, name), "-"], { encoding: "utf8" });
}

describe("every document prints a name outside Latin-1", () => {
  it("emergency labels: the name is printed and all six barcodes on a page still decode", async () => {
    const block = await orderEmergencyLabels(customer, 2, TODAY);
    const pdf = await renderLabelsPdf({ customerId: customer, customerName: NAME, fromNumber: block.fromNumber, toNumber: block.toNumber });
    expect(text(pdf, "labels.pdf")).toContain(`Kund ${customer} – ${NAME}`);

    // Each of the six symbols on the first page, cropped out at 150 dpi and decoded on its own.
    const file = join(work, "labels.pdf");
    const px = (pt: number) => Math.round((pt * 150) / 72);
    const decoded: string[] = [];
    for (const [i, top] of [240, 440, 640].entries()) {
      for (const [j, centre] of [595.28 / 4, (3 * 595.28) / 4].entries()) {
        const prefix = join(work, `bar-${i}-${j}`);
        const crop = ["-x", px(centre - 140), "-y", px(top - 10), "-W", px(280), "-H", px(130)].map(String);
        execFileSync("pdftoppm", ["-r", "150", "-gray", "-png", "-singlefile", "-f", "1", "-l", "1", ...crop, file, prefix]);
        decoded.push(execFileSync("zbarimg", ["--quiet", "--raw", "-Sdisable", "-Scode128.enable", `${prefix}.png`], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim());
      }
    }
    expect(decoded).toEqual(Array(6).fill(labelBarcodeText(customer, block.fromNumber)));
  });

  it("returns print (both states)", async () => {
    const delivery = await newDelivery(customer, { date: "2026-03-16", delivered: 20 });
    await newDelivery(customer, { date: "2026-03-17", delivered: 10 });
    const bundle = await createBundle(db(), { customerId: customer, number: 7, type: 0 });
    await createReturn(db(), { customerId: customer, bundleId: bundle.id, deliveryId: delivery.id, amount: 4 });
    await db().update(schema.deliveries).set({ reportedAt: Date.now() }).where(eq(schema.deliveries.id, delivery.id));
    for (const state of [1, 2] as const) {
      const papers = await listPapers(customer, state, TODAY);
      expect(papers.length).toBeGreaterThan(0);
      const out = text(await returnsPdf({ customer: { id: customer, name: NAME }, state, date: TODAY, papers }), `returns-${state}.pdf`);
      expect(out).toContain(`${NAME}, kundnummer ${customer}`);
    }
  });

  it("newspaper journal", async () => {
    await newDelivery(customer, { date: "2026-02-02", delivered: 20 });
    const editions = await journalMonth(customer, "2026-02");
    const out = text(await renderJournalPdf({ month: "2026-02", customerId: customer, customerName: NAME, editions }), "journal.pdf");
    expect(out).toContain(`${NAME}, kundnummer ${customer}`);
    expect(out).toContain("Tidningsjournal februari 2026");
  });

  it("invoice: the name as stored, not mangled", async () => {
    const [row] = await db()
      .insert(schema.invoices)
      .values({ customerId: customer, number: 950001, paperType: 0, date: "2026-03-01", dueDate: "2026-03-31", periodFrom: "2026-02-01", periodTo: "2026-02-28", netOre: 10_000, vatOre: 600, amountOre: 10_600, status: "Obetald" })
      .returning();
    await db().insert(schema.invoiceLines).values([{ invoiceId: row.id, description: "Expressen – Łódź", quantity: 50, unitPriceOre: 200, vatPermille: 60, netOre: 10_000 }]);
    const out = text((await renderInvoicePdf(950001, customer))!, "invoice.pdf");
    for (const s of [NAME, "c/o Åsa Öberg", "Expressen – Łódź", "106,00 kr"]) expect(out).toContain(s);
    expect(out).not.toContain("?");
  });

  it("payout underlag (per customer and per title), and a negative amount keeps its minus sign", async () => {
    const [g] = await db().insert(schema.guarantees).values({ customerId: customer, ledger: 83, amountOre: 12_345 }).returning();
    await addToRefund(customer, g.id, { id: "staff:test" }, TODAY);
    const files = [...(await underlagFiles({ id: "staff:test" }, { customerId: customer }, TODAY)), ...(await underlagFiles({ id: "staff:test" }, { ledger: 83 }, TODAY))];
    expect(files).toHaveLength(2);
    for (const f of files) expect(text(f.content as Uint8Array, f.filename)).toContain(`Kund ${customer}: ${NAME}`);

    const refund = { customerId: customer, name: NAME, address: "Storgatan 1", coAddress: "", zip: "111 22", city: "Stockholm", email: "", orgNumber: "556677-8899", bankgiro: "", bankAccount: "", refundDate: "2026-03-23" };
    const negative = text(await renderUnderlagPdf("Underlag", [{ ...refund, amounts: [{ guaranteeId: 1, ledger: 83, paper: "Aftonbladet", amountOre: -12_345 }] }]), "negative.pdf");
    expect(formatKr(-12_345)).toBe("\u2212123,45 kr");
    expect(negative).toContain("\u2212123,45 kr");
    expect(negative).toContain("Summa: \u2212123,45 kr");
  });
});

describe("the PDF kit", () => {
  it("replaces characters the font lacks with a visible stand-in instead of throwing", async () => {
    const pdf = await createPdf("Test");
    const page = pdf.doc.addPage();
    const odd = "Kiosk 😀 中文 ✓\ufe0f\u0007slut";
    // Emoji, CJK and ✓ are not in Noto Sans; the invisible variation selector after ✓ is dropped, the bell is a space.
    expect(printable(odd, pdf.regular)).toBe(`Kiosk ${STAND_IN} ${STAND_IN}${STAND_IN} ${STAND_IN} slut`);
    expect(() => drawText(page, odd, { x: 40, y: 700, size: 12, font: pdf.bold })).not.toThrow();
    expect(() => drawText(page, "\ud800 ensam surrogat", { x: 40, y: 680, size: 12, font: pdf.regular })).not.toThrow();
    const out = text(await pdf.save(), "odd.pdf");
    expect(out).toContain(`Kiosk ${STAND_IN} ${STAND_IN}${STAND_IN} ${STAND_IN}`);
    expect(out).toContain("slut");
  });

  it("normalises decomposed letters and cuts or wraps to a width", async () => {
    const pdf = await createPdf("Test");
    expect(printable("Nguye\u0302\u0303n", pdf.regular)).toBe("Nguyễn");
    const cut = fit(NAME, pdf.regular, 10, 80);
    expect(cut.endsWith("…")).toBe(true);
    expect(pdf.regular.pdf.widthOfTextAtSize(cut, 10)).toBeLessThanOrEqual(80);
    const lines = wrap(NAME, pdf.regular, 10, 80);
    expect(lines.join(" ")).toBe(NAME);
    for (const l of lines) expect(pdf.regular.pdf.widthOfTextAtSize(l, 10)).toBeLessThanOrEqual(80);
  });

  it("embeds a subset whose glyphs are the font's own (none blank), and stays small", async () => {
    const pdf = await createPdf("Test");
    drawText(pdf.doc.addPage(), NAME, { x: 40, y: 700, size: 12, font: pdf.regular });
    const bytes = await pdf.save();
    expect(bytes.length).toBeLessThan(20_000);

    const loaded = await PDFDocument.load(bytes);
    const fonts = loaded.context
      .enumerateIndirectObjects()
      .map(([, o]) => o)
      .filter((o): o is PDFDict => o instanceof PDFDict && o.get(PDFName.of("FontFile2")) !== undefined)
      .map((d) => loaded.context.lookup(d.get(PDFName.of("FontFile2"))) as PDFRawStream);
    expect(fonts.length).toBe(2);
    const original = fontkit.create(fontFile("regular").bytes);
    const wanted = new Set(original.layout(NAME).glyphs.map((g) => g.path.toSVG()));
    const subsets = fonts.map((s) => fontkit.create(decodePDFRawStream(s).decode()));
    const drawn = subsets.find((f) => f.numGlyphs > 10)!;
    const found = new Set<string>();
    for (let id = 1; id < drawn.numGlyphs; id++) found.add(drawn.getGlyph(id).path.toSVG());
    for (const svg of wanted) expect(found.has(svg)).toBe(true);
  });
});
