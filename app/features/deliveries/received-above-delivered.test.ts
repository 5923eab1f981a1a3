// Decision 026: more received than delivered is possible (a bundle meant for another shop)
// but rarely meant, so the delivery note asks once before it stores it. Real libSQL.
import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { schema } from "../../../db/client";
import { baseData, db, newCustomer, newDelivery } from "../../../tests/unit/helpers";
import { RECEIVED_MESSAGES, saveReceived } from "./deliveries.server";

const ON = "2025-03-20";

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
    const asked = await saveReceived(c, d.id, "40", ON, Date.now(), "");
    expect(asked).toEqual({ status: "ask", error: "Du skrev 40, fler än de 36 som levererades. Stämmer det? Tryck Spara igen så sparas 40." });
    expect(await receivedOf(d.id)).toBeNull();
    // A different amount than the one asked about is asked about again.
    expect(await saveReceived(c, d.id, "41", ON, Date.now(), "", "40")).toMatchObject({ status: "ask", error: RECEIVED_MESSAGES.aboveDelivered(41, 36) });
    expect(await saveReceived(c, d.id, "41", ON, Date.now(), "", " 41 ")).toEqual({ status: "saved", equalsDelivered: false });
    expect(await receivedOf(d.id)).toBe(41);
    // Saving what is stored already asks nothing; at or below delivered never asks.
    expect(await saveReceived(c, d.id, "41", ON, Date.now(), "41")).toMatchObject({ status: "saved" });
    expect(await saveReceived(c, d.id, "36", ON, Date.now(), "41")).toEqual({ status: "saved", equalsDelivered: true });
    expect(await saveReceived(c, d.id, "0", ON)).toMatchObject({ status: "saved" });
    expect(await receivedOf(d.id)).toBe(0);
  });
});
