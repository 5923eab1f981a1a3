// Decision 026: unlikely but possible values ask once before they are stored. More received
// than delivered (a bundle meant for another shop) on the delivery note; ten times the
// placards delivered now. Real libSQL.
import { beforeAll, describe, expect, it } from "vitest";
import { stockholmMoment } from "~/lib/dates";
import { eq } from "drizzle-orm";
import { schema } from "../../../db/client";
import { baseData, db, newCustomer, newDelivery } from "../../../tests/unit/helpers";
import { savePlacards } from "../placards/placards.server";
import { PLACARD_MESSAGES, amountField } from "../placards/words";
import { RECEIVED_MESSAGES, saveReceived } from "./deliveries.server";

const ON = "2025-03-20";
/** Within the claim window of ON's deliveries (decision 031): the afternoon of the day. */
const AT = stockholmMoment(ON, "15:00");

beforeAll(async () => {
  await baseData();
});

async function receivedOf(id: number) {
  const [row] = await db().select().from(schema.deliveries).where(eq(schema.deliveries.id, id));
  return row.received;
}

describe("Mottagit above delivered", () => {
  it("asks once: nothing stored until the same amount comes back confirmed", async () => {
    const c = await newCustomer();
    const d = await newDelivery(c, { date: ON, delivered: 36 });
    const asked = await saveReceived(c, d.id, "40", ON, AT, "");
    expect(asked).toEqual({ status: "ask", question: "Du skrev 40, fler än de 36 som levererades. Stämmer det? Tryck Spara igen så sparas 40." });
    expect(await receivedOf(d.id)).toBeNull();
    // A different amount than the one asked about is asked about again.
    expect(await saveReceived(c, d.id, "41", ON, AT, "", "40")).toMatchObject({ status: "ask", question: RECEIVED_MESSAGES.aboveDelivered(41, 36) });
    expect(await saveReceived(c, d.id, "41", ON, AT, "", " 41 ")).toEqual({ status: "saved", equalsDelivered: false });
    expect(await receivedOf(d.id)).toBe(41);
    // Saving what is stored already asks nothing; at or below delivered never asks.
    expect(await saveReceived(c, d.id, "41", ON, AT, "41")).toMatchObject({ status: "saved" });
    expect(await saveReceived(c, d.id, "36", ON, AT, "41")).toEqual({ status: "saved", equalsDelivered: true });
    expect(await saveReceived(c, d.id, "0", ON, AT)).toMatchObject({ status: "saved" });
    expect(await receivedOf(d.id)).toBe(0);
  });
});

describe("placards ten times the current amount", () => {
  it("are asked about once, nothing stored; the same amount confirmed is saved", async () => {
    const c = await newCustomer();
    await db().insert(schema.placards).values({ customerId: c, titleId: 1, amount: 3, newAmount: 3, createdAt: 0, updatedAt: 0 });
    const wanted = async () =>
      (await db().select().from(schema.placards).where(eq(schema.placards.customerId, c))).map((p) => [p.titleId, p.newAmount]).sort();
    // 29 is under ten times 3; 30 is not. Title 2 has none now: 10 is asked about, 9 is not.
    expect(await savePlacards(c, [{ titleId: 1, newAmount: 29, shown: "3" }, { titleId: 2, newAmount: 9, shown: "-" }])).toEqual({ saved: 2 });
    const asked = savePlacards(c, [{ titleId: 1, newAmount: 300, shown: "29" }, { titleId: 2, newAmount: 10, shown: "9" }]);
    await expect(asked).rejects.toMatchObject({ code: "invalid", fields: { [amountField(1)]: PLACARD_MESSAGES.unlikely(300, 3), [amountField(2)]: PLACARD_MESSAGES.unlikely(10, 0) } });
    expect(PLACARD_MESSAGES.unlikely(300, 3)).toBe("Du skrev 300: minst tio gånger så många som de 3 du får nu. Stämmer det? Tryck Spara igen så sparas 300.");
    expect(PLACARD_MESSAGES.unlikely(10, 0)).toBe("Du skrev 10: du får inga löpsedlar nu. Stämmer det? Tryck Spara igen så sparas 10.");
    expect(await wanted()).toEqual([[1, 29], [2, 9]]);
    // Confirming one of them is not enough: the save is all or nothing.
    await expect(savePlacards(c, [{ titleId: 1, newAmount: 300, shown: "29", confirmed: "300" }, { titleId: 2, newAmount: 10, shown: "9" }])).rejects.toMatchObject({ fields: { [amountField(2)]: PLACARD_MESSAGES.unlikely(10, 0) } });
    expect(await savePlacards(c, [{ titleId: 1, newAmount: 300, shown: "29", confirmed: "300" }, { titleId: 2, newAmount: 10, shown: "9", confirmed: "10" }])).toEqual({ saved: 2 });
    expect(await wanted()).toEqual([[1, 300], [2, 10]]);
  });
});
