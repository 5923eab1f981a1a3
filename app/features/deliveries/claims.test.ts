// Delivery claims (decision 031) against a real database: a Mottagit below Levererat opens a
// claim with a number for life, open until the claim deadline (Stockholm time, summer time
// or not); staff decide it within their scope; approved copies are credited once, on the
// customer's next invoice, one line per claim.
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { schema } from "../../../db/client";
import { baseData, db, newCustomer, newDelivery } from "../../../tests/unit/helpers";
import { CLI_ACTOR, staffActor } from "../audit/audit.server";
import { runInvoicing } from "../invoices/invoice-run.server";
import { stockholmMoment } from "~/lib/dates";
import { CLAIM_TEXTS, claimStatusText } from "./claim-words";
import { claimDeadline, claimOverdueFrom, claimsOfDeliveries, decideClaims, listMyClaims } from "./claims.server";
import { listDeliveryNote, saveReceived } from "./deliveries.server";

const DAY = "2026-11-26";
const AT = stockholmMoment(DAY, "15:00");
const admin = { distributorIds: null };
const utbNorr = { distributorIds: [1] };
const utbSyd = { distributorIds: [2] };
const actor = staffActor(1);

beforeAll(baseData);

async function claimOf(deliveryId: number) {
  const [row] = await db().select().from(schema.claims).where(eq(schema.claims.deliveryId, deliveryId));
  return row;
}

describe("a claim", () => {
  it("opens with Mottagit below Levererat, follows the copies, is withdrawn and reopened under the same number", async () => {
    const c = await newCustomer({ name: "Şahin Livs" });
    const d = await newDelivery(c, { date: DAY, delivered: 20 });
    expect(await saveReceived(c, d.id, "15", DAY, AT)).toMatchObject({ status: "saved" });
    const first = await claimOf(d.id);
    expect(first).toMatchObject({ copies: 5, status: "open", customerId: c });
    await saveReceived(c, d.id, "17", DAY, AT);
    expect(await claimOf(d.id)).toMatchObject({ id: first.id, copies: 3, status: "open" });
    await saveReceived(c, d.id, "20", DAY, AT);
    expect(await claimOf(d.id)).toMatchObject({ id: first.id, status: "withdrawn" });
    await saveReceived(c, d.id, "12", DAY, AT);
    expect(await claimOf(d.id)).toMatchObject({ id: first.id, copies: 8, status: "open" });
    // The delivery note names it.
    const [day] = await listDeliveryNote(c, DAY, AT);
    expect(day.rows[0]).toMatchObject({ claim: { id: first.id, status: "open", copies: 8 }, locked: false, claimUntil: "2026-11-27 kl. 12:00" });
    expect(CLAIM_TEXTS.label(day.rows[0].claim!, claimStatusText(day.rows[0].claim!))).toBe(`Reklamation ${first.id} – Inkommen`);
  });

  it("can be made until 12:00 the day after delivery, Stockholm time, across the change to summer time", async () => {
    // Summer time starts on 29 March 2026 at 02:00: 12:00 that day is 10:00 UTC.
    expect(claimDeadline("2026-03-28").at).toBe(Date.parse("2026-03-29T10:00:00Z"));
    expect(claimDeadline("2026-11-26").at).toBe(Date.parse("2026-11-27T11:00:00Z"));
    expect(claimDeadline("2026-11-26", { days: 0, time: "18:00" }).text).toBe("2026-11-26 kl. 18:00");
    const c = await newCustomer();
    const d = await newDelivery(c, { date: "2026-03-28", delivered: 10 });
    expect(await saveReceived(c, d.id, "8", "2026-03-29", Date.parse("2026-03-29T09:59:59Z"))).toMatchObject({ status: "saved" });
    const late = saveReceived(c, d.id, "6", "2026-03-29", Date.parse("2026-03-29T10:00:01Z"));
    await expect(late).rejects.toMatchObject({ code: "invalid", message: "Reklamationstiden för leveransen 2026-03-28 gick ut 2026-03-29 kl. 12:00. Mottaget antal kan inte längre ändras." });
    expect(await claimOf(d.id)).toMatchObject({ copies: 2 });
    // Saving what is stored is no change, and is no refusal either.
    expect(await saveReceived(c, d.id, "8", "2026-03-29", Date.parse("2026-03-30T10:00:00Z"))).toMatchObject({ status: "saved" });
    const [day] = await listDeliveryNote(c, "2026-03-29", Date.parse("2026-03-29T10:00:01Z"));
    expect(day.rows[0].locked).toBe(true);
  });

  it("is decided by staff in scope: partly with a reason, rejected with one, approved several at once; then locked", async () => {
    const north = await newCustomer({ name: "Kiosk Kvällsposten", distributorId: 1 });
    const deliveries = await Promise.all([0, 1, 2].map((i) => newDelivery(north, { date: DAY, titleId: 2, editionId: i + 1, delivered: 10, priceOre: 2163 })));
    for (const d of deliveries) await saveReceived(north, d.id, "4", DAY, AT);
    const [a, b, c] = await Promise.all(deliveries.map((d) => claimOf(d.id)));
    // A utb user of another distributor finds nothing.
    await expect(decideClaims([a.id], { decision: "approve" }, utbSyd, actor)).rejects.toMatchObject({ code: "not-found", message: CLAIM_TEXTS.notFound(a.id) });
    // Reasons are required, partial approval is 1..copies−1 and one at a time.
    await expect(decideClaims([a.id], { decision: "reject", reason: "  " }, admin, actor)).rejects.toMatchObject({ message: "Ange en motivering." });
    await expect(decideClaims([a.id], { decision: "partly", copies: 6, reason: "Räknat" }, admin, actor)).rejects.toMatchObject({ message: "Ange hur många ex som godkänns: 1–5 av 6." });
    await expect(decideClaims([a.id, b.id], { decision: "partly", copies: 3, reason: "Räknat" }, admin, actor)).rejects.toMatchObject({ message: "Godkänn delvis en reklamation i taget." });
    expect(await decideClaims([a.id], { decision: "partly", copies: 3, reason: "Tre buntar fanns i bilen" }, utbNorr, actor)).toEqual([a.id]);
    expect(await decideClaims([b.id], { decision: "reject", reason: "Levererat enligt chaufförens kvitto" }, admin, actor)).toEqual([b.id]);
    await expect(decideClaims([b.id, c.id], { decision: "approve" }, admin, actor)).rejects.toMatchObject({ code: "conflict", message: CLAIM_TEXTS.alreadyDecided(b.id) });
    expect(await decideClaims([c.id], { decision: "approve" }, admin, actor)).toEqual([c.id]);
    const states = await claimsOfDeliveries(north, deliveries.map((d) => d.id));
    expect(deliveries.map((d) => claimStatusText(states.get(d.id)!))).toEqual(["Delvis godkänd (3 ex)", "Avslagen (Levererat enligt chaufförens kvitto)", "Godkänd"]);
    // Decided: Mottagit is locked for the retailer.
    const locked = saveReceived(north, deliveries[0].id, "5", DAY, AT);
    await expect(locked).rejects.toMatchObject({ code: "invalid", message: CLAIM_TEXTS.locked(a.id), fields: { mottagit: CLAIM_TEXTS.locked(a.id) } });
    // Every decision is in Logg.
    const logged = await db().select().from(schema.auditLog).where(eq(schema.auditLog.action, "claim.decide"));
    expect(logged.map((l) => l.target)).toEqual(expect.arrayContaining([`claim:${a.id}`, `claim:${b.id}`, `claim:${c.id}`]));
  });

  it("is credited once, on the customer's next invoice, one line per approved claim naming its number", async () => {
    const shop = await newCustomer({ name: "Pressbyrån Östra" });
    const d1 = await newDelivery(shop, { date: "2026-10-05", delivered: 20, priceOre: 2219 });
    const d2 = await newDelivery(shop, { date: "2026-10-06", delivered: 20, priceOre: 2219 });
    const d3 = await newDelivery(shop, { date: "2026-10-07", delivered: 20, priceOre: 2219 });
    for (const d of [d1, d2, d3]) await saveReceived(shop, d.id, "15", d.deliveryDate, stockholmMoment(d.deliveryDate, "09:00"));
    const [k1, k2, k3] = await Promise.all([d1, d2, d3].map((d) => claimOf(d.id)));
    await decideClaims([k1.id], { decision: "approve" }, admin, actor);
    await decideClaims([k2.id], { decision: "reject", reason: "Ej styrkt" }, admin, actor);
    // k3 undecided at the run.
    const run = await runInvoicing({ from: "2026-10-01", to: "2026-10-31", actor: CLI_ACTOR, date: "2026-11-01" });
    const [invoice] = await db().select().from(schema.invoices).where(eq(schema.invoices.number, run.firstNumber!));
    const lines = await db().select().from(schema.invoiceLines).where(eq(schema.invoiceLines.invoiceId, invoice.id));
    expect(lines.map((l) => [l.description, l.quantity, l.netOre])).toEqual([
      ["Aftonbladet, sålda exemplar 2026-10-01–2026-10-31", 60, 60 * 2219],
      [`Reklamation ${k1.id}, Aftonbladet 2026-10-05: 5 ex`, -5, -5 * 2219],
    ]);
    expect(claimStatusText((await claimsOfDeliveries(shop, [d1.id])).get(d1.id)!)).toBe(`Krediterad på faktura ${invoice.number}`);
    // Approved after the run: credited on the next one, and never twice.
    await decideClaims([k3.id], { decision: "partly", copies: 2, reason: "Två ex hittades" }, admin, actor);
    await runInvoicing({ from: "2026-10-01", to: "2026-10-31", actor: CLI_ACTOR, date: "2026-11-02" });
    expect((await claimOf(d3.id)).invoiceId).toBeNull();
    await newDelivery(shop, { date: "2026-11-02", delivered: 10, priceOre: 2219 });
    await runInvoicing({ from: "2026-11-01", to: "2026-11-30", actor: CLI_ACTOR, date: "2026-12-01" });
    const [nov] = await db().select().from(schema.invoices).where(and(eq(schema.invoices.customerId, shop), eq(schema.invoices.periodFrom, "2026-11-01")));
    const novLines = await db().select().from(schema.invoiceLines).where(eq(schema.invoiceLines.invoiceId, nov.id));
    expect(novLines.map((l) => l.description)).toContain(`Reklamation ${k3.id}, Aftonbladet 2026-10-07: 2 ex`);
    expect((await claimOf(d3.id)).invoiceId).toBe(nov.id);
    // The retailer's list: every claim with its status.
    const mine = await listMyClaims(shop);
    expect(mine.map((m) => [m.id, claimStatusText(m)])).toEqual([
      [k3.id, `Krediterad på faktura ${nov.number}`],
      [k2.id, "Avslagen (Ej styrkt)"],
      [k1.id, `Krediterad på faktura ${invoice.number}`],
    ]);
    expect(await listMyClaims(await newCustomer())).toEqual([]);
  });

  it("is marked undecided two working days after it came in", () => {
    // In on Thursday 26 November: overdue from Monday 30 November.
    expect(claimOverdueFrom(stockholmMoment("2026-11-26", "15:00"))).toBe("2026-11-30");
  });
});
