// No krona silently lost (decision 030): an invoiced period is closed to the
// deliveries import, a run may not leave past days unbilled behind the last invoiced period,
// and deliveries after a customer's deactivation are refused — against a real database.
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { schema } from "../../../db/client";
import { addDays } from "~/lib/dates";
import { baseData, db, newCustomer, newDelivery } from "../../../tests/unit/helpers";
import { CLI_ACTOR } from "../audit/audit.server";
import { importFile } from "../imports/imports.server";
import { INVOICE_GAP, runInvoicing, stillReturnable } from "./invoice-run.server";

const HEADER = "customer_id;title_id;edition_id;delivery_date;delivered;price_ore\n";
let shop: number;
let other: number;

beforeAll(async () => {
  await baseData();
  shop = await newCustomer({ name: "Şahin Livs" });
  other = await newCustomer({ name: "Kiosk Kvällsposten" });
  await newDelivery(shop, { date: "2026-09-10", delivered: 20, priceOre: 2200 });
  await newDelivery(other, { date: "2026-09-12", titleId: 2, editionId: 2, delivered: 12, priceOre: 2163 });
  await runInvoicing({ from: "2026-09-01", to: "2026-09-30", actor: CLI_ACTOR, date: "2026-10-01" });
});

describe("an invoiced period is closed", () => {
  it("refuses a changed or new delivery in it, line by line, and takes the same row again and the next period", async () => {
    const file =
      HEADER +
      `${shop};1;1;2026-09-10;20;2200\n` + // as invoiced: fine
      `${shop};1;1;2026-09-11;5;2200\n` + // new, in the invoiced September
      `${other};2;2;2026-09-12;30;2163\n` + // 12 → 30 after the invoice
      `${other};2;2;2026-10-02;30;2163\n`; // October: open
    const result = await importFile("deliveries", file, { actor: CLI_ACTOR, source: "leveranser.csv" });
    expect(result.applied).toBe(false);
    expect(result.problems.map((p) => [p.line, p.column, p.reason])).toEqual([
      [3, "delivery_date", "2026-09-11 ligger i den fakturerade perioden 2026-09-01–2026-09-30; rätta med en extra fakturarad"],
      [4, "delivery_date", "2026-09-12 ligger i den fakturerade perioden 2026-09-01–2026-09-30; rätta med en extra fakturarad"],
    ]);
    const skipping = await importFile("deliveries", file, { actor: CLI_ACTOR, source: "leveranser.csv", skipInvalid: true });
    expect([skipping.applied, skipping.created, skipping.unchanged, skipping.skipped]).toEqual([true, 1, 1, 2]);
    const [september] = await db().select().from(schema.deliveries).where(eq(schema.deliveries.deliveryDate, "2026-09-12"));
    expect(september.delivered).toBe(12);
  });

  it("refuses a run that would leave past days with deliveries unbilled after the last invoiced period", async () => {
    // October 2 has a delivery (above); October 1 has none, so a run from the 2nd leaves nothing behind…
    await newDelivery(shop, { date: "2026-10-01", delivered: 10, priceOre: 2200 });
    // …until there is one on the 1st.
    await expect(runInvoicing({ from: "2026-10-02", to: "2026-10-31", actor: CLI_ACTOR, dryRun: true })).rejects.toMatchObject({
      code: "invalid",
      message: INVOICE_GAP("2026-10-01", "2026-10-01", "2026-09-30"),
    });
    expect(INVOICE_GAP("2026-10-01", "2026-10-01", "2026-09-30")).toBe("Perioden lämnar 2026-10-01 ofakturerad: den senast fakturerade perioden slutar 2026-09-30. Börja perioden 2026-10-01.");
    await expect(runInvoicing({ from: "2026-10-05", to: "2026-10-31", actor: CLI_ACTOR })).rejects.toMatchObject({ message: INVOICE_GAP("2026-10-01", "2026-10-04", "2026-09-30") });
    expect(await db().select().from(schema.invoiceRuns)).toHaveLength(1);
    const october = await runInvoicing({ from: "2026-10-01", to: "2026-10-31", actor: CLI_ACTOR, date: "2026-11-01" });
    expect(october.created).toBe(2);
  });

  it("refuses deliveries dated after a customer's deactivation", async () => {
    const closed = await newCustomer({ name: "Nedlagda Kiosken" });
    // Deactivated at 23:30 UTC on 14 November: the 15th in Stockholm.
    await db().update(schema.customers).set({ deactivatedAt: Date.parse("2026-11-14T23:30:00Z") }).where(eq(schema.customers.id, closed));
    const result = await importFile("deliveries", HEADER + `${closed};1;1;2026-11-15;5;2200\n${closed};1;1;2026-11-16;5;2200\n`, { actor: CLI_ACTOR, source: "leveranser.csv" });
    expect(result.problems.map((p) => [p.line, p.reason])).toEqual([[3, `kund ${closed} är avstängd sedan 2026-11-15`]]);
  });

  it("counts the period's papers still inside their return window, and only those", async () => {
    const c = await newCustomer({ name: "Kiosk Öppet fönster" });
    // The day after the 5th's last return day: the 5th's papers are closed, the 18th's and 25th's open.
    await newDelivery(c, { date: "2026-12-18", delivered: 10, priceOre: 2200 });
    await newDelivery(c, { date: "2026-12-25", delivered: 6, priceOre: 2163 });
    await newDelivery(c, { date: "2026-12-05", delivered: 4, priceOre: 2200 });
    const [w] = await db().select().from(schema.returnWindows).where(eq(schema.returnWindows.paperType, 0));
    const open = await stillReturnable("2026-12-01", "2026-12-31", addDays("2026-12-05", w.days + 1));
    expect(open).toEqual({ deliveries: 2, copies: 16, valueOre: 10 * 2200 + 6 * 2163, lastDay: addDays("2026-12-25", w.days) });
  });
});
