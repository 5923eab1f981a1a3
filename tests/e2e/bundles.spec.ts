import { expect, formToken, loginAs, makeRetailer, test } from "./fixtures";
import { bundle, bundleRow, day, delivery, returnRow } from "./returns-data";

test.describe("bundles on the start page", () => {
  test("opens a bundle's dialog with progress and contents, and closes the bundle", async ({ page, retailer }, testInfo) => {
    const b = await bundle(retailer.id, 117);
    const d1 = await delivery(retailer.id, { date: day(-2), delivered: 40 });
    const d2 = await delivery(retailer.id, { date: day(-1), titleId: 2, editionId: 1, delivered: 40 });
    await returnRow(retailer.id, b.id, d1.id, 30);
    await returnRow(retailer.id, b.id, d2.id, 15);
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/");
    await page.getByRole("link", { name: "Bunt #117" }).click();
    await expect(page).toHaveURL(/\?bunt=117$/);
    await expect(page.getByRole("heading", { name: "Bunt #117" })).toBeVisible();
    const dialog = testInfo.project.name === "js-on" ? page.getByRole("dialog") : page.locator("section.url-dialog");
    await expect(dialog.getByText("45 returer, nästan full")).toBeVisible();
    await expect(dialog.locator(".progress-orange")).toBeVisible();
    await expect(dialog.getByRole("row", { name: `${day(-2)} Aftonbladet 30` })).toBeVisible();
    await expect(dialog.getByRole("row", { name: `${day(-1)} Expressen 15` })).toBeVisible();
    await expect(dialog.getByRole("row", { name: "Totalt 45" })).toBeVisible();
    await dialog.getByRole("button", { name: "Stäng bunt" }).click();
    if (testInfo.project.name === "js-off") await expect(page.getByRole("status").filter({ hasText: "Bunt #117 är stängd." })).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByText("Inga öppna buntar")).toBeVisible();
    expect(await bundleRow(retailer.id, 117)).toMatchObject({ open: false, closedDate: day(0) });
  });

  test("shows a closed bundle as Stängd and another retailer's bundle not at all", async ({ page, retailer }, testInfo) => {
    const other = await makeRetailer(testInfo.workerIndex);
    await bundle(retailer.id, 5, { open: false });
    const foreign = await bundle(other.id, 6);
    const d = await delivery(other.id, { date: day(-1) });
    await returnRow(other.id, foreign.id, d.id, 9);
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/?bunt=5");
    await expect(page.getByText("Stängd", { exact: true })).toBeVisible();
    await expect(page.getByRole("button", { name: "Stäng bunt" })).toHaveCount(0);
    await page.goto("/?bunt=6");
    await expect(page.getByText("Kan inte hitta bunt med id 6")).toBeVisible();
    await expect(page.getByRole("table")).toHaveCount(0);
    const res = await page.request.post("/?index", { form: { csrf: await formToken(page.request), intent: "close", bunt: "6" }, maxRedirects: 0 });
    expect(res.status()).toBe(400);
    expect((await bundleRow(other.id, 6)).open).toBe(true);
  });
});

test.describe("bundle search", () => {
  test("finds a bundle, pages by 10 rows, and says when it cannot find one", async ({ page, retailer }, testInfo) => {
    const other = await makeRetailer(testInfo.workerIndex);
    await bundle(other.id, 77);
    const b = await bundle(retailer.id, 42, { open: false, closedDate: day(-1) });
    for (let i = 1; i <= 12; i++) {
      const d = await delivery(retailer.id, { date: day(-i), delivered: 30 });
      await returnRow(retailer.id, b.id, d.id, i);
    }
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/buntsok");
    await page.getByLabel("Buntnummer").fill("42");
    await page.getByLabel("Buntnummer").press("Enter");
    await expect(page.getByRole("heading", { name: "Bunt #42" })).toBeVisible();
    await expect(page.getByText(`Stängd ${day(-1)}`)).toBeVisible();
    await expect(page.locator("tbody tr")).toHaveCount(10);
    await expect(page.getByRole("row", { name: "Totalt 78" })).toBeVisible();
    await expect(page.getByText("Sida 1 av 2")).toBeVisible();
    await page.getByRole("link", { name: "Nästa" }).click();
    await expect(page.locator("tbody tr")).toHaveCount(2);
    await expect(page.getByRole("row", { name: `${day(-12)} Aftonbladet 12` })).toBeVisible();

    await page.getByLabel("Buntnummer").fill("77");
    await page.getByRole("button", { name: "Sök" }).click();
    await expect(page.getByText("Kan inte hitta bunt med id 77")).toBeVisible();
    const res = await page.request.get("/buntsok?id=77");
    expect(res.status()).toBe(404);
  });
});
