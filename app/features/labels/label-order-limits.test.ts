// A retailer cannot order label numbers without bound. 50 orders sent at
// once (one process) and two processes ordering together stop at the same bound, because
// the limits are counted in the order's own write transaction (docs/decisions/011-write-limits.md).
import { execFile } from "node:child_process";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { schema } from "../../../db/client";
import { createLabelBlock } from "../../../cli/seed/factories";
import { addDays } from "../../lib/dates";
import { isRefusal } from "../../lib/refusal";
import {
  LABEL_LIMITS,
  LABEL_MESSAGES,
  LABEL_TYPE,
  orderBlock,
  orderEmergencyLabels,
} from "./labels.server";
import { baseData, db, newCustomer } from "../../../tests/unit/helpers";

const TODAY = "2026-03-18";

beforeAll(async () => {
  // As in production: WAL, so the two processes lock the file as two app servers would.
  await db().$client.execute("PRAGMA journal_mode=WAL");
  await baseData();
});

async function blocksOf(customerId: number, type: number) {
  const b = schema.labelBlocks;
  return db().select().from(b).where(and(eq(b.customerId, customerId), eq(b.type, type)));
}

/** Marks every number of the customer's blocks used, as returns reported into them would. */
async function useAll(customerId: number) {
  await db().update(schema.labelBlocks).set({ numberUnused: 0 }).where(eq(schema.labelBlocks.customerId, customerId));
}

function expectDistinctNumbers(rows: { fromNumber: number; toNumber: number }[]) {
  const numbers = rows.flatMap((r) => Array.from({ length: r.toNumber - r.fromNumber + 1 }, (_, k) => r.fromNumber + k));
  expect(new Set(numbers).size).toBe(numbers.length);
}

describe("label order limits", () => {
  it("50 block orders at once: exactly the unused-block bound is created, the rest refused with the text", async () => {
    const a = await newCustomer();
    const results = await Promise.allSettled(Array.from({ length: 50 }, (_, i) => orderBlock(a, TODAY, `par-${a}-${i}`)));
    const created = results.filter((r) => r.status === "fulfilled");
    const refused = results.filter((r) => r.status === "rejected").map((r) => (r as PromiseRejectedResult).reason);
    expect(created).toHaveLength(LABEL_LIMITS.unusedBlocks);
    expect(refused).toHaveLength(50 - LABEL_LIMITS.unusedBlocks);
    for (const e of refused) {
      expect(isRefusal(e, "limit")).toBe(true);
      expect((e as Error).message).toBe(LABEL_MESSAGES.unusedBlocks);
    }
    const rows = await blocksOf(a, LABEL_TYPE.normal);
    expect(rows).toHaveLength(LABEL_LIMITS.unusedBlocks);
    expectDistinctNumbers(rows);
    // A refused order claims no form token: the same form may be sent again later.
    const tokens = await db().select().from(schema.appliedSubmissions).where(eq(schema.appliedSubmissions.customerId, a));
    expect(tokens).toHaveLength(LABEL_LIMITS.unusedBlocks);
  });

  it("50 emergency prints at once: the same bound, with the emergency text; normal blocks are counted apart", async () => {
    const a = await newCustomer();
    const results = await Promise.allSettled(Array.from({ length: 50 }, () => orderEmergencyLabels(a, 20, TODAY)));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(LABEL_LIMITS.unusedBlocks);
    const reasons = new Set(results.filter((r) => r.status === "rejected").map((r) => ((r as PromiseRejectedResult).reason as Error).message));
    expect([...reasons]).toEqual([LABEL_MESSAGES.unusedEmergency]);
    expect(await blocksOf(a, LABEL_TYPE.emergency)).toHaveLength(LABEL_LIMITS.unusedBlocks);
    // Unused emergency prints do not stop a normal block order.
    await expect(orderBlock(a, TODAY)).resolves.toMatchObject({ type: LABEL_TYPE.normal });
  });

  it("two processes (two app servers) × 25 orders together stop at the bound too", async () => {
    const a = await newCustomer();
    const worker = () =>
      new Promise<([number, number] | string)[]>((resolve, reject) => {
        execFile(
          process.execPath,
          ["--import", "tsx", "tests/unit/label-order-worker.ts", String(a), "25", TODAY],
          { env: { ...process.env }, encoding: "utf8" },
          (error, stdout, stderr) => (error ? reject(new Error(stderr || String(error))) : resolve(JSON.parse(stdout))),
        );
      });
    const [one, two] = await Promise.all([worker(), worker()]);
    const all = [...one, ...two];
    expect(all.filter((r) => Array.isArray(r))).toHaveLength(LABEL_LIMITS.unusedBlocks);
    expect(all.filter((r) => r === LABEL_MESSAGES.unusedEmergency)).toHaveLength(50 - LABEL_LIMITS.unusedBlocks);
    const rows = await blocksOf(a, LABEL_TYPE.emergency);
    expect(rows).toHaveLength(LABEL_LIMITS.unusedBlocks);
    expectDistinctNumbers(rows);
  }, 60_000);

  it("orders per day are bounded even when every block is used at once; the next day orders again", async () => {
    const a = await newCustomer();
    for (let i = 0; i < LABEL_LIMITS.perDay; i++) {
      await orderBlock(a, TODAY);
      await useAll(a);
    }
    await expect(orderBlock(a, TODAY)).rejects.toThrow(LABEL_MESSAGES.perDayBlocks);
    for (let i = 0; i < LABEL_LIMITS.perDay; i++) {
      await orderEmergencyLabels(a, 1, TODAY);
      await useAll(a);
    }
    await expect(orderEmergencyLabels(a, 1, TODAY)).rejects.toThrow(LABEL_MESSAGES.perDayEmergency);
    await expect(orderBlock(a, addDays(TODAY, 1))).resolves.toMatchObject({ fromDate: addDays(TODAY, 1) });
  });

  it("numbers handed out in the last 365 days are bounded, so the number space cannot be used up", async () => {
    const a = await newCustomer();
    // 4,960 numbers handed out (and used) over the past year, one block per week.
    for (let w = 0; w < 99; w++) {
      await createLabelBlock(db(), {
        customerId: a,
        type: 0,
        status: "Levererad",
        fromDate: addDays(TODAY, -3 * w - 1),
        toDate: addDays(TODAY, 300),
        fromNumber: 1 + 50 * w,
        toNumber: 50 + 50 * w,
        numberUnused: 0,
      });
    }
    await createLabelBlock(db(), { customerId: a, type: 0, status: "Levererad", fromDate: addDays(TODAY, -300), toDate: addDays(TODAY, 65), fromNumber: 4951, toNumber: 4960, numberUnused: 0 });
    await expect(orderBlock(a, TODAY)).rejects.toThrow(LABEL_MESSAGES.perYear);
    // 40 more fit under 5,000.
    await expect(orderEmergencyLabels(a, 20, TODAY)).resolves.toMatchObject({ fromNumber: 4961, toNumber: 4980 });
    await expect(orderEmergencyLabels(a, 20, TODAY)).resolves.toMatchObject({ toNumber: 5000 });
    await expect(orderEmergencyLabels(a, 1, TODAY)).rejects.toThrow(LABEL_MESSAGES.perYear);
    // Blocks older than a year no longer count.
    await expect(orderBlock(a, addDays(TODAY, 366))).resolves.toMatchObject({ fromNumber: 5001 });
  });
});
