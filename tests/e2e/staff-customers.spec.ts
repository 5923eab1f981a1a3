// Staff find a customer, read their page, issue a new PIN (shown
// once, printable as a letter, old sessions end), add a customer, and deactivate and
// reactivate one — as admin; a utb user sees only their distributor's customers.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { eq } from "drizzle-orm";
import { schema } from "../../db/client";
import { createDistributor } from "../../cli/seed/factories";
import { e2eDb, expect, formToken, loginAs, loginViaForm, makeRetailer, makeStaff, test, uniqueCustomerId } from "./fixtures";

test("an admin finds Şahin Livs, gives a new PIN with a PIN letter, and the old PIN and sessions stop working", async ({ page, browser }, info) => {
  const shop = await makeRetailer(info.workerIndex, { name: `Şahin Livs – Łódź ${Date.now()}${info.project.name}` });
  // The retailer is logged in elsewhere.
  const shopContext = await browser.newContext();
  const shopPage = await shopContext.newPage();
  await loginAs(shopPage, shop.id, shop.pin);
  expect((await shopPage.request.get("/historik", { maxRedirects: 0 })).status()).toBe(200);

  const admin = await makeStaff("admin");
  await loginAs(page, admin.email, admin.password);
  await page.goto("/admin");
  await page.getByRole("navigation", { name: "Huvudmeny" }).getByRole("link", { name: "Kunder" }).click();
  await expect(page.getByRole("heading", { name: "Kunder", level: 1 })).toBeVisible();
  await page.getByLabel("Sök (kundnummer, namn, ort eller distributör)").fill(shop.name.split(" – ")[1]);
  await page.getByRole("button", { name: "Sök", exact: true }).click();
  await expect(page.getByText("1 kund.")).toBeVisible();
  // By number, with a leading zero as people type it.
  await page.getByLabel("Sök (kundnummer, namn, ort eller distributör)").fill(` 0${shop.id} `);
  await page.getByRole("button", { name: "Sök", exact: true }).click();
  await page.getByRole("link", { name: String(shop.id), exact: true }).click();
  await expect(page.getByRole("heading", { name: `${shop.id} ${shop.name}`, level: 1 })).toBeVisible();
  await expect(page.getByText("Testgatan 1, 123 45 Teststad")).toBeVisible();

  // Ny pinkod asks first; the PIN is shown once.
  await page.getByRole("link", { name: "Ny pinkod" }).click();
  await page.getByRole("button", { name: "Ge ny pinkod" }).click();
  const shown = page.getByRole("status").filter({ hasText: "Pinkoden visas bara nu" });
  await expect(shown).toBeVisible();
  const pin = (await shown.locator(".pin").textContent())!.trim();
  expect(pin).toMatch(/^\d{6}$/);
  // The retailer's session ended with it.
  expect((await shopPage.request.get("/historik", { maxRedirects: 0 })).status()).toBe(302);

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Skriv ut pinkodsbrev (PDF)" }).click()]);
  expect(download.suggestedFilename()).toBe(`pinkodsbrev-${shop.id}.pdf`);
  const pdfPath = `${info.outputDir}/pinbrev.pdf`;
  await download.saveAs(pdfPath);
  const text = execFileSync("pdftotext", ["-layout", pdfPath, "-"]).toString();
  expect(text).toContain(shop.name);
  expect(text).toContain(`Pinkod: ${pin}`);
  expect(text).toContain(`Kundnummer: ${shop.id}`);
  // The link is the configured public address (PORTAL_URL), not whatever the request said.
  expect(text).toContain(`${info.project.use.baseURL}/login`);
  // One letter per new PIN: the ticket is spent, and a PIN posted by the browser (even
  // the right one) prints nothing.
  for (const posted of [{}, { pin }] as Record<string, string>[]) {
    const again = await page.request.post(`/admin/kunder/${shop.id}/pinbrev`, { form: { csrf: await formToken(page.request), ...posted }, maxRedirects: 0 });
    expect(again.status()).toBe(302);
  }
  // Reloading the page never shows the PIN again.
  await page.goto(`/admin/kunder/${shop.id}`);
  await expect(page.getByText("Pinkoden visas bara nu")).toHaveCount(0);

  // The old PIN no longer works; the new one does.
  await shopContext.clearCookies();
  await loginViaForm(shopPage, String(shop.id), shop.pin);
  await expect(shopPage.getByText("Felaktigt kundnummer eller pinkod", { exact: false }).first()).toBeVisible();
  await loginViaForm(shopPage, String(shop.id), pin);
  await expect(shopPage).toHaveURL("/");
  const audits = await e2eDb().select().from(schema.auditLog).where(eq(schema.auditLog.target, `customer:${shop.id}`));
  expect(audits.map((a) => a.action)).toEqual(expect.arrayContaining(["customer.set-pin", "customer.pin-letter"]));
  expect(JSON.stringify(audits)).not.toContain(pin);
  writeFileSync(`${info.outputDir}/audit.json`, JSON.stringify(audits));
  await shopContext.close();
});

test("an admin deactivates a customer (no login, data kept) and reactivates them", async ({ page, browser }, info) => {
  const shop = await makeRetailer(info.workerIndex, { name: `Nguyễn Tobak ${Date.now()}` });
  const admin = await makeStaff("admin");
  await loginAs(page, admin.email, admin.password);
  await page.goto(`/admin/kunder/${shop.id}`);
  await page.getByRole("link", { name: "Stäng av kunden" }).click();
  await page.getByRole("button", { name: "Stäng av", exact: true }).click();
  await expect(page.getByRole("status")).toHaveText("Kunden är avstängd. Den kan inte logga in, och dess inloggningar är avslutade.");
  await expect(page.getByRole("note")).toContainText("kunden kan inte logga in");

  const other = await browser.newContext({ javaScriptEnabled: info.project.name !== "js-off" });
  const shopPage = await other.newPage();
  await loginViaForm(shopPage, String(shop.id), shop.pin);
  await expect(shopPage.getByText("Kundnumret är avstängt. Kontakta kundtjänst.")).toBeVisible();
  await expect(shopPage).toHaveURL(/\/login/);
  // Kept, and listed as Avstängd.
  await page.goto(`/admin/kunder?status=avstangda&sok=${shop.id}`);
  await expect(page.getByRole("row", { name: new RegExp(`${shop.id}.*Avstängd`) })).toBeVisible();

  await page.goto(`/admin/kunder/${shop.id}`);
  await page.getByRole("button", { name: "Aktivera kunden" }).click();
  await expect(page.getByRole("status")).toHaveText("Kunden är aktiv igen och kan logga in.");
  await loginViaForm(shopPage, String(shop.id), shop.pin);
  await expect(shopPage).toHaveURL("/");
  await other.close();
});

test("an admin adds a customer; a number already taken is refused with everything typed kept", async ({ page }, info) => {
  const taken = await makeRetailer(info.workerIndex);
  const admin = await makeStaff("admin");
  await loginAs(page, admin.email, admin.password);
  await page.goto("/admin/kunder");
  await page.getByRole("link", { name: "Ny kund" }).click();
  await expect(page.getByRole("heading", { name: "Ny kund", level: 1 })).toBeVisible();
  await page.getByLabel("Kundnummer", { exact: true }).fill(String(taken.id));
  await page.getByLabel("Namn", { exact: true }).fill("Kiosk Łódź");
  await page.getByLabel("Distributör", { exact: true }).selectOption({ index: 1 });
  await page.getByLabel("Ort", { exact: true }).fill("Malmö");
  await page.getByRole("button", { name: "Lägg till kund" }).click();
  await expect(page.getByText(`Kund ${taken.id} finns redan.`)).toBeVisible();
  await expect(page.getByLabel("Namn", { exact: true })).toHaveValue("Kiosk Łódź");
  await expect(page.getByLabel("Ort", { exact: true })).toHaveValue("Malmö");
  let id = uniqueCustomerId(info.workerIndex);
  while ((await e2eDb().select().from(schema.customers).where(eq(schema.customers.id, id))).length) id = uniqueCustomerId(info.workerIndex);
  await page.getByLabel("Kundnummer", { exact: true }).fill(String(id));
  await page.getByRole("button", { name: "Lägg till kund" }).click();
  await expect(page.getByRole("status")).toHaveText(`Kund ${id} Kiosk Łódź är tillagd. Ge kunden en pinkod för att kunna logga in.`);
  await expect(page.getByRole("heading", { name: `${id} Kiosk Łódź`, level: 1 })).toBeVisible();
  await expect(page.getByText("Ingen pinkod ännu")).toBeVisible();
});

test("a utb user sees their distributor's customers only, and cannot change them", async ({ page }, info) => {
  await createDistributor(e2eDb(), 41);
  await createDistributor(e2eDb(), 42);
  const mine = await makeRetailer(info.workerIndex, { distributorId: 41, name: `Utb-kiosken ${Date.now()}` });
  const theirs = await makeRetailer(info.workerIndex, { distributorId: 42, name: `Annan utb ${Date.now()}` });
  const utb = await makeStaff("utb", 41);
  await loginAs(page, utb.email, utb.password);
  await page.goto(`/admin/kunder?sok=${mine.id}`);
  await expect(page.getByRole("link", { name: String(mine.id), exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: "Ny kund" })).toHaveCount(0);
  await page.goto(`/admin/kunder?sok=${theirs.id}`);
  await expect(page.getByText("Inga kunder hittades.")).toBeVisible();
  const res = await page.goto(`/admin/kunder/${theirs.id}`);
  expect(res?.status()).toBe(404);
  await expect(page.getByText(theirs.name)).toHaveCount(0);
  await page.goto(`/admin/kunder/${mine.id}`);
  await expect(page.getByRole("heading", { name: `${mine.id} ${mine.name}` })).toBeVisible();
  await expect(page.getByRole("link", { name: "Ny pinkod" })).toHaveCount(0);
});

test("an admin edits a customer's details: the postcode is stored as '211 20', payout numbers are checked by their check digits, the log says what changed, and a save over another admin's is refused with both kept", async ({ page, browser }, info) => {
  const run = `${Date.now()}${info.project.name}`;
  const north = await createDistributor(e2eDb(), 100_000 + Math.floor(Math.random() * 800_000), `Tidningsbud Syd ${run}`);
  const shop = await makeRetailer(info.workerIndex, { name: `Sahin Livs ${run}` });
  const admin = await makeStaff("admin");
  await loginAs(page, admin.email, admin.password);
  await page.goto(`/admin/kunder/${shop.id}`);
  await page.getByRole("link", { name: "Ändra uppgifter" }).click();
  await expect(page.getByRole("heading", { name: "Ändra uppgifter", level: 1 })).toBeVisible();
  await expect(page.getByLabel("Namn")).toHaveValue(shop.name);

  // A bad postcode is refused beside its field; nothing else typed is lost.
  await page.getByLabel("Namn").fill(`Şahin Livs ${run}`);
  await page.getByLabel("Adress").fill("Södergatan 12");
  await page.getByLabel("c/o").fill("Ayşe Şahin");
  await page.getByLabel("Postnummer").fill("2112");
  await page.getByLabel("Ort").fill("Malmö");
  await page.getByLabel("Kontaktperson").fill("Ayşe Şahin");
  await page.getByLabel("Telefon").fill("040-12 34 56");
  await page.getByLabel("E-post").fill("ayse@sahinlivs.example");
  await page.getByLabel("Distributör").selectOption({ label: north.name });
  // Without JavaScript the server refuses it; with it the field says so and Spara waits.
  if (info.project.name === "js-off") await page.getByRole("button", { name: "Spara" }).click();
  else await expect(page.getByRole("button", { name: "Spara" })).toBeDisabled();
  await expect(page.getByText("Postnumret är fem siffror, till exempel 111 20.")).toBeVisible();
  await expect(page.getByLabel("Adress")).toHaveValue("Södergatan 12");
  await expect(page.getByLabel("Kontaktperson")).toHaveValue("Ayşe Şahin");
  await page.getByLabel("Postnummer").fill("21120");
  // Payout numbers are checked by their check digits on the server; each wrong one is named.
  await page.getByLabel("Organisationsnummer").fill("556016-0681");
  await page.getByLabel("Bankgiro").fill("5050 1055");
  await page.getByRole("button", { name: "Spara" }).click();
  await expect(page.getByText("Organisationsnumret stämmer inte: 10 siffror där den sista är en kontrollsiffra, t.ex. 556016-0680.")).toBeVisible();
  await expect(page.getByLabel("Bankgiro")).toHaveValue("5050 1055");
  await expect(page.getByLabel("Kontaktperson")).toHaveValue("Ayşe Şahin");
  await page.getByLabel("Organisationsnummer").fill("5560160680");
  await page.getByRole("button", { name: "Spara" }).click();

  await expect(page.getByRole("status")).toContainText(
    `Sparat för ${shop.id} Şahin Livs ${run}: Namn, Distributör, Adress, c/o, Postnummer, Ort, Kontaktperson, Telefon, E-post, Organisationsnummer, Bankgiro.`
  );
  await expect(page.getByRole("heading", { name: `${shop.id} Şahin Livs ${run}`, level: 1 })).toBeVisible();
  await expect(page.getByText("Södergatan 12, c/o Ayşe Şahin, 211 20 Malmö")).toBeVisible();
  await expect(page.getByText(north.name)).toBeVisible();
  const [stored] = await e2eDb().select().from(schema.customers).where(eq(schema.customers.id, shop.id));
  expect([stored.zip, stored.distributorId, stored.contact, stored.orgNumber, stored.bankgiro]).toEqual(["211 20", north.id, "Ayşe Şahin", "556016-0680", "5050-1055"]);

  // The log says it in words.
  await page.goto(`/admin/logg?kund=${shop.id}`);
  await expect(page.getByText(`Postnummer 123 45 → 211 20`, { exact: false }).first()).toBeVisible();

  // Two admins open the form; the second one's save over the first's is refused, both kept.
  await page.goto(`/admin/kunder/${shop.id}/andra`);
  const other = await browser.newPage();
  await loginAs(other, admin.email, admin.password);
  await other.goto(`/admin/kunder/${shop.id}/andra`);
  await other.getByLabel("Telefon").fill("040-99 99 99");
  await other.getByRole("button", { name: "Spara" }).click();
  await expect(other.getByRole("status")).toContainText("Telefon.");
  await page.getByLabel("Ort").fill("Lund");
  await page.getByRole("button", { name: "Spara" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Kunden har ändrats i en annan flik eller av någon annan" })).toBeVisible();
  await expect(page.getByLabel("Ort")).toHaveValue("Lund");
  await expect(page.getByRole("alert").getByText("040-99 99 99")).toBeVisible();
  const [kept] = await e2eDb().select().from(schema.customers).where(eq(schema.customers.id, shop.id));
  expect([kept.city, kept.phone]).toEqual(["Malmö", "040-99 99 99"]);
  // Spara again saves the typed values over it, on purpose.
  await page.getByRole("button", { name: "Spara" }).click();
  await expect(page.getByRole("status")).toContainText("Ort, Telefon.");
  await other.close();
});
