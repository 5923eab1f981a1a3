// The delivery note's Mottagit, placards and holiday answers against the
// real database: a value someone else changed since the page was loaded is refused with
// both values, nothing stored; untouched placard titles are not overwritten.
import { beforeAll, describe, expect, it } from "vitest";
import { stockholmMoment } from "~/lib/dates";
import { and, eq } from "drizzle-orm";
import { schema } from "../../../db/client";
import { addDays } from "~/lib/dates";
import { baseData, db, newCustomer, newDelivery } from "../../../tests/unit/helpers";
import { answerHoliday } from "../holidays/answers.server";
import { holidayChangedByOther } from "../holidays/answer-words";
import { savePlacards } from "../placards/placards.server";
import { PLACARD_MESSAGES, amountField } from "../placards/words";
import { RECEIVED_MESSAGES, saveReceived, storedAfterConflict } from "./deliveries.server";

const ON = "2025-03-20";
/** Within the claim window of ON's deliveries (decision 031): the afternoon of the day. */
const AT = stockholmMoment(ON, "15:00");

beforeAll(async () => {
  await baseData();
});

describe("Mottagit from a stale page", () => {
  it("refused when another tab changed it since; the same value or a fresh page saves", async () => {
    const c = await newCustomer();
    const d = await newDelivery(c, { date: ON, delivered: 20 });
    expect(await saveReceived(c, d.id, "18", ON, AT, "")).toMatchObject({ status: "saved" });
    const stale = await saveReceived(c, d.id, "17", ON, AT, "").catch((e: unknown) => e);
    expect(stale).toMatchObject({ code: "conflict", message: RECEIVED_MESSAGES.changedByOther("18", 17), fields: { mottagit: RECEIVED_MESSAGES.changedByOther("18", 17) } });
    expect(storedAfterConflict(stale)).toBe("18");
    expect(RECEIVED_MESSAGES.changedByOther("18", 17)).toBe("Raden har ändrats i en annan flik eller av någon annan: nu sparat 18, du skrev 17. Kontrollera och spara igen.");
    const [row] = await db().select().from(schema.deliveries).where(eq(schema.deliveries.id, d.id));
    expect(row.received).toBe(18);
    expect(await saveReceived(c, d.id, "18", ON, AT, "")).toMatchObject({ status: "saved" });
    expect(await saveReceived(c, d.id, "17", ON, AT, "18")).toMatchObject({ status: "saved" });
    // A form of one row (no shown value) is not checked, as before.
    expect(await saveReceived(c, d.id, "16", ON, AT)).toMatchObject({ status: "saved" });
  });
});

describe("placards from a stale page", () => {
  it("untouched titles are not overwritten; a title both changed is refused, nothing stored", async () => {
    const c = await newCustomer();
    await savePlacards(c, [{ titleId: 1, newAmount: 2 }, { titleId: 2, newAmount: 2 }]);
    // Tab 1 sets title 1 to 7; tab 2 (shown 2, 2) sets title 2 to 4 only.
    expect(await savePlacards(c, [{ titleId: 1, newAmount: 7, shown: "2" }, { titleId: 2, newAmount: 2, shown: "2" }])).toEqual({ saved: 1 });
    expect(await savePlacards(c, [{ titleId: 1, newAmount: 2, shown: "2" }, { titleId: 2, newAmount: 4, shown: "2" }])).toEqual({ saved: 1 });
    const wanted = async () =>
      (await db().select().from(schema.placards).where(eq(schema.placards.customerId, c))).map((p) => [p.titleId, p.newAmount]).sort();
    expect(await wanted()).toEqual([[1, 7], [2, 4]]);
    // Tab 2 (shown 2 for title 1) types 9: refused with 7 and 9, title 2's 5 not stored either.
    const res = savePlacards(c, [{ titleId: 1, newAmount: 9, shown: "2" }, { titleId: 2, newAmount: 5, shown: "4" }]);
    const changed = "Raden har ändrats i en annan flik eller av någon annan: nu sparat 7, du skrev 9. Kontrollera och spara igen.";
    expect(PLACARD_MESSAGES.changedByOther(7, 9)).toBe(changed);
    await expect(res).rejects.toMatchObject({ code: "invalid", message: changed, fields: { [amountField(1)]: changed } });
    expect(await wanted()).toEqual([[1, 7], [2, 4]]);
  });
});

describe("holiday answers from a stale page", () => {
  it("an answer changed by another tab since is refused; the same answer, or a fresh page, saves", async () => {
    const c = await newCustomer();
    const [h] = await db()
      .insert(schema.holidays)
      .values({ description: `Stale ${c}`, day: addDays(ON, 30), startReportDay: addDays(ON, 20), startForceReportDay: addDays(ON, 25) })
      .returning();
    await answerHoliday(c, h.id, true, ON, null);
    await expect(answerHoliday(c, h.id, false, ON, null)).rejects.toMatchObject({ code: "conflict", message: holidayChangedByOther(true, false) });
    expect(holidayChangedByOther(true, false)).toBe("Svaret har ändrats i en annan flik eller av någon annan: nu sparat Öppet, du valde Stängt. Kontrollera och spara igen.");
    const [stored] = await db().select().from(schema.holidayReports).where(and(eq(schema.holidayReports.customerId, c), eq(schema.holidayReports.holidayId, h.id)));
    expect(stored.open).toBe(true);
    await answerHoliday(c, h.id, true, ON, null);
    await expect(answerHoliday(c, h.id, false, ON, true)).resolves.toBeUndefined();
  });
});
