// Leveransändring from request to delivery (decision 037), against a real database: a shop
// asks, staff decide, planning gets each change once, the deliveries import brings the new
// number and the change is in force; a proposal needs the shop's yes and 48 hours; nobody
// reaches another distributor's shop.
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { schema } from "../../../db/client";
import { baseData, db, newCustomer, newDelivery } from "../../../tests/unit/helpers";
import { importFile } from "~/features/imports/imports.server";
import { addDays } from "~/lib/dates";
import { isRefusal } from "~/lib/refusal";
import {
  answerProposal,
  customerSupply,
  decideSupplyChanges,
  exportSupplyChanges,
  openProposals,
  planningCsv,
  proposeSuggestions,
  proposeSupplyChanges,
  sendOneOffChange,
  sendWeekdayChanges,
  supplyExportRows,
  supplyQueue,
  supplySuggestions,
  withdrawChange,
} from "./supply.server";

const CUTOFFS = { weekday: 3, weekdayTime: "15:00", oneOffDays: 2, oneOffTime: "12:00" };
// Tuesday 2026-12-01 09:00 in Stockholm.
const NOW = Date.parse("2026-12-01T08:00:00Z");
const TODAY = "2026-12-01";
const admin = { actor: { id: "staff:1" }, email: "anna@tidningsbud.example" };
const utbSyd = { distributorIds: [2] };
const all = { distributorIds: null };

let sahin: number;
let malmo: number;

/** Eight Saturdays before TODAY, Aftonbladet 10 each, sold out on three, all reported. */
async function saturdaysSoldOut(customerId: number) {
  for (let i = 1; i <= 8; i++) {
    const date = addDays("2026-11-28", -7 * (i - 1));
    const d = await newDelivery(customerId, { date, delivered: 10 });
    await db().update(schema.deliveries).set({ reportedAt: NOW }).where(eq(schema.deliveries.id, d.id));
    if (i > 3) {
      const [b] = await db().insert(schema.bundles).values({ customerId, number: 100 + i, type: 0, open: true }).returning();
      await db().insert(schema.returns).values({ customerId, bundleId: b.id, deliveryId: d.id, amount: 1 });
    }
  }
}

beforeAll(async () => {
  await baseData();
  sahin = await newCustomer({ name: "Şahin Livs", distributorId: 1 });
  malmo = await newCustomer({ name: "Pressbyrån Malmö C", distributorId: 2 });
  await saturdaysSoldOut(sahin);
  // Malmö: Kvällsposten on Fridays, half comes back.
  for (let i = 0; i < 8; i++) {
    const d = await newDelivery(malmo, { date: addDays("2026-11-27", -7 * i), titleId: 2, editionId: 2, delivered: 20 });
    const [b] = await db().insert(schema.bundles).values({ customerId: malmo, number: 200 + i, type: 0, open: true }).returning();
    await db().insert(schema.returns).values({ customerId: malmo, bundleId: b.id, deliveryId: d.id, amount: 10 });
  }
});

const refusal = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (e) {
    if (isRefusal(e)) return { code: e.code, message: e.message, field: Object.keys(e.fields)[0] };
    throw e;
  }
  throw new Error("expected a refusal");
};

describe("Leveransändring", () => {
  it("shows a shop its weekdays and a suggestion in words", async () => {
    const [ab] = await customerSupply(sahin, TODAY);
    expect(ab.paper).toBe("Aftonbladet");
    const saturday = ab.weekdays[5];
    expect(saturday).toMatchObject({ weekday: 6, usual: 10, days: 8, sold: 75, returned: 5, soldOut: 3 });
    expect(saturday.suggestion?.reason).toBe("Slutsålt 3 av de 8 senaste lördagarna: förslag 12 i stället för 10");
    const [kvp] = await customerSupply(malmo, TODAY);
    expect(kvp.paper).toBe("Expressen – Kvällsposten");
  });

  it("takes a weekday request, refuses the usual number, replaces an undecided one and lets it be taken back once", async () => {
    expect(await refusal(sendWeekdayChanges(sahin, { titleId: 1, editionId: 1 }, [{ weekday: 6, copies: 10 }], { id: `customer:${sahin}` }, NOW, CUTOFFS))).toMatchObject({
      code: "invalid",
      field: "dag6",
      message: "Det är samma antal som du brukar få (10 ex).",
    });
    const first = await sendWeekdayChanges(sahin, { titleId: 1, editionId: 1 }, [{ weekday: 6, copies: 14 }], { id: `customer:${sahin}` }, NOW, CUTOFFS);
    expect(first.startDate).toBe("2026-12-07");
    const second = await sendWeekdayChanges(sahin, { titleId: 1, editionId: 1 }, [{ weekday: 6, copies: 12 }], { id: `customer:${sahin}` }, NOW, CUTOFFS);
    const [old] = await db().select().from(schema.supplyChanges).where(eq(schema.supplyChanges.id, first.ids[0]));
    expect(old.status).toBe("withdrawn");
    const [made] = await db().select().from(schema.supplyChanges).where(eq(schema.supplyChanges.id, second.ids[0]));
    expect(made).toMatchObject({ status: "sent", oldCopies: 10, requested: 12, suggestion: "Slutsålt 3 av de 8 senaste lördagarna: förslag 12 i stället för 10" });
    // Another shop cannot take it back; a second Ångra is refused.
    expect((await refusal(withdrawChange(malmo, second.ids[0], { id: "customer:x" }, NOW))).code).toBe("not-found");
    const extra = await sendWeekdayChanges(sahin, { titleId: 1, editionId: 1 }, [{ weekday: 1, copies: 3 }], { id: `customer:${sahin}` }, NOW, CUTOFFS);
    await withdrawChange(sahin, extra.ids[0], { id: `customer:${sahin}` }, NOW);
    expect(await refusal(withdrawChange(sahin, extra.ids[0], { id: `customer:${sahin}` }, NOW))).toMatchObject({ code: "conflict", message: `Ändring ${extra.ids[0]} är redan besvarad.` });
  });

  it("lets staff decide within their scope only, moves a late decision to the next start, and exports each change once", async () => {
    const [sent] = (await supplyQueue({ filter: "sent", distributorId: null, titleId: null, startFrom: null, startTo: null, page: 1 }, all, NOW)).rows.filter((r) => r.customerId === sahin);
    // A utb user of the other distributor does not see it.
    expect((await refusal(decideSupplyChanges([sent.id], { decision: "approve" }, utbSyd, admin, NOW, CUTOFFS))).code).toBe("not-found");
    // Decided on Thursday, after Wednesday 15:00: it starts a week later.
    const thursday = Date.parse("2026-12-03T09:00:00Z");
    await decideSupplyChanges([sent.id], { decision: "approve" }, all, admin, thursday, CUTOFFS);
    const [row] = await db().select().from(schema.supplyChanges).where(eq(schema.supplyChanges.id, sent.id));
    expect(row).toMatchObject({ status: "approved", newCopies: 12, startDate: "2026-12-14", decidedBy: "anna@tidningsbud.example" });
    expect((await refusal(decideSupplyChanges([sent.id], { decision: "reject", reason: "nej" }, all, admin, thursday, CUTOFFS))).code).toBe("conflict");

    const [first, second] = await Promise.all([exportSupplyChanges(all, "anna@tidningsbud.example", admin.actor, thursday), exportSupplyChanges(all, "bo@tidningsbud.example", admin.actor, thursday)]);
    const made = [first, second].filter((x) => x !== null);
    expect(made).toHaveLength(1);
    const file = await supplyExportRows(made[0]!.id, all);
    expect(file!.rows).toEqual([
      { customerId: sahin, customerName: "Şahin Livs", paper: "Aftonbladet", when: "lördag", oldCopies: 10, newCopies: 12, startDate: "2026-12-14", decidedBy: "anna@tidningsbud.example", reason: "Slutsålt 3 av de 8 senaste lördagarna: förslag 12 i stället för 10" },
    ]);
    expect(planningCsv(file!.rows).split("\r\n")[0]).toBe("kundnummer;kund;titel;veckodag_eller_datum;gammalt_antal;nytt_antal;startdatum;beslutat_av;anledning");
    expect(await exportSupplyChanges(all, "anna@tidningsbud.example", admin.actor, thursday)).toBeNull();
    // The other distributor's utb user cannot read the export.
    expect(await supplyExportRows(made[0]!.id, utbSyd)).toBeNull();

    // A week after the start the deliveries still bring 10: Ej genomförd.
    const later = Date.parse("2026-12-22T09:00:00Z");
    const notDone = await supplyQueue({ filter: "ej-genomforda", distributorId: null, titleId: null, startFrom: null, startTo: null, page: 1 }, all, later);
    expect(notDone.rows.map((r) => r.id)).toContain(sent.id);
    // The import brings 12 on the Saturday after the start: in force.
    const r = await importFile("deliveries", `customer_id;title_id;edition_id;delivery_date;delivered;price_ore\n${sahin};1;1;2026-12-12;12;2200\n`, { actor: { id: "test" }, source: "d.csv" });
    expect(r.applied).toBe(true);
    expect((await db().select().from(schema.supplyChanges).where(eq(schema.supplyChanges.id, sent.id)))[0].status).toBe("approved");
    await importFile("deliveries", `customer_id;title_id;edition_id;delivery_date;delivered;price_ore\n${sahin};1;1;2026-12-19;12;2200\n`, { actor: { id: "test" }, source: "d.csv" });
    expect((await db().select().from(schema.supplyChanges).where(eq(schema.supplyChanges.id, sent.id)))[0].status).toBe("in_force");
  });

  it("takes a one-off change until 12:00 two working days before, and not after", async () => {
    const { id } = await sendOneOffChange(sahin, { titleId: 1, editionId: 1 }, "2026-12-04", 25, { id: `customer:${sahin}` }, NOW, CUTOFFS);
    expect(id).toBeGreaterThan(0);
    // Friday the 4th closed Wednesday 12:00.
    const wednesday = Date.parse("2026-12-02T11:01:00Z");
    expect(await refusal(sendOneOffChange(sahin, { titleId: 1, editionId: 1 }, "2026-12-04", 26, { id: `customer:${sahin}` }, wednesday, CUTOFFS))).toMatchObject({
      field: "datum",
      message: "För sent för den dagen: en ändring för en enstaka dag måste skickas senast 2026-12-02 12:00.",
    });
    // Staff past the cut-off can only reject it.
    expect((await refusal(decideSupplyChanges([id], { decision: "approve" }, all, admin, wednesday, CUTOFFS))).message).toBe(
      "Sista tid för beslut var 2026-12-02 12:00: en ändring för en enstaka dag kan nu bara avslås.",
    );
    await decideSupplyChanges([id], { decision: "reject", reason: "För sent för tryckeriet" }, all, admin, wednesday, CUTOFFS);
  });

  it("proposes a cut to a shop that must say yes, and starts it at least 48 hours later", async () => {
    const suggestions = await supplySuggestions({ distributorId: 2 }, all, TODAY);
    const friday = suggestions.find((s) => s.customerId === malmo && s.weekday === 5)!;
    expect(friday.suggestion).toMatchObject({ copies: 16 });
    // The utb user of distributor 1 cannot propose to a Malmö shop.
    expect((await refusal(proposeSupplyChanges([{ customerId: malmo, titleId: 2, editionId: 2, weekday: 5, date: null, copies: 16, reason: "x" }], { distributorIds: [1] }, admin, NOW, CUTOFFS))).field).toBe("kund");
    const [id] = await proposeSupplyChanges([{ customerId: malmo, titleId: 2, editionId: 2, weekday: 5, date: null, copies: 16, reason: friday.suggestion.reason }], utbSyd, admin, NOW, CUTOFFS);
    // The shop reads it by the paper's own name, not a second "Expressen".
    expect((await openProposals(malmo)).map((c) => c.paper)).toEqual(["Expressen – Kvällsposten"]);
    // Not in planning's file before the shop says yes.
    expect(await exportSupplyChanges(utbSyd, "x", admin.actor, NOW)).toBeNull();
    // Accepted on Sunday evening: the Monday after next, well over 48 hours.
    const { startDate } = await answerProposal(malmo, id, true, { id: `customer:${malmo}` }, Date.parse("2026-12-06T20:00:00Z"), CUTOFFS);
    expect(startDate).toBe("2026-12-14");
    expect((await refusal(answerProposal(malmo, id, false, { id: `customer:${malmo}` }, NOW, CUTOFFS))).code).toBe("conflict");
    // A one-off cut proposed for a date 40 hours ahead cannot be accepted.
    const [late] = await proposeSupplyChanges([{ customerId: malmo, titleId: 2, editionId: 2, weekday: null, date: "2026-12-11", copies: 15, reason: "Mässa" }], utbSyd, admin, NOW, CUTOFFS);
    // Wednesday 12:00 is past the cut-off for Friday (Wednesday 12:00) and 36 hours before.
    expect(await refusal(answerProposal(malmo, late, true, { id: `customer:${malmo}` }, Date.parse("2026-12-09T10:59:00Z"), CUTOFFS))).toMatchObject({
      message: "För sent att minska: butiken ska se en minskning minst 48 timmar innan den börjar gälla.",
    });
  });

  it("never lets a request and a proposal for one day both stand, nor reads another distributor's shop", async () => {
    // Kiosk of distributor 1 with Saturdays: a proposal, then the shop's own number declines it.
    const kiosk = await newCustomer({ name: "Kiosk Ådalen", distributorId: 1 });
    await saturdaysSoldOut(kiosk);
    const [proposal] = await proposeSupplyChanges([{ customerId: kiosk, titleId: 1, editionId: 1, weekday: 6, date: null, copies: 11, reason: "Slutsålt" }], all, admin, NOW, CUTOFFS);
    const { ids } = await sendWeekdayChanges(kiosk, { titleId: 1, editionId: 1 }, [{ weekday: 6, copies: 13 }], { id: `customer:${kiosk}` }, NOW, CUTOFFS);
    expect((await db().select().from(schema.supplyChanges).where(eq(schema.supplyChanges.id, proposal)))[0].status).toBe("declined");
    // Staff cannot propose over the shop's own request: they decide it.
    expect(await refusal(proposeSupplyChanges([{ customerId: kiosk, titleId: 1, editionId: 1, weekday: 6, date: null, copies: 11, reason: "x" }], all, admin, NOW, CUTOFFS))).toMatchObject({
      code: "conflict",
      message: `Butiken har redan skickat ändring ${ids[0]} för den dagen: besluta den i stället.`,
    });
    // A utb user of distributor 2 choosing this shop's suggestion learns nothing of it.
    expect(await refusal(proposeSuggestions([{ customerId: kiosk, titleId: 1, editionId: 1, weekday: 6, copies: 12 }], utbSyd, admin, NOW, CUTOFFS))).toMatchObject({ code: "invalid", message: "Kunden finns inte." });
    expect(await refusal(proposeSuggestions([{ customerId: kiosk, titleId: 1, editionId: 1, weekday: 6, copies: 99 }], utbSyd, admin, NOW, CUTOFFS))).toMatchObject({ code: "invalid", message: "Kunden finns inte." });
    // A one-off change of a paper the shop does not get is refused.
    expect(await refusal(sendOneOffChange(kiosk, { titleId: 2, editionId: 2 }, "2026-12-18", 5, { id: `customer:${kiosk}` }, NOW, CUTOFFS))).toMatchObject({ field: "tidning", message: "Välj en tidning." });
  });

  it("lets a one-off proposal lapse at its cut-off, and says the day is past", async () => {
    const [id] = await proposeSupplyChanges([{ customerId: malmo, titleId: 2, editionId: 2, weekday: null, date: "2026-12-04", copies: 25, reason: "Mässa" }], utbSyd, admin, NOW, CUTOFFS);
    expect((await openProposals(malmo, NOW)).map((c) => c.id)).toContain(id);
    const saturday = Date.parse("2026-12-05T09:00:00Z");
    expect((await openProposals(malmo, saturday)).map((c) => c.id)).not.toContain(id);
    expect((await refusal(answerProposal(malmo, id, true, { id: `customer:${malmo}` }, saturday, CUTOFFS))).message).toBe(
      "För sent för den dagen: en ändring för en enstaka dag måste skickas senast 2026-12-02 12:00.",
    );
  });

  it("writes in Logg which changes the deliveries import put in force", async () => {
    const [last] = await db().select().from(schema.auditLog).where(eq(schema.auditLog.action, "supply.in-force"));
    expect(last).toBeTruthy();
    expect(JSON.parse(last.detail!).ids.length).toBeGreaterThan(0);
  });
});
