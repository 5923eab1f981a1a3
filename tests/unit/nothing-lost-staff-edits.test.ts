// Two staff members (or two tabs) edit the same shared row.
// Each form's save is conditional on the version its page was opened with; against a real
// database, a stale save is refused (conflict, 409) and stores nothing, a fresh one saves.
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { schema } from "../../db/client";
import { createBundle, createLabelBlock } from "../../cli/seed/factories";
import { today } from "../../app/lib/dates";
import { getMessage, saveMessage, type MessageInput } from "../../app/features/messages/messages.server";
import { getAdminHoliday, saveHoliday, type HolidayInput } from "../../app/features/holidays/holidays.server";
import { getProduct, saveProduct } from "../../app/features/products/products.server";
import { changeBundleNumber } from "../../app/features/bundles/staff-bundles.server";
import { updateBankDetail } from "../../app/features/guarantees/guarantees.server";
import { isRefusal, REFUSAL_STATUS } from "../../app/lib/refusal";
import { baseData, db, newCustomer } from "./helpers";

const actor = { id: "staff:test" };
const day = today();

beforeAll(async () => {
  await baseData();
});

/** What `fn` is refused with (or fails when it is not refused). */
async function refusal(fn: () => Promise<unknown>) {
  try {
    await fn();
  } catch (e) {
    if (isRefusal(e)) return e;
    throw e;
  }
  throw new Error("expected a refusal");
}

describe("messages", () => {
  const base: MessageInput = { type: 1, header: "Första", content: "Hej", startDate: "2026-03-10", stopDate: "2026-03-20", customers: "" };

  it("a stale save is refused with what is stored kept; a fresh one saves and moves the version on", async () => {
    const id = await saveMessage(base, actor);
    const opened = (await getMessage(id))!; // both tabs open the message
    // Tab A saves first, from the version it opened.
    await saveMessage({ ...base, id, version: opened.updatedAt, header: "Från flik A" }, actor);
    const afterA = (await getMessage(id))!;
    expect(afterA.header).toBe("Från flik A");
    expect(afterA.updatedAt).toBeGreaterThan(opened.updatedAt);
    // Tab B saves from the same (now stale) version: refused, A's save stays.
    const r = await refusal(() => saveMessage({ ...base, id, version: opened.updatedAt, header: "Från flik B" }, actor));
    expect(r.code).toBe("conflict");
    expect(REFUSAL_STATUS[r.code]).toBe(409);
    expect(r.message).toMatch(/^Meddelandet har ändrats i en annan flik eller av någon annan sedan du öppnade det\. Det som är sparat nu visas nedan; dina ändringar finns kvar i formuläret\./);
    expect(r.fields.version).toBe(r.message);
    expect((await getMessage(id))!.header).toBe("Från flik A");
    // B has now seen what is stored (the page shows it, with its version): a second press saves.
    await saveMessage({ ...base, id, version: afterA.updatedAt, header: "Från flik B" }, actor);
    expect((await getMessage(id))!.header).toBe("Från flik B");
  });

  it("two saves in the same millisecond still get different versions", async () => {
    const id = await saveMessage(base, actor);
    const v0 = (await getMessage(id))!.updatedAt;
    await saveMessage({ ...base, id, version: v0, header: "1" }, actor);
    const v1 = (await getMessage(id))!.updatedAt;
    await saveMessage({ ...base, id, version: v1, header: "2" }, actor);
    const v2 = (await getMessage(id))!.updatedAt;
    expect(v1).toBeGreaterThan(v0);
    expect(v2).toBeGreaterThan(v1);
  });

  it("a save of a deleted message is still 'finns inte längre', not a conflict", async () => {
    await expect(saveMessage({ ...base, id: 987654, version: 1 }, actor)).rejects.toMatchObject({ code: "invalid", fields: { id: "Meddelandet finns inte längre." } });
  });
});

describe("holidays", () => {
  const base: HolidayInput = { description: "Midsommar", day: "2027-06-25", startReportDay: "2027-06-15", startForceReportDay: "2027-06-20" };

  it("a stale save is refused (409); a fresh one saves", async () => {
    const id = await saveHoliday(base, actor);
    const opened = (await getAdminHoliday(id))!;
    await saveHoliday({ ...base, id, version: opened.updatedAt, description: "Midsommar A" }, actor);
    const r = await refusal(() => saveHoliday({ ...base, id, version: opened.updatedAt, description: "Midsommar B" }, actor));
    expect(r.code).toBe("conflict");
    expect(r.message).toMatch(/^Helgdagen har ändrats i en annan flik eller av någon annan sedan du öppnade den\./);
    const stored = (await getAdminHoliday(id))!;
    expect(stored.description).toBe("Midsommar A");
    await saveHoliday({ ...base, id, version: stored.updatedAt, description: "Midsommar B" }, actor);
    expect((await getAdminHoliday(id))!.description).toBe("Midsommar B");
  });
});

describe("product information", () => {
  it("a stale save is refused (409); a fresh one saves", async () => {
    const input = { titleId: 2, editionId: 21, productCode: "P1", accountCode: "A1", articleId: "" };
    const id = await saveProduct(input, actor);
    const opened = (await getProduct(id))!;
    await saveProduct({ ...input, id, version: opened.updatedAt, productCode: "PA" }, actor);
    const r = await refusal(() => saveProduct({ ...input, id, version: opened.updatedAt, productCode: "PB" }, actor));
    expect(r.code).toBe("conflict");
    expect(r.message).toMatch(/^Produktinformationen har ändrats i en annan flik eller av någon annan sedan du öppnade den\./);
    const stored = (await getProduct(id))!;
    expect(stored.productCode).toBe("PA");
    await saveProduct({ ...input, id, version: stored.updatedAt, productCode: "PB" }, actor);
    expect((await getProduct(id))!.productCode).toBe("PB");
  });
});

describe("bundles: Ändra Buntnummer", () => {
  it("renumbering from a page that showed another number is refused (409) and says the number now; from the shown one it saves", async () => {
    const c = await newCustomer();
    const block = await createLabelBlock(db(), { customerId: c, type: 0, status: "Beställd", fromDate: day, toDate: day, fromNumber: 1, toNumber: 100 });
    const b = await createBundle(db(), { customerId: c, number: 5, type: 0 });
    // Both tabs show bundle 5. Tab A renumbers it to 7.
    await changeBundleNumber(c, b.id, 7, actor, 5);
    // Tab B, still showing 5, renumbers it to 9: refused, 7 stays, no block number used.
    const r = await refusal(() => changeBundleNumber(c, b.id, 9, actor, 5));
    expect(r.code).toBe("conflict");
    expect(r.message).toBe(
      "Bunten har ändrats i en annan flik eller av någon annan sedan du öppnade sidan: den har nu nummer 7. Ditt nummer finns kvar i formuläret; tryck Spara igen för att ge den det.",
    );
    expect(r.fields.newNumber).toBe(r.message);
    const [row] = await db().select().from(schema.bundles).where(eq(schema.bundles.id, b.id));
    expect(row.number).toBe(7);
    const [blk] = await db().select().from(schema.labelBlocks).where(eq(schema.labelBlocks.id, block.id));
    expect(blk.numberUnused).toBe(99);
    // From the page that shows 7: saved.
    await changeBundleNumber(c, b.id, 9, actor, 7);
    const [after] = await db().select().from(schema.bundles).where(eq(schema.bundles.id, b.id));
    expect(after.number).toBe(9);
  });
});

describe("guarantees: bank details", () => {
  it("a save over a value someone else changed is refused (409) with the stored value; from the shown value it saves", async () => {
    const c = await newCustomer();
    await db().update(schema.customers).set({ bankgiro: "" }).where(eq(schema.customers.id, c));
    // Both tabs show an empty bankgiro. Tab A saves one.
    await updateBankDetail(c, "bankgiro", "123-4566", actor, "");
    const r = await refusal(() => updateBankDetail(c, "bankgiro", "765-4320", actor, ""));
    expect(r.code).toBe("conflict");
    expect(r.message).toBe("Uppgiften har ändrats i en annan flik eller av någon annan sedan du öppnade sidan. Sparat nu: 123-4566. Ditt värde finns kvar i formuläret; tryck Spara igen för att spara det.");
    expect(r.fields.value).toBe(r.message);
    const [row] = await db().select().from(schema.customers).where(eq(schema.customers.id, c));
    expect(row.bankgiro).toBe("123-4566");
    await updateBankDetail(c, "bankgiro", "765-4320", actor, "123-4566");
    const [after] = await db().select().from(schema.customers).where(eq(schema.customers.id, c));
    expect(after.bankgiro).toBe("765-4320");
  });
});
