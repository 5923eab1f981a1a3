// Concurrent edits never vanish silently. A save writes only the rows
// the user changed on the page (compared with what the page showed); a changed row that
// someone else changed since the page was loaded is refused with both values named, and
// the form stores all or nothing. Against the real database.
import { saveReturnsResult } from "../../../tests/unit/helpers";
import { beforeAll, describe, expect, it } from "vitest";
import { createLabelBlock } from "../../../cli/seed/factories";
import { baseData, db, newCustomer, newDelivery } from "../../../tests/unit/helpers";
import { initialLines } from "./return-lines";
import { RETURN_REFUSALS, listPapers, type ReturnLine } from "./returns.server";

const ON = "2025-03-20";

beforeAll(async () => {
  await baseData();
});

const asReturn = (l: ReturnType<typeof initialLines>[number]): ReturnLine => ({
  key: l.key,
  deliveryId: l.deliveryId,
  returnId: l.returnId,
  bundle: l.bundle,
  amount: l.amount,
  defaultBundle: l.dflt,
  shownAmount: l.fore,
});

async function amounts(customerId: number) {
  const rs = await db().$client.execute({ sql: "select delivery_id, amount from returns where customer_id = ? order by id", args: [customerId] });
  return rs.rows.map((r) => [Number(r.delivery_id), Number(r.amount)]);
}

/** A customer with two papers reported in state 1: 5 and 3 returns in bundle 101. */
async function reported() {
  const c = await newCustomer();
  await createLabelBlock(db(), { customerId: c, type: 0, status: "Levererad", fromDate: "2025-01-01", toDate: "2026-01-01", fromNumber: 101, toNumber: 150 });
  const a = await newDelivery(c, { date: "2025-03-19", delivered: 10 });
  const b = await newDelivery(c, { date: "2025-03-18", delivered: 10 });
  const [la, lb] = initialLines([a, b].map((d) => ({ deliveryId: d.id, type: 0, returns: [] })), 1, { 0: 101 });
  expect(await saveReturnsResult(c, 1, `first-${c}`, [asReturn({ ...la, amount: "5" }), asReturn({ ...lb, amount: "3" })], ON)).toMatchObject({ ok: true });
  return { c, a, b };
}

/** The state 2 page as loaded now: its lines. */
async function page2(c: number) {
  const papers = await listPapers(c, 2, ON);
  return initialLines(papers, 2, {});
}

describe("two tabs of Ändra/tillägg (state 2)", () => {
  it("a stale page's untouched rows do not overwrite what another tab saved", async () => {
    const { c, a, b } = await reported();
    const tab1 = await page2(c);
    const tab2 = await page2(c);
    // Tab 1 changes paper a to 6.
    const t1 = tab1.map((l) => (l.deliveryId === a.id ? { ...l, amount: "6" } : l)).map(asReturn);
    expect(await saveReturnsResult(c, 2, `t1-${c}`, t1, ON)).toMatchObject({ ok: true, saved: 1 });
    // Tab 2 (loaded before) changes only paper b to 2, and sends a's shown 5 beside it.
    const t2 = tab2.map((l) => (l.deliveryId === b.id ? { ...l, amount: "2" } : l)).map(asReturn);
    expect(await saveReturnsResult(c, 2, `t2-${c}`, t2, ON)).toMatchObject({ ok: true, saved: 1 });
    // Before the fix: a went back to 5.
    expect(await amounts(c)).toEqual([[a.id, 6], [b.id, 2]]);
  });

  it("a row both tabs changed: the later save is refused with what is stored and what was typed, nothing stored", async () => {
    const { c, a, b } = await reported();
    const tab1 = await page2(c);
    const tab2 = await page2(c);
    const t1 = tab1.map((l) => (l.deliveryId === a.id ? { ...l, amount: "6" } : l)).map(asReturn);
    expect(await saveReturnsResult(c, 2, `t1-${c}`, t1, ON)).toMatchObject({ ok: true });
    const t2 = tab2.map((l) => (l.deliveryId === a.id ? { ...l, amount: "7" } : l.deliveryId === b.id ? { ...l, amount: "1" } : l)).map(asReturn);
    const keyA = t2.find((l) => l.deliveryId === a.id)!.key;
    expect(await saveReturnsResult(c, 2, `t2-${c}`, t2, ON)).toMatchObject({
      ok: false,
      errors: { [keyA]: RETURN_REFUSALS.changedByOther(6, 7) },
      stored: { [keyA]: "6" },
    });
    expect(RETURN_REFUSALS.changedByOther(6, 7)).toBe("Raden har ändrats i en annan flik eller av någon annan: nu sparat 6, du skrev 7. Kontrollera och spara igen.");
    // All or nothing: b's change was not stored either.
    expect(await amounts(c)).toEqual([[a.id, 6], [b.id, 3]]);
    // Checked: the page now shows 6 beside the typed 7; saving again is the user's own change.
    const again = t2.map((l) => (l.key === keyA ? { ...l, shownAmount: "6" } : l));
    expect(await saveReturnsResult(c, 2, `t3-${c}`, again, ON)).toMatchObject({ ok: true, saved: 2 });
    expect(await amounts(c)).toEqual([[a.id, 7], [b.id, 1]]);
  });

  it("the same value typed in both tabs is no conflict", async () => {
    const { c, a } = await reported();
    const tab1 = await page2(c);
    const tab2 = await page2(c);
    const change = (ls: typeof tab1) => ls.map((l) => (l.deliveryId === a.id ? { ...l, amount: "6" } : l)).map(asReturn);
    expect(await saveReturnsResult(c, 2, `t1-${c}`, change(tab1), ON)).toMatchObject({ ok: true, saved: 1 });
    expect(await saveReturnsResult(c, 2, `t2-${c}`, change(tab2), ON)).toMatchObject({ ok: true, saved: 0 });
    expect((await amounts(c))[0]).toEqual([a.id, 6]);
  });
});

describe("two tabs of Returrapportera (state 1)", () => {
  it("a paper another tab reported since the page was loaded is refused with the stored amount, nothing stored", async () => {
    const c = await newCustomer();
    await createLabelBlock(db(), { customerId: c, type: 0, status: "Levererad", fromDate: "2025-01-01", toDate: "2026-01-01", fromNumber: 101, toNumber: 150 });
    const a = await newDelivery(c, { date: "2025-03-19", delivered: 10 });
    const b = await newDelivery(c, { date: "2025-03-18", delivered: 10 });
    const load = () => initialLines([a, b].map((d) => ({ deliveryId: d.id, type: 0, returns: [] })), 1, { 0: 101 });
    const [a1] = load();
    const [a2, b2] = load();
    // Tab 1 reports paper a with 5 and leaves b alone.
    expect(await saveReturnsResult(c, 1, `t1-${c}`, [asReturn({ ...a1, amount: "5" })], ON)).toMatchObject({ ok: true, saved: 1 });
    // Tab 2 (loaded before) types 7 for a and 2 for b. Before the fix: a was dropped silently, b saved, "saved".
    const res = await saveReturnsResult(c, 1, `t2-${c}`, [asReturn({ ...a2, amount: "7" }), asReturn({ ...b2, amount: "2" })], ON);
    expect(res).toMatchObject({ ok: false, errors: { [a2.key]: RETURN_REFUSALS.reportedByOther(5, 7) } });
    expect(await amounts(c)).toEqual([[a.id, 5]]);
    // The row emptied (back to the untouched default): the rest is stored.
    expect(await saveReturnsResult(c, 1, `t3-${c}`, [asReturn(a2), asReturn({ ...b2, amount: "2" })], ON)).toMatchObject({ ok: true, saved: 1 });
    expect(await amounts(c)).toEqual([[a.id, 5], [b.id, 2]]);
  });

  it("the same form sent again (same token) is still answered as saved, nothing doubled", async () => {
    const c = await newCustomer();
    await createLabelBlock(db(), { customerId: c, type: 0, status: "Levererad", fromDate: "2025-01-01", toDate: "2026-01-01", fromNumber: 101, toNumber: 150 });
    const a = await newDelivery(c, { date: "2025-03-19", delivered: 10 });
    const [la] = initialLines([{ deliveryId: a.id, type: 0, returns: [] }], 1, { 0: 101 });
    const form = [asReturn({ ...la, amount: "4" })];
    expect(await saveReturnsResult(c, 1, `same-${c}`, form, ON)).toMatchObject({ ok: true, alreadyApplied: false });
    expect(await saveReturnsResult(c, 1, `same-${c}`, form, ON)).toMatchObject({ ok: true, alreadyApplied: true });
    expect(await amounts(c)).toEqual([[a.id, 4]]);
  });
});
