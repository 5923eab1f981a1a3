// Text is escaped exactly once wherever it meets HTML, PDF, CSV or XLSX.
// Messages: plain text is stored as typed and escaped once on display (it used to go
// through the sanitiser on save, which entity-encoded it, and was escaped again: "&amp;").
// Documents get raw text: a name with & " < > is read back from each file unchanged.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import ExcelJS from "exceljs";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { schema } from "../../db/client";
import { getMessage, saveMessage } from "../../app/features/messages/messages.server";
import { listBanners } from "../../app/features/messages/banners.server";
import { staffActor } from "../../app/features/audit/audit.server";
import { messageHtml } from "../../app/lib/html.server";
import { parseCsv } from "../../app/lib/csv.server";
import { PAYOUT_CSV_COLUMNS, buildPayoutCsv } from "../../app/features/guarantees/payout-csv.server";
import { renderUnderlagPdf } from "../../app/features/guarantees/payout-pdf.server";
import { renderLabelsPdf } from "../../app/features/labels/labels-pdf.server";
import { writeDistributionXlsx } from "../../app/features/distribution/distribution-xlsx.server";
import type { Refund } from "../../app/features/guarantees/refund";
import { createDelivery, createStaff } from "../../cli/seed/factories";
import { baseData, db, newCustomer } from "./helpers";

const NAME = 'Kiosk & Café "Hörnan" <Öst>';
const TEXT = 'Öppet 9–17 & "söndag" <i>ej</i>';
const work = mkdtempSync(join(tmpdir(), "escaped-once-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let customer: number;
let staff: number;
beforeAll(async () => {
  await baseData();
  customer = await newCustomer({ name: NAME });
  staff = (await createStaff(db(), { email: "esc@test.example", name: "E", password: "x-password-1", roles: "admin" })).id;
});

function pdfText(bytes: Uint8Array, name: string): string {
  const file = join(work, name);
  writeFileSync(file, bytes);
  return execFileSync("pdftotext", [file, "-"], { encoding: "utf8" });
}

describe("messages", () => {
  it("plain text is stored as typed and escaped once for display", async () => {
    const plain = 'Öppet 9–17 & "söndag"\n2 < 3';
    const id = await saveMessage({ type: 3, header: "A & B", content: plain, startDate: "2026-03-10", stopDate: "2026-03-20", customers: String(customer) }, staffActor(staff));
    expect((await getMessage(id))!.content).toBe(plain);
    expect(messageHtml(plain)).toBe("<p>Öppet 9–17 &amp; &quot;söndag&quot;<br>2 &lt; 3</p>");
  });

  it("HTML is sanitised once: its & stays one entity, its tag stays a tag", async () => {
    const id = await saveMessage({ type: 3, header: "H", content: TEXT, startDate: "2026-03-10", stopDate: "2026-03-20", customers: String(customer) }, staffActor(staff));
    const stored = (await getMessage(id))!.content;
    expect(stored).toBe('Öppet 9–17 &amp; "söndag" <i>ej</i>');
    expect(messageHtml(stored)).toBe(stored);
    const banners = await listBanners(customer, "2026-03-12");
    expect(banners.find((b) => b.id === id)!.html).toBe(stored);
  });

  it("the migration decodes plain-text messages stored entity-encoded by the old save, once", async () => {
    const [old] = await db()
      .insert(schema.messages)
      .values({ type: 1, header: "old", content: "A &amp; B &lt; C &amp;lt; D", startDate: "2026-03-10", stopDate: "2026-03-10" })
      .returning();
    const [html] = await db()
      .insert(schema.messages)
      .values({ type: 1, header: "old html", content: "<p>A &amp; B</p>", startDate: "2026-03-10", stopDate: "2026-03-10" })
      .returning();
    const migration = readFileSync(join(__dirname, "../../db/migrations/0005_plain-text-messages.sql"), "utf8");
    await db().run(sql.raw(migration.replace(/^--.*$/gm, "")));
    expect((await getMessage(old.id))!.content).toBe("A & B < C &lt; D");
    expect(messageHtml((await getMessage(old.id))!.content)).toBe("<p>A &amp; B &lt; C &amp;lt; D</p>");
    expect((await getMessage(html.id))!.content).toBe("<p>A &amp; B</p>");
  });
});

describe("documents get raw text", () => {
  const refund: Refund = {
    customerId: 0, name: NAME, address: "Storgatan 1 & 2", coAddress: "", zip: "123 45", city: "Åby", email: "a@b.example",
    orgNumber: "556677-8899", bankgiro: "123-4566", bankAccount: "", refundDate: "2026-03-18",
    amounts: [{ guaranteeId: 1, ledger: 1, paper: "Tidning & Co", amountOre: 12345 }],
  };

  it("CSV: the payout file reads back the name with & and quotes", () => {
    const csv = buildPayoutCsv([{ ...refund, customerId: customer }]);
    expect(csv).not.toContain("&amp;");
    const { rows, problems } = parseCsv(csv, PAYOUT_CSV_COLUMNS);
    expect(problems).toEqual([]);
    expect(rows[0]!.values.namn).toBe(NAME);
  });

  it("XLSX: the distribution export reads back the name with &", async () => {
    await createDelivery(db(), { customerId: customer, deliveryDate: "2026-03-10", titleId: 1, editionId: 1, delivered: 5, received: 4, priceOre: 1500 });
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on("data", (c: Buffer) => chunks.push(c));
    const done = new Promise((resolve) => out.on("end", resolve));
    await writeDistributionXlsx(out, { from: "2026-03-10", to: "2026-03-10", excludeDates: [], distributorIds: [], editions: [] });
    await done;
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.concat(chunks) as unknown as ExcelJS.Buffer);
    const names = wb.worksheets[0]!.getColumn(1).values.slice(2);
    expect(names).toContain(NAME);
  });

  it("PDF: labels and the payout underlag print & as &", async () => {
    const labels = pdfText(await renderLabelsPdf({ customerId: customer, customerName: NAME, fromNumber: 1000, toNumber: 1001 }), "labels.pdf");
    expect(labels).toContain(NAME);
    const underlag = pdfText(await renderUnderlagPdf("Underlag & utbetalning", [{ ...refund, customerId: customer }]), "underlag.pdf");
    expect(underlag).toContain(NAME);
    expect(underlag).toContain("Underlag & utbetalning");
    expect(`${labels}${underlag}`).not.toContain("&amp;");
  });
});
