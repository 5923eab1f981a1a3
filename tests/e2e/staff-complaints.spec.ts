// Leveransreklamation per utb as a utb user reads it on a Monday: the distributor's rows
// sorted by any column in the URL (JS off and on), and the same rows in Excel, in the same
// order; another distributor's rows cannot be reached by the URL.
import ExcelJS from "exceljs";
import { createDelivery, createDistributor, ensureTitlesAndEditions } from "../../cli/seed/factories";
import { addDays, today } from "../../app/lib/dates";
import { schema } from "../../db/client";
import { e2eDb, expect, loginAs, makeRetailer, makeStaff, test } from "./fixtures";

const T = today();

async function complaintsFixture(workerIndex: number) {
  const db = e2eDb();
  await ensureTitlesAndEditions(db);
  const id = 100_000 + Math.floor(Math.random() * 800_000);
  const dist = await createDistributor(db, id, `Tidningsbud Väst ${id}`);
  const sahin = await makeRetailer(workerIndex, { distributorId: id, name: `Şahin Livs ${id}` });
  const orebro = await makeRetailer(workerIndex, { distributorId: id, name: `Örebro Tobak ${id}` });
  // Three complaints: 2 ex × 22,00 = 44,00 kr; 5 ex × 10,90 = 54,50 kr; 1 ex over × 25,00 = 25,00 kr; one row without a difference.
  const short = await createDelivery(db, { customerId: sahin.id, titleId: 1, editionId: 1, deliveryDate: addDays(T, -2), delivered: 20, received: 18, priceOre: 2200 });
  const none = await createDelivery(db, { customerId: orebro.id, titleId: 2, editionId: 1, deliveryDate: addDays(T, -1), delivered: 5, received: 0, priceOre: 1090 });
  // Received short: claims (decision 031), as the delivery note makes them.
  const [claimShort, claimNone] = await db
    .insert(schema.claims)
    .values([
      { deliveryId: short.id, customerId: sahin.id, copies: 2 },
      { deliveryId: none.id, customerId: orebro.id, copies: 5 },
    ])
    .returning();
  await createDelivery(db, { customerId: sahin.id, titleId: 2, editionId: 2, deliveryDate: T, delivered: 12, received: 13, priceOre: 2500 });
  await createDelivery(db, { customerId: orebro.id, titleId: 1, editionId: 1, deliveryDate: T, delivered: 7, received: 7, priceOre: 2200 });
  return { dist, sahin, orebro, claims: { short: claimShort.id, none: claimNone.id } };
}

test("a utb user sorts its complaints by any column and exports them in the same order", async ({ page }, info) => {
  const { dist, sahin, orebro, claims } = await complaintsFixture(info.workerIndex);
  const other = await complaintsFixture(info.workerIndex);
  const utb = await makeStaff("utb", dist.id);
  await loginAs(page, utb.email, utb.password);
  await page.goto(`/admin/leveransreklamation?fran=${addDays(T, -6)}&till=${T}`);
  const table = page.getByRole("region", { name: `Reklamationer – ${dist.name}` }).getByRole("table");
  // Newest first by default.
  await expect(table.getByRole("row")).toHaveCount(4);
  await expect(table.getByRole("row").nth(1)).toContainText(T);

  // By Summa, ascending then descending.
  await table.getByRole("link", { name: "Summa" }).click();
  await expect(page).toHaveURL(/sortera=summa&ordning=stigande/);
  await expect(table.getByRole("columnheader", { name: /Summa/ })).toHaveAttribute("aria-sort", "ascending");
  await expect(table.getByRole("row").nth(1)).toContainText("25,00 kr");
  await table.getByRole("link", { name: /Summa/ }).click();
  await expect(table.getByRole("columnheader", { name: /Summa/ })).toHaveAttribute("aria-sort", "descending");
  await expect(table.getByRole("row").nth(1)).toContainText("54,50 kr");
  await expect(table.getByRole("row").nth(1)).toContainText(orebro.name);
  await expect(table.getByRole("row").nth(3)).toContainText("25,00 kr");
  await expect(table.getByRole("row")).toHaveCount(4);

  // The period chosen again keeps the order.
  await page.getByLabel("Från", { exact: true }).fill(addDays(T, -2));
  await page.getByRole("button", { name: "Visa" }).click();
  await expect(page).toHaveURL(/sortera=summa&ordning=fallande/);
  await expect(table.getByRole("row").nth(1)).toContainText("54,50 kr");

  // Excel holds the same rows in the same order, every column a person needs.
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: `Exportera reklamationerna för ${dist.name} till Excel` }).click()]);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile((await download.path())!);
  const sheet = wb.worksheets[0];
  expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(["Datum", "Kundnummer", "Kund", "Distributör", "Tidning", "Följesedel", "Mottagit", "Differens", "Summa (kr)", "Reklamation", "Status"]);
  const rows: unknown[][] = [];
  sheet.eachRow((row, n) => n > 1 && rows.push((row.values as unknown[]).slice(2)));
  expect(rows).toEqual([
    [orebro.id, orebro.name, dist.name, "Expressen", 5, 0, -5, 54.5, claims.none, "Inkommen"],
    [sahin.id, sahin.name, dist.name, "Aftonbladet", 20, 18, -2, 44, claims.short, "Inkommen"],
    [sahin.id, sahin.name, dist.name, "Expressen – Kvällsposten", 12, 13, 1, 25],
  ]);
  expect(sheet.getRow(2).getCell(1).value).toBeInstanceOf(Date);

  // "Alla" for a utb user is its own distributor; another's is refused by the URL.
  const all = await page.request.get(`/admin/leveransreklamation/export.xlsx?fran=${addDays(T, -6)}&till=${T}`);
  const wbAll = new ExcelJS.Workbook();
  await wbAll.xlsx.load((await all.body()) as unknown as ExcelJS.Buffer);
  const names = new Set<unknown>();
  wbAll.worksheets[0].eachRow((row, n) => n > 1 && names.add(row.getCell(4).value));
  expect([...names]).toEqual([dist.name]);
  expect((await page.request.get(`/admin/leveransreklamation/export.xlsx?utb=${other.dist.id}`)).status()).toBe(403);
});

test("staff sort the totals per distributor by any column, apart from the chosen distributor's rows and their order", async ({ page }, info) => {
  const { dist } = await complaintsFixture(info.workerIndex);
  await complaintsFixture(info.workerIndex);
  const sales = await makeStaff("sales");
  await loginAs(page, sales.email, sales.password);
  await page.goto(`/admin/leveransreklamation?fran=${addDays(T, -6)}&till=${T}&utb=${dist.id}&sortera=summa&ordning=fallande`);
  const totals = page.getByRole("table").filter({ has: page.getByRole("columnheader", { name: /Reklamationer/ }) });
  const kronor = async (column: number) =>
    (await totals.locator("tbody tr").evaluateAll((rows, i) => rows.map((r) => r.children[i]?.textContent ?? ""), column)).map((t) => Number(t.replace(/[^\d,-]/g, "").replace(",", ".")));
  const isSorted = (values: number[], descending: boolean) => values.every((v, i) => i === 0 || (descending ? values[i - 1] >= v : values[i - 1] <= v));

  await totals.getByRole("link", { name: "Summa" }).click();
  await expect(page).toHaveURL(/utbsortera=summa&utbordning=stigande/);
  await expect(totals.getByRole("columnheader", { name: /Summa/ })).toHaveAttribute("aria-sort", "ascending");
  expect(isSorted(await kronor(4), false)).toBe(true);
  await totals.getByRole("link", { name: /Summa/ }).click();
  await expect(totals.getByRole("columnheader", { name: /Summa/ })).toHaveAttribute("aria-sort", "descending");
  const sums = await kronor(4);
  expect(sums.length).toBeGreaterThanOrEqual(2);
  expect(isSorted(sums, true)).toBe(true);
  await totals.getByRole("link", { name: "Kunder" }).click();
  await expect(totals.getByRole("columnheader", { name: /Kunder/ })).toHaveAttribute("aria-sort", "ascending");
  expect(isSorted(await kronor(2), false)).toBe(true);

  // The chosen distributor's rows keep their own order, and the period chosen again keeps both.
  const detail = page.getByRole("region", { name: `Reklamationer – ${dist.name}` }).getByRole("table");
  await expect(detail.getByRole("columnheader", { name: /Summa/ })).toHaveAttribute("aria-sort", "descending");
  await expect(detail.getByRole("row").nth(1)).toContainText("54,50 kr");
  await page.getByLabel("Från", { exact: true }).fill(addDays(T, -5));
  await page.getByRole("button", { name: "Visa" }).click();
  await expect(page).toHaveURL(/utbsortera=kunder&utbordning=stigande/);
  await expect(page).toHaveURL(/sortera=summa&ordning=fallande/);
  await expect(totals.getByRole("columnheader", { name: /Kunder/ })).toHaveAttribute("aria-sort", "ascending");
});
