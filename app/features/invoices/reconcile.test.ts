// Avstämning (decision 033) over a generated month against a real database: returns before
// and after the run, corrections both ways, claims decided every way (and some late), a run
// cut off and resumed, a rerun, a customer deactivated mid-month, a price change mid-month.
// For every customer, and per title, delivered − returned − approved claims = billed −
// credited − to be credited, to the copy and the öre; and a delivery slipped into the
// billed month behind the import's back shows as a difference.
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { schema } from "../../../db/client";
import { createBundle, createReturn, seededRandom } from "../../../cli/seed/factories";
import { baseData, db, newCustomer, newDelivery } from "../../../tests/unit/helpers";
import { CLI_ACTOR, staffActor } from "../audit/audit.server";
import { decideClaims } from "../deliveries/claims.server";
import { addDays } from "~/lib/dates";
import { RUN_STALE_MS, runInvoicing } from "./invoice-run.server";
import { reconcile, reconciles } from "./reconcile.server";

const FROM = "2026-09-01";
const TO = "2026-09-30";
const NEXT = { from: "2026-10-01", to: "2026-10-31" };
const rnd = seededRandom(4111);
const customers: number[] = [];
const returnIds: number[] = [];
let closed: number;

beforeAll(async () => {
  await db().$client.execute("PRAGMA journal_mode=WAL");
  await baseData();
  for (let i = 0; i < 36; i++) {
    const c = await newCustomer({ name: i % 3 === 0 ? `Şahin Livs ${i}` : `Kiosk Kvällsposten ${i}` });
    customers.push(c);
    const mainBundle = await createBundle(db(), { customerId: c, number: 1, type: 0 });
    const insertBundle = await createBundle(db(), { customerId: c, number: 2, type: 1 });
    for (let day = 0; day < 30; day++) {
      const date = addDays(FROM, day);
      // Deactivated on the 15th: no deliveries after it.
      if (i === 0 && day >= 15) continue;
      // A price change on the 16th.
      const abPrice = day < 15 ? 2219 : 2319;
      const papers = [
        { titleId: 1, editionId: 1, priceOre: abPrice, bundle: mainBundle.id },
        { titleId: 2, editionId: i % 2 === 0 ? 2 : 1, priceOre: 2163, bundle: mainBundle.id },
        ...(day % 7 === 5 ? [{ titleId: 1, editionId: 21, priceOre: 1090, bundle: insertBundle.id }] : []),
      ];
      for (const p of papers) {
        const delivered = rnd.int(5, 30);
        const d = await newDelivery(c, { date, titleId: p.titleId, editionId: p.editionId, delivered, priceOre: p.priceOre });
        if (rnd.chance(0.7)) returnIds.push((await createReturn(db(), { customerId: c, bundleId: p.bundle, deliveryId: d.id, amount: rnd.int(0, Math.floor(delivered / 2)), late: rnd.chance(0.05) })).id);
        if (rnd.chance(0.08)) {
          const missing = rnd.int(1, 3);
          await db().update(schema.deliveries).set({ received: delivered - missing }).where(eq(schema.deliveries.id, d.id));
          await db().insert(schema.claims).values({ deliveryId: d.id, customerId: c, copies: missing });
        }
      }
    }
  }
  closed = customers[0];
  await db().update(schema.customers).set({ deactivatedAt: Date.parse("2026-09-15T20:00:00Z") }).where(eq(schema.customers.id, closed));
}, 120_000);

async function decideSome(share: number) {
  const open = await db().select().from(schema.claims).where(eq(schema.claims.status, "open"));
  for (const c of open) {
    if (!rnd.chance(share)) continue;
    const pick = rnd.int(0, 2);
    const decision = pick === 0 ? ({ decision: "approve" } as const) : pick === 1 && c.copies > 1 ? ({ decision: "partly", copies: 1, reason: "Delvis" } as const) : ({ decision: "reject", reason: "Ej styrkt" } as const);
    await decideClaims([c.id], decision, { distributorIds: null }, staffActor(1));
  }
}

function expectBalanced(r: Awaited<ReturnType<typeof reconcile>>) {
  const off = r.rows.filter((row) => row.difference.copies !== 0 || row.difference.ore !== 0);
  expect(off.map((row) => [row.label, row.difference])).toEqual([]);
  expect(reconciles(r)).toBe(true);
}

describe("a month that reconciles", () => {
  it("adds up for every customer and title after a run cut off and resumed, late returns, corrections and claims", async () => {
    await decideSome(0.5);
    // The run is cut off after its first chunk (a killed process), then resumed.
    const crash = new Error("SIGKILL");
    await runInvoicing({ from: FROM, to: TO, actor: CLI_ACTOR, date: "2026-10-01", chunkSize: 10 }, () => {
      throw crash;
    }).catch((e: unknown) => e);
    await db()
      .update(schema.invoiceRuns)
      .set({ status: "running", message: null, finishedAt: null, heartbeatAt: Date.now() - RUN_STALE_MS - 1 })
      .where(eq(schema.invoiceRuns.periodFrom, FROM));
    const resumed = await runInvoicing({ from: FROM, to: TO, actor: CLI_ACTOR, date: "2026-10-01", chunkSize: 10 });
    expect(resumed.created).toBeGreaterThan(36);
    expectBalanced(await reconcile({ from: FROM, to: TO, by: "customer" }));

    // After the run: corrections both ways, returns reported late, claims decided late.
    for (const id of returnIds) {
      if (!rnd.chance(0.25)) continue;
      const [r] = await db().select({ amount: schema.returns.amount, delivered: schema.deliveries.delivered }).from(schema.returns).innerJoin(schema.deliveries, eq(schema.deliveries.id, schema.returns.deliveryId)).where(eq(schema.returns.id, id));
      const amount = Math.max(0, Math.min(r.delivered, r.amount + rnd.int(-3, 3)));
      await db().update(schema.returns).set({ amount, updatedAt: Date.now() }).where(eq(schema.returns.id, id));
    }
    await decideSome(1);
    // A rerun of the month makes nothing, and settles nothing twice.
    expect((await runInvoicing({ from: FROM, to: TO, actor: CLI_ACTOR, date: "2026-10-02" })).created).toBe(0);
    const before = await reconcile({ from: FROM, to: TO, by: "customer" });
    expectBalanced(before);
    expect(before.total.pending.copies).not.toBe(0);

    // October's run settles what changed: nothing left to credit, still balanced.
    for (const c of customers.slice(1, 6)) await newDelivery(c, { date: "2026-10-02", delivered: 10, priceOre: 2319 });
    await runInvoicing({ from: NEXT.from, to: NEXT.to, actor: CLI_ACTOR, date: "2026-11-01" });
    const after = await reconcile({ from: FROM, to: TO, by: "customer" });
    expectBalanced(after);
    expect(after.total.pending).toEqual({ copies: 0, ore: 0 });
    expect(after.total.credited.copies).toBeGreaterThan(0);
    expect(after.rows.map((r) => r.customerId)).toContain(closed);
    const byTitle = await reconcile({ from: FROM, to: TO });
    expectBalanced(byTitle);
    expect(byTitle.rows.map((r) => r.label)).toEqual(["Aftonbladet, huvudtidning", "Aftonbladet, bilagor", "Expressen, huvudtidning"]);
    expect(byTitle.total.delivered).toEqual(after.total.delivered);
    // The billed kronor are the invoices' own lines.
    const [{ sold }] = await db().all<{ sold: number }>(sql`select sum(l.net_ore) as sold from invoice_lines l join invoices i on i.id = l.invoice_id where i.period_from = ${FROM} and l.kind = 'sold'`);
    expect(byTitle.total.billed.ore).toBe(sold);
  });

  it("shows a delivery slipped into the billed month behind the import's back as a difference", async () => {
    const c = customers[7];
    await newDelivery(c, { date: "2026-09-30", titleId: 2, editionId: 2, delivered: 6, priceOre: 2163 }).catch(async () => {
      // The customer has one that day already: raise it instead.
      await db().update(schema.deliveries).set({ delivered: sql`delivered + 6` }).where(and(eq(schema.deliveries.customerId, c), eq(schema.deliveries.deliveryDate, "2026-09-30"), eq(schema.deliveries.titleId, 2)));
    });
    const r = await reconcile({ from: FROM, to: TO, by: "customer" });
    expect(reconciles(r)).toBe(false);
    expect(r.rows.filter((row) => row.difference.copies !== 0).map((row) => [row.customerId, row.difference])).toEqual([[c, { copies: 6, ore: 6 * 2163 }]]);
  });
});
