// A customer named `=HYPERLINK(…)` must reach no CSV or XLSX the
// portal writes as a live formula (OWASP CSV injection). Each file is written the way
// staff download it and the way the CLI writes it, then read back: hostile text is text
// starting with `'`, numbers are still numbers.
import ExcelJS from "exceljs";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { schema } from "../../db/client";
import { writeDistributionXlsx } from "../../app/features/distribution/distribution-xlsx.server";
import { PAYOUT_CSV_COLUMNS, buildPayoutCsv } from "../../app/features/guarantees/payout-csv.server";
import { csvField, csvLine, neutraliseFormula, xlsxRow } from "../../app/lib/spreadsheet-cells.server";
import { parseCsv } from "../../app/lib/csv.server";
import { addToRefund, missingDetails, payoutCsvFiles } from "../../app/features/guarantees/guarantees.server";
import { portal } from "./cli-run";
import { baseData, db, newCustomer, newDelivery } from "./helpers";

vi.setConfig({ testTimeout: 60_000 });

const HOSTILE = ['=HYPERLINK("http://evil.example","x")', "@SUM(1)", "+1", "-1+2", "\t=1+1", "\r=1+1", "=cmd|' /C calc'!A0"];
const HARMLESS = ["Kiosk Vanlig", "Pressbyrån - City", "1+1", "'redan citerad"];
const dir = mkdtempSync(join(tmpdir(), "formula-"));
const names = new Map<number, string>();

beforeAll(async () => {
  await baseData();
  for (const [i, name] of [...HOSTILE, ...HARMLESS].entries()) {
    const id = await newCustomer({ name });
    names.set(id, name);
    // Hostile city and zip too on the first few: every text column. (Bank details are
    // checked numbers: a hostile one never reaches a payout file, tested below.)
    const hostile = HOSTILE[i % HOSTILE.length];
    await db()
      .update(schema.customers)
      .set({
        city: i < HOSTILE.length ? hostile : "Stockholm",
        zip: i < HOSTILE.length ? "+46 111" : "111 22",
        orgNumber: "556677-8899",
        bankgiro: "123-4566",
      })
      .where(eq(schema.customers.id, id));
    const d = await newDelivery(id, { date: "2026-03-02", delivered: 20, priceOre: 2219 });
    await db().update(schema.deliveries).set({ received: 17, receivedAt: Date.now() }).where(eq(schema.deliveries.id, d.id));
    await db().insert(schema.guarantees).values({ customerId: id, ledger: 83, amountOre: 45050 + i });
  }
  for (const g of await db().select().from(schema.guarantees)) await addToRefund(g.customerId, g.id, { id: "staff:1" }, "2026-03-10");
});

const expected = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);

function checkPayoutCsv(content: string) {
  const table = parseCsv(content, PAYOUT_CSV_COLUMNS);
  expect(table.problems).toEqual([]);
  expect(table.rows.length).toBe(names.size);
  for (const { values } of table.rows) {
    const id = Number(values.kundnummer);
    const name = names.get(id)!;
    expect(values.namn, JSON.stringify(name)).toBe(expected(name));
    for (const col of ["namn", "orgnummer", "bankgiro", "bankkonto"] as const) expect(values[col], col).not.toMatch(/^[=+\-@\t\r]/);
    // Numbers stay as the file spells numbers, negative ones too.
    expect(values.kundnummer).toMatch(/^\d+$/);
    expect(values.belopp).toMatch(/^-?\d+,\d{2}$/);
  }
}

async function checkDistributionXlsx(load: (wb: ExcelJS.Workbook) => Promise<unknown>) {
  const wb = new ExcelJS.Workbook();
  await load(wb);
  const sheet = wb.worksheets[0];
  let rows = 0;
  sheet.eachRow((row, n) => {
    if (n === 1) return;
    rows++;
    const id = row.getCell(2).value as number;
    expect(row.getCell(2).type).toBe(ExcelJS.ValueType.Number);
    const name = names.get(id)!;
    expect(row.getCell(1).type, JSON.stringify(name)).toBe(ExcelJS.ValueType.String);
    // XML reads a carriage return back as a line feed.
    expect(row.getCell(1).value).toBe(expected(name).replace(/\r/g, "\n"));
    for (const col of [1, 3, 4, 5]) {
      expect(row.getCell(col).type).toBe(ExcelJS.ValueType.String);
      expect(String(row.getCell(col).value)).not.toMatch(/^[=+\-@\t\r]/);
    }
    expect(row.getCell(6).type).toBe(ExcelJS.ValueType.Date);
    for (const col of [7, 8, 9, 10]) expect(row.getCell(col).type).toBe(ExcelJS.ValueType.Number);
    expect([row.getCell(7).value, row.getCell(8).value, row.getCell(9).value, row.getCell(10).value]).toEqual([20, 17, 3, 66.57]);
  });
  expect(rows).toBe(names.size);
}

describe("the payout CSV", () => {
  it("as staff download it: hostile text starts with ', amounts are numbers", async () => {
    const [file] = await payoutCsvFiles({ id: "staff:1" }, { ledger: 83 }, "2026-03-10");
    checkPayoutCsv(file.content as string);
  });
  it("keeps a negative amount a number: only text is escaped", () => {
    const refund = { customerId: 7, name: "-1+2", address: "", coAddress: "", zip: "", city: "", email: "", orgNumber: "1", bankgiro: "2", bankAccount: "", refundDate: "2026-03-16" };
    const csv = buildPayoutCsv([{ ...refund, amounts: [{ guaranteeId: 1, ledger: 83, paper: "Aftonbladet", amountOre: -1250 }] }]);
    const [row] = parseCsv(csv, PAYOUT_CSV_COLUMNS).rows;
    expect(row.values).toMatchObject({ kundnummer: "7", namn: "'-1+2", belopp: "-12,50" });
  });
  it("never carries a hostile bank detail: a payout with one is refused, the file not made", () => {
    const refund = { customerId: 7, name: "Kiosk", address: "", coAddress: "", zip: "", city: "", email: "", orgNumber: "-556677", bankgiro: "@123", bankAccount: "", refundDate: "2026-03-16", amounts: [] };
    expect(missingDetails([refund])).toHaveLength(1);
  });
  it("as `portal payout files` writes it", async () => {
    const out = join(dir, "payout");
    const r = await portal(["payout", "files", "--out", out]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    checkPayoutCsv(readFileSync(join(out, "aftonbladet-2026-v12.csv"), "utf8"));
  });
});

describe("the distribution Excel export", () => {
  const query = { from: "2026-03-02", to: "2026-03-02", excludeDates: [], distributorIds: [], editions: [] };
  it("as staff download it: hostile text is text starting with ', numbers and dates keep their types", async () => {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on("data", (c: Buffer) => chunks.push(c));
    const done = new Promise((resolve) => out.on("end", resolve));
    await writeDistributionXlsx(out, query);
    await done;
    await checkDistributionXlsx((wb) => wb.xlsx.load(Buffer.concat(chunks) as unknown as ExcelJS.Buffer));
  });
  it("as `portal export distribution` writes it", async () => {
    const out = join(dir, "dist.xlsx");
    const r = await portal(["export", "distribution", "--from", "2026-03-02", "--to", "2026-03-02", "--out", out]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    await checkDistributionXlsx((wb) => wb.xlsx.readFile(out));
  });
});

describe("the cell helper", () => {
  it("prefixes text starting with = + - @, tab or CR with ', and nothing else", () => {
    for (const s of ["=1", "+1", "-1", "@a", "\t1", "\r1"]) expect(neutraliseFormula(s)).toBe(`'${s}`);
    for (const s of ["", "1", "a=1", " =1", "'=1", "Åhléns", "\n1"]) expect(neutraliseFormula(s)).toBe(s);
  });
  it("leaves numbers alone in CSV and quotes what needs quoting", () => {
    expect(csvLine([-1, 2.5, { number: "-12,50" }, "-12,50", "a;b", 'x"y', "=1;2"])).toBe(`-1;2.5;-12,50;'-12,50;"a;b";"x""y";"'=1;2"`);
  });
  it("does not let text pass as a number", () => {
    expect(csvField({ number: "-1+2" })).toBe("'-1+2");
    expect(csvField({ number: "=1" })).toBe("'=1");
    expect(csvField(-Infinity)).toBe("'-Infinity");
  });
  it("keeps the types of an XLSX row", () => {
    const date = new Date(0);
    expect(xlsxRow({ a: "=1", b: -1, c: date, d: null, e: "x" })).toEqual({ a: "'=1", b: -1, c: date, d: null, e: "x" });
  });
});
