// Payouts per ISO week, with a history (decision 022): each payout file holds one title and
// one ISO week; Klarmarkera keeps its files, who made it and when, to be fetched again.
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { schema } from "../../../db/client";
import { baseData, db, newCustomer } from "../../../tests/unit/helpers";
import { addToRefund, completeRefunds, keptPayoutFile, listPayoutBatches, listPendingRefunds, payoutCsvFiles, payoutWeeks, setRefundDate, underlagFiles, updateBankDetail } from "./guarantees.server";
import { weekTag } from "./refund-view";

const admin = { id: "staff:1" };
let sahin: number;
let kvall: number;

async function owed(customerId: number, ledger: number, amountOre: number) {
  const [g] = await db().insert(schema.guarantees).values({ customerId, ledger, amountOre }).returning();
  return g.id;
}

beforeAll(async () => {
  await baseData();
  sahin = await newCustomer({ name: "Şahin Livs" });
  kvall = await newCustomer({ name: "Kvällsbutiken i Malmö" });
  for (const c of [sahin, kvall]) {
    await updateBankDetail(c, "orgNumber", "556677-8899", admin);
    await updateBankDetail(c, "bankgiro", "5050-1055", admin);
  }
  // Şahin: Aftonbladet paid Monday 7 December (week 50). Kvällsbutiken: Expressen in week 50,
  // then its date moved to 14 December (week 51), and an Aftonbladet amount added for week 50 again.
  await addToRefund(sahin, await owed(sahin, 83, 12_500), admin, "2026-12-02");
  await addToRefund(kvall, await owed(kvall, 80, 4_000), admin, "2026-12-02");
  await setRefundDate(kvall, "2026-12-14", admin, "2026-12-02");
  await addToRefund(kvall, await owed(kvall, 83, 7_000), admin, "2026-12-02");
});

describe("payout files", () => {
  it("name the ISO week of the payment date, across the turn of the year", () => {
    expect(weekTag("2026-12-07")).toBe("2026-v50");
    expect(weekTag("2026-12-28")).toBe("2026-v53");
    expect(weekTag("2027-01-01")).toBe("2026-v53");
    expect(weekTag("2027-01-04")).toBe("2027-v01");
  });

  it("hold exactly one title and one ISO week each: one file per week present", async () => {
    const pending = await listPendingRefunds();
    expect(payoutWeeks(pending, "2026-12-02").map((w) => [w.week, w.ledger, w.customers, w.amountOre])).toEqual([
      ["2026-v50", 83, 2, 19_500],
      ["2026-v51", 80, 1, 4_000],
    ]);
    const files = await payoutCsvFiles(admin, {}, "2026-12-02");
    expect(files.map((f) => f.filename)).toEqual(["aftonbladet-2026-v50.csv", "expressen-2026-v51.csv"]);
    const ab = files[0].content as string;
    expect(ab).toContain(`${sahin};Şahin Livs;556677-8899;5050-1055;;125,00;2026-12-07\r\n`);
    expect(ab).toContain(`${kvall};Kvällsbutiken i Malmö;556677-8899;5050-1055;;70,00;2026-12-07\r\n`);
    expect(ab).not.toContain("2026-12-14");
    expect(files[1].content).toContain(`${kvall};Kvällsbutiken i Malmö;556677-8899;5050-1055;;40,00;2026-12-14\r\n`);
    // A week chosen: only its file.
    expect((await payoutCsvFiles(admin, { week: "2026-v51" }, "2026-12-02")).map((f) => f.filename)).toEqual(["expressen-2026-v51.csv"]);
    // A customer with amounts in two weeks gets one underlag that names both.
    expect((await underlagFiles(admin, { customerId: kvall }, "2026-12-02")).map((f) => f.filename)).toEqual([`underlag-${kvall}-2026-v50-2026-v51.pdf`]);
  });

  it("stay listed after Klarmarkera with who made the batch and when, to be fetched again as they were", async () => {
    const before = await payoutCsvFiles(admin, {}, "2026-12-02");
    const beforeXml = await payoutCsvFiles(admin, {}, "2026-12-02", "pain001");
    expect(await completeRefunds(admin, "2026-12-02")).toBe(3);
    expect(await listPendingRefunds()).toEqual([]);
    const { total, batches } = await listPayoutBatches();
    expect(total).toBe(1);
    const [batch] = batches;
    expect(batch).toMatchObject({ actor: "staff:1", customers: 2, guarantees: 3, amountOre: 23_500 });
    expect(batch.files.map((f) => [f.filename, f.week, f.customers, f.amountOre])).toEqual([
      ["aftonbladet-2026-v50.csv", "2026-v50", 2, 19_500],
      ["expressen-2026-v51.csv", "2026-v51", 1, 4_000],
      ["aftonbladet-2026-v50.xml", "2026-v50", 2, 19_500],
      ["expressen-2026-v51.xml", "2026-v51", 1, 4_000],
      ["underlag-aftonbladet-2026-v50.pdf", "2026-v50", 2, 19_500],
      ["underlag-expressen-2026-v51.pdf", "2026-v51", 1, 4_000],
    ]);
    const again = await keptPayoutFile(admin, batch.files[0].id);
    expect(again).toEqual(before[0]);
    // The bank's file kept by the batch pays what was downloaded before, under the same message id.
    const xml = await keptPayoutFile(admin, batch.files[2].id);
    expect(xml?.contentType).toBe("application/xml; charset=utf-8");
    const msgId = (f: { content: string | Uint8Array } | null | undefined) => String(f?.content).match(/<MsgId>([^<]+)</)?.[1];
    expect(msgId(xml)).toBe(msgId(beforeXml[0]));
    expect(String(xml?.content).replace(/<CreDtTm>[^<]*</, "")).toBe(String(beforeXml[0].content).replace(/<CreDtTm>[^<]*</, ""));
    const pdf = await keptPayoutFile(admin, batch.files[4].id);
    expect(Buffer.from(pdf!.content as Uint8Array).subarray(0, 5).toString()).toBe("%PDF-");
    expect(await keptPayoutFile(admin, 999_999)).toBeNull();
    // Every paid amount names its batch.
    const paid = await db().select().from(schema.guarantees).where(eq(schema.guarantees.batchId, batch.id));
    expect(paid).toHaveLength(3);
    // A second Klarmarkera with nothing added makes no batch.
    expect(await completeRefunds(admin, "2026-12-02")).toBe(0);
    expect((await listPayoutBatches()).total).toBe(1);
  });
});
