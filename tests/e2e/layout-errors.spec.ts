// An error in one screen keeps the layout: the header and the menu stay around the
// Swedish reason, so the user goes on from there (deleting something already deleted
// once answered a bare 404 without the layout).
import { expect, loginAs, makeStaff, test } from "./fixtures";

test("a retailer's page that does not exist keeps the menu around the reason", async ({ page, retailer }) => {
  await loginAs(page, retailer.id, retailer.pin);
  const res = await page.goto("/rapportering/9");
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Sidan finns inte" })).toBeVisible();
  const menu = page.getByRole("navigation", { name: "Huvudmeny" });
  await expect(menu.getByRole("link", { name: "Historik" })).toBeVisible();
  await expect(page.getByText(retailer.name).first()).toBeVisible();
  await menu.getByRole("link", { name: "Kontakt" }).click();
  await expect(page.getByRole("heading", { name: "Kontakt" })).toBeVisible();
});

test("staff deleting a link already deleted in another tab: the reason inside the staff layout, menu kept", async ({ page }) => {
  const admin = await makeStaff("admin");
  await loginAs(page, admin.email, admin.password);
  await page.goto("/admin");
  await page.getByLabel("Titel", { exact: true }).fill("Şahin Livs intranät");
  await page.getByLabel("Länk", { exact: true }).fill("https://intra.example/sahin");
  await page.getByRole("button", { name: "Lägg till" }).click();
  await expect(page.getByRole("link", { name: "Şahin Livs intranät", exact: true })).toBeVisible();

  // The first tab asks to delete it and is left at the confirmation; a second tab deletes
  // it; then the first confirms.
  await page.getByRole("link", { name: "Ta bort Şahin Livs intranät" }).click();
  await expect(page.getByRole("heading", { name: "Ta bort länken?" })).toBeVisible();
  const second = await page.context().newPage();
  await second.goto("/admin");
  await second.getByRole("link", { name: "Ta bort Şahin Livs intranät" }).click();
  await second.getByRole("button", { name: "Ta bort länken" }).click();
  await expect(second.getByText("Inga sparade länkar.")).toBeVisible();
  await second.close();

  await page.getByRole("button", { name: "Ta bort länken" }).click();
  await expect(page.getByRole("heading", { name: "Sidan finns inte" })).toBeVisible();
  await expect(page.getByText("Länken finns inte.")).toBeVisible();
  const menu = page.getByRole("navigation", { name: "Huvudmeny" });
  await expect(menu.getByRole("link", { name: "Meddelanden" })).toBeVisible();
  await menu.getByRole("link", { name: "Meddelanden" }).click();
  await expect(page).toHaveURL(/\/admin\/messages$/);
});
