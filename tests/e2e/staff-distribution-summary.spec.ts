// Distribution's Monday question: one table with a row per distributor and a Totalt row,
// what each figure means said in words, and a distributor's card opening from its row.
// Twenty distributors are a table, not twenty cards. JS off and on.
import { eq } from "drizzle-orm";
import { schema } from "../../db/client";
import { createDelivery, createDistributor, ensureTitlesAndEditions } from "../../cli/seed/factories";
import { addDays, today } from "../../app/lib/dates";
import { e2eDb, expect, loginAs, makeRetailer, makeStaff, test } from "./fixtures";
import { portalNow } from "../../db/clock";

const T = today();
const Y = addDays(T, -1);

async function distributor(name: string) {
  const id = 100_000 + Math.floor(Math.random() * 800_000);
  return createDistributor(e2eDb(), id, `${name} ${id}`);
}

test("the summary has a row per distributor and a Totalt row, and a distributor's card opens from its row", async ({ page }, info) => {
  const db = e2eDb();
  await ensureTitlesAndEditions(db);
  const north = await distributor("Tidningsbud Norr");
  const south = await distributor("Sydsvensk Distribution");
  const sahin = await makeRetailer(info.workerIndex, { distributorId: north.id, name: `Şahin Livs ${north.id}` });
  const orebro = await makeRetailer(info.workerIndex, { distributorId: north.id, name: `Örebro Tobak ${north.id}` });
  await makeRetailer(info.workerIndex, { distributorId: north.id, name: `Tyst Kiosk ${north.id}` });
  const malmo = await makeRetailer(info.workerIndex, { distributorId: south.id, name: `Pressbyrån Malmö C ${south.id}` });
  // A deactivated customer of Norr with a complaint: in none of the figures below.
  const closed = await makeRetailer(info.workerIndex, { distributorId: north.id, name: `Stängd Kiosk ${north.id}` });
  await createDelivery(db, { customerId: closed.id, titleId: 1, editionId: 1, deliveryDate: T, delivered: 10, received: 1, priceOre: 2200 });
  await db.update(schema.customers).set({ deactivatedAt: portalNow() }).where(eq(schema.customers.id, closed.id));
  // Norr: |20 − 18| × 22,00 + |5 − 0| × 10,90 = 44,00 + 54,50 = 98,50 kr, 7 ex; Syd: |12 − 9| × 25,00 = 75,00 kr, 3 ex.
  await createDelivery(db, { customerId: sahin.id, titleId: 1, editionId: 1, deliveryDate: Y, delivered: 20, received: 18, priceOre: 2200 });
  await createDelivery(db, { customerId: orebro.id, titleId: 2, editionId: 1, deliveryDate: T, delivered: 5, received: 0, priceOre: 1090 });
  await createDelivery(db, { customerId: malmo.id, titleId: 2, editionId: 4, deliveryDate: T, delivered: 12, received: 9, priceOre: 2500 });

  const admin = await makeStaff("admin");
  await loginAs(page, admin.email, admin.password);
  await page.goto(`/admin/distribution?fran=${Y}&till=${T}&utb=${north.id}&utb=${south.id}`);

  // The figures are explained in words on the page, a customer's x/30 too.
  await expect(page.getByText("Inte returer.", { exact: false })).toBeVisible();
  await expect(page.getByText("hur många av de senaste 30 dagarna kunden har rapporterat Mottagit (här 5 dagar).")).toBeVisible();
  const summary = page.getByRole("table", { name: "Per distributör" });
  const cells = async (name: string) => summary.getByRole("row", { name: new RegExp(`^${name}`) }).getByRole("cell").allInnerTexts();
  expect(await cells(north.name)).toEqual(["2 av 3 (66,7 %)", "7", "98,50 kr", "0", "0 rader, 0 ex", "Excel"]);
  expect(await cells(south.name)).toEqual(["1 av 1 (100,0 %)", "3", "75,00 kr", "0", "0 rader, 0 ex", "Excel"]);
  expect(await cells("Totalt")).toEqual(["3 av 4 (75,0 %)", "10", "173,50 kr", "0", "0 rader, 0 ex", ""]);

  // No card until one is opened from its row.
  await expect(page.getByRole("region", { name: north.name })).toHaveCount(0);
  const open = summary.getByRole("link", { name: north.name, exact: true });
  await expect(open).toHaveAttribute("aria-expanded", "false");
  await open.click();
  await expect(page).toHaveURL(new RegExp(`visa=${north.id}`));
  const card = page.getByRole("region", { name: north.name });
  await expect(card.getByText("Visa kunder (2)")).toBeVisible();
  await expect(page.getByRole("region", { name: south.name })).toHaveCount(0);
  await expect(summary.getByRole("link", { name: north.name, exact: true })).toHaveAttribute("aria-expanded", "true");

  // The card works as before: a customer's papers open inside it, and the card stays.
  await card.getByText("Visa kunder (2)").click();
  await card.getByRole("link", { name: sahin.name }).click();
  await expect(page.getByRole("table", { name: `Tidningar för ${sahin.name}` })).toBeVisible();
  await expect(page.getByRole("region", { name: north.name })).toBeVisible();

  // The other row opens its card instead; the open row closes it.
  await summary.getByRole("link", { name: south.name, exact: true }).click();
  await expect(page.getByRole("region", { name: south.name })).toBeVisible();
  await expect(page.getByRole("region", { name: north.name })).toHaveCount(0);
  await summary.getByRole("link", { name: south.name, exact: true }).click();
  await expect(page.getByRole("region", { name: south.name })).toHaveCount(0);
  await expect(page).not.toHaveURL(/visa=/);

  // A search opens the cards where it finds customers.
  await page.getByLabel("Sök kund (nummer, namn, ort)").fill("sahin");
  await page.getByRole("button", { name: "Visa" }).click();
  await expect(page.getByRole("region", { name: north.name }).getByText("Visa kunder (1 av 2)")).toBeVisible();
  await expect(page.getByRole("region", { name: south.name })).toHaveCount(0);
});

test("twenty distributors are a table of twenty rows, not twenty cards", async ({ page }, info) => {
  test.setTimeout(60_000);
  const db = e2eDb();
  await ensureTitlesAndEditions(db);
  const dists = [];
  for (let i = 0; i < 20; i++) {
    const d = await distributor(`Utb ${String(i + 1).padStart(2, "0")}`);
    const c = await makeRetailer(info.workerIndex, { distributorId: d.id, name: `Kiosk ${d.id}` });
    await createDelivery(db, { customerId: c.id, titleId: 1, editionId: 1, deliveryDate: T, delivered: 10, received: 9, priceOre: 2200 });
    dists.push(d);
  }
  const admin = await makeStaff("admin");
  await loginAs(page, admin.email, admin.password);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/admin/distribution?fran=${T}&till=${T}&${dists.map((d) => `utb=${d.id}`).join("&")}`);
  const summary = page.getByRole("table", { name: "Per distributör" });
  // Twenty rows, the header and Totalt.
  await expect(summary.getByRole("row")).toHaveCount(22);
  await expect(summary.getByRole("row", { name: /^Totalt/ })).toContainText("20 av 20 (100,0 %)");
  await expect(page.locator("section.distributor")).toHaveCount(0);
  // A row a line: the table's own height (the page's depends on what other tests stored:
  // the filter lists every distributor, and CI's 3 009 px was theirs, not this table's).
  expect((await summary.boundingBox())!.height).toBeLessThan(22 * 60);
});

test("a utb user sees their one distributor as its card, with the figures explained", async ({ page }, info) => {
  const db = e2eDb();
  await ensureTitlesAndEditions(db);
  const mine = await distributor("Gotlands Tidningsbud");
  const c = await makeRetailer(info.workerIndex, { distributorId: mine.id, name: `Visby Kiosk ${mine.id}` });
  await createDelivery(db, { customerId: c.id, titleId: 1, editionId: 1, deliveryDate: T, delivered: 10, received: 8, priceOre: 2200 });
  const utb = await makeStaff("utb", mine.id);
  await loginAs(page, utb.email, utb.password);
  await page.goto(`/admin/distribution?fran=${T}&till=${T}`);
  await expect(page.getByRole("table", { name: "Per distributör" })).toHaveCount(0);
  await expect(page.getByRole("region", { name: mine.name }).getByText("1 av 1 (100,0 %)")).toBeVisible();
  await expect(page.getByText("Inte returer.", { exact: false })).toBeVisible();
  // Another distributor's card cannot be opened by the URL.
  const other = await distributor("Annan Utb");
  expect((await page.request.get(`/admin/distribution?fran=${T}&till=${T}&visa=${other.id}`)).status()).toBe(200);
  await page.goto(`/admin/distribution?fran=${T}&till=${T}&visa=${other.id}`);
  await expect(page.getByRole("region", { name: other.name })).toHaveCount(0);
});
