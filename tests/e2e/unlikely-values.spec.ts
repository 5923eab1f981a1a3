// Decision 026: unlikely but possible values ask once instead of being stored or refused.
// Mottagit above delivered on Följesedel: the row (wide screen) or the dialog (phone) says
// what was typed and how many were delivered; the next Spara stores it. Löpsedlar ten
// times the current amount: asked beside the field, the next Spara stores it. JS off and on.
import { eq } from "drizzle-orm";
import type { Page } from "@playwright/test";
import { schema } from "../../db/client";
import { createDelivery, ensureTitlesAndEditions } from "../../cli/seed/factories";
import { today } from "../../app/lib/dates";
import { e2eDb, expect, loginAs, test } from "./fixtures";

test.beforeAll(async () => {
  await ensureTitlesAndEditions(e2eDb());
});

const question = (typed: number, delivered: number) =>
  `Du skrev ${typed}, fler än de ${delivered} som levererades. Stämmer det? Tryck Spara igen så sparas ${typed}.`;

async function receivedOf(id: number) {
  const [row] = await e2eDb().select().from(schema.deliveries).where(eq(schema.deliveries.id, id));
  return row.received;
}

async function twoPapers(customerId: number) {
  const db = e2eDb();
  const day = today();
  const ab = await createDelivery(db, { customerId, titleId: 1, editionId: 1, deliveryDate: day, delivered: 36, priceOre: 1500 });
  const kvp = await createDelivery(db, { customerId, titleId: 2, editionId: 2, deliveryDate: day, delivered: 9, priceOre: 1500 });
  return { ab, kvp };
}

const row = (page: Page, delivered: number) => page.locator(".delivery-row").filter({ hasText: `Levererat: ${delivered}` });

test.describe("Mottagit above delivered asks once", () => {
  test("on a wide screen the row asks, keeps the other row's typing, and the next Spara saves", async ({ page, retailer }) => {
    const { ab, kvp } = await twoPapers(retailer.id);
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/foljesedel");
    await row(page, 9).getByLabel("Mottagit").fill("8");
    await row(page, 36).getByLabel("Mottagit").fill("40");
    await row(page, 36).getByRole("button", { name: "Spara" }).click();

    await expect(row(page, 36).getByRole("alert")).toHaveText(question(40, 36));
    // A question, not a refusal: the field is not marked wrong, nothing is stored, nothing is said saved.
    await expect(row(page, 36).getByLabel("Mottagit")).toHaveValue("40");
    await expect(row(page, 36).getByLabel("Mottagit")).not.toHaveAttribute("aria-invalid", "true");
    await expect(row(page, 9).getByLabel("Mottagit")).toHaveValue("8");
    await expect(page.getByText("Mottaget antal sparat.")).toHaveCount(0);
    expect(await receivedOf(ab.id)).toBeNull();

    // Another amount is asked about anew; the same one again is saved.
    await row(page, 36).getByLabel("Mottagit").fill("41");
    await row(page, 36).getByRole("button", { name: "Spara" }).click();
    await expect(row(page, 36).getByRole("alert")).toHaveText(question(41, 36));
    expect(await receivedOf(ab.id)).toBeNull();
    await row(page, 36).getByRole("button", { name: "Spara" }).click();
    await expect(row(page, 36).locator(".recv-diff")).toHaveText(/41/);
    await expect(page.getByRole("status").filter({ hasText: "Mottaget antal sparat." })).toHaveCount(1);
    expect(await receivedOf(ab.id)).toBe(41);
    expect(await receivedOf(kvp.id)).toBeNull();
  });

  test("on a phone the dialog asks and its next Spara saves", async ({ page, retailer }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    const { kvp } = await twoPapers(retailer.id);
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/foljesedel");
    // With JavaScript, the link is followed by the hydrated page, so the dialog opens in place.
    // (An empty Mottagit was sent here twice on a loaded CI machine: the dialog's section was
    // swapped for a second one and then the modal while it was typed in; keyboard-and-focus
    // now tests a field entered before the modal's code arrives.)
    if (test.info().project.name === "js-on") await page.waitForFunction(() => document.documentElement.dataset.hydrated);
    // By its row: on Node 24 in CI this link's name came with a U+FFFD in "för" (noticed, not yet explained).
    await row(page, 9).getByRole("link", { name: /^Ändra mottaget/ }).click();
    const field = page.getByRole("textbox", { name: "Mottagit" });
    await field.fill("12");
    await page.getByRole("button", { name: "Spara" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Stämmer det?" })).toHaveText(question(12, 9));
    await expect(field).toHaveValue("12");
    expect(await receivedOf(kvp.id)).toBeNull();
    await page.getByRole("button", { name: "Spara" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Mottaget antal sparat." })).toBeVisible();
    expect(await receivedOf(kvp.id)).toBe(12);
  });
});

test("Löpsedlar: ten times the current amount asks once beside its field; the next Spara saves", async ({ page, retailer }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await e2eDb().insert(schema.placards).values({ customerId: retailer.id, titleId: 1, amount: 4, newAmount: 4, createdAt: 0, updatedAt: 0 });
  await loginAs(page, retailer.id, retailer.pin);
  await page.goto("/lopsedlar");
  await page.getByLabel("Önskat antal Aftonbladet").fill("40");
  await page.getByLabel("Önskat antal Expressen").fill("2");
  await page.getByRole("button", { name: "Spara" }).click();
  await expect(page.getByRole("alert")).toHaveText("Du skrev 40: minst tio gånger så många som de 4 du får nu. Stämmer det? Tryck Spara igen så sparas 40.");
  await expect(page.getByLabel("Önskat antal Aftonbladet")).toHaveValue("40");
  await expect(page.getByLabel("Önskat antal Aftonbladet")).not.toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Önskat antal Expressen")).toHaveValue("2");
  await expect(page.getByText("Sparat!")).toHaveCount(0);
  const wanted = async () =>
    (await e2eDb().select().from(schema.placards).where(eq(schema.placards.customerId, retailer.id))).map((p) => [p.titleId, p.newAmount]).sort();
  expect(await wanted()).toEqual([[1, 4]]);
  await page.getByRole("button", { name: "Spara" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Sparat!" })).toBeVisible();
  expect(await wanted()).toEqual([[1, 40], [2, 2]]);
});
