// Dagens produkter's rules against a real libSQL database: a product created and priced
// in the browser, and a cover with a description stored together or not at all.
import { beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { schema } from "../../../db/client";
import { baseData, db } from "../../../tests/unit/helpers";
import { staffActor } from "../audit/audit.server";
import { NO_PRODUCT_FOR_DESCRIPTION, saveDailyProduct, uploadCover } from "./daily-products.server";
import { DailyProductCreateSchema, EAN_RULE, LAST_DAY_RULE, PRICE_RULE } from "./schemas";

const actor = staffActor(1);
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");
const kvp = { titleId: 2, editionId: 2 };
const rows = (date: string) => db().select().from(schema.dailyProducts).where(and(eq(schema.dailyProducts.titleId, 2), eq(schema.dailyProducts.editionId, 2), eq(schema.dailyProducts.startDate, date)));

beforeAll(baseData);

describe("a daily product made in the browser", () => {
  it("is created, then priced again in place; a cover waiting for it is published", async () => {
    const date = "2031-05-05";
    const pending = await uploadCover({ ...kvp, date, filename: "kvp.png", bytes: PNG }, actor);
    expect(pending.published).toBe(false);
    const first = await saveDailyProduct({ ...kvp, date, endDate: date, heading: "", description: "Kvällsposten", priceOre: 2950, eanCode: "" }, actor);
    expect(first.created).toBe(true);
    const [created] = await rows(date);
    expect([created.priceOre, created.coverImageId]).toEqual([2950, pending.imageId]);
    const again = await saveDailyProduct({ ...kvp, date, endDate: "2031-05-06", heading: "Skåne", description: "Kvällsposten", priceOre: 3200, eanCode: "7388002000029" }, actor);
    expect(again).toEqual({ id: first.id, created: false });
    expect((await rows(date)).map((p) => [p.priceOre, p.endDate, p.coverImageId])).toEqual([[3200, "2031-05-06", pending.imageId]]);
  });
  it("refuses a last day before the first, no price, a bad EAN and an edition of another title, storing nothing", async () => {
    const date = "2031-05-07";
    await expect(saveDailyProduct({ ...kvp, date, endDate: "2031-05-06", heading: "", description: "Kvällsposten", priceOre: 0, eanCode: "12" }, actor)).rejects.toMatchObject({
      code: "invalid",
      fields: { endDate: LAST_DAY_RULE, price: PRICE_RULE, eanCode: EAN_RULE },
    });
    await expect(saveDailyProduct({ titleId: 1, editionId: 2, date, endDate: date, heading: "", description: "x", priceOre: 100, eanCode: "" }, actor)).rejects.toMatchObject({ code: "invalid" });
    expect(await rows(date)).toHaveLength(0);
    // The form's schema says the same, and reads kronor as people type them.
    const parsed = DailyProductCreateSchema.safeParse({ titleId: "2", edition: "2:2", date, endDate: date, description: "Kvällsposten", price: "29,50", eanCode: "" });
    expect(parsed.success && parsed.data.price).toBe(2950);
  });
  it("stores a cover with its description together, and refuses both when there is no product yet", async () => {
    const date = "2031-05-08";
    await expect(uploadCover({ ...kvp, date, filename: "kvp.png", bytes: PNG, extraDescription: "Med Skånebilaga" }, actor)).rejects.toMatchObject({
      code: "not-found",
      fields: { extraDescription: NO_PRODUCT_FOR_DESCRIPTION },
    });
    expect(await db().select().from(schema.images).where(eq(schema.images.date, date))).toHaveLength(0);
    await saveDailyProduct({ ...kvp, date, endDate: date, heading: "", description: "Kvällsposten", priceOre: 2950, eanCode: "" }, actor);
    expect(await uploadCover({ ...kvp, date, filename: "kvp.png", bytes: PNG, extraDescription: "Med Skånebilaga" }, actor)).toMatchObject({ published: true, described: true });
    expect((await rows(date))[0].extraDescription).toBe("Med Skånebilaga");
  });
});
