// A half-filled row is an error, not half a save. A bundle the user
// typed (even the pre-filled one again) without an amount is refused, and the save
// stores nothing of the form.
import { saveReturnsResult } from "../../../tests/unit/helpers";
import { beforeAll, describe, expect, it } from "vitest";
import { createLabelBlock } from "../../../cli/seed/factories";
import { baseData, db, newCustomer, newDelivery } from "../../../tests/unit/helpers";
import { initialLines, typedInto } from "./return-lines";
import { RETURN_MESSAGES, type ReturnLine } from "./returns.server";

const ON = "2025-03-20";

beforeAll(async () => {
  await baseData();
});

const asReturn = (l: ReturnType<typeof initialLines>[number]): ReturnLine => ({
  key: l.key,
  deliveryId: l.deliveryId,
  bundle: l.bundle,
  amount: l.amount,
  defaultBundle: l.dflt,
});

describe("half-filled rows", () => {
  it("typing into a bundle field makes the line touched: no longer the pre-filled default", () => {
    const [l] = initialLines([{ deliveryId: 7, type: 0, returns: [] }], 1, { 0: 101 });
    expect(l).toMatchObject({ bundle: "101", dflt: "101" });
    expect(typedInto(l, "bundle", "101")).toMatchObject({ bundle: "101", dflt: "", touched: true });
    expect(typedInto(l, "amount", "3")).toEqual({ ...l, amount: "3" });
  });

  it("a typed bundle without amount beside a full line: 'Ange antal.', nothing stored", async () => {
    const c = await newCustomer();
    await createLabelBlock(db(), { customerId: c, type: 0, status: "Levererad", fromDate: "2025-01-01", toDate: "2026-01-01", fromNumber: 101, toNumber: 150 });
    const a = await newDelivery(c, { date: "2025-03-19", delivered: 10 });
    const b = await newDelivery(c, { date: "2025-03-18", delivered: 10 });
    const [la, lb] = initialLines([a, b].map((d) => ({ deliveryId: d.id, type: 0, returns: [] })), 1, { 0: 101 });
    const full = asReturn({ ...la, amount: "4" });
    const half = asReturn(typedInto(lb, "bundle", "101"));
    expect(await saveReturnsResult(c, 1, `half-${c}`, [full, half], ON)).toMatchObject({ ok: false, errors: { [half.key]: RETURN_MESSAGES.amountRequired } });
    const amountOnly = asReturn({ ...typedInto(lb, "bundle", ""), amount: "2" });
    expect(await saveReturnsResult(c, 1, `half2-${c}`, [full, amountOnly], ON)).toMatchObject({ ok: false, errors: { [amountOnly.key]: RETURN_MESSAGES.bundleRequired } });
    const stored = await db().$client.execute({ sql: "select count(*) as n from returns where customer_id = ?", args: [c] });
    expect(Number(stored.rows[0].n)).toBe(0);
  });
});
