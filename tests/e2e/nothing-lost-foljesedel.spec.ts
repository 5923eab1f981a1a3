// The delivery note keeps other rows' values. Saving Mottagit for one
// row keeps what was typed in the others; a refused row keeps its own value with its
// error beside it; Enter in a field saves the rows that were changed. JS off and on.
import { eq } from "drizzle-orm";
import type { Page } from "@playwright/test";
import { schema } from "../../db/client";
import { createDelivery, ensureTitlesAndEditions } from "../../cli/seed/factories";
import { today } from "../../app/lib/dates";
import { e2eDb, expect, loginAs, test } from "./fixtures";

test.beforeAll(async () => {
  await ensureTitlesAndEditions(e2eDb());
});

function row(page: Page, delivered: number) {
  return page.locator(".delivery-row").filter({ hasText: `Levererat: ${delivered}` });
}

async function threeDeliveries(customerId: number) {
  const db = e2eDb();
  const day = today();
  const a = await createDelivery(db, { customerId, titleId: 1, editionId: 1, deliveryDate: day, delivered: 20, priceOre: 1500 });
  const b = await createDelivery(db, { customerId, titleId: 2, editionId: 1, deliveryDate: day, delivered: 12, priceOre: 1500 });
  const c = await createDelivery(db, { customerId, titleId: 1, editionId: 21, deliveryDate: day, delivered: 5, priceOre: 900 });
  return { a, b, c };
}

async function received(customerId: number) {
  const rows = await e2eDb().select().from(schema.deliveries).where(eq(schema.deliveries.customerId, customerId));
  return Object.fromEntries(rows.map((r) => [r.delivered, r.received]));
}

test.describe("the delivery note keeps other rows' values", () => {
  test("saving one row keeps what was typed in the others; then each is saved in turn", async ({ page, retailer }) => {
    await threeDeliveries(retailer.id);
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/foljesedel");
    await row(page, 20).getByLabel("Mottagit").fill("18");
    await row(page, 12).getByLabel("Mottagit").fill("11");
    await row(page, 5).getByLabel("Mottagit").fill("4");

    await row(page, 20).getByRole("button", { name: "Spara" }).click();
    await expect(row(page, 20).locator(".recv-diff")).toHaveText(/18/);
    // Only the row whose Spara was pressed is stored; the others keep what was typed.
    await expect(row(page, 12).getByLabel("Mottagit")).toHaveValue("11");
    await expect(row(page, 5).getByLabel("Mottagit")).toHaveValue("4");
    expect(await received(retailer.id)).toEqual({ 20: 18, 12: null, 5: null });

    await row(page, 12).getByRole("button", { name: "Spara" }).click();
    await expect(row(page, 12).locator(".recv-diff")).toHaveText(/11/);
    await expect(row(page, 5).getByLabel("Mottagit")).toHaveValue("4");
    await row(page, 5).getByRole("button", { name: "Spara" }).click();
    await expect(row(page, 5).locator(".recv-diff")).toHaveText(/4/);
    expect(await received(retailer.id)).toEqual({ 20: 18, 12: 11, 5: 4 });
  });

  test("a refused row keeps its value and its error; the other rows keep theirs", async ({ page, retailer }) => {
    await threeDeliveries(retailer.id);
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/foljesedel");
    await row(page, 12).getByLabel("Mottagit").fill("10");
    await row(page, 20).getByLabel("Mottagit").fill("-3");
    await row(page, 20).getByRole("button", { name: "Spara" }).click();
    await expect(row(page, 20).getByText("Kan inte vara negativt.")).toBeVisible();
    await expect(row(page, 20).getByLabel("Mottagit")).toHaveValue("-3");
    await expect(row(page, 20).getByLabel("Mottagit")).toHaveAttribute("aria-invalid", "true");
    await expect(row(page, 12).getByLabel("Mottagit")).toHaveValue("10");
    expect(await received(retailer.id)).toEqual({ 20: null, 12: null, 5: null });

    // Then the other row is saved: the refused row still has its typed value.
    await row(page, 12).getByRole("button", { name: "Spara" }).click();
    await expect(row(page, 12).locator(".recv-diff")).toHaveText(/10/);
    await expect(row(page, 20).getByLabel("Mottagit")).toHaveValue("-3");
    expect(await received(retailer.id)).toEqual({ 20: null, 12: 10, 5: null });
  });

  test("Enter in a field saves the rows that were changed, and only those", async ({ page, retailer }) => {
    await threeDeliveries(retailer.id);
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/foljesedel");
    await row(page, 12).getByLabel("Mottagit").fill("9");
    await row(page, 5).getByLabel("Mottagit").fill("3");
    await row(page, 5).getByLabel("Mottagit").press("Enter");
    await expect(row(page, 5).locator(".recv-diff")).toHaveText(/3/);
    await expect(row(page, 12).locator(".recv-diff")).toHaveText(/9/);
    expect(await received(retailer.id)).toEqual({ 20: null, 12: 9, 5: 3 });
  });
});
