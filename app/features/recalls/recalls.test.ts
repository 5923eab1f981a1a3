// Who a recall reaches (decision 036): every active customer of the chosen distributors with
// a delivery of the recalled editions on the recalled dates, and no one else — Kvällsposten
// is not Expressen, the day after is not the day, a deactivated shop is not asked. Each
// acknowledges once; an ended recall asks no one; the alert locks only those still asked.
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { schema } from "../../../db/client";
import { baseData, db, newCustomer, newDelivery } from "../../../tests/unit/helpers";
import { listAlerts } from "~/features/alerts/alerts.server";
import { isRefusal } from "~/lib/refusal";
import { acknowledgeRecall, createRecall, customerRecalls, endRecall, recallFollowUp, type NewRecall } from "./recalls.server";
import { RECALL_TEXTS } from "./recall-words";

const admin = { id: "staff:1" };
const NOW = Date.parse("2026-11-28T06:45:00Z");
const base: NewRecall = {
  titleId: 2,
  editionIds: [2],
  from: "2026-11-27",
  to: "2026-11-28",
  reason: "Fel bilaga: domstolsbeslut",
  action: "returnera",
  distributorIds: null,
  deadlineDate: "2026-11-28",
  deadlineTime: "12:00",
};

let kvpNorr: number;
let kvpSyd: number;
let expressenOnly: number;
let dayAfter: number;
let closed: number;

beforeAll(async () => {
  await baseData();
  kvpNorr = await newCustomer({ name: "Şahin Livs", distributorId: 1 });
  kvpSyd = await newCustomer({ name: "Pressbyrån Malmö C", distributorId: 2 });
  expressenOnly = await newCustomer({ name: "Kiosk Expressen", distributorId: 1 });
  dayAfter = await newCustomer({ name: "Kiosk dagen efter", distributorId: 2 });
  closed = await newCustomer({ name: "Nedlagd kiosk", distributorId: 1 });
  await newDelivery(kvpNorr, { date: "2026-11-27", titleId: 2, editionId: 2, delivered: 12 });
  await newDelivery(kvpNorr, { date: "2026-11-28", titleId: 2, editionId: 2, delivered: 10 });
  await newDelivery(kvpSyd, { date: "2026-11-28", titleId: 2, editionId: 2, delivered: 40 });
  await newDelivery(expressenOnly, { date: "2026-11-28", titleId: 2, editionId: 1, delivered: 30 });
  await newDelivery(dayAfter, { date: "2026-11-29", titleId: 2, editionId: 2, delivered: 5 });
  await newDelivery(closed, { date: "2026-11-28", titleId: 2, editionId: 2, delivered: 8 });
  await db().update(schema.customers).set({ deactivatedAt: NOW - 1000 }).where(eq(schema.customers.id, closed));
});

const reason = (p: Promise<unknown>) => p.then(() => null, (e: unknown) => (isRefusal(e) ? [e.message, Object.keys(e.fields)[0]] : e));

describe("a recall", () => {
  it("reaches the shops that got Kvällsposten those days, and no one else", async () => {
    const { id, customers } = await createRecall(base, admin, NOW);
    expect(customers).toBe(2);
    const follow = (await recallFollowUp(id, { distributorIds: null }))!;
    expect(follow.waiting.map((c) => [c.customerId, c.name, c.delivered])).toEqual([
      [kvpNorr, "Şahin Livs", 22],
      [kvpSyd, "Pressbyrån Malmö C", 40],
    ]);
    expect(follow.recall).toMatchObject({ affected: 2, acknowledged: 0, delivered: 62 });
    // Only the chosen distributors' shops, when chosen.
    const syd = await createRecall({ ...base, distributorIds: [2] }, admin, NOW);
    expect(syd.customers).toBe(1);
    expect((await recallFollowUp(syd.id, { distributorIds: null }))!.waiting.map((c) => c.customerId)).toEqual([kvpSyd]);
    // A utb user sees their distributor's shops only; a recall of another distributor's is unknown to them.
    expect((await recallFollowUp(id, { distributorIds: [1] }))!.waiting.map((c) => c.customerId)).toEqual([kvpNorr]);
    expect(await recallFollowUp(syd.id, { distributorIds: [1] })).toBeNull();
  });

  it("locks the shops still asked, and no other; acknowledged once, with the copies taken off the shelf", async () => {
    const { id } = await createRecall({ ...base, reason: "Andra återkallelsen" }, admin, NOW);
    const types = async (c: number) => (await listAlerts(c, "2026-11-28")).filter((a) => a.type === "ATERKALLELSE").map((a) => a.imperative);
    expect(await types(kvpNorr)).toEqual([true]);
    expect(await types(expressenOnly)).toEqual([]);
    expect(await types(dayAfter)).toEqual([]);
    // 0 is an answer: "Jag har inga kvar".
    await acknowledgeRecall(kvpSyd, id, 0, { id: `customer:${kvpSyd}` }, NOW + 60_000);
    expect(await reason(acknowledgeRecall(kvpSyd, id, 3, { id: `customer:${kvpSyd}` }, NOW + 120_000))).toEqual([RECALL_TEXTS.alreadyAcknowledged(0), "antal"]);
    // Another shop cannot answer for a recall that never reached it.
    expect(await reason(acknowledgeRecall(expressenOnly, id, 1, { id: `customer:${expressenOnly}` }))).toEqual([RECALL_TEXTS.notFound(id), undefined]);
    expect(await reason(acknowledgeRecall(kvpNorr, id, -1, { id: `customer:${kvpNorr}` }))).toEqual([RECALL_TEXTS.removedInvalid, "antal"]);
    const mine = (await customerRecalls(kvpSyd)).find((r) => r.id === id)!;
    expect([mine.acknowledgedAt, mine.removedCopies]).toEqual([NOW + 60_000, 0]);
    // Ended: no one is asked any more, and the lock lifts.
    expect(await endRecall(id, admin)).toBe(true);
    expect(await endRecall(id, admin)).toBe(false);
    expect(await reason(acknowledgeRecall(kvpNorr, id, 2, { id: `customer:${kvpNorr}` }))).toEqual([RECALL_TEXTS.ended, "antal"]);
    const audit = await db().select().from(schema.auditLog).where(eq(schema.auditLog.target, `recall:${id}`));
    expect(audit.map((a) => a.action).sort()).toEqual(["recall.acknowledge", "recall.create", "recall.end"]);
  });

  it("is refused with its reason: no one reached, an edition of another title, a deadline passed, a period backwards or too long", async () => {
    expect(await reason(createRecall({ ...base, from: "2026-12-01", to: "2026-12-02", deadlineDate: "2026-12-03" }, admin, NOW))).toEqual([RECALL_TEXTS.nobodyAffected, "utgavor"]);
    expect(await reason(createRecall({ ...base, editionIds: [2, 99] }, admin, NOW))).toEqual([RECALL_TEXTS.editionsOfTitle, "utgavor"]);
    expect(await reason(createRecall({ ...base, deadlineTime: "07:44" }, admin, NOW))).toEqual([RECALL_TEXTS.deadlinePassed, "senastDatum"]);
    expect(await reason(createRecall({ ...base, from: "2026-11-28", to: "2026-11-27" }, admin, NOW))).toEqual(["Till-datum får inte vara före från-datum.", "till"]);
    expect(await reason(createRecall({ ...base, from: "2026-10-01" }, admin, NOW))).toEqual(["En återkallelse gäller högst 31 dagar.", "till"]);
    expect(await reason(createRecall({ ...base, distributorIds: [] }, admin, NOW))).toEqual([RECALL_TEXTS.distributorsMissing, "distributorer"]);
    expect(await reason(createRecall({ ...base, reason: "  " }, admin, NOW))).toEqual([RECALL_TEXTS.reasonMissing, "orsak"]);
  });

  it("reaches every shop of a national network in one statement", async () => {
    const many: number[] = [];
    for (let i = 0; i < 300; i++) many.push(await newCustomer({ distributorId: 1 + (i % 2) }));
    for (const c of many) await newDelivery(c, { date: "2026-11-20", titleId: 1, editionId: 1, delivered: 7 });
    const { id, customers } = await createRecall({ ...base, titleId: 1, editionIds: [1], from: "2026-11-20", to: "2026-11-20" }, admin, NOW);
    expect(customers).toBe(300);
    const follow = (await recallFollowUp(id, { distributorIds: null }))!;
    expect(follow.perDistributor.map((d) => [d.name, d.affected])).toEqual([
      ["Utb Norr", 150],
      ["Utb Syd", 150],
    ]);
  });
});

describe("portal recall", () => {
  it("creates a recall as an operator scripts it, and status exits 1 until every shop has acknowledged", async () => {
    const { portal } = await import("../../../tests/unit/cli-run");
    const shop = await newCustomer({ name: "Kiosk CLI", distributorId: 2 });
    await newDelivery(shop, { date: "2026-11-10", titleId: 1, editionId: 21, delivered: 6 });
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const made = await portal(["recall", "create", "--title", "1", "--edition", "21", "--dates", "2026-11-10", "--reason", "Sportbladet drogs in", "--deadline", `${tomorrow} 12:00`, "--distributor", "2"]);
    expect(made.stderr).toBe("");
    expect(made.code).toBe(0);
    const id = Number(/^recall (\d+): 1 kunder$/m.exec(made.stdout)?.[1]);
    expect(id).toBeGreaterThan(0);
    const waiting = await portal(["recall", "status", String(id)]);
    expect(waiting.code).toBe(1);
    expect(waiting.stdout).toContain(`väntar: ${shop} Kiosk CLI`);
    expect(waiting.stderr).toContain(`recall ${id}: 0 av 1 har bekräftat, 0 av 6 ex borttagna; 1 har inte bekräftat.`);
    await acknowledgeRecall(shop, id, 6, { id: `customer:${shop}` });
    const done = await portal(["recall", "status", String(id)]);
    expect(done.code).toBe(0);
    expect(done.stdout).toContain(`recall ${id}: 1 av 1 har bekräftat, 6 av 6 ex borttagna`);
    // Usage errors exit 2 and make nothing; a refused recall exits 1 with its reason.
    expect((await portal(["recall", "create", "--title", "1", "--edition", "21", "--dates", "2026-11-10", "--reason", "x", "--deadline", "i morgon"])).code).toBe(2);
    const nobody = await portal(["recall", "create", "--title", "1", "--edition", "21", "--dates", "2016-01-01", "--reason", "x", "--deadline", `${tomorrow} 12:00`]);
    expect([nobody.code, nobody.stderr.trim()]).toEqual([1, `portal: ${RECALL_TEXTS.nobodyAffected}`]);
    expect((await portal(["recall", "status", "999999"])).code).toBe(1);
  });
});
