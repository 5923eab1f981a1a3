// Returning recalled copies (decision 036): a recalled paper stays on the returns form past
// its last return day and past the 14-day report window, marked with its recall's day
// (the deadline + 14 days), under a distributor that refuses late returns; such returns are
// stored and never marked late. After that day the paper leaves the form as any other.
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createLabelBlock } from "../../../cli/seed/factories";
import { schema } from "../../../db/client";
import { baseData, db, newCustomer, newDelivery, saveReturnsResult } from "../../../tests/unit/helpers";
import { initialLines } from "~/features/returns/return-lines";
import { listPapers, type ReturnLine } from "~/features/returns/returns.server";
import { createRecall } from "./recalls.server";

const asReturn = (l: ReturnType<typeof initialLines>[number]): ReturnLine => ({ key: l.key, deliveryId: l.deliveryId, returnId: l.returnId, bundle: l.bundle, amount: l.amount, defaultBundle: l.dflt, shownAmount: l.fore });

let shop: number;
let recalled: number;
let ordinary: number;

beforeAll(async () => {
  await baseData();
  // Distributor 1 refuses returns after the last return day.
  await db().update(schema.distributors).set({ lateReturns: "reject" }).where(eq(schema.distributors.id, 1));
  shop = await newCustomer({ name: "Şahin Livs", distributorId: 1 });
  await createLabelBlock(db(), { customerId: shop, type: 0, status: "Levererad", fromDate: "2026-01-01", toDate: "2027-01-01", fromNumber: 301, toNumber: 350 });
  recalled = (await newDelivery(shop, { date: "2026-11-02", titleId: 2, editionId: 2, delivered: 15 })).id;
  ordinary = (await newDelivery(shop, { date: "2026-11-02", titleId: 2, editionId: 1, delivered: 15 })).id;
  // Made on 7 November, deadline the 9th at 12:00 Stockholm time: returnable until the 23rd.
  await createRecall(
    { titleId: 2, editionIds: [2], from: "2026-11-02", to: "2026-11-02", reason: "Domstolsbeslut", action: "returnera", distributorIds: null, deadlineDate: "2026-11-09", deadlineTime: "12:00" },
    { id: "staff:1" },
    Date.parse("2026-11-07T08:00:00Z"),
  );
});

describe("recalled papers on the returns form", () => {
  it("stay after the report window, marked with the recall's day, and their return is stored, not late", async () => {
    // 20 days after delivery: outside the 14-day window, past the paper's own last return day.
    const on = "2026-11-22";
    const papers = await listPapers(shop, 1, on);
    expect(papers.map((p) => [p.deliveryId, p.recalledUntil, p.deadline, p.late])).toEqual([[recalled, "2026-11-23", "2026-11-23", false]]);
    const [line] = initialLines(papers.map((p) => ({ deliveryId: p.deliveryId, type: p.type, returns: [] })), 1, { 0: 301 });
    expect(await saveReturnsResult(shop, 1, `recall-${shop}`, [asReturn({ ...line, amount: "15" })], on)).toMatchObject({ ok: true, saved: 1 });
    const [stored] = await db().select().from(schema.returns).where(eq(schema.returns.deliveryId, recalled));
    expect([stored.amount, stored.late]).toEqual([15, false]);
    // The Expressen of the same day was never recalled: not on the form, and a forged row for it is not saved.
    expect(papers.some((p) => p.deliveryId === ordinary)).toBe(false);
  });

  it("leave the form after the recall's day", async () => {
    expect(await listPapers(shop, 2, "2026-11-23")).toHaveLength(1);
    expect(await listPapers(shop, 2, "2026-11-24")).toHaveLength(0);
  });
});

describe("recalled copies returned after the run", () => {
  it("are credited at the delivery's price on the next invoice, named as recalled there and on the trail", async () => {
    const { runInvoicing } = await import("~/features/invoices/invoice-run.server");
    const { creditTrails } = await import("~/features/invoices/credits.server");
    const { createBundle, createReturn } = await import("../../../cli/seed/factories");
    const kiosk = await newCustomer({ name: "Kiosk Ådalen", distributorId: 2 });
    const kvp = await newDelivery(kiosk, { date: "2027-03-10", titleId: 2, editionId: 2, delivered: 12, priceOre: 2400 });
    const first = await runInvoicing({ from: "2027-03-01", to: "2027-03-31", actor: { id: "cli" }, date: "2027-04-01" });
    expect(first.created).toBe(1);
    // Recalled after the March invoice; the kiosk sends 12 copies back on 5 April.
    await createRecall(
      { titleId: 2, editionIds: [2], from: "2027-03-10", to: "2027-03-10", reason: "Indragen", action: "returnera", distributorIds: [2], deadlineDate: "2027-04-04", deadlineTime: "12:00" },
      { id: "staff:1" },
      Date.parse("2027-04-02T08:00:00Z"),
    );
    const bundle = await createBundle(db(), { customerId: kiosk, number: 901, type: 0 });
    const back = await createReturn(db(), { customerId: kiosk, bundleId: bundle.id, deliveryId: kvp.id, amount: 12 });
    expect((await creditTrails(kiosk, [back.id])).get(back.id)).toMatchObject({ pending: 12, recalled: true });
    await newDelivery(kiosk, { date: "2027-04-10", titleId: 2, editionId: 2, delivered: 5, priceOre: 2400 });
    const april = await runInvoicing({ from: "2027-04-01", to: "2027-04-30", actor: { id: "cli" }, date: "2027-05-01" });
    const [invoice] = await db().select().from(schema.invoices).where(eq(schema.invoices.number, april.firstNumber!));
    const lines = await db().select().from(schema.invoiceLines).where(eq(schema.invoiceLines.invoiceId, invoice.id));
    const credit = lines.find((l) => l.kind === "after")!;
    expect(credit.description).toBe(`Återkallade returer efter fakturering, 2027-03-01–2027-03-31: Kvällsposten 12 ex (faktura ${first.firstNumber})`);
    expect([credit.quantity, credit.unitPriceOre, credit.netOre]).toEqual([-12, 2400, -28_800]);
    expect((await creditTrails(kiosk, [back.id])).get(back.id)).toMatchObject({ pending: 0, recalled: true, credits: [{ invoice: april.firstNumber, amount: 12 }] });
  });
});
