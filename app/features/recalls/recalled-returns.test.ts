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
