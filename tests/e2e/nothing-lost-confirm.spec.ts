// The confirm step (/rapportering/:state/bekrafta): two pages of the
// same customer. The form sends the bundles its page showed as open; when another tab
// closed one of them, or a bundle opened since, the whole step is refused naming the
// bundles (nothing closed), the page shows the bundles open now with the user's other
// choices kept. A decision that matches what happened anyway is no conflict. JS off and on.
import type { Page, TestInfo } from "@playwright/test";
import { expect, loginAs, test } from "./fixtures";
import { bundle, bundleRow, day, delivery, labelBlock } from "./returns-data";

const group = (page: Page, n: number) => page.getByRole("group", { name: new RegExp(`Bunt #${n}\\b`) });
const choose = (page: Page, n: number, label: "Öppen" | "Stängd") => group(page, n).getByRole("radio", { name: label }).check();
const save = (page: Page) => page.getByRole("button", { name: "Spara", exact: true }).click();

async function saved(page: Page, testInfo: TestInfo) {
  if (testInfo.project.name === "js-on") await expect(page.getByText("Sparat!")).toBeVisible();
  else await expect(page.getByRole("status").filter({ hasText: "Buntarna är sparade." })).toBeVisible();
  await expect(page).toHaveURL(/\/rapportering\/1$/);
}

test.describe("two tabs of the confirm step", () => {
  test("keeping open a bundle the other tab closed is refused, naming it; nothing closed; the other choice kept", async ({ page, retailer }, testInfo) => {
    await bundle(retailer.id, 101);
    await bundle(retailer.id, 103, { type: 1 });
    await loginAs(page, retailer.id, retailer.pin);
    const tab2 = await page.context().newPage();
    await page.goto("/rapportering/1/bekrafta");
    await tab2.goto("/rapportering/1/bekrafta");

    // Tab 2 closes 101 and keeps 103.
    await choose(tab2, 101, "Stängd");
    await choose(tab2, 103, "Öppen");
    await save(tab2);
    await saved(tab2, testInfo);
    expect((await bundleRow(retailer.id, 101)).open).toBe(false);

    // Tab 1 (showing 101 and 103) keeps 101 open and closes 103. Before: 103 closed,
    // "keep 101 open" ignored, and "Buntarna är sparade."
    await choose(page, 101, "Öppen");
    await choose(page, 103, "Stängd");
    await save(page);
    await expect(page.getByRole("alert").filter({ hasText: "Buntarna har ändrats sedan sidan visades: bunt 101 är redan stängd. Kontrollera och bekräfta igen." })).toBeVisible();
    await expect(page).toHaveURL(/\/rapportering\/1\/bekrafta$/);
    expect((await bundleRow(retailer.id, 103)).open).toBe(true);
    // The page shows the bundles open now, with the choice for 103 kept.
    await expect(group(page, 101)).toHaveCount(0);
    await expect(group(page, 103).getByRole("radio", { name: "Stängd" })).toBeChecked();

    // Checked: Spara again closes 103.
    await save(page);
    await saved(page, testInfo);
    expect((await bundleRow(retailer.id, 103)).open).toBe(false);
    expect((await bundleRow(retailer.id, 101)).open).toBe(false);
  });

  test("a bundle the other tab opened since is refused, naming it; nothing closed; both bundles then shown", async ({ page, retailer }, testInfo) => {
    await labelBlock(retailer.id);
    await bundle(retailer.id, 101);
    const d = day(-1);
    await delivery(retailer.id, { date: d, delivered: 10 });
    await loginAs(page, retailer.id, retailer.pin);
    const tab2 = await page.context().newPage();
    await page.goto("/rapportering/1/bekrafta");

    // Tab 2 reports a paper into a new bundle 102.
    await tab2.goto("/rapportering/1");
    await tab2.getByLabel(`Bunt för Aftonbladet ${d}`).fill("102");
    await tab2.getByLabel(`Retur för Aftonbladet ${d}`).fill("4");
    await tab2.getByRole("button", { name: "Spara och fortsätt" }).click();
    await expect(tab2).toHaveURL(/\/rapportering\/1\/bekrafta$/);
    expect((await bundleRow(retailer.id, 102)).open).toBe(true);

    // Tab 1 (showing only 101) closes 101.
    await choose(page, 101, "Stängd");
    await save(page);
    await expect(page.getByRole("alert").filter({ hasText: "Buntarna har ändrats sedan sidan visades: bunt 102 har öppnats. Kontrollera och bekräfta igen." })).toBeVisible();
    expect((await bundleRow(retailer.id, 101)).open).toBe(true);
    await expect(group(page, 101).getByRole("radio", { name: "Stängd" })).toBeChecked();
    await expect(group(page, 102)).toBeVisible();

    await choose(page, 102, "Öppen");
    await save(page);
    await saved(page, testInfo);
    expect((await bundleRow(retailer.id, 101)).open).toBe(false);
    expect((await bundleRow(retailer.id, 102)).open).toBe(true);
  });

  test("closing a bundle the other tab closed anyway is no conflict", async ({ page, retailer }, testInfo) => {
    await bundle(retailer.id, 101);
    await bundle(retailer.id, 103, { type: 1 });
    await loginAs(page, retailer.id, retailer.pin);
    const tab2 = await page.context().newPage();
    await page.goto("/rapportering/1/bekrafta");
    await tab2.goto("/rapportering/1/bekrafta");

    await choose(tab2, 101, "Stängd");
    await choose(tab2, 103, "Öppen");
    await save(tab2);
    await saved(tab2, testInfo);

    await choose(page, 101, "Stängd");
    await choose(page, 103, "Stängd");
    await save(page);
    await saved(page, testInfo);
    expect((await bundleRow(retailer.id, 101)).open).toBe(false);
    expect((await bundleRow(retailer.id, 103)).open).toBe(false);
  });
});
