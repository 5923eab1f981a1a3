// The last return day per paper type and edition, the late-returns rule per
// distributor, the reminders, and the distribution monitor's figures — on a real database.
import { saveReturnsResult } from "../../../tests/unit/helpers";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { schema } from "../../../db/client";
import { createDistributor, createLabelBlock } from "../../../cli/seed/factories";
import { baseData, db, newCustomer, newDelivery } from "../../../tests/unit/helpers";
import { alertFacts, listAlerts, lockRedirect } from "../alerts/alerts.server";
import { CLI_ACTOR } from "../audit/audit.server";
import { getDeadlineFigures } from "../distribution/distribution.server";
import { editionQuestion, policyQuestion } from "./deadline-questions";
import {
  distributorPolicyReach,
  dueCounts,
  editionDescription,
  getReturnRules,
  papersDue,
  previewEditionReturnDays,
  previewReturnWindows,
  saveDistributorPolicy,
  saveEditionReturnDays,
  saveReturnWindows,
} from "./deadlines.server";
import { listHistory } from "./history.server";
import { RETURN_MESSAGES, listPapers, type ReturnLine } from "./returns.server";
import { dueText } from "./texts";

const ON = "2025-06-16";
let n = 0;
const token = () => `dl-${++n}-${Math.random()}`;
const line = (deliveryId: number, bundle: string, amount: string, extra: Partial<ReturnLine> = {}): ReturnLine => ({
  key: `k${++n}`,
  deliveryId,
  bundle,
  amount,
  ...extra,
});

// Distributors of this file: 61 refuses late returns (the default), 62 accepts them and locks the day before.
beforeAll(async () => {
  await baseData();
  await createDistributor(db(), 61, "Tidningsbud Şahin");
  await createDistributor(db(), 62, "Distribution Łódź");
  await saveDistributorPolicy(62, { lateReturns: "accept", deadlineLock: true }, CLI_ACTOR);
});

async function retailer(distributorId: number, name = "Şahin Livs") {
  const id = await newCustomer({ distributorId, name });
  await createLabelBlock(db(), { customerId: id, type: 0, status: "Levererad", fromDate: "2025-01-01", toDate: "2025-12-31", fromNumber: 101, toNumber: 150 });
  return id;
}

describe("the last return day", () => {
  it("is the delivery date + 7 days for main newspapers and + 14 for inserts, unless the edition has its own window", async () => {
    const c = await retailer(61);
    const main = await newDelivery(c, { date: "2025-06-10" });
    const insert = await newDelivery(c, { date: "2025-06-08", editionId: 20 });
    const kvp = await newDelivery(c, { date: "2025-06-12", titleId: 2, editionId: 2 });
    const byId = async () => new Map((await listPapers(c, 1, ON)).map((p) => [p.deliveryId, p]));
    let papers = await byId();
    expect(papers.get(main.id)).toMatchObject({ deadline: "2025-06-17", late: false });
    expect(papers.get(insert.id)).toMatchObject({ deadline: "2025-06-22", late: false });
    expect(papers.get(kvp.id)).toMatchObject({ deadline: "2025-06-19" });

    // Kvällsposten gets 2 days: its last return day moves, the others stay.
    expect(await saveEditionReturnDays(2, 2, 2, CLI_ACTOR)).toBe(true);
    papers = await byId();
    expect(papers.get(kvp.id)).toMatchObject({ deadline: "2025-06-14", late: true });
    expect(papers.get(main.id)?.deadline).toBe("2025-06-17");
    const kvällsposten = (await getReturnRules()).editions.find((e) => e.titleId === 2 && e.editionId === 2);
    expect(kvällsposten?.returnDays).toBe(2);
    // The question names it as the list does, read on its own.
    expect(await editionDescription(2, 2)).toBe(kvällsposten?.description);
    expect(await editionDescription(2, 999)).toBeNull();
    // Back to the paper type's window; an edition that does not exist is not saved.
    expect(await saveEditionReturnDays(2, 2, null, CLI_ACTOR)).toBe(true);
    expect((await byId()).get(kvp.id)?.deadline).toBe("2025-06-19");
    expect(await saveEditionReturnDays(2, 999, 3, CLI_ACTOR)).toBe(false);
  });

  it("follows a changed window per paper type, and the change is audited", async () => {
    const c = await retailer(61);
    const main = await newDelivery(c, { date: "2025-06-10" });
    try {
      await saveReturnWindows({ main: 3, inserts: 10 }, CLI_ACTOR);
      expect((await listPapers(c, 1, ON)).find((p) => p.deliveryId === main.id)).toMatchObject({ deadline: "2025-06-13", late: true });
      expect((await getReturnRules()).windows).toEqual({ 0: 3, 1: 10 });
      const logged = await db().select().from(schema.auditLog).where(eq(schema.auditLog.action, "return-windows.save"));
      expect(logged.at(-1)?.detail).toContain('"main":3');
    } finally {
      await saveReturnWindows({ main: 7, inserts: 14 }, CLI_ACTOR);
    }
  });
});

describe("new windows per paper type, before they are saved", () => {
  it("count the papers whose last return day moves, those it passes today and those it opens again; own windows stay out", async () => {
    const T = "2029-01-20";
    const c = await retailer(61, "Kiosk Łódź");
    await newDelivery(c, { date: "2029-01-15" }); // 7 days: the 22nd
    await newDelivery(c, { date: "2029-01-19" }); // the 26th
    await newDelivery(c, { date: "2029-01-11" }); // passed on the 18th
    await newDelivery(c, { date: "2029-01-16", editionId: 20 }); // an insert: 14 days, the 30th
    await saveEditionReturnDays(2, 2, 2, CLI_ACTOR);
    try {
      await newDelivery(c, { date: "2029-01-19", titleId: 2, editionId: 2 }); // Kvällsposten's own 2 days
      await saveReturnWindows({ main: 7, inserts: 14 }, CLI_ACTOR);
      // 3 days: the 15th's passes (the 18th), the 19th's moves to the 22nd.
      expect(await previewReturnWindows({ main: 3, inserts: 14 }, T)).toEqual({ changed: 2, nowPassed: 1, reopened: 0 });
      // 10 days: the 11th's opens again (the 21st); the others move later.
      expect(await previewReturnWindows({ main: 10, inserts: 14 }, T)).toEqual({ changed: 3, nowPassed: 0, reopened: 1 });
      expect(await previewReturnWindows({ main: 7, inserts: 14 }, T)).toEqual({ changed: 0, nowPassed: 0, reopened: 0 });
      // Inserts 3 days: the 16th's insert passed on the 19th.
      expect(await previewReturnWindows({ main: 7, inserts: 3 }, T)).toEqual({ changed: 1, nowPassed: 1, reopened: 0 });
    } finally {
      await saveEditionReturnDays(2, 2, null, CLI_ACTOR);
    }
  });
});

describe("an edition's window and a distributor's rule, before they are saved", () => {
  it("an edition's own window counts only that edition's papers; back to its type's window counts the way back", async () => {
    const T = "2029-02-20";
    const c = await retailer(61, "Kiosk Łódź");
    await newDelivery(c, { date: "2029-02-16", titleId: 2, editionId: 2 }); // Kvällsposten, 7 days: the 23rd
    await newDelivery(c, { date: "2029-02-19", titleId: 2, editionId: 2 }); // the 26th
    await newDelivery(c, { date: "2029-02-16" }); // Aftonbladet: not this edition
    // 2 days: the 16th's passes (the 18th), the 19th's moves to the 21st.
    const effect = await previewEditionReturnDays(2, 2, 2, T);
    expect(effect).toEqual({ changed: 2, nowPassed: 1, reopened: 0 });
    expect(editionQuestion(effect, "Kvällsposten", 2)).toEqual({
      title: "Spara utgåvans returfönster?",
      text: "Kvällsposten, 2 dagar: 2 tidningar får en ny sista returdag; 1 blir passerade i dag.",
    });
    expect(await previewEditionReturnDays(2, 2, 7, T)).toEqual({ changed: 0, nowPassed: 0, reopened: 0 });
    expect(editionQuestion(await previewEditionReturnDays(2, 2, 7, T), "Kvällsposten", 7)).toBeNull();
    await saveEditionReturnDays(2, 2, 2, CLI_ACTOR);
    try {
      // Back to the type's 7 days: the 16th's opens again.
      expect(await previewEditionReturnDays(2, 2, null, T)).toEqual({ changed: 2, nowPassed: 0, reopened: 1 });
    } finally {
      await saveEditionReturnDays(2, 2, null, CLI_ACTOR);
    }
  });

  it("a distributor's rule counts its active customers, their passed papers and those due today or tomorrow; the same rule asks nothing", async () => {
    const T = "2029-03-20";
    await createDistributor(db(), 68, "Tidningsbud Ängelholm");
    const a = await retailer(68, "Şahin Livs");
    const b = await retailer(68, "Nguyễn Tobak");
    const gone = await retailer(68, "Stängd kiosk");
    await db().update(schema.customers).set({ deactivatedAt: Date.now() }).where(eq(schema.customers.id, gone));
    await newDelivery(a, { date: "2029-03-10" }); // passed on the 17th
    await newDelivery(a, { date: "2029-03-13" }); // the 20th: due today
    await newDelivery(b, { date: "2029-03-14" }); // the 21st: due tomorrow
    await newDelivery(b, { date: "2029-03-01" }); // passed, older than the form's 14 days: not counted
    await newDelivery(gone, { date: "2029-03-10" }); // a deactivated customer's: not counted
    const reach = await distributorPolicyReach(68, T);
    expect(reach).toEqual({ name: "Tidningsbud Ängelholm", lateReturns: "reject", deadlineLock: false, customers: 2, passed: 1, dueCustomers: 2 });
    expect(policyQuestion(reach!, { lateReturns: "reject", deadlineLock: false })).toBeNull();
    expect(policyQuestion(reach!, { lateReturns: "accept", deadlineLock: true })).toEqual({
      title: "Spara distributörens regler?",
      text:
        "Tidningsbud Ängelholm, 2 kunder. Sena returer tas emot och märks som sena: 1 tidning som passerat sista returdag utan retur kan returneras igen. " +
        "Portalen låses dagen före sista returdag: 2 kunder har tidningar med sista returdag i dag eller i morgon och låses nu tills de har rapporterat.",
    });
    expect(await distributorPolicyReach(99_999, T)).toBeNull();
  });
});

describe("after the last return day", () => {
  it("'reject' refuses a new return with the day named and stores nothing; on the day itself it is taken", async () => {
    const c = await retailer(61);
    const late = await newDelivery(c, { date: "2025-06-08" }); // last day 06-15
    const onTime = await newDelivery(c, { date: "2025-06-09" }); // last day 06-16 = ON
    const res = await saveReturnsResult(c, 1, token(), [line(late.id, "101", "4"), line(onTime.id, "101", "3")], ON);
    expect(res.ok).toBe(false);
    if (!res.ok) expect(Object.values(res.errors)).toEqual([RETURN_MESSAGES.pastDeadline("2025-06-15")]);
    expect(await db().select().from(schema.returns).where(eq(schema.returns.customerId, c))).toEqual([]);
    // Sold out is refused too (the paper is locked), and the paper on its last day is saved alone.
    const soldOut = await saveReturnsResult(c, 1, token(), [line(late.id, "", "0")], ON);
    expect(soldOut.ok).toBe(false);
    expect(await saveReturnsResult(c, 1, token(), [line(onTime.id, "101", "3")], ON)).toMatchObject({ ok: true, saved: 1 });
    const [stored] = await db().select().from(schema.returns).where(eq(schema.returns.deliveryId, onTime.id));
    expect(stored).toMatchObject({ amount: 3, late: false });
  });

  it("'reject' keeps a stored return as it is: resending it unchanged is no error, changing it is refused", async () => {
    const c = await retailer(61);
    const p = await newDelivery(c, { date: "2025-06-05" }); // last day 06-12
    const other = await newDelivery(c, { date: "2025-06-15" });
    expect(await saveReturnsResult(c, 1, token(), [line(p.id, "101", "5")], "2025-06-11")).toMatchObject({ ok: true });
    expect(await saveReturnsResult(c, 1, token(), [line(other.id, "101", "2")], ON)).toMatchObject({ ok: true });
    const [row] = await db().select().from(schema.returns).where(eq(schema.returns.deliveryId, p.id));
    const unchanged = await saveReturnsResult(c, 2, token(), [line(p.id, "101", "5", { returnId: row.id, shownAmount: "5" }), line(other.id, "101", "1")], ON);
    expect(unchanged).toMatchObject({ ok: true });
    const changed = await saveReturnsResult(c, 2, token(), [line(p.id, "101", "7", { returnId: row.id, shownAmount: "5" })], ON);
    expect(changed.ok).toBe(false);
    if (!changed.ok) expect(Object.values(changed.errors)).toEqual([RETURN_MESSAGES.pastDeadline("2025-06-12")]);
    expect((await db().select().from(schema.returns).where(eq(schema.returns.id, row.id)))[0].amount).toBe(5);
  });

  it("'accept' stores a late return marked late, and a later change of an in-time return marks it late too; the history shows both", async () => {
    const c = await retailer(62, "Kiosk Łódź");
    const late = await newDelivery(c, { date: "2025-06-08" });
    const inTime = await newDelivery(c, { date: "2025-06-14" });
    expect(await saveReturnsResult(c, 1, token(), [line(late.id, "101", "4"), line(inTime.id, "101", "2")], ON)).toMatchObject({ ok: true, saved: 2 });
    const rows = await db().select().from(schema.returns).where(eq(schema.returns.customerId, c));
    expect(Object.fromEntries(rows.map((r) => [r.deliveryId, r.late]))).toEqual({ [late.id]: true, [inTime.id]: false });
    const inTimeRow = rows.find((r) => r.deliveryId === inTime.id)!;
    expect(await saveReturnsResult(c, 2, token(), [line(inTime.id, "101", "3", { returnId: inTimeRow.id, shownAmount: "2" })], "2025-06-25")).toMatchObject({ ok: true });
    expect((await db().select().from(schema.returns).where(eq(schema.returns.id, inTimeRow.id)))[0]).toMatchObject({ amount: 3, late: true });
    const history = await listHistory(c, "2025-06-01", "2025-06-25");
    expect(history.map((h) => [h.date, h.deadline, h.late])).toEqual([
      ["2025-06-14", "2025-06-21", true],
      ["2025-06-08", "2025-06-15", true],
    ]);
  });
});

describe("reminders", () => {
  it("counts the unreported papers whose last return day is today and tomorrow, the retailer's own only", async () => {
    const c = await retailer(61);
    const other = await retailer(61, "Nguyễn Tobak");
    await newDelivery(c, { date: "2025-06-09" }); // today
    await newDelivery(c, { date: "2025-06-10" }); // tomorrow
    await newDelivery(c, { date: "2025-06-10", titleId: 2, editionId: 1 }); // tomorrow
    await newDelivery(c, { date: "2025-06-03", editionId: 20 }); // insert, 06-17: tomorrow
    await newDelivery(c, { date: "2025-06-11" }); // later
    await newDelivery(c, { date: "2025-06-08" }); // passed
    const reported = await newDelivery(c, { date: "2025-06-10", titleId: 2, editionId: 2 });
    expect(await saveReturnsResult(c, 1, token(), [line(reported.id, "101", "1")], ON)).toMatchObject({ ok: true });
    await newDelivery(other, { date: "2025-06-09" });
    expect(await dueCounts(c, ON)).toEqual({ today: 1, tomorrow: 3 });
    const due = (await papersDue([c, other], ON, 1)).get(c)!;
    expect(due.map((p) => p.deadline)).toEqual(["2025-06-16", "2025-06-17", "2025-06-17", "2025-06-17"]);
    expect(dueText(3, "i morgon")).toBe("3 tidningar har sista returdag i morgon");
    expect(dueText(1, "i dag")).toBe("1 tidning har sista returdag i dag");
  });

  it("RETURDAG is an alert while papers are due, imperative where the distributor locks the day before, and lets the returns form through", async () => {
    const relaxed = await retailer(61);
    const locked = await retailer(62);
    await newDelivery(relaxed, { date: "2025-06-10" });
    const p = await newDelivery(locked, { date: "2025-06-10" });
    expect(await alertFacts(relaxed, ON)).toMatchObject({ returnsDue: 1, returnsDueLock: false });
    const relaxedAlerts = await listAlerts(relaxed, ON);
    expect(relaxedAlerts.find((a) => a.type === "RETURDAG")).toMatchObject({ imperative: false, to: "/rapportering/1" });
    const lockedAlerts = await listAlerts(locked, ON);
    expect(lockedAlerts.find((a) => a.type === "RETURDAG")).toMatchObject({ imperative: true });
    expect(lockRedirect(lockedAlerts.filter((a) => a.type === "RETURDAG"), "/historik")).toBe("/rapportering/1");
    expect(lockRedirect(lockedAlerts.filter((a) => a.type === "RETURDAG"), "/rapportering/1/bekrafta")).toBeNull();
    // Two days before, nothing yet; once reported, nothing.
    expect((await alertFacts(locked, "2025-06-15")).returnsDue).toBe(0);
    expect(await saveReturnsResult(locked, 1, token(), [line(p.id, "", "0")], ON)).toMatchObject({ ok: true });
    expect((await listAlerts(locked, ON)).some((a) => a.type === "RETURDAG")).toBe(false);
  });
});

describe("the distribution monitor", () => {
  it("counts per distributor the papers unreported after their last return day and the late returns, within the staff user's scope", async () => {
    await createDistributor(db(), 63, "Utb Väst");
    await saveDistributorPolicy(63, { lateReturns: "accept", deadlineLock: false }, CLI_ACTOR);
    const a = await retailer(63);
    const b = await retailer(63, "Kiosk Łódź");
    await newDelivery(a, { date: "2025-06-01" }); // missing
    await newDelivery(b, { date: "2025-06-02" }); // missing
    await newDelivery(b, { date: "2025-06-14" }); // not yet due
    const late = await newDelivery(a, { date: "2025-06-03" });
    expect(await saveReturnsResult(a, 1, token(), [line(late.id, "101", "6")], ON)).toMatchObject({ ok: true });
    const query = { from: "2025-06-01", to: ON, excludeDates: [], distributorIds: [63], editions: [] };
    expect(await getDeadlineFigures(query, { distributorIds: null }, ON)).toEqual([{ id: 63, name: "Utb Väst", missing: 2, lateRows: 1, lateCopies: 6 }]);
    // A utb user of another distributor sees nothing of 63.
    expect(await getDeadlineFigures({ ...query, distributorIds: [] }, { distributorIds: [61] }, ON)).toEqual([
      expect.objectContaining({ id: 61 }),
    ]);
  });

  it("a distributor's rule is saved and audited; an unknown distributor is not", async () => {
    expect(await saveDistributorPolicy(99_999, { lateReturns: "accept", deadlineLock: false }, CLI_ACTOR)).toBe(false);
    const [d] = await db().select().from(schema.distributors).where(and(eq(schema.distributors.id, 62)));
    expect([d.lateReturns, d.deadlineLock]).toEqual(["accept", true]);
  });
});
