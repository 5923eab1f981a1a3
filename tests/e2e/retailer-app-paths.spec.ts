// The app variant's paths (retailer spec §2.1) lead to their web pages, so a
// bookmark or home-screen icon made with the app keeps working, logged in or not.
import { expect, loginAs, test } from "./fixtures";

test("the app's paths lead to the web pages, the query kept", async ({ page, retailer }) => {
  await loginAs(page, retailer.id, retailer.pin);
  const cases: [string, RegExp, string][] = [
    ["/papers/1", /\/rapportering\/1$/, "Returrapportera"],
    ["/papers/2?från=app", /\/rapportering\/2\?fr%C3%A5n=app$/, "Ändra/tillägg"],
    ["/papers/9", /\/rapportering\/1$/, "Returrapportera"],
    ["/addreturns", /\/rapportering\/2$/, "Ändra/tillägg"],
    ["/delivery", /\/foljesedel$/, "Följesedel"],
    ["/services", /\/foljesedel$/, "Följesedel"],
  ];
  for (const [path, url, heading] of cases) {
    await page.goto(path);
    await expect(page, path).toHaveURL(url);
    await expect(page.getByRole("heading", { level: 1 }), path).toContainText(heading);
  }
  await page.goto("/development");
  await expect(page).toHaveURL(/\/$/);
});

test("logged out, a bookmark to the app's path asks for the login and then opens the page", async ({ page, retailer }) => {
  await page.goto("/addreturns");
  await expect(page).toHaveURL(/\/login/);
  await page.getByLabel("Kundnummer").fill(String(retailer.id));
  await page.getByLabel("Pinkod").fill(retailer.pin);
  await page.getByRole("button", { name: "Logga in" }).click();
  await expect(page).toHaveURL(/\/rapportering\/2$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Ändra/tillägg");
});
