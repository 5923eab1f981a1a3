import { saveReturnsResult } from "../../../tests/unit/helpers";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { schema } from "../../../db/client";
import { createBundle, createLabelBlock } from "../../../cli/seed/factories";
import { closeBundle, decideBundles, getBundle, listOpenBundles, progressColour } from "../bundles/bundles.server";
import { decisionField, typeField } from "../bundles/bundle-words";
import { checkHistoryRange, defaultHistoryRange, listHistory } from "./history.server";
import {
  RETURN_MESSAGES,
  RETURN_REFUSALS,
  defaultBundles,
  listPapers,
  type ReturnLine,
} from "./returns.server";
import { baseData, db, newCustomer, newDelivery } from "../../../tests/unit/helpers";

const ON = "2025-03-20";
let tokenCounter = 0;
const token = () => `t-${++tokenCounter}-${Math.random()}`;

beforeAll(baseData);

async function customerWithBlock(from = 101, to = 150) {
  const id = await newCustomer();
  await createLabelBlock(db(), { customerId: id, type: 0, status: "Levererad", fromDate: "2025-01-01", toDate: "2025-12-31", fromNumber: from, toNumber: to });
  return id;
}

function line(deliveryId: number, bundle: string, amount: string, extra: Partial<ReturnLine> = {}): ReturnLine {
  return { key: `k${deliveryId}-${bundle}-${amount}-${Math.random()}`, deliveryId, bundle, amount, ...extra };
}

async function returnsOf(deliveryId: number) {
  return db().select().from(schema.returns).where(eq(schema.returns.deliveryId, deliveryId));
}

describe("listing papers", () => {
  it("state 1 lists this customer's unreported deliveries of the last 14 days; state 2 the reported ones with returns", async () => {
    const c = await customerWithBlock();
    const other = await customerWithBlock();
    const recent = await newDelivery(c, { date: "2025-03-19" });
    const old = await newDelivery(c, { date: "2025-03-05" });
    await newDelivery(c, { date: "2025-03-06", editionId: 20 });
    await newDelivery(other, { date: "2025-03-19" });
    const s1 = await listPapers(c, 1, ON);
    expect(s1.map((p) => p.deliveryDate)).toEqual(["2025-03-19", "2025-03-06"]);
    expect(s1[0]).toMatchObject({ deliveryId: recent.id, title: "Aftonbladet", type: 0, delivered: 20 });
    expect(s1[1]).toMatchObject({ type: 1, edition: "Aftonbladet Söndag" });
    expect(s1.some((p) => p.deliveryId === old.id)).toBe(false);

    const res = await saveReturnsResult(c, 1, token(), [line(recent.id, "101", "5")], ON);
    expect(res).toMatchObject({ ok: true, saved: 1 });
    expect((await listPapers(c, 1, ON)).some((p) => p.deliveryId === recent.id)).toBe(false);
    const s2 = await listPapers(c, 2, ON);
    expect(s2).toHaveLength(1);
    expect(s2[0].returns).toEqual([expect.objectContaining({ bundle: 101, amount: 5, open: true })]);
  });
});

describe("saving returns", () => {
  it("creates a bundle from the customer's label block on first use and counts the label used", async () => {
    const c = await customerWithBlock(101, 150);
    const p = await newDelivery(c, { date: "2025-03-18" });
    expect(await saveReturnsResult(c, 1, token(), [line(p.id, "120", "3")], ON)).toMatchObject({ ok: true });
    const [bundle] = await db().select().from(schema.bundles).where(and(eq(schema.bundles.customerId, c), eq(schema.bundles.number, 120)));
    expect(bundle).toMatchObject({ type: 0, open: true });
    const [block] = await db().select().from(schema.labelBlocks).where(eq(schema.labelBlocks.customerId, c));
    expect(block.numberUnused).toBe(49);
    const [delivery] = await db().select().from(schema.deliveries).where(eq(schema.deliveries.id, p.id));
    expect(delivery.reportedAt).not.toBeNull();
  });

  it("refuses a number outside the customer's blocks, and a bundle of another customer is not reachable", async () => {
    const a = await customerWithBlock(101, 150);
    const b = await customerWithBlock(201, 250);
    await createBundle(db(), { customerId: b, number: 201, type: 0 });
    const p = await newDelivery(a, { date: "2025-03-18" });
    const l = line(p.id, "201", "2");
    const res = await saveReturnsResult(a, 1, token(), [l], ON);
    expect(res).toMatchObject({ ok: false, errors: { [l.key]: RETURN_REFUSALS.notInBlocks(201) } });
    expect(await returnsOf(p.id)).toHaveLength(0);
    const [bBundle] = await db().select().from(schema.bundles).where(and(eq(schema.bundles.customerId, b), eq(schema.bundles.number, 201)));
    expect(await db().select().from(schema.returns).where(eq(schema.returns.bundleId, bBundle.id))).toHaveLength(0);
  });

  it("refuses another customer's paper", async () => {
    const a = await customerWithBlock();
    const b = await customerWithBlock();
    const foreign = await newDelivery(b, { date: "2025-03-18" });
    const l = line(foreign.id, "101", "2");
    const res = await saveReturnsResult(a, 1, token(), [l], ON);
    expect(res).toMatchObject({ ok: false, errors: { [l.key]: RETURN_REFUSALS.unknownPaper } });
    expect(await returnsOf(foreign.id)).toHaveLength(0);
  });

  it("refuses a closed bundle and a bundle of the other paper type", async () => {
    const c = await customerWithBlock();
    await createBundle(db(), { customerId: c, number: 101, type: 0, open: false, closedDate: "2025-03-10" });
    await createBundle(db(), { customerId: c, number: 102, type: 1 });
    const p = await newDelivery(c, { date: "2025-03-18" });
    const closed = line(p.id, "101", "1");
    expect(await saveReturnsResult(c, 1, token(), [closed], ON)).toMatchObject({ ok: false, errors: { [closed.key]: RETURN_REFUSALS.closed(101) } });
    const wrong = line(p.id, "102", "1");
    expect(await saveReturnsResult(c, 1, token(), [wrong], ON)).toMatchObject({ ok: false, errors: { [wrong.key]: RETURN_REFUSALS.wrongType(102, 1) } });
  });

  it("applies the form rules of spec 5", async () => {
    const c = await customerWithBlock();
    const p = await newDelivery(c, { date: "2025-03-18" });
    const cases: [string, string, string][] = [
      ["", "3", RETURN_MESSAGES.bundleRequired],
      ["101", "", RETURN_MESSAGES.amountRequired],
      ["101", "1000", RETURN_MESSAGES.unreasonableAmount],
      ["101", "-1", RETURN_MESSAGES.unreasonableAmount],
      ["101", "2,5", RETURN_MESSAGES.unreasonableAmount],
      ["abc", "2", RETURN_MESSAGES.unreasonableBundle],
      ["0", "2", RETURN_MESSAGES.unreasonableBundle],
      ["101", "21", RETURN_REFUSALS.tooManyOf(20)],
    ];
    for (const [bundle, amount, message] of cases) {
      const l = line(p.id, bundle, amount);
      expect(await saveReturnsResult(c, 1, token(), [l], ON), `${bundle}/${amount}`).toMatchObject({ ok: false, errors: { [l.key]: message } });
    }
    expect(await returnsOf(p.id)).toHaveLength(0);
    // An untouched line (the pre-filled bundle, no amount) is no return at all.
    const untouched = line(p.id, "101", "", { defaultBundle: "101" });
    expect(await saveReturnsResult(c, 1, token(), [untouched], ON)).toMatchObject({ ok: false, formError: RETURN_MESSAGES.nothingToSave });
  });

  it("names every refused field of a row, each with what to type instead", async () => {
    const c = await customerWithBlock();
    const p = await newDelivery(c, { date: "2025-03-18", delivered: 20 });
    const q = await newDelivery(c, { date: "2025-03-17", delivered: 20 });
    const both = line(p.id, "1x", "tre");
    const outside = line(q.id, "999", "4");
    const res = await saveReturnsResult(c, 1, token(), [both, outside], ON);
    expect(res).toEqual({
      ok: false,
      errors: {
        [both.key]: "Orimligt värde har angetts. Skriv buntnumret med siffror. Orimligt värde har angetts. Skriv antalet med siffror, 0–999.",
        [outside.key]: "Buntnummer 999 finns inte bland dina returetiketter.",
      },
      problems: {
        [both.key]: { bundle: RETURN_MESSAGES.unreasonableBundle, amount: RETURN_MESSAGES.unreasonableAmount },
        [outside.key]: { bundle: RETURN_REFUSALS.notInBlocks(999) },
      },
    });
    expect(RETURN_REFUSALS.tooManyOf(36)).toBe("Kan inte vara större än antal levererat. Högst 36 – så många levererades.");
    expect(RETURN_REFUSALS.tooManyOf(13, 3)).toBe("Kan inte vara större än antal levererat. Högst 10 till – 13 levererades och 3 är redan returnerade.");
    expect(RETURN_REFUSALS.tooManyOf(37, 1)).toBe("Kan inte vara större än antal levererat. Högst 36 till – 37 levererades och 1 är redan returnerad.");
    expect(await returnsOf(q.id)).toHaveLength(0);
  });

  it("keeps the sum of split lines within the delivered amount, and saves nothing when one line is refused", async () => {
    const c = await customerWithBlock();
    const p = await newDelivery(c, { date: "2025-03-18", delivered: 10 });
    const q = await newDelivery(c, { date: "2025-03-17", delivered: 10 });
    const ok = line(q.id, "101", "4");
    const first = line(p.id, "101", "6");
    const split = line(p.id, "102", "5");
    const res = await saveReturnsResult(c, 1, token(), [ok, first, split], ON);
    expect(res).toMatchObject({ ok: false, errors: { [split.key]: RETURN_REFUSALS.tooManyOf(10, 6) } });
    expect(await returnsOf(q.id)).toHaveLength(0);
    expect(await db().select().from(schema.bundles).where(eq(schema.bundles.customerId, c))).toHaveLength(0);
    const res2 = await saveReturnsResult(c, 1, token(), [ok, first, line(p.id, "102", "4")], ON);
    expect(res2).toMatchObject({ ok: true, saved: 3 });
    expect((await returnsOf(p.id)).map((r) => r.amount).sort()).toEqual([4, 6]);
  });

  it("saves 0 typed in Retur as sold out whatever the bundle field says: no return row of 0 copies", async () => {
    const c = await customerWithBlock();
    const p = await newDelivery(c, { date: "2025-03-18" });
    expect(await saveReturnsResult(c, 1, token(), [line(p.id, "101", "0")], ON)).toMatchObject({ ok: true, saved: 1 });
    expect(await returnsOf(p.id)).toEqual([]);
    expect(await db().select().from(schema.bundles).where(eq(schema.bundles.customerId, c))).toHaveLength(0);
    expect(await listPapers(c, 1, ON)).toHaveLength(0);
  });

  it("'Slutsåld' without a bundle is accepted: the paper is reported, no return row, no bundle made", async () => {
    const c = await customerWithBlock();
    const p = await newDelivery(c, { date: "2025-03-18" });
    expect(await saveReturnsResult(c, 1, token(), [line(p.id, "", "0")], ON)).toMatchObject({ ok: true, saved: 1 });
    expect(await returnsOf(p.id)).toEqual([]);
    expect(await listPapers(c, 1, ON)).toHaveLength(0);
    // Any other amount still needs its bundle.
    const q = await newDelivery(c, { date: "2025-03-19" });
    const half = line(q.id, "", "2");
    expect(await saveReturnsResult(c, 1, token(), [half], ON)).toMatchObject({ ok: false, errors: { [half.key]: "Ange buntnr." } });
  });

  it("never applies the same form twice, and a state-1 save of an already reported paper changes nothing", async () => {
    const c = await customerWithBlock();
    const p = await newDelivery(c, { date: "2025-03-18" });
    const t = token();
    const lines = [line(p.id, "101", "5")];
    const [x, y] = await Promise.all([saveReturnsResult(c, 1, t, lines, ON), saveReturnsResult(c, 1, t, lines, ON)]);
    expect([x, y].map((r) => r.ok)).toEqual([true, true]);
    expect([x, y].filter((r) => r.ok && r.alreadyApplied)).toHaveLength(1);
    expect(await saveReturnsResult(c, 1, t, lines, ON)).toMatchObject({ ok: true, alreadyApplied: true });
    // Another tab's copy of the state-1 form (another token): the paper is already reported.
    expect(await saveReturnsResult(c, 1, token(), lines, ON)).toMatchObject({ ok: true, alreadyApplied: false, saved: 0 });
    expect((await returnsOf(p.id)).map((r) => r.amount)).toEqual([5]);
  });

  it("adds in state 2 within the delivered amount, changes an open line, and leaves a closed line alone", async () => {
    const c = await customerWithBlock();
    const p = await newDelivery(c, { date: "2025-03-18", delivered: 10 });
    await saveReturnsResult(c, 1, token(), [line(p.id, "101", "6")], ON);
    const tooMany = line(p.id, "102", "5");
    // The refusal names the real limit: what was delivered less what is already returned.
    expect(await saveReturnsResult(c, 2, token(), [tooMany], ON)).toMatchObject({
      ok: false,
      errors: { [tooMany.key]: "Kan inte vara större än antal levererat. Högst 4 till – 10 levererades och 6 är redan returnerade." },
    });
    expect(await saveReturnsResult(c, 2, token(), [line(p.id, "102", "4")], ON)).toMatchObject({ ok: true, saved: 1 });
    const [r101] = (await listPapers(c, 2, ON))[0].returns;
    expect(await closeBundle(c, 101, ON)).toBe(true);
    const change = line(p.id, "101", "1", { returnId: r101.id });
    expect(await saveReturnsResult(c, 2, token(), [change], ON)).toMatchObject({ ok: false, errors: { [change.key]: RETURN_REFUSALS.closed(101) } });
    // Unchanged closed lines posted back are harmless.
    expect(await saveReturnsResult(c, 2, token(), [line(p.id, "101", "6", { returnId: r101.id }), line(p.id, "103", "0")], ON)).toMatchObject({ ok: true });
    const [r102] = (await listPapers(c, 2, ON))[0].returns.filter((r) => r.bundle === 102);
    expect(await saveReturnsResult(c, 2, token(), [line(p.id, "102", "2", { returnId: r102.id })], ON)).toMatchObject({ ok: true });
    // A new line of 0 copies puts nothing in bundle 103.
    expect((await returnsOf(p.id)).map((r) => r.amount).sort()).toEqual([2, 6]);
    // State 2 refuses unreported papers.
    const fresh = await newDelivery(c, { date: "2025-03-19" });
    const l = line(fresh.id, "102", "1");
    expect(await saveReturnsResult(c, 2, token(), [l], ON)).toMatchObject({ ok: false, errors: { [l.key]: RETURN_REFUSALS.unknownPaper } });
  });

  it("offers the open bundle last returned into, else the newest open bundle, per type", async () => {
    const c = await customerWithBlock();
    expect(await defaultBundles(c)).toEqual({ 0: null, 1: null });
    await createBundle(db(), { customerId: c, number: 130, type: 1 });
    await createBundle(db(), { customerId: c, number: 110, type: 0 });
    const b111 = await createBundle(db(), { customerId: c, number: 111, type: 0 });
    expect(await defaultBundles(c)).toEqual({ 0: 111, 1: 130 });
    const p = await newDelivery(c, { date: "2025-03-18" });
    await saveReturnsResult(c, 1, token(), [line(p.id, "110", "1")], ON);
    expect(await defaultBundles(c)).toEqual({ 0: 110, 1: 130 });
    await closeBundle(c, 110, ON);
    expect((await defaultBundles(c))[0]).toBe(b111.number);
  });
});

describe("bundles", () => {
  it("shows a bundle's returns with total only to its owner, and closes it", async () => {
    const a = await customerWithBlock();
    const b = await customerWithBlock();
    const p = await newDelivery(a, { date: "2025-03-18" });
    const q = await newDelivery(a, { date: "2025-03-19", titleId: 2 });
    await saveReturnsResult(a, 1, token(), [line(p.id, "101", "7"), line(q.id, "101", "3")], ON);
    const bundle = await getBundle(a, 101);
    expect(bundle).toMatchObject({ number: 101, open: true, total: 10 });
    expect(bundle?.lines.map((l) => [l.date, l.title, l.amount])).toEqual([
      ["2025-03-19", "Expressen", 3],
      ["2025-03-18", "Aftonbladet", 7],
    ]);
    expect(await getBundle(b, 101)).toBeNull();
    expect(await closeBundle(b, 101, ON)).toBe(false);
    expect(await closeBundle(a, 101, ON)).toBe(true);
    expect(await getBundle(a, 101)).toMatchObject({ open: false, closedDate: ON });
    expect(await listOpenBundles(a)).toEqual([]);
  });

  it("colours progress green below 40, orange 40–49, red from 50", () => {
    expect([0, 39, 40, 49, 50, 120].map(progressColour)).toEqual(["green", "green", "orange", "orange", "red", "red"]);
  });

  it("the confirm step needs a decision for every open bundle and at most one open per type", async () => {
    const c = await customerWithBlock();
    const other = await customerWithBlock();
    await createBundle(db(), { customerId: c, number: 101, type: 0 });
    await createBundle(db(), { customerId: c, number: 102, type: 0 });
    await createBundle(db(), { customerId: c, number: 103, type: 1 });
    await createBundle(db(), { customerId: other, number: 101, type: 0 });
    await expect(decideBundles(c, { 101: "open", 102: "closed" }, ON)).rejects.toMatchObject({ code: "invalid", fields: { [decisionField(103)]: "Välj Öppen eller Stängd." } });
    await expect(decideBundles(c, { 101: "open", 102: "open", 103: "open" }, ON)).rejects.toMatchObject({
      code: "invalid",
      fields: { [typeField(0)]: "Du kan bara ha en öppen bunt per returtyp." },
    });
    expect(await decideBundles(c, { 101: "closed", 102: "open", 103: "closed" }, ON)).toEqual({ closed: [101, 103] });
    expect((await listOpenBundles(c)).map((b) => b.number)).toEqual([102]);
    expect((await listOpenBundles(other)).map((b) => b.number)).toEqual([101]);
  });
});

describe("history", () => {
  it("checks the range: both dates, start before end, at most three months back", () => {
    expect(defaultHistoryRange(ON)).toEqual({ from: "2025-02-20", to: ON });
    expect(checkHistoryRange("2025-02-20", ON, ON)).toEqual({});
    expect(checkHistoryRange("", "", ON)).toEqual({ from: "Ange ett från-datum.", to: "Ange ett till-datum." });
    expect(checkHistoryRange("2025-03-10", "2025-03-01", ON)).toEqual({ from: "Från-datumet måste vara före till-datumet." });
    expect(checkHistoryRange("2025-03-10", "2025-03-10", ON)).toEqual({ from: "Från-datumet måste vara före till-datumet." });
    expect(checkHistoryRange("2024-12-19", ON, ON).from).toMatch(/tre månader/);
    expect(checkHistoryRange("2024-12-20", ON, ON)).toEqual({});
    expect(checkHistoryRange("2025-03-01", "2025-03-21", ON)).toEqual({ to: "Datumet kan inte vara efter dagens datum." });
    expect(checkHistoryRange("2025-02-30", ON, ON)).toEqual({ from: "Ange datumet som ÅÅÅÅ-MM-DD." });
  });

  it("lists the customer's reported and claimed papers with bundle, return, received and claimed", async () => {
    const c = await customerWithBlock();
    const other = await customerWithBlock();
    const p = await newDelivery(c, { date: "2025-03-18", delivered: 10 });
    const claimedOnly = await newDelivery(c, { date: "2025-03-17", delivered: 10 });
    await db().update(schema.deliveries).set({ received: 8 }).where(eq(schema.deliveries.id, claimedOnly.id));
    await newDelivery(c, { date: "2025-03-16" });
    const foreign = await newDelivery(other, { date: "2025-03-18" });
    await saveReturnsResult(c, 1, token(), [line(p.id, "101", "3"), line(p.id, "102", "2")], ON);
    await saveReturnsResult(other, 1, token(), [line(foreign.id, "101", "9")], ON);
    const rows = await listHistory(c, "2025-03-01", ON);
    expect(rows.map((r) => [r.date, r.bundle, r.returned, r.received, r.claimed])).toEqual([
      ["2025-03-18", 101, 3, null, null],
      ["2025-03-18", 102, 2, null, null],
      ["2025-03-17", null, null, 8, 2],
    ]);
  });
});

describe("the form lines (no-JS buttons)", () => {
  it("reads lines back from a posted form, ignoring malformed keys, and applies split, Ångra and Slutsåld", async () => {
    const { applyIntent, initialLines, linesFromForm } = await import("./return-lines");
    const form = new FormData();
    for (const [k, v] of [["line", "d5"], ["d5.delivery", "5"], ["d5.bundle", "101"], ["d5.amount", "3"], ["d5.dflt", "101"], ["line", "x; drop"], ["line", "d6"], ["d6.delivery", "abc"]]) form.append(k, v);
    const lines = linesFromForm(form);
    expect(lines).toEqual([{ key: "d5", deliveryId: 5, returnId: undefined, bundle: "101", amount: "3", dflt: "101", split: false }]);
    const split = applyIntent(lines, "split:5", new Set([5]))!;
    expect(split.map((l) => [l.key, l.bundle, l.amount, l.split])).toEqual([["d5", "101", "3", false], ["d5s1", "", "", true]]);
    expect(applyIntent(split, "split:99", new Set([5]))).toEqual(split);
    expect(applyIntent(split, "undo:d5s1", new Set([5]))).toEqual(lines);
    expect(applyIntent(split, "undo:d5", new Set([5]))).toEqual(split);
    expect(applyIntent(lines, "soldout:d5", new Set([5]))![0].amount).toBe("0");
    expect(applyIntent(lines, "drop", new Set([5]))).toBeNull();
    const papers = [{ deliveryId: 7, type: 1, returns: [{ id: 70, bundle: 12, amount: 4 }] }];
    expect(initialLines(papers, 1, { 0: 3, 1: 9 })[0]).toMatchObject({ key: "d7", bundle: "9", dflt: "9", amount: "" });
    expect(initialLines(papers, 2, { 0: 3, 1: 9 })[0]).toMatchObject({ key: "r70", returnId: 70, bundle: "12", amount: "4" });
  });
});
