// 'Logga ut kund' on the admin start page, used the way an admin does (JS off and on).
import { expect, loginAs, makeStaff, test } from "./fixtures";

test("an admin logs a retailer out everywhere from the start page", async ({ page, retailer, browser }) => {
  const shop = await browser.newContext();
  const shopPage = await shop.newPage();
  await loginAs(shopPage, retailer.id, retailer.pin);
  await shopPage.goto("/kontakt");
  await expect(shopPage.getByRole("heading", { name: "Kontakt" })).toBeVisible();

  const admin = await makeStaff("admin");
  await loginAs(page, admin.email, admin.password);
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto("/admin");
  const section = page.getByRole("region", { name: "Logga ut kund" });
  await section.getByLabel("Kundnummer").fill(String(retailer.id));
  await section.getByRole("button", { name: "Logga ut kund" }).click();
  await expect(page).toHaveURL("/admin");
  await expect(page.getByRole("status")).toContainText(`Kund ${retailer.id} är utloggad (1 session avslutade).`);

  await shopPage.goto("/kontakt");
  await expect(shopPage).toHaveURL(/\/login\?redirectTo=%2Fkontakt/);
  await shop.close();
});

test("a wrong customer number is shown next to the field, the input kept", async ({ page }) => {
  const admin = await makeStaff("admin");
  await loginAs(page, admin.email, admin.password);
  await page.goto("/admin");
  const section = page.getByRole("region", { name: "Logga ut kund" });
  await section.getByLabel("Kundnummer").fill("99999");
  await section.getByRole("button", { name: "Logga ut kund" }).click();
  await expect(page).toHaveURL("/admin/kund/logga-ut");
  await expect(page.getByRole("alert")).toHaveText("Kund 99999 finns inte.");
  await expect(page.getByLabel("Kundnummer")).toHaveValue("99999");
  await expect(page.getByLabel("Kundnummer")).toHaveAttribute("aria-invalid", "true");
  await page.getByLabel("Kundnummer").fill("abc");
  await page.getByRole("button", { name: "Logga ut kund" }).click();
  await expect(page.getByRole("alert")).toHaveText("Ange ett kundnummer (1–5 siffror).");
  await page.setViewportSize({ width: 360, height: 640 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await page.screenshot({ path: test.info().outputPath("logga-ut-360.png") });
});
