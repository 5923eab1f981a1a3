// Credit notes (decision 032) against a real database: whole or chosen lines, each line
// once, a number series of their own, VAT per rate with the sign turned, the invoice's
// status, an immutable record, and a PDF that names the invoice it credits.
import { execFileSync } from "node:child_process";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { schema } from "../../../db/client";
import { baseData, db, newCustomer, newDelivery } from "../../../tests/unit/helpers";
import { CLI_ACTOR } from "../audit/audit.server";
import { creditInvoice, creditNotesByInvoice, FIRST_CREDIT_NOTE_NUMBER, getCreditNoteDocument, invoiceForCredit } from "./credit-notes.server";
import { renderCreditNotePdf } from "./invoice-pdf.server";
import { runInvoicing } from "./invoice-run.server";

let shop: number;
let invoiceNumber: number;

beforeAll(async () => {
  await baseData();
  shop = await newCustomer({ name: "Şahin Livs" });
  await newDelivery(shop, { date: "2026-10-03", delivered: 15, priceOre: 2219 });
  await newDelivery(shop, { date: "2026-10-04", titleId: 2, editionId: 2, delivered: 7, priceOre: 2163 });
  const run = await runInvoicing({ from: "2026-10-01", to: "2026-10-31", actor: CLI_ACTOR, date: "2026-11-01" });
  invoiceNumber = run.firstNumber!;
});

describe("a credit note", () => {
  it("credits chosen lines, then the rest, each once, in its own series", async () => {
    const before = await invoiceForCredit(invoiceNumber, shop);
    expect(before!.lines).toHaveLength(2);
    const [ab, kvp] = before!.lines;
    await expect(creditInvoice({ invoiceNumber, reason: "  ", actor: CLI_ACTOR })).rejects.toMatchObject({ code: "invalid", message: "Ange varför fakturan krediteras." });
    await expect(creditInvoice({ invoiceNumber: 1, reason: "Fel", actor: CLI_ACTOR })).rejects.toMatchObject({ code: "not-found", message: "Faktura 1 finns inte." });
    await expect(creditInvoice({ invoiceNumber, reason: "Fel", lineIds: [999_999], actor: CLI_ACTOR })).rejects.toMatchObject({ code: "not-found" });

    const first = await creditInvoice({ invoiceNumber, reason: "Fel pris på Kvällsposten", lineIds: [kvp.id], actor: CLI_ACTOR, date: "2026-11-10" });
    // 7 × 21,63 = 151,41; 6 % of −151,41 = −9,08 (half away from zero).
    expect(first).toEqual({ number: FIRST_CREDIT_NOTE_NUMBER, invoice: invoiceNumber, netOre: -15_141, vatOre: -908, amountOre: -16_049, lines: 1 });
    const [inv] = await db().select().from(schema.invoices).where(eq(schema.invoices.number, invoiceNumber));
    expect(inv.status).toBe("Delvis krediterad");
    await expect(creditInvoice({ invoiceNumber, reason: "Igen", lineIds: [kvp.id], actor: CLI_ACTOR })).rejects.toMatchObject({ code: "conflict", message: `Raden är redan krediterad på faktura ${invoiceNumber}.` });

    const rest = await creditInvoice({ invoiceNumber, reason: "Kunden har stängt", actor: CLI_ACTOR, date: "2026-11-11" });
    expect(rest).toMatchObject({ number: FIRST_CREDIT_NOTE_NUMBER + 1, netOre: -15 * 2219, lines: 1 });
    expect((await db().select().from(schema.invoices).where(eq(schema.invoices.number, invoiceNumber)))[0].status).toBe("Krediterad");
    await expect(creditInvoice({ invoiceNumber, reason: "En gång till", actor: CLI_ACTOR })).rejects.toMatchObject({ code: "conflict", message: `Faktura ${invoiceNumber} är redan krediterad i sin helhet.` });
    // The two credit notes together take back the invoice's net exactly; each rounds its own
    // VAT, so their VAT may differ from the invoice's by an öre each.
    const notes = (await creditNotesByInvoice(shop)).get(invoiceNumber)!;
    expect(notes.map((n) => n.number)).toEqual([FIRST_CREDIT_NOTE_NUMBER + 1, FIRST_CREDIT_NOTE_NUMBER]);
    expect(first.netOre + rest.netOre).toBe(-inv.netOre);
    expect(Math.abs(notes.reduce((s, n) => s + n.amountOre, 0) + inv.amountOre)).toBeLessThanOrEqual(notes.length);
    const after = await invoiceForCredit(invoiceNumber, shop);
    expect(after!.lines.map((l) => l.creditNote)).toEqual([FIRST_CREDIT_NOTE_NUMBER + 1, FIRST_CREDIT_NOTE_NUMBER]);
    void ab;
  });

  it("is never changed or deleted, and belongs to its customer only", async () => {
    const cause = (e: unknown) => String((e as { cause?: unknown }).cause ?? e);
    expect(cause(await db().run(sql`update credit_notes set amount_ore = 0`).catch((e: unknown) => e))).toMatch(/never changed/);
    expect(cause(await db().run(sql`delete from credit_note_lines`).catch((e: unknown) => e))).toMatch(/never deleted/);
    expect(await getCreditNoteDocument(FIRST_CREDIT_NOTE_NUMBER, await newCustomer())).toBeNull();
    expect(await renderCreditNotePdf(FIRST_CREDIT_NOTE_NUMBER, await newCustomer())).toBeNull();
  });

  it("prints as Kreditfaktura naming the invoice and its date, with negative amounts and VAT per rate", async () => {
    const pdf = await renderCreditNotePdf(FIRST_CREDIT_NOTE_NUMBER, shop);
    const text = execFileSync("pdftotext", ["-layout", "-", "-"], { input: Buffer.from(pdf!), encoding: "utf8" });
    expect(text).toContain("Kreditfaktura");
    expect(text).toContain(`Kreditering av faktura ${invoiceNumber} daterad 2026-11-01.`);
    expect(text).toContain("Orsak: Fel pris på Kvällsposten");
    expect(text).toMatch(/Moms 6 % på −151,41 kr\s+−9,08 kr/);
    expect(text).toMatch(/Att kreditera\s+−160,49 kr/);
    expect(text).toContain("Şahin Livs");
    expect(text).not.toContain("OCR");
  });
});
