// Delivery claims (decision 031), as the retailer who received short and the staff who
// decide: a Mottagit below Levererat becomes "Reklamation N – Inkommen" on the delivery
// note and under Mina reklamationer; the distributor's utb user decides it partly with a
// reason (another distributor's utb user cannot reach it); the retailer then sees the
// decision and can no longer change Mottagit; an admin approves another claim from the
// list's boxes. JavaScript off and on; the retailer's lists read at 360 px.
import { createDistributor } from "../../cli/seed/factories";
import { today } from "../../app/lib/dates";
import { e2eDb, expect, formToken, loginAs, makeRetailer, makeStaff, test, withGlobalLock } from "./fixtures";
import { delivery } from "./returns-data";

test("a short delivery is a claim the retailer follows and staff decide", async ({ page, browser }, info) => {
  // It may wait for another test's invoice run to end (the run lock, below).
  test.setTimeout(150_000);
  const off = info.project.name === "js-off";
  const base = 600 + Math.floor(Math.random() * 1000) * 2 + (off ? 0 : 1);
  const mine = await createDistributor(e2eDb(), base * 10, `Reklamation Şahin ${info.project.name}`);
  const other = await createDistributor(e2eDb(), base * 10 + 1, `Annan utb ${info.project.name}`);
  const shop = await makeRetailer(info.workerIndex, { distributorId: mine.id, name: "Şahin Livs" });
  const ab = await delivery(shop.id, { date: today(), delivered: 20 });
  const kvp = await delivery(shop.id, { date: today(), titleId: 2, editionId: 2, delivered: 12 });

  await loginAs(page, shop.id, shop.pin);
  await page.goto("/foljesedel");
  const abRow = page.locator(`#leverans-${ab.id}`);
  await abRow.getByLabel("Mottagit").fill("15");
  await abRow.getByRole("button", { name: "Spara" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Mottaget antal sparat." }).first()).toBeVisible();
  const claimText = abRow.getByText(/^Reklamation \d+ – Inkommen$/);
  await expect(claimText).toBeVisible();
  const claimId = Number(/Reklamation (\d+)/.exec((await claimText.textContent())!)![1]);
  await expect(abRow.getByText(/^Kan reklameras till \d{4}-\d\d-\d\d kl\. \d\d:\d\d\.$/)).toBeVisible();
  const kvpRow = page.locator(`#leverans-${kvp.id}`);
  await kvpRow.getByLabel("Mottagit").fill("10");
  await kvpRow.getByRole("button", { name: "Spara" }).click();
  const otherText = kvpRow.getByText(/^Reklamation \d+ – Inkommen$/);
  await expect(otherText).toBeVisible();
  const otherId = Number(/Reklamation (\d+)/.exec((await otherText.textContent())!)![1]);

  // Mina reklamationer, on a phone.
  await page.setViewportSize({ width: 360, height: 800 });
  await page.goto("/reklamationer");
  await expect(page.getByRole("heading", { name: "Mina reklamationer", level: 1 })).toBeVisible();
  await expect(page.getByRole("row", { name: `${claimId} Aftonbladet ${today()} 20 15 Inkommen` })).toBeVisible();
  await expect(page.getByRole("row", { name: `${otherId} Expressen – Kvällsposten ${today()} 12 10 Inkommen` })).toBeVisible();

  // Another distributor's utb user cannot reach the claim.
  const outsider = await browser.newContext({ baseURL: info.project.use.baseURL, javaScriptEnabled: !off });
  const outsiderPage = await outsider.newPage();
  const stranger = await makeStaff("utb", other.id);
  await loginAs(outsiderPage, stranger.email, stranger.password);
  expect((await outsiderPage.goto(`/admin/leveransreklamation/${claimId}`))?.status()).toBe(404);
  const forged = await outsiderPage.request.post(`/admin/leveransreklamation/${claimId}`, {
    form: { csrf: await formToken(outsiderPage.request), intent: "besluta", arende: String(claimId), beslut: "godkann" },
    maxRedirects: 0,
  });
  expect(forged.status()).toBe(404);
  await outsider.close();

  // From the decision on, no invoice run (another test's) may credit the claims before this
  // test has read their decided status: the run lock is held.
  await withGlobalLock("invoice-run", async () => {
    // The distributor's own utb user: the undecided claims, then the claim's page.
    const staff = await browser.newContext({ baseURL: info.project.use.baseURL, javaScriptEnabled: !off });
    const staffPage = await staff.newPage();
    const utb = await makeStaff("utb", mine.id);
    await loginAs(staffPage, utb.email, utb.password);
    await staffPage.goto(`/admin/leveransreklamation?fran=${today()}&till=${today()}`);
    await staffPage.getByLabel("Endast ej beslutade").check();
    await staffPage.getByRole("button", { name: "Visa" }).click();
    await expect(staffPage).toHaveURL(/visa=ej-beslutade/);
    await staffPage.getByRole("link", { name: `Reklamation ${claimId} – Inkommen` }).click();
    await expect(staffPage.getByRole("heading", { name: `Reklamation ${claimId} – Inkommen` })).toBeVisible();
    await staffPage.getByLabel("Godkänn delvis").check();
    await staffPage.getByLabel(/Antal godkända ex/).fill("7");
    await staffPage.getByLabel(/Motivering/).fill("Tre ex låg kvar i bilen");
    await staffPage.getByRole("button", { name: "Spara beslut" }).click();
    // Server's answer: more than claimed, said beside the field, what was typed kept.
    await expect(staffPage.getByText("Ange hur många ex som godkänns: 1–4 av 5.")).toBeVisible();
    await expect(staffPage.getByLabel(/Motivering/)).toHaveValue("Tre ex låg kvar i bilen");
    await staffPage.getByLabel("Godkänn delvis").check();
    await staffPage.getByLabel(/Antal godkända ex/).fill("3");
    await staffPage.getByRole("button", { name: "Spara beslut" }).click();
    await expect(staffPage.getByRole("status").filter({ hasText: `Reklamation ${claimId} delvis godkänd (3 ex).` })).toBeVisible();
    await expect(staffPage.getByRole("heading", { name: `Reklamation ${claimId} – Delvis godkänd (3 ex)` })).toBeVisible();
    await expect(staffPage.getByRole("button", { name: "Spara beslut" })).toHaveCount(0);
    await staff.close();

    // The retailer sees the decision, and Mottagit is locked (a forged save too).
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto("/foljesedel");
    await expect(abRow.getByText(`Reklamation ${claimId} – Delvis godkänd (3 ex)`)).toBeVisible();
    await expect(abRow.getByText(`Reklamation ${claimId} är beslutad. Mottaget antal kan inte längre ändras.`)).toBeVisible();
    await expect(abRow.getByLabel("Mottagit")).toHaveCount(0);
    const locked = await page.request.post("/foljesedel", { form: { csrf: await formToken(page.request), intent: "spara-mottaget", deliveryId: String(ab.id), mottagit: "20" } });
    expect(locked.status()).toBe(400);
    expect(await locked.text()).toContain(`Reklamation ${claimId} är beslutad.`);

    // An admin approves the other claim from the list's boxes.
    const adminContext = await browser.newContext({ baseURL: info.project.use.baseURL, javaScriptEnabled: !off });
    const adminPage = await adminContext.newPage();
    const admin = await makeStaff("admin");
    await loginAs(adminPage, admin.email, admin.password);
    await adminPage.goto(`/admin/leveransreklamation?fran=${today()}&till=${today()}&utb=${mine.id}&visa=ej-beslutade`);
    await expect(adminPage.getByRole("link", { name: `Reklamation ${claimId} – Delvis godkänd (3 ex)` })).toHaveCount(0);
    await adminPage.getByRole("button", { name: "Avslå markerade" }).click();
    await expect(adminPage.getByText("Välj minst en reklamation.").first()).toBeVisible();
    await adminPage.getByLabel(`Välj reklamation ${otherId}`).check();
    await adminPage.getByRole("button", { name: "Godkänn markerade" }).click();
    await expect(adminPage.getByRole("status").filter({ hasText: `Reklamation ${otherId} godkänd.` })).toBeVisible();
    await expect(adminPage.getByText("Inga ej beslutade reklamationer under perioden.")).toBeVisible();
    await adminContext.close();

    await page.setViewportSize({ width: 360, height: 800 });
    await page.goto("/reklamationer");
    await expect(page.getByRole("row", { name: `${claimId} Aftonbladet ${today()} 20 15 Delvis godkänd (3 ex)` })).toBeVisible();
    await expect(page.getByRole("row", { name: `${otherId} Expressen – Kvällsposten ${today()} 12 10 Godkänd` })).toBeVisible();
    // Nothing wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  });
});
