// Domain half: property-based bad input through the real domain
// entry points and CLI parsers against a real database. Each property asserts no
// unexpected exception (only the module's typed results/errors) and, after every
// run, that the stored rows still satisfy the invariants.
import { saveReturnsResult } from "./helpers";
import { stockholmMoment } from "../../app/lib/dates";
import fc from "fast-check";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { schema } from "../../db/client";
import { createBundle, createLabelBlock } from "../../cli/seed/factories";
import { checkReceived, parseMonth, saveReceived } from "../../app/features/deliveries/deliveries.server";
import { checkEmergencyCount } from "../../app/features/labels/labels.server";
import { savePlacards } from "../../app/features/placards/placards.server";
import { answerHoliday } from "../../app/features/holidays/answers.server";
import { checkHoliday } from "../../app/features/holidays/holidays.server";
import { parsePrice, priceBreakdown } from "../../app/features/products/prices";
import { checkHistoryRange } from "../../app/features/returns/history.server";
import { parseKronor } from "../../app/features/invoices/extra-lines.server";
import { parseCustomerNumbers } from "../../app/features/messages/messages.server";
import { parseDistributionParams } from "../../app/features/distribution/distribution-params.server";
import { updateBankDetail } from "../../app/features/guarantees/guarantees.server";
import { isRefusal } from "../../app/lib/refusal";
import { changeBundleNumber } from "../../app/features/bundles/staff-bundles.server";
import { parseCsv, CSV_LIMITS } from "../../app/lib/csv.server";
import { IMPORT_COLUMNS, IMPORT_KINDS, importFile } from "../../app/features/imports/imports.server";
import { applyOrders, parseOrdersFile, refusedOrderLines } from "../../app/features/invoices/orders.server";
import { MAX_RETURN_AMOUNT, type ReturnLine } from "../../app/features/returns/returns.server";
import { baseData, db, newCustomer, newDelivery } from "./helpers";

const ON = "2025-03-20";
/** Within the claim window of ON's deliveries (decision 031): the afternoon of the day. */
const AT = stockholmMoment(ON, "15:00");
const RUNS = { numRuns: 100 };
const DB_RUNS = { numRuns: 60 };

/** Hostile text: scripts, SQL, unicode digits, signs, exponents, huge, empty. */
const PAYLOADS = [
  "",
  " ",
  "<script>alert(1)</script>",
  "\"><img src=x onerror=alert(1)>",
  "'; DROP TABLE returns; --",
  "1 OR 1=1",
  "1; DELETE FROM deliveries",
  "-1",
  "-0",
  "0",
  "1e3",
  "0x10",
  "1.5",
  "1,5",
  "NaN",
  "Infinity",
  "９９",
  "٣",
  "\u0000",
  "\u202e123",
  "99999999999999999999999",
  "999",
  "1000",
  "x".repeat(100_000),
  "1\n2",
  "%00",
  "null",
  "undefined",
  "[object Object]",
];
const nasty = fc.oneof(fc.constantFrom(...PAYLOADS), fc.string({ maxLength: 40 }), fc.string({ unit: "grapheme", maxLength: 20 }), fc.integer().map(String), fc.double().map(String));

beforeAll(baseData);

async function invariants() {
  // Amounts 0–999; the returns of one delivery never exceed what was delivered;
  // every return, bundle and delivery of one row belong to the same customer, and
  // the bundle's type is the paper's type.
  const bad = await db().all<{ n: number }>(sql`
    select count(*) as n from returns r
    join deliveries d on d.id = r.delivery_id
    join bundles b on b.id = r.bundle_id
    join editions e on e.title_id = d.title_id and e.edition_id = d.edition_id
    where r.amount < 0 or r.amount > ${MAX_RETURN_AMOUNT}
       or r.customer_id != d.customer_id or b.customer_id != r.customer_id or b.type != e.type`);
  expect(Number(bad[0].n)).toBe(0);
  const over = await db().all<{ n: number }>(sql`
    select count(*) as n from (select d.id from deliveries d join returns r on r.delivery_id = d.id group by d.id having sum(r.amount) > max(d.delivered))`);
  expect(Number(over[0].n)).toBe(0);
  const received = await db().all<{ n: number }>(sql`select count(*) as n from deliveries where received is not null and (received < 0 or received > 998)`);
  expect(Number(received[0].n)).toBe(0);
  const placards = await db().all<{ n: number }>(sql`select count(*) as n from placards where new_amount < 0 or new_amount > 999`);
  expect(Number(placards[0].n)).toBe(0);
}

describe("returns form: random lines", () => {
  it("never throws, refuses or saves whole submissions, and keeps every invariant", async () => {
    const a = await newCustomer();
    const b = await newCustomer();
    await createLabelBlock(db(), { customerId: a, type: 0, status: "Levererad", fromDate: "2025-01-01", toDate: "2025-12-31", fromNumber: 101, toNumber: 150 });
    await createLabelBlock(db(), { customerId: b, type: 0, status: "Levererad", fromDate: "2025-01-01", toDate: "2025-12-31", fromNumber: 101, toNumber: 150 });
    await createBundle(db(), { customerId: a, number: 140, type: 1, open: true });
    await createBundle(db(), { customerId: a, number: 141, type: 0, open: false, closedDate: "2025-03-01" });
    const own = [];
    // Within their return window on ON (7 days for main papers, decision 018), so plausible lines can save.
    for (let i = 0; i < 4; i++) own.push((await newDelivery(a, { date: `2025-03-1${4 + i}`, delivered: 5 + i, editionId: i === 3 ? 20 : 1 })).id);
    const old = (await newDelivery(a, { date: "2025-01-01" })).id;
    const foreign = (await newDelivery(b, { date: "2025-03-19" })).id;
    // Mostly plausible values (so saves happen and the sums matter), often hostile ones.
    const w = <T,>(good: fc.Arbitrary<T>, bad: fc.Arbitrary<T>) => fc.oneof({ arbitrary: good, weight: 6 }, { arbitrary: bad, weight: 1 });
    const deliveryIds = w(fc.constantFrom(...own), fc.oneof(fc.constantFrom(old, foreign), fc.integer({ min: -5, max: 2 ** 31 })));
    const bundle = w(fc.constantFrom("101", "102", "140", "149", "150", " 103 "), fc.oneof(fc.constantFrom("141", "151", "0", "00101"), nasty));
    const amount = w(fc.constantFrom("1", "2", "0", "3", " 3 "), fc.oneof(fc.constantFrom("999", "1000", "-1"), nasty));
    const returnId = fc.oneof({ arbitrary: fc.constant(undefined), weight: 8 }, { arbitrary: fc.integer({ min: -1, max: 10_000 }), weight: 1 });
    const lineArb = fc.record({ deliveryId: deliveryIds, bundle, amount, returnId, defaultBundle: fc.option(fc.constantFrom("101", ""), { nil: undefined }) });
    let saved = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.array(lineArb, { maxLength: 3 }), fc.array(lineArb, { maxLength: 12 })),
        fc.constantFrom(1, 2) as fc.Arbitrary<1 | 2>,
        fc.oneof(fc.uuid(), fc.constantFrom("", "same-token", "<script>")),
        async (raw, state, token) => {
          const lines: ReturnLine[] = raw.map((l, i) => ({ key: `k${i}`, ...l }));
          const before = await db().select({ n: sql<number>`count(*)` }).from(schema.returns);
          const r = await saveReturnsResult(a, state, token, lines, ON);
          const after = await db().select({ n: sql<number>`count(*)` }).from(schema.returns);
          if (r.ok) saved++;
          else {
            refused++;
            // Refused: nothing stored at all, and every message is on a line the form sent.
            expect(after[0].n).toBe(before[0].n);
            for (const key of Object.keys(r.errors)) expect(lines.some((l) => l.key === key)).toBe(true);
          }
          await invariants();
        },
      ),
      DB_RUNS,
    );
    // Retailer B's delivery never got a return from A.
    const foreignRows = await db().select().from(schema.returns).where(eq(schema.returns.deliveryId, foreign));
    expect(foreignRows).toHaveLength(0);
    expect(saved + refused).toBe(DB_RUNS.numRuns);
    expect(saved, "some submissions were valid and saved").toBeGreaterThan(0);
  });
});

describe("retailer inputs", () => {
  it("delivery complaint: checkReceived only answers a value 0–998 or a problem; saveReceived stores only valid amounts of own deliveries", async () => {
    fc.assert(
      fc.property(nasty, (s) => {
        const r = checkReceived(s);
        if ("value" in r) expect(Number.isInteger(r.value) && r.value >= 0 && r.value <= 998).toBe(true);
        else expect(r.problem).toMatch(/\S/);
      }),
      RUNS,
    );
    const a = await newCustomer();
    const b = await newCustomer();
    const mine = await newDelivery(a, { date: ON });
    const theirs = await newDelivery(b, { date: ON });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(mine.id, theirs.id, -1, 0, 2 ** 31), nasty, async (id, input) => {
        // A refusal is a Refusal ("invalid", "not-found"), never another error; "ask": more than
        // was delivered is asked about once and stored only when sent again.
        const r = await saveReceived(a, id, input, ON, AT).then(
          (answer) => answer.status,
          (e: unknown) => (isRefusal(e) ? e.code : e),
        );
        expect(["saved", "ask", "invalid", "not-found"]).toContain(r);
        if (id !== mine.id) expect(r).toBe("not-found");
      }),
      DB_RUNS,
    );
    const [t] = await db().select().from(schema.deliveries).where(eq(schema.deliveries.id, theirs.id));
    expect(t.received).toBeNull();
    await invariants();
  });

  it("label count, price calculator, history range, month: typed answers for any text", () => {
    fc.assert(
      fc.property(nasty, nasty, (x, y) => {
        const c = checkEmergencyCount(x);
        if ("value" in c) expect(c.value >= 1 && c.value <= 20 && Number.isInteger(c.value)).toBe(true);
        else expect(c.problem).toMatch(/\S/);
        const p = parsePrice(x);
        if (p !== null) {
          expect(p >= 0 && Number.isFinite(p)).toBe(true);
          const b = priceBreakdown(p);
          for (const v of Object.values(b)) if (typeof v === "number") expect(Number.isFinite(v)).toBe(true);
        }
        const h = checkHistoryRange(x, y, ON);
        for (const v of Object.values(h)) expect(typeof v).toBe("string");
        const m = parseMonth(x);
        if (m !== null) expect(m).toMatch(/^\d{4}-\d{2}/);
      }),
      RUNS,
    );
  });

  it("placards: amounts outside 0–999 and unknown titles are refused, nothing stored", async () => {
    const a = await newCustomer();
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ titleId: fc.oneof(fc.constantFrom(1, 2), fc.integer()), newAmount: fc.oneof(fc.integer({ min: -5, max: 1005 }), fc.double(), fc.constant(Number.NaN)) }), { maxLength: 4 }),
        async (wanted) => {
          const valid = wanted.every((w) => [1, 2].includes(w.titleId) && Number.isInteger(w.newAmount) && w.newAmount >= 0 && w.newAmount <= 999);
          const saved = await savePlacards(a, wanted).then(
            () => true,
            (e: unknown) => {
              if (!isRefusal(e, "invalid")) throw e;
              return false;
            },
          );
          // Refused only for a bad amount, an unknown title, or ten times the current amount asked about.
          if (saved) expect(valid).toBe(true);
        },
      ),
      DB_RUNS,
    );
    await invariants();
  });

  it("holiday answer: unknown or foreign ids answer the closed message and store nothing", async () => {
    const a = await newCustomer();
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: -10, max: 2 ** 31 }), fc.boolean(), async (id, open) => {
        await expect(answerHoliday(a, id + 1_000_000, open, ON)).rejects.toMatchObject({ code: "invalid" });
      }),
      { numRuns: 30 },
    );
    const rows = await db().select().from(schema.holidayReports).where(eq(schema.holidayReports.customerId, a));
    expect(rows).toHaveLength(0);
  });
});

describe("staff inputs", () => {
  it("holiday, kronor, customer-number list, distribution params: typed answers for any text", () => {
    fc.assert(
      fc.property(nasty, nasty, nasty, nasty, (w, x, y, z) => {
        const e = checkHoliday({ description: w, day: x, startReportDay: y, startForceReportDay: z });
        for (const v of Object.values(e)) expect(typeof v).toBe("string");
        const k = parseKronor(x);
        if (k !== null) expect(Number.isSafeInteger(k)).toBe(true);
        const ids = parseCustomerNumbers(`${w},${x};${y}`);
        for (const id of ids.ids) expect(id >= 0 && id <= 99999).toBe(true);
        const params = new URLSearchParams();
        for (const [name, v] of [["fran", w], ["till", x], ["utom", y], ["utb", z], ["utgava", w]]) params.append(name, v);
        const p = parseDistributionParams(params, { from: "2025-03-01", to: "2025-03-20" });
        if (p.query) {
          for (const id of p.query.distributorIds) expect(Number.isSafeInteger(id)).toBe(true);
          for (const ed of p.query.editions) expect(Number.isSafeInteger(ed.titleId) && Number.isSafeInteger(ed.editionId)).toBe(true);
        }
      }),
      RUNS,
    );
  });

  it("bank details and bundle number change throw only their typed errors, and store only valid values", async () => {
    const a = await newCustomer();
    await createLabelBlock(db(), { customerId: a, type: 0, status: "Levererad", fromDate: "2025-01-01", toDate: "2025-12-31", fromNumber: 1, toNumber: 50 });
    const bundle = await createBundle(db(), { customerId: a, number: 5, type: 0, open: true });
    const other = await newCustomer();
    const foreign = await createBundle(db(), { customerId: other, number: 7, type: 0, open: true });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom("bankgiro", "bankAccount", "orgNumber") as fc.Arbitrary<"bankgiro" | "bankAccount" | "orgNumber">, nasty, fc.oneof(fc.integer(), fc.double(), fc.constantFrom(5, 6, 49, 50, 51, 0, -1)), fc.constantFrom(bundle.id, foreign.id, -1), async (field, value, n, bundleId) => {
        try {
          await updateBankDetail(a, field, value, { id: "test" });
        } catch (e) {
          expect(isRefusal(e, "invalid")).toBe(true);
        }
        try {
          await changeBundleNumber(a, bundleId, n, { id: "test" });
          expect(bundleId).toBe(bundle.id);
        } catch (e) {
          expect(e).toMatchObject({ code: "invalid" });
        }
      }),
      DB_RUNS,
    );
    const [c] = await db().select().from(schema.customers).where(eq(schema.customers.id, a));
    for (const v of [c.bankgiro, c.orgNumber]) expect(v ?? "").toMatch(/^[0-9 -]{0,20}$/);
    expect(c.bankAccount ?? "").toMatch(/^[0-9 ,.-]{0,30}$/);
    const [f] = await db().select().from(schema.bundles).where(eq(schema.bundles.id, foreign.id));
    expect(f.number).toBe(7);
    const [mine] = await db().select().from(schema.bundles).where(eq(schema.bundles.id, bundle.id));
    expect(mine.number >= 1 && mine.number <= 50).toBe(true);
  });
});

describe("CSV reader, imports and order files", () => {
  const cell = fc.oneof(nasty, fc.constantFrom('"a;b"', '"unterminated', '""', '"x""y"', ";", "1", "83", "80", "2025-03-10"));

  it("parseCsv never throws and only returns rows with every column", () => {
    fc.assert(
      fc.property(fc.array(fc.array(cell, { maxLength: 9 }), { maxLength: 20 }), fc.boolean(), fc.constantFrom("\n", "\r\n"), (rows, header, eol) => {
        const columns = IMPORT_COLUMNS.deliveries;
        const text = [...(header ? [columns.join(";")] : []), ...rows.map((r) => r.join(";"))].join(eol);
        const t = parseCsv(text, columns);
        for (const r of t.rows) expect(Object.keys(r.values).sort()).toEqual([...columns].sort());
        for (const p of t.problems) expect(p.line).toBeGreaterThanOrEqual(1);
      }),
      RUNS,
    );
    // One line longer than the limit, and a file of only blank lines.
    const long = parseCsv(`customer_id;name\n${"9".repeat(CSV_LIMITS.maxLineLength + 1)};x`, ["customer_id", "name"]);
    expect(long.rows).toHaveLength(0);
    expect(long.problems[0].reason).toContain("längre");
    expect(parseCsv("\n".repeat(100_000), ["a"]).problems[0].line).toBe(1);
  });

  const VALID: Record<string, string> = {
    distributor_id: "1", name: "Namn", customer_id: "12345", address: "Gatan 1", zip: "123 45", city: "Stad", phone: "", email: "",
    title_id: "1", edition_id: "1", type: "0", description: "Aftonbladet", code: "AB", delivery_date: "2025-03-10", delivered: "20", price_ore: "2200",
    ledger: "83", amount_ore: "5000",
  };

  it("every import kind: random files apply all or nothing and never store an invalid row", async () => {
    let applied = 0;
    const count = async () => {
      const out: Record<string, number> = {};
      for (const [name, table] of Object.entries({ distributors: schema.distributors, customers: schema.customers, editions: schema.editions, deliveries: schema.deliveries, guarantees: schema.guarantees })) {
        out[name] = Number((await db().select({ n: sql<number>`count(*)` }).from(table))[0].n);
      }
      return out;
    };
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...IMPORT_KINDS), fc.array(fc.array(fc.tuple(fc.nat(9), cell), { minLength: 8, maxLength: 8 }), { minLength: 1, maxLength: 6 }), fc.boolean(), async (kind, rows, skipInvalid) => {
        const columns = IMPORT_COLUMNS[kind];
        // Each cell: a valid value 7 times in 10, else hostile text.
        const text = [columns.join(";"), ...rows.map((r) => columns.map((c, i) => (r[i][0] < 7 ? VALID[c] : r[i][1].replace(/[\r\n]/g, ""))).join(";"))].join("\n");
        const before = await count();
        const r = await importFile(kind, text, { actor: { id: "test" }, source: "fuzz.csv", skipInvalid });
        const after = await count();
        if (!r.applied) expect(after).toEqual(before);
        if (r.problems.length > 0 && !skipInvalid) expect(r.applied).toBe(false);
        if (r.applied) applied++;
      }),
      DB_RUNS,
    );
    // Nothing out of range reached the tables.
    const bad = await db().all<{ n: number }>(sql`
      select (select count(*) from deliveries where delivered < 0 or price_ore < 0 or delivery_date not glob '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]')
           + (select count(*) from customers where id < 1 or id > 99999) as n`);
    expect(Number(bad[0].n)).toBe(0);
    expect(applied, "some files were valid enough to apply").toBeGreaterThan(0);
    await invariants();
  });

  it("order files: parse problems or OrdersError only; a refused file stores nothing", async () => {
    const a = await newCustomer();
    const valid = [String(a), "2025-03-10", "A-1", "Skylt", "10", "12900", "83"];
    let stored = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(fc.tuple(fc.nat(19), cell, fc.constantFrom(String(a), "99999", "1", "80")), { minLength: 7, maxLength: 7 }), { minLength: 1, maxLength: 6 }), async (rows) => {
        // Mostly valid cells (17 in 20), some hostile, some other customer numbers.
        const text = ["customerNumber;orderDate;articleNumber;articleDescription;amount;price;ledger", ...rows.map((r) => r.map(([w, bad, alt], i) => (w < 17 ? valid[i] : w < 19 ? bad.replace(/[\r\n]/g, "") : i === 0 ? alt : valid[i])).join(";"))].join("\n");
        const parsed = parseOrdersFile(text);
        for (const row of parsed.rows) {
          expect(Number.isInteger(row.customerId) && row.customerId >= 1 && row.customerId <= 99999).toBe(true);
          expect([80, 83]).toContain(row.ledger);
        }
        if (parsed.problems.length > 0) return;
        const before = Number((await db().select({ n: sql<number>`count(*)` }).from(schema.orderFiles))[0].n);
        try {
          await applyOrders(parsed.rows, "fuzz.csv", { id: "test" });
          stored++;
        } catch (e) {
          expect(refusedOrderLines(e)?.length).toBeGreaterThan(0);
          const after = Number((await db().select({ n: sql<number>`count(*)` }).from(schema.orderFiles))[0].n);
          expect(after).toBe(before);
        }
      }),
      DB_RUNS,
    );
    expect(stored, "some files were applied").toBeGreaterThan(0);
  });
});
