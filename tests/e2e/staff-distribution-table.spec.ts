// Distribution's customer tables as staff use them all day: searched, sorted and paged
// with the state in the URL (JS off and on), and the five-minute refresh that keeps what
// the user opened open and says 'Hämtar data...' while it loads (JS on).
import { createDelivery, createDistributor, ensureTitlesAndEditions } from "../../cli/seed/factories";
import { today } from "../../app/lib/dates";
import { e2eDb, expect, loginAs, makeRetailer, makeStaff, test } from "./fixtures";

const T = today();

async function bigDistributor(workerIndex: number, plain: number) {
  const db = e2eDb();
  await ensureTitlesAndEditions(db);
  const id = 100_000 + Math.floor(Math.random() * 800_000);
  const dist = await createDistributor(db, id, `E2E Tabellutb ${id}`);
  const names = ["Şahin Livs", "Kiosk Łódź", "Nguyễn Tobak", ...Array.from({ length: plain }, (_, i) => `Kiosk ${String(i).padStart(3, "0")}`)];
  const customers = [];
  for (const [i, name] of names.entries()) {
    const c = await makeRetailer(workerIndex, { distributorId: id, name: `${name} ${id}` });
    await createDelivery(db, { customerId: c.id, titleId: 1, editionId: 1, deliveryDate: T, delivered: 10, received: i % 10, priceOre: 1000 });
    customers.push(c);
  }
  return { dist, customers };
}

test("an admin searches, sorts and pages a distributor's customers, and Back returns to the view before", async ({ page }, info) => {
  test.setTimeout(60_000);
  const { dist } = await bigDistributor(info.workerIndex, 102);
  const admin = await makeStaff("admin");
  await loginAs(page, admin.email, admin.password);
  await page.goto(`/admin/distribution?fran=${T}&till=${T}&utb=${dist.id}`);
  const card = page.getByRole("region", { name: dist.name });
  await card.getByText("Visa kunder (105)").click();
  const table = card.getByRole("table", { name: `Kunder hos ${dist.name}` });
  // One page of 100 rows (and the header row), then the rest on page 2.
  await expect(table.getByRole("row")).toHaveCount(101);
  await expect(card.getByText("Sida 1 av 2")).toBeVisible();
  await card.getByRole("link", { name: "Nästa" }).click();
  await expect(page).toHaveURL(new RegExp(`sida-${dist.id}=2`));
  await expect(table.getByRole("row")).toHaveCount(6);

  // Sorted by name, Swedish order: digits, then letters; Ş sorts as S.
  await table.getByRole("link", { name: "Namn" }).click();
  await expect(page).toHaveURL(/sortera=namn&ordning=stigande/);
  await expect(page).not.toHaveURL(new RegExp(`sida-${dist.id}=`));
  await expect(table.getByRole("columnheader", { name: /Namn/ })).toHaveAttribute("aria-sort", "ascending");
  await expect(table.getByRole("row").nth(1)).toContainText("Kiosk 000");
  await table.getByRole("link", { name: /Namn/ }).click();
  await expect(table.getByRole("columnheader", { name: /Namn/ })).toHaveAttribute("aria-sort", "descending");
  await expect(table.getByRole("row").nth(1)).toContainText("Şahin Livs");
  await expect(table.getByRole("row").nth(2)).toContainText("Nguyễn Tobak");

  // Searched the way staff type: no diacritics, any case; the order is kept.
  await page.getByLabel("Sök kund (nummer, namn, ort)").fill("LODZ");
  await page.getByRole("button", { name: "Visa" }).click();
  await expect(page).toHaveURL(/sok=LODZ/);
  await expect(page).toHaveURL(/sortera=namn&ordning=fallande/);
  await expect(card.getByText("Visa kunder (1 av 105)")).toBeVisible();
  await expect(table.getByRole("row")).toHaveCount(2);
  await expect(table.getByRole("row").nth(1)).toContainText("Kiosk Łódź");
  await page.getByLabel("Sök kund (nummer, namn, ort)").fill("ingen sådan kiosk");
  await page.getByRole("button", { name: "Visa" }).click();
  await expect(card.getByText("Inga kunder matchar sökningen.")).toBeVisible();

  // Back: the search before, then the unsearched sorted view.
  await page.goBack();
  await expect(table.getByRole("row")).toHaveCount(2);
  await page.goBack();
  await expect(page).not.toHaveURL(/sok=/);
  await expect(table.getByRole("row").nth(1)).toContainText("Şahin Livs");
});

test("a customer opened from page 2 opens on its page; the export is not cut to the page", async ({ page }, info) => {
  test.setTimeout(60_000);
  const { dist, customers } = await bigDistributor(info.workerIndex, 100);
  const admin = await makeStaff("admin");
  await loginAs(page, admin.email, admin.password);
  const last = [...customers].sort((a, b) => a.id - b.id).at(-1)!;
  // A shared link to one customer: the table opens on the page that holds it.
  await page.goto(`/admin/distribution?fran=${T}&till=${T}&utb=${dist.id}&kund=${last.id}`);
  await expect(page.getByRole("table", { name: `Tidningar för ${last.name}` })).toBeVisible();
  await expect(page.getByRole("region", { name: dist.name }).getByText("Sida 2 av 2")).toBeVisible();
  const href = await page.getByRole("link", { name: `Exportera ${dist.name} till Excel` }).getAttribute("href");
  expect(href).not.toMatch(/sida-|kund=|sok=/);
});

test.describe("with JavaScript", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "the refresh without JavaScript is <meta refresh> (checked in the distribution spec)");

  test("the five-minute refresh says 'Hämtar data...', shows new reports and keeps the opened rows open", async ({ page }, info) => {
    const { dist, customers } = await bigDistributor(info.workerIndex, 2);
    const admin = await makeStaff("admin");
    await loginAs(page, admin.email, admin.password);
    await page.clock.install();
    await page.goto(`/admin/distribution?fran=${T}&till=${T}&utb=${dist.id}`);
    const card = page.getByRole("region", { name: dist.name });
    await card.getByText("Visa kunder (5)").click();
    const sahin = customers[0];
    await card.getByRole("link", { name: sahin.name }).click();
    await expect(page.getByRole("table", { name: `Tidningar för ${sahin.name}` })).toBeVisible();
    await expect(card.getByText("Antal").locator("xpath=following-sibling::dd[1]")).toHaveText("40");

    // A report arrives meanwhile; the refresh is slowed so its overlay can be seen.
    await createDelivery(e2eDb(), { customerId: sahin.id, titleId: 2, editionId: 1, deliveryDate: T, delivered: 8, received: 1, priceOre: 2000 });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/admin\/distribution\.data/, async (route) => {
      await held;
      await route.continue();
    });
    await page.clock.runFor(300_000);
    await expect(page.getByRole("status").filter({ hasText: "Hämtar data..." })).toBeVisible();
    release();
    await expect(card.getByText("Antal").locator("xpath=following-sibling::dd[1]")).toHaveText("47");
    await expect(page.getByText("Hämtar data...")).toBeHidden();
    await expect(card.locator("details")).toHaveAttribute("open", "");
    await expect(page.getByRole("table", { name: `Tidningar för ${sahin.name}` }).getByRole("row")).toHaveCount(3);
  });
});
