// Decision 027: staff log in on their own page, /personal/logga-in, with "E-post" and
// "Lösenord"; the retailer's box keeps Kundnummer and Pinkod, both on the number pad.
// Old bookmarks of staff pages and an e-mail address typed in the retailer's box lead to
// the staff page, the address kept. JS off and on.
import { eq } from "drizzle-orm";
import { schema } from "../../db/client";
import { e2eDb, expect, makeStaff, test } from "./fixtures";

test("the retailer's box is for numbers; staff find their own page from it and log in there", async ({ page }) => {
  const sales = await makeStaff("sales", null, { totpSecret: null });
  await page.goto("/login");
  await expect(page.getByLabel("Kundnummer")).toHaveAttribute("inputmode", "numeric");
  await expect(page.getByLabel("Pinkod")).toHaveAttribute("inputmode", "numeric");
  await page.getByRole("link", { name: "Inloggning för personal" }).click();
  await expect(page).toHaveURL("/personal/logga-in");
  await expect(page.getByRole("heading", { name: "Logga in som personal", level: 1 })).toBeVisible();
  await expect(page.getByLabel("E-post")).toHaveAttribute("type", "email");
  await expect(page.getByLabel("Lösenord")).toHaveAttribute("type", "password");

  await page.getByLabel("E-post").fill(sales.email);
  await page.getByLabel("Lösenord").fill(sales.password);
  await page.getByRole("button", { name: "Logga in" }).click();
  await expect(page).toHaveURL("/admin/distribution");
  await expect(page.getByRole("heading", { name: "Distribution", level: 1 })).toBeVisible();

  // Logging out brings staff back to their own page.
  await page.getByRole("button", { name: "Logga ut", exact: true }).click();
  await expect(page).toHaveURL("/personal/logga-in");
});

test("a wrong password is refused beside the field with the address kept; bad input gets its own words", async ({ page }) => {
  const sales = await makeStaff("sales", null, { totpSecret: null });
  await page.goto("/personal/logga-in");
  await page.getByRole("button", { name: "Logga in" }).click();
  await expect(page.getByText("E-post måste anges")).toBeVisible();
  await expect(page.getByText("Lösenord måste anges")).toBeVisible();

  await page.getByLabel("E-post").fill("4711");
  await page.getByLabel("Lösenord").fill("x");
  await page.getByRole("button", { name: "Logga in" }).click();
  await expect(page.getByText("Skriv en e-postadress, till exempel namn@foretag.se")).toBeVisible();
  await expect(page.getByLabel("E-post")).toHaveAttribute("aria-invalid", "true");

  await page.getByLabel("E-post").fill(sales.email);
  await page.getByLabel("Lösenord").fill("inte-rätt-lösenord");
  await page.getByRole("button", { name: "Logga in" }).click();
  await expect(page.getByText("Felaktig e-postadress eller lösenord.")).toBeVisible();
  await expect(page.getByLabel("Lösenord")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("E-post")).toHaveValue(sales.email);
  await expect(page.getByLabel("Lösenord")).toHaveValue("");
  await expect(page).toHaveURL("/personal/logga-in");
  const failures = await e2eDb().select().from(schema.auditLog).where(eq(schema.auditLog.target, `staff:${sales.email}`));
  expect(failures.map((a) => a.action)).toEqual(["login.failure"]);
});

test("the server answers 400 and keeps the address, never the password", async ({ request }) => {
  const res = await request.post("/personal/logga-in", { form: { epost: "ingen@returportalen.example", losenord: "hemligt-lösenord-1" } });
  expect(res.status()).toBe(400);
  const html = await res.text();
  expect(html).toContain("Felaktig e-postadress eller lösenord.");
  expect(html).toContain("ingen@returportalen.example");
  expect(html).not.toContain("hemligt-lösenord-1");
});

test("a bookmarked staff page leads to the staff login and back to that page", async ({ page }) => {
  const sales = await makeStaff("sales", null, { totpSecret: null });
  // A bookmark of the old login with a staff page behind it, and the staff page itself.
  await page.goto("/login?redirectTo=%2Fadmin%2Fleveransreklamation");
  await expect(page).toHaveURL("/personal/logga-in?redirectTo=%2Fadmin%2Fleveransreklamation");
  await page.goto("/admin/leveransreklamation");
  await expect(page).toHaveURL("/personal/logga-in?redirectTo=%2Fadmin%2Fleveransreklamation");
  await page.getByLabel("E-post").fill(sales.email);
  await page.getByLabel("Lösenord").fill(sales.password);
  await page.getByRole("button", { name: "Logga in" }).click();
  await expect(page).toHaveURL("/admin/leveransreklamation");
});

test("an e-mail address typed in the retailer's box goes on to the staff page with the address kept, the password asked again", async ({ page }) => {
  const sales = await makeStaff("sales", null, { totpSecret: null });
  await page.goto("/login");
  await page.getByLabel("Kundnummer").fill(` ${sales.email}`);
  await page.getByLabel("Pinkod").fill(sales.password);
  await page.getByRole("button", { name: "Logga in" }).click();
  await expect(page).toHaveURL(`/personal/logga-in?epost=${encodeURIComponent(sales.email)}`);
  await expect(page.getByRole("status")).toHaveText("Personal loggar in här, med e-post och lösenord. Skriv ditt lösenord igen.");
  await expect(page.getByLabel("E-post")).toHaveValue(sales.email);
  await expect(page.getByLabel("Lösenord")).toHaveValue("");
  // Nothing was weighed: no failure, no login in the log.
  expect(await e2eDb().select().from(schema.auditLog).where(eq(schema.auditLog.target, `staff:${sales.email}`))).toEqual([]);
  await page.getByLabel("Lösenord").fill(sales.password);
  await page.getByRole("button", { name: "Logga in" }).click();
  await expect(page).toHaveURL("/admin/distribution");
});

test("the retailer's box sends an address on without weighing it, with a staff page behind it kept and a retailer page dropped", async ({ request }) => {
  const sent = await request.post("/login?redirectTo=%2Fadmin%2Fkunder", { form: { kundnummer: "Anna.Berg@Tidningsbud.example", pinkod: "" }, maxRedirects: 0 });
  expect(sent.status()).toBe(303);
  expect(sent.headers()["location"]).toBe("/personal/logga-in?epost=Anna.Berg%40Tidningsbud.example&redirectTo=%2Fadmin%2Fkunder");
  const retailerPage = await request.post("/login", { form: { kundnummer: "anna@tidningsbud.example", pinkod: "x", redirectTo: "/rapportering/1" }, maxRedirects: 0 });
  expect(retailerPage.headers()["location"]).toBe("/personal/logga-in?epost=anna%40tidningsbud.example");
  // Something that is no address is the retailer's number, refused as before.
  const number = await request.post("/login", { form: { kundnummer: "anna@", pinkod: "1234" }, maxRedirects: 0 });
  expect(number.status()).toBe(400);
});

test("an admin with an authenticator app goes on to the code step from the staff page", async ({ page }) => {
  const admin = await makeStaff("admin");
  await page.goto("/personal/logga-in");
  await page.getByLabel("E-post").fill(admin.email);
  await page.getByLabel("Lösenord").fill(admin.password);
  await page.getByRole("button", { name: "Logga in" }).click();
  await expect(page).toHaveURL("/login/kod");
  await expect(page.getByLabel("Engångskod")).toBeVisible();
});
