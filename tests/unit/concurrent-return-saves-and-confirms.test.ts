// Parallel writers through the real domain functions, in one process
// (Promise.all) and across processes (child "app servers" on the same database file).
// Label numbers under concurrency are proven in retailer-complaints-labels-invoices-journal.test.ts (in-process and two
// processes); this file covers return saves and the confirm step.
import { saveReturnsResult } from "./helpers";
import { spawn } from "node:child_process";
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { schema } from "../../db/client";
import { createBundle, createLabelBlock } from "../../cli/seed/factories";
import { decideBundles, type BundleDecision } from "../../app/features/bundles/bundles.server";
import { RETURN_REFUSALS } from "../../app/features/returns/returns.server";
import { baseData, db, newCustomer, newDelivery } from "./helpers";

const ON = "2025-03-20";

beforeAll(baseData);

/**
 * Child "app servers" on the same database file, started together: each reports ready (its
 * imports done) and begins on the go the test sends once all are ready. No clock decides it.
 */
async function workers(argsOf: string[][]): Promise<boolean[][]> {
  const children = argsOf.map((args) => spawn(process.execPath, ["--import", "tsx", "tests/unit/concurrent-returns-worker.ts", ...args], { stdio: ["pipe", "pipe", "pipe"] }));
  const results = children.map(
    (child) =>
      new Promise<boolean[]>((resolve, reject) => {
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (d) => (stdout += String(d)));
        child.stderr.on("data", (d) => (stderr += String(d)));
        // "close": the child's output is all read (at "exit" it may not be).
        child.once("close", (code) => (code === 0 ? resolve(JSON.parse(stdout)) : reject(new Error(stderr || `exit ${code}`))));
      }),
  );
  const ready = children.map(
    (child) =>
      new Promise<void>((resolve, reject) => {
        let said = "";
        child.stderr.on("data", (d) => {
          said += String(d);
          if (said.includes("ready\n")) resolve();
        });
        child.once("exit", () => reject(new Error(`a worker ended before it was ready: ${said}`)));
      }),
  );
  await Promise.all(ready);
  for (const child of children) child.stdin.end("go\n");
  return Promise.all(results);
}

/** A customer with a label block, one delivery of `delivered`, reported with 1 in bundle 101. */
async function reportedDelivery(delivered: number) {
  const c = await newCustomer();
  await createLabelBlock(db(), { customerId: c, type: 0, status: "Levererad", fromDate: "2025-01-01", toDate: "2025-12-31", fromNumber: 101, toNumber: 150 });
  const d = await newDelivery(c, { date: "2025-03-19", delivered });
  const first = await saveReturnsResult(c, 1, `first-${c}`, [{ key: "x", deliveryId: d.id, bundle: "101", amount: "1" }], ON);
  expect(first).toMatchObject({ ok: true, saved: 1 });
  return { c, d };
}

async function returnedSum(deliveryId: number) {
  const [row] = await db()
    .select({ n: sql<number>`coalesce(sum(${schema.returns.amount}), 0)` })
    .from(schema.returns)
    .where(eq(schema.returns.deliveryId, deliveryId));
  return Number(row.n);
}

async function openPerType(customerId: number) {
  const rows = await db()
    .select({ type: schema.bundles.type, n: sql<number>`count(*)` })
    .from(schema.bundles)
    .where(and(eq(schema.bundles.customerId, customerId), eq(schema.bundles.open, true)))
    .groupBy(schema.bundles.type);
  return Object.fromEntries(rows.map((r) => [r.type, Number(r.n)]));
}

describe("parallel return saves on one delivery", () => {
  it("50 saves at once in one process never exceed the delivered amount", async () => {
    const { c, d } = await reportedDelivery(20);
    // 50 additions of 1, each with its own form token, into a new bundle and the first one.
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        saveReturnsResult(c, 2, `p-${c}-${i}`, [{ key: "x", deliveryId: d.id, bundle: i % 2 ? "101" : "102", amount: "1" }], ON),
      ),
    );
    const ok = results.filter((r) => r.ok).length;
    expect(ok).toBe(19);
    // Each refusal names the limit as it stood: none left of the 20, all already returned.
    for (const r of results) if (!r.ok) expect(r.errors.x).toBe(RETURN_REFUSALS.tooManyOf(20, 20));
    expect(await returnedSum(d.id)).toBe(20);
  });

  it("4 processes × 15 saves at once never exceed the delivered amount, and every acknowledged save is stored", async () => {
    const { c, d } = await reportedDelivery(40);
    const runs = await workers([0, 1, 2, 3].map((w) => ["save", String(c), String(d.id), w % 2 ? "101" : "103", "15", ON]));
    const ok = runs.flat().filter(Boolean).length;
    expect(runs.flat()).toHaveLength(60);
    expect(ok).toBe(39);
    expect(await returnedSum(d.id)).toBe(40);
  }, 60_000);
});

describe("parallel confirm steps", () => {
  async function customerWithOpenBundles() {
    const c = await newCustomer();
    const bundles: [number, number][] = [];
    for (let i = 0; i < 6; i++) bundles.push([0, 201 + i]);
    for (let i = 0; i < 4; i++) bundles.push([1, 301 + i]);
    for (const [type, number] of bundles) await createBundle(db(), { customerId: c, number, type, open: true });
    return { c, bundles };
  }

  it("50 confirm steps at once in one process leave at most one open bundle per type", async () => {
    const { c, bundles } = await customerWithOpenBundles();
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => {
        const decisions: Record<number, BundleDecision> = {};
        const keep = { 0: bundles.filter(([t]) => t === 0)[i % 6][1], 1: bundles.filter(([t]) => t === 1)[i % 4][1] };
        for (const [t, n] of bundles) decisions[n] = keep[t as 0 | 1] === n ? "open" : "closed";
        return decideBundles(c, decisions, ON);
      }),
    );
    // Every step decided (a refusal would have rejected Promise.all).
    expect(results).toHaveLength(50);
    const open = await openPerType(c);
    expect(open[0] ?? 0).toBeLessThanOrEqual(1);
    expect(open[1] ?? 0).toBeLessThanOrEqual(1);
  });

  it("4 processes × 10 confirm steps at once leave at most one open bundle per type", async () => {
    const { c, bundles } = await customerWithOpenBundles();
    const spec = bundles.map(([t, n]) => `${t}:${n}`);
    const runs = await workers([0, 1, 2, 3].map(() => ["decide", String(c), "10", ON, ...spec]));
    expect(runs.flat()).toHaveLength(40);
    expect(runs.flat().every(Boolean)).toBe(true);
    const open = await openPerType(c);
    expect(open[0] ?? 0).toBeLessThanOrEqual(1);
    expect(open[1] ?? 0).toBeLessThanOrEqual(1);
    // Every closed bundle got today's date; no bundle was deleted.
    const all = await db().select().from(schema.bundles).where(eq(schema.bundles.customerId, c));
    expect(all).toHaveLength(10);
    for (const b of all) expect(b.open || b.closedDate === ON).toBe(true);
  }, 60_000);
});
