// Staff back office, part A: distribution monitoring, its Excel export and the
// complaints per distributor, against a hand-computed fixture.
import ExcelJS from "exceljs";
import { PassThrough } from "node:stream";
import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { schema } from "../../../db/client";
import { createDelivery } from "../../../cli/seed/factories";
import {
  exportRows,
  getCustomerPapers,
  getDailyShare,
  getDistribution,
  outsideScope,
  type DistributionQuery,
  type DistributorScope,
} from "./distribution.server";
import { parseDistributionParams, scopeFor } from "./distribution-params.server";
import { allComplaintRows, complaintRows, complaintTotals } from "../deliveries/complaints.server";
import { parsePeriod, preset } from "../../lib/period";
import { writeDistributionXlsx } from "./distribution-xlsx.server";
import { baseData, db, newCustomer } from "../../../tests/unit/helpers";

const TODAY = "2026-03-15";
const ALL: DistributorScope = { distributorIds: null };
const q = (over: Partial<DistributionQuery> = {}): DistributionQuery => ({
  from: "2026-03-10",
  to: "2026-03-12",
  excludeDates: [],
  distributorIds: [],
  editions: [],
  ...over,
});

let A: number, B: number, C: number, D: number, E: number;

async function delivery(customerId: number, deliveryDate: string, titleId: number, editionId: number, delivered: number, received: number | null, priceOre: number) {
  await createDelivery(db(), { customerId, deliveryDate, titleId, editionId, delivered, received, priceOre });
}

beforeAll(async () => {
  await baseData();
  A = await newCustomer({ distributorId: 1, name: "Kiosk A" });
  B = await newCustomer({ distributorId: 1, name: "Kiosk B" });
  C = await newCustomer({ distributorId: 1, name: "Kiosk C" });
  E = await newCustomer({ distributorId: 1, name: "Kiosk E" });
  D = await newCustomer({ distributorId: 2, name: "Kiosk D" });
  // A: |20−18| × 22,00 = 44,00 kr; an equal row; an unreported row; an older reported day.
  await delivery(A, "2026-03-10", 1, 1, 20, 18, 2200);
  await delivery(A, "2026-03-11", 2, 1, 10, 10, 2000);
  await delivery(A, "2026-03-12", 1, 20, 5, null, 1090);
  await delivery(A, "2026-02-20", 1, 1, 10, 10, 2200);
  await delivery(A, "2026-01-20", 1, 1, 10, 9, 2200); // older than 30 days: no frequency
  // B: received 0 of 30 (660,00 kr) and 33 of 30 (66,00 kr).
  await delivery(B, "2026-03-11", 1, 1, 30, 0, 2200);
  await delivery(B, "2026-03-12", 1, 1, 30, 33, 2200);
  // C: delivered but never reported: not a reporting customer.
  await delivery(C, "2026-03-10", 1, 1, 10, null, 2200);
  // D (the other distributor): |8−6| × 20,00 = 40,00 kr.
  await delivery(D, "2026-03-12", 2, 1, 8, 6, 2000);
});

describe("distribution totals", () => {
  it("match the hand-computed fixture per distributor and customer", async () => {
    const entries = await getDistribution(q(), ALL, TODAY);
    const norr = entries.find((e) => e.id === 1)!;
    const syd = entries.find((e) => e.id === 2)!;
    expect(norr).toMatchObject({ name: "Utb Norr", customerCount: 4, reporting: 2, amount: 35, priceOre: 77_000 });
    expect(syd).toMatchObject({ name: "Utb Syd", customerCount: 1, reporting: 1, amount: 2, priceOre: 4_000 });
    expect(norr.customers.map((c) => c.id)).toEqual([A, B]);
    const a = norr.customers[0];
    const b = norr.customers[1];
    expect(a).toMatchObject({ name: "Kiosk A", amount: 2, priceOre: 4_400, frequency: 3, anyZero: false, zip: "111 22", city: "Stockholm" });
    expect(b).toMatchObject({ amount: 33, priceOre: 72_600, frequency: 2, anyZero: true });
  });

  it("one date means start = end", async () => {
    const entries = await getDistribution(q({ from: "2026-03-12", to: "2026-03-12" }), ALL, TODAY);
    expect(entries.find((e) => e.id === 1)).toMatchObject({ reporting: 1, amount: 3, priceOre: 6_600 });
  });

  it("leave out excluded dates but keep the 30-day frequency", async () => {
    const entries = await getDistribution(q({ excludeDates: ["2026-03-11"] }), ALL, TODAY);
    const norr = entries.find((e) => e.id === 1)!;
    expect(norr).toMatchObject({ reporting: 2, amount: 5, priceOre: 11_000 });
    expect(norr.customers.find((c) => c.id === B)).toMatchObject({ anyZero: false, frequency: 2 });
    expect(norr.customers.find((c) => c.id === A)).toMatchObject({ frequency: 3 });
  });

  it("filter by edition and by distributor", async () => {
    const byEdition = await getDistribution(q({ editions: [{ titleId: 2, editionId: 1 }] }), ALL, TODAY);
    expect(byEdition.find((e) => e.id === 1)).toMatchObject({ reporting: 1, amount: 0, priceOre: 0 });
    expect(byEdition.find((e) => e.id === 2)).toMatchObject({ reporting: 1, amount: 2 });
    const onlySyd = await getDistribution(q({ distributorIds: [2] }), ALL, TODAY);
    expect(onlySyd.map((e) => e.id)).toEqual([2]);
  });

  it("a utb user's scope holds only its own distributor, whatever is asked", async () => {
    const scope = scopeFor({ roles: ["utb"], distributorId: 2 });
    expect(scope).toEqual({ distributorIds: [2] });
    expect(scopeFor({ roles: ["sales"], distributorId: null })).toEqual({ distributorIds: null });
    const entries = await getDistribution(q(), scope, TODAY);
    expect(entries.map((e) => e.id)).toEqual([2]);
    expect(outsideScope([1], scope)).toBe(true);
    expect(outsideScope([2], scope)).toBe(false);
    expect(await getCustomerPapers(A, q(), scope)).toBeNull();
    expect(await getCustomerPapers(D, q(), scope)).toHaveLength(1);
  });

  it("list a customer's reported papers with Följesedel and Mottagit", async () => {
    const papers = (await getCustomerPapers(B, q(), ALL))!;
    expect(papers.map((p) => [p.name, p.deliveryDate, p.delivered, p.received, p.sumOre])).toEqual([
      ["Aftonbladet", "2026-03-11", 30, 0, 66_000],
      ["Aftonbladet", "2026-03-12", 30, 33, 6_600],
    ]);
    expect(await getCustomerPapers(99_999, q(), ALL)).toBeNull();
  });

  it("count the daily share of reporting customers", async () => {
    const days = await getDailyShare(q(), ALL);
    expect(days).toEqual([
      { date: "2026-03-10", reporting: 1, customerCount: 5 },
      { date: "2026-03-11", reporting: 2, customerCount: 5 },
      { date: "2026-03-12", reporting: 2, customerCount: 5 },
    ]);
    const syd = await getDailyShare(q({ excludeDates: ["2026-03-11"] }), { distributorIds: [2] });
    expect(syd).toEqual([
      { date: "2026-03-10", reporting: 0, customerCount: 1 },
      { date: "2026-03-12", reporting: 1, customerCount: 1 },
    ]);
  });

  it("uses the partial covering index for the aggregate", async () => {
    const plan = await db().$client.execute(
      "explain query plan select customer_id, sum(abs(delivered - received) * price_ore) from deliveries where received is not null and delivery_date between '2026-03-10' and '2026-03-12' group by customer_id",
    );
    expect(plan.rows.map((r) => String(r.detail)).join("\n")).toContain("COVERING INDEX deliveries_reported");
  });
});

describe("the range picker", () => {
  it("answers 'Måste ha ett värde', 'Felaktig period', and takes one date as both ends", () => {
    expect(parsePeriod("", "")).toEqual({ errors: { from: "Måste ha ett värde" } });
    expect(parsePeriod("2026-03-12", "2026-03-10")).toEqual({ errors: { to: "Felaktig period" } });
    expect(parsePeriod("2026-03-12", "")).toEqual({ period: { from: "2026-03-12", to: "2026-03-12" } });
    expect(parsePeriod("2026-02-30", "")).toEqual({ errors: { from: "Felaktig period" } });
  });
  it("has the presets", () => {
    expect(preset("idag", TODAY)).toEqual({ from: TODAY, to: TODAY });
    expect(preset("senaste7", TODAY)).toEqual({ from: "2026-03-09", to: TODAY });
    expect(preset("forramanaden", TODAY)).toEqual({ from: "2026-02-01", to: "2026-02-28" });
    expect(preset("dennamanad", TODAY)).toEqual({ from: "2026-03-01", to: TODAY });
    expect(preset("igar", "2026-03-01")).toEqual({ from: "2026-02-28", to: "2026-02-28" });
    // ISO weeks: Monday to Sunday, across a year's end (2026-12-28 starts week 53; 2027-01-03 is its Sunday).
    expect(preset("dennavecka", "2027-01-01")).toEqual({ from: "2026-12-28", to: "2027-01-01" });
    expect(preset("forraveckan", "2027-01-04")).toEqual({ from: "2026-12-28", to: "2027-01-03" });
    expect(preset("dennavecka", "2026-11-23")).toEqual({ from: "2026-11-23", to: "2026-11-23" });
    expect(preset("forraveckan", "2026-11-29")).toEqual({ from: "2026-11-16", to: "2026-11-22" });
  });
  it("reads the filters from the URL and drops malformed values", () => {
    const p = new URLSearchParams("fran=2026-03-10&till=2026-03-12&utom=2026-03-11&utom=x&utb=2&utb=a&utgava=1:20&utgava=bad");
    expect(parseDistributionParams(p, { from: TODAY, to: TODAY }).query).toEqual(
      q({ excludeDates: ["2026-03-11"], distributorIds: [2], editions: [{ titleId: 1, editionId: 20 }] }),
    );
  });
});

describe("the Excel export", () => {
  async function exportBuffer(query: DistributionQuery, scope: DistributorScope = ALL) {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on("data", (c: Buffer) => chunks.push(c));
    const done = new Promise((resolve) => out.on("end", resolve));
    const result = await writeDistributionXlsx(out, query, scope);
    await done;
    return { result, buffer: Buffer.concat(chunks) };
  }

  it("has a frozen header row, typed cells and the fixture's totals", async () => {
    const { result, buffer } = await exportBuffer(q());
    expect(result.rows).toBe(5);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(buffer as unknown as ExcelJS.Buffer);
    const sheet = wb.worksheets[0];
    expect(sheet.views[0]).toMatchObject({ state: "frozen", ySplit: 1 });
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual([
      "Namn", "Kundnr", "Postnr", "Ort", "Tidning", "Leveransdatum", "Följesedel", "Mottagit", "Antal", "Summa (kr)", "Distributör",
    ]);
    expect(sheet.actualRowCount).toBe(6);
    const first = sheet.getRow(2);
    expect(first.getCell(1).value).toBe("Kiosk A");
    expect(first.getCell(2).value).toBe(A);
    expect(typeof first.getCell(2).value).toBe("number");
    expect(first.getCell(6).value).toBeInstanceOf(Date);
    expect((first.getCell(6).value as Date).toISOString().slice(0, 10)).toBe("2026-03-10");
    expect(first.getCell(6).numFmt).toBe("yyyy-mm-dd");
    expect([first.getCell(7).value, first.getCell(8).value, first.getCell(9).value, first.getCell(10).value]).toEqual([20, 18, 2, 44]);
    expect(first.getCell(10).numFmt).toBe("0.00");
    let total = 0;
    let amount = 0;
    const customers: number[] = [];
    sheet.eachRow((row, n) => {
      if (n === 1) return;
      total += row.getCell(10).value as number;
      amount += row.getCell(9).value as number;
      customers.push(row.getCell(2).value as number);
    });
    expect(Math.round(total * 100)).toBe(77_000 + 4_000);
    expect(amount).toBe(37);
    // Ordered by delivery date, then customer.
    expect(customers).toEqual([A, A, B, B, D]);
    // Each row names its distributor; the second sheet sums per distributor, then in all.
    const names = new Map<number, string>();
    sheet.eachRow((row, n) => n > 1 && names.set(row.getCell(2).value as number, row.getCell(11).value as string));
    expect([...names.values()].every((v) => typeof v === "string" && v.length > 0)).toBe(true);
    const summary = wb.getWorksheet("Per distributör")!;
    expect((summary.getRow(1).values as unknown[]).slice(1)).toEqual(["Distributör", "Rader", "Antal", "Summa (kr)"]);
    const lines: unknown[][] = [];
    summary.eachRow((row, n) => n > 1 && lines.push((row.values as unknown[]).slice(1)));
    const totalLine = lines.at(-1)!;
    expect(totalLine).toEqual(["Totalt", 5, 37, 810]);
    const perDistributor = lines.slice(0, -1);
    expect(perDistributor.map((l) => l[0])).toEqual([...new Set(names.values())].sort(new Intl.Collator("sv-SE").compare));
    expect(perDistributor.reduce((s, l) => s + (l[1] as number), 0)).toBe(5);
    expect(Math.round(perDistributor.reduce((s, l) => s + (l[3] as number), 0) * 100)).toBe(81_000);
  });

  it("pages through the rows with a keyset, none lost or repeated", async () => {
    const pages: string[][] = [];
    for await (const page of exportRows(q(), ALL, 2)) pages.push(page.map((r) => `${r.customerId}:${r.deliveryDate}:${r.paperName}`));
    expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
    const all: string[] = [];
    for await (const page of exportRows(q(), ALL)) all.push(...page.map((r) => `${r.customerId}:${r.deliveryDate}:${r.paperName}`));
    expect(pages.flat()).toEqual(all);
    expect(new Set(all).size).toBe(5);
  });

  it("per distributor and within the user's scope only", async () => {
    const { result } = await exportBuffer(q({ distributorIds: [2] }));
    expect(result.rows).toBe(1);
    const { result: scoped } = await exportBuffer(q(), { distributorIds: [2] });
    expect(scoped.rows).toBe(1);
  });
});

describe("Leveransreklamation per utb", () => {
  const period = { from: "2026-03-10", to: "2026-03-12" };
  it("sums the deliveries whose received differs from delivered, per distributor", async () => {
    const totals = await complaintTotals(period, ALL);
    expect(totals).toEqual([
      { id: 1, name: "Utb Norr", complaints: 3, customers: 2, difference: -2 - 30 + 3, priceOre: 4_400 + 66_000 + 6_600 },
      { id: 2, name: "Utb Syd", complaints: 1, customers: 1, difference: -2, priceOre: 4_000 },
    ]);
    expect((await complaintTotals(period, { distributorIds: [2] })).map((t) => t.id)).toEqual([2]);
  });
  it("lists one distributor's rows newest first, in pages", async () => {
    const { rows, hasMore } = await complaintRows(1, period);
    expect(hasMore).toBe(false);
    expect(rows.map((r) => [r.deliveryDate, r.customerId, r.delivered, r.received, r.difference])).toEqual([
      ["2026-03-12", B, 30, 33, 3],
      ["2026-03-11", B, 30, 0, -30],
      ["2026-03-10", A, 20, 18, -2],
    ]);
    expect((await complaintRows(1, period, 2)).rows).toEqual([]);
  });
  it("sorts by the chosen column in SQL, ties newest first", async () => {
    const bySum = await complaintRows(1, period, 1, { column: "summa", descending: true });
    expect(bySum.rows.map((r) => r.priceOre)).toEqual([66_000, 6_600, 4_400]);
    const byDifference = await complaintRows(1, period, 1, { column: "differens", descending: false });
    expect(byDifference.rows.map((r) => r.difference)).toEqual([-30, -2, 3]);
  });
  it("yields every row of the scope for the export, page by page, in the same order", async () => {
    const rows = [];
    for await (const r of allComplaintRows(null, period, { column: "summa", descending: false }, 2)) rows.push(r);
    expect(rows.map((r) => [r.priceOre, r.distributorName])).toEqual([
      [4_000, "Utb Syd"],
      [4_400, "Utb Norr"],
      [6_600, "Utb Norr"],
      [66_000, "Utb Norr"],
    ]);
    const scoped = [];
    for await (const r of allComplaintRows([2], period, { column: "datum", descending: true })) scoped.push(r.distributorName);
    expect(scoped).toEqual(["Utb Syd"]);
  });
});

describe("fixture sanity", () => {
  it("has the customers the totals assume", async () => {
    const rows = await db().select().from(schema.customers).where(eq(schema.customers.distributorId, 1));
    expect(rows.map((r) => r.id).sort()).toEqual([A, B, C, E].sort());
  });
});

describe("a deactivated customer", () => {
  it("leaves the monitor's counts: neither among the customers nor among those who reported", async () => {
    const before = (await getDistribution(q(), ALL, TODAY)).find((e) => e.id === 1)!;
    const F = await newCustomer({ distributorId: 1, name: "Şahin Livs" });
    await delivery(F, "2026-03-11", 1, 1, 12, 11, 2200);
    const active = (await getDistribution(q(), ALL, TODAY)).find((e) => e.id === 1)!;
    expect([active.customerCount, active.reporting]).toEqual([before.customerCount + 1, before.reporting + 1]);
    await db().update(schema.customers).set({ deactivatedAt: Date.now() }).where(eq(schema.customers.id, F));
    const after = (await getDistribution(q(), ALL, TODAY)).find((e) => e.id === 1)!;
    expect([after.customerCount, after.reporting, after.amount]).toEqual([before.customerCount, before.reporting, before.amount]);
    expect(after.customers.map((c) => c.id)).not.toContain(F);
  });
});
