// Försäljning: per title and ISO week, delivered, returned and sold, from a
// real libSQL database; the hint's rule; only the customer's own data.
import { beforeAll, describe, expect, it } from "vitest";
import { createBundle, createReturn } from "../../cli/seed/factories";
import { listSales, salesHint, type SalesWeek } from "../../app/features/sales/sales.server";
import { addDays } from "../../app/lib/dates";
import { baseData, db, newCustomer, newDelivery } from "./helpers";

beforeAll(baseData);

const week = (delivered: number, returned: number): SalesWeek => ({ monday: "2040-01-01", week: 1, year: 2040, delivered, returned, sold: delivered - returned });

describe("the sell-through hint", () => {
  it("asks for fewer copies when every one of the last four weeks returned half or more, more when almost nothing came back", () => {
    expect(salesHint([week(10, 1), week(10, 5), week(10, 6), week(10, 5), week(10, 7)])).toBe("decrease");
    expect(salesHint([week(10, 9), week(20, 1), week(10, 0), week(10, 0), week(10, 0)])).toBe("increase");
    expect(salesHint([week(10, 5), week(10, 5), week(10, 4), week(10, 5)])).toBeNull();
    // Weeks without deliveries do not count; fewer than four weeks say nothing.
    expect(salesHint([week(10, 6), week(0, 0), week(10, 6), week(10, 6)])).toBeNull();
    expect(salesHint([week(10, 6), week(10, 6), week(0, 0), week(10, 6), week(10, 6)])).toBe("decrease");
  });
});

describe("sales per title and week", () => {
  it("sums deliveries and their returns per ISO week for 13 weeks, the customer's own only", async () => {
    const a = await newCustomer({ name: "Şahin Livs" });
    const b = await newCustomer({ name: "Kiosk Łódź" });
    const today = "2040-03-14"; // a Wednesday, week 11
    const bundle = await createBundle(db(), { customerId: a, number: 1, type: 0 });
    // Two deliveries in week 10 (Monday and Sunday), one in week 11, one 13 weeks back (week 51 of 2039, outside), one of B's.
    const mon = await newDelivery(a, { date: "2040-03-05", delivered: 20 });
    const sun = await newDelivery(a, { date: "2040-03-11", delivered: 10, titleId: 1, editionId: 2 });
    const now = await newDelivery(a, { date: today, delivered: 8 });
    await newDelivery(a, { date: addDays("2040-03-12", -7 * 13), delivered: 99 });
    await newDelivery(a, { date: "2040-03-06", titleId: 2, editionId: 1, delivered: 12 });
    const bs = await newDelivery(b, { date: "2040-03-05", delivered: 50 });
    await createReturn(db(), { customerId: a, bundleId: bundle.id, deliveryId: mon.id, amount: 7 });
    await createReturn(db(), { customerId: a, bundleId: (await createBundle(db(), { customerId: a, number: 2, type: 0 })).id, deliveryId: mon.id, amount: 3 });
    await createReturn(db(), { customerId: a, bundleId: bundle.id, deliveryId: sun.id, amount: 4 });
    await createReturn(db(), { customerId: b, bundleId: (await createBundle(db(), { customerId: b, number: 1, type: 0 })).id, deliveryId: bs.id, amount: 40 });

    const sales = await listSales(a, today);
    expect(sales.map((t) => t.titleId)).toEqual([1, 2]);
    const ab = sales[0];
    expect(ab.weeks).toHaveLength(13);
    expect(ab.weeks[0]).toMatchObject({ monday: "2039-12-19", week: 51, delivered: 0 });
    expect(ab.weeks.at(-2)).toEqual({ monday: "2040-03-05", week: 10, year: 2040, delivered: 30, returned: 14, sold: 16 });
    expect(ab.weeks.at(-1)).toMatchObject({ monday: "2040-03-12", week: 11, delivered: 8, returned: 0, sold: 8 });
    expect([ab.delivered, ab.returned]).toEqual([38, 14]);
    expect(sales[1].weeks.at(-2)).toMatchObject({ delivered: 12, returned: 0 });
    expect(now.id).toBeGreaterThan(0);

    const forB = await listSales(b, today);
    expect(forB.map((t) => [t.titleId, t.delivered, t.returned])).toEqual([[1, 50, 40]]);
  });
});
