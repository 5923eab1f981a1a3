// Per holiday, who answered Öppet, who Stängt and who has
// not answered, with counts per distributor, a filter and an Excel export — as an admin;
// a utb user sees only their distributor's customers.
import ExcelJS from "exceljs";
import { eq } from "drizzle-orm";
import { schema } from "../../db/client";
import { createDistributor } from "../../cli/seed/factories";
import { addDays, today } from "../../app/lib/dates";
import { e2eDb, expect, forgetUser, loginAs, makeRetailer, makeStaff, test } from "./fixtures";

test("an admin reads the answers to a holiday per distributor, filters them and exports them; utb sees its own", async ({ page }, info) => {
  const run = `${Date.now()}${info.project.name}`;
  const offset = Math.floor(Math.random() * 3000);
  await createDistributor(e2eDb(), 61, "Utdelning Härnö");
  await createDistributor(e2eDb(), 62, "Utdelning Ystad");
  const open = await makeRetailer(info.workerIndex, { distributorId: 61, name: `Şahin Livs ${run}` });
  const closed = await makeRetailer(info.workerIndex, { distributorId: 61, name: `Kiosk Łódź ${run}` });
  const silent = await makeRetailer(info.workerIndex, { distributorId: 62, name: `Nguyễn Tobak ${run}` });
  const [holiday] = await e2eDb()
    .insert(schema.holidays)
    // Reporting opens long after today: no retailer is asked (or locked) by this holiday now.
    .values({ description: `Midsommar ${run}`, day: addDays(today(), 300 + offset), startReportDay: addDays(today(), 280 + offset), startForceReportDay: addDays(today(), 290 + offset) })
    .returning();
  await e2eDb().insert(schema.holidayReports).values([
    { holidayId: holiday.id, customerId: open.id, open: true },
    { holidayId: holiday.id, customerId: closed.id, open: false },
  ]);
  const admin = await makeStaff("admin");
  await loginAs(page, admin.email, admin.password);
  await page.goto("/admin/holidays");
  await page.getByRole("link", { name: `Svar för Midsommar ${run}` }).click();
  await expect(page.getByRole("heading", { name: new RegExp(`Svar: Midsommar ${run}`), level: 1 })).toBeVisible();
  // Counts per distributor (other tests' customers count too: check ours are in).
  const norr = page.getByRole("row", { name: /^Utdelning Härnö/ });
  await expect(norr).toBeVisible();
  expect(Number(await norr.getByRole("cell").nth(0).textContent())).toBeGreaterThanOrEqual(1);
  // The list holds every customer of the network (other tests' too, paged): narrowed to
  // each distributor, as staff do, ours are on its first page.
  await page.getByLabel("Distributör").selectOption({ label: "Utdelning Härnö" });
  await page.getByRole("button", { name: "Visa" }).click();
  await expect(page.getByRole("row").filter({ hasText: open.name })).toContainText("Öppet");
  await expect(page.getByRole("row").filter({ hasText: closed.name })).toContainText("Stängt");
  await page.getByLabel("Distributör").selectOption({ label: "Utdelning Ystad" });
  await page.getByRole("button", { name: "Visa" }).click();
  await expect(page.getByRole("row").filter({ hasText: silent.name })).toContainText("Ej svarat");

  await page.getByLabel("Svar", { exact: true }).selectOption({ label: "Ej svarat" });
  await page.getByLabel("Distributör").selectOption({ label: "Utdelning Ystad" });
  await page.getByRole("button", { name: "Visa" }).click();
  await expect(page).toHaveURL(/svar=ej-svarat/);
  await expect(page.getByRole("row").filter({ hasText: silent.name })).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: open.name })).toHaveCount(0);

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Exportera till Excel" }).click()]);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile((await download.path())!);
  const sheet = wb.worksheets[0];
  expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(["Kundnummer", "Namn", "Ort", "Distributör", "Svar", "Svarat"]);
  const names: unknown[] = [];
  sheet.eachRow((row, n) => n > 1 && names.push(row.getCell(2).value));
  expect(names).toContain(silent.name);
  expect(names).not.toContain(open.name);

  // A utb user of Norr finds the answers from Distribution, where utb works: its customers only.
  await forgetUser(page);
  const utb = await makeStaff("utb", 61);
  await loginAs(page, utb.email, utb.password);
  await page.goto("/admin/distribution");
  await page.getByRole("region", { name: "Butikernas svar om helgdagar" }).getByRole("link", { name: `Svar för Midsommar ${run}` }).click();
  await expect(page).toHaveURL(`/admin/holidays/${holiday.id}/svar`);
  await expect(page.getByRole("row").filter({ hasText: open.name })).toBeVisible();
  await expect(page.getByText(silent.name)).toHaveCount(0);
  await expect(page.getByRole("row", { name: /^Utdelning Ystad/ })).toHaveCount(0);
});

test("sales reach a coming holiday's answers from Distribution; past ones are folded under Tidigare helgdagar", async ({ page }, info) => {
  const run = `${Date.now()}${info.project.name}`;
  const [coming] = await e2eDb()
    .insert(schema.holidays)
    .values({ description: `Trettondedag jul ${run}`, day: addDays(today(), 400), startReportDay: addDays(today(), 380), startForceReportDay: addDays(today(), 390) })
    .returning();
  await e2eDb()
    .insert(schema.holidays)
    .values({ description: `Alla helgons dag ${run}`, day: addDays(today(), -30), startReportDay: addDays(today(), -50), startForceReportDay: addDays(today(), -40) });
  // A completed holiday (far ahead, so it is among the ten latest whatever else the shared database holds).
  const [done] = await e2eDb()
    .insert(schema.holidays)
    .values({ description: `Midsommarafton ${run}`, day: addDays(today(), 5000 + Math.floor(Math.random() * 1000)), startReportDay: addDays(today(), 380), startForceReportDay: addDays(today(), 390), completed: true })
    .returning();
  const sales = await makeStaff("sales");
  await loginAs(page, sales.email, sales.password);
  await page.goto("/admin/distribution");
  const answers = page.getByRole("region", { name: "Butikernas svar om helgdagar" });
  await answers.getByText(/^Tidigare helgdagar/).click();
  await answers.getByRole("link", { name: `Svar för Midsommarafton ${run}` }).click();
  await expect(page).toHaveURL(`/admin/holidays/${done.id}/svar`);
  await expect(page.getByText("Helgdagen är klarmarkerad.")).toBeVisible();
  await page.goto("/admin/distribution");
  // Not among the coming ones; the latest earlier ones (the shared database has many) are folded.
  await expect(answers.locator(":scope > ul").getByRole("link", { name: `Svar för Alla helgons dag ${run}` })).toHaveCount(0);
  await expect(answers.getByText(/^Tidigare helgdagar \(\d+\)$/)).toBeVisible();
  await answers.getByRole("link", { name: `Svar för Trettondedag jul ${run}` }).click();
  await expect(page).toHaveURL(`/admin/holidays/${coming.id}/svar`);
  await expect(page.getByRole("heading", { name: new RegExp(`Svar: Trettondedag jul ${run}`), level: 1 })).toBeVisible();
});

test("a holiday whose day has passed leaves Aktuella helgdagar; deleting an answered holiday says the answers are kept", async ({ page }, info) => {
  const run = `${Date.now()}${info.project.name}`;
  const offset = Math.floor(Math.random() * 3000);
  const retailer = await makeRetailer(info.workerIndex, { name: `Şahin Livs ${run}` });
  const other = await makeRetailer(info.workerIndex, { name: `Kiosk Łódź ${run}` });
  const [past, coming] = await e2eDb()
    .insert(schema.holidays)
    .values([
      // Passed three days ago and never completed.
      { description: `Kristi himmelsfärd ${run}`, day: addDays(today(), -3), startReportDay: addDays(today(), -10), startForceReportDay: addDays(today(), -5) },
      { description: `Nationaldagen ${run}`, day: addDays(today(), 400 + offset), startReportDay: addDays(today(), 380 + offset), startForceReportDay: addDays(today(), 390 + offset) },
    ])
    .returning();
  await e2eDb().insert(schema.holidayReports).values([
    { holidayId: coming.id, customerId: retailer.id, open: true },
    { holidayId: coming.id, customerId: other.id, open: false },
  ]);
  const admin = await makeStaff("admin");
  await loginAs(page, admin.email, admin.password);
  await page.goto("/admin/holidays");
  const pastSection = page.getByRole("region", { name: "Passerade helgdagar" });
  await expect(pastSection.getByRole("row", { name: new RegExp(past.description) })).toBeVisible();
  await expect(page.getByRole("row", { name: new RegExp(past.description) })).toHaveCount(1);
  await expect(pastSection.getByRole("row", { name: new RegExp(coming.description) })).toHaveCount(0);
  const row = page.getByRole("row", { name: new RegExp(coming.description) });
  await expect(row.getByRole("cell").nth(4)).toHaveText("2");

  await row.getByRole("link", { name: `Ta bort ${coming.description}` }).click();
  await expect(page.getByText("2 återförsäljare har redan svarat. Svaren sparas och går att läsa under Avslutade helgdagar.")).toBeVisible();
  await page.getByRole("button", { name: "Ta bort", exact: true }).click();
  await expect(page.getByRole("status")).toHaveText("Helgdagen borttagen. Svaren från 2 återförsäljare sparas.");
  const current = page.getByRole("table").filter({ has: page.getByRole("columnheader", { name: "Tvingande från" }) });
  await expect(current.getByRole("row", { name: new RegExp(coming.description) })).toHaveCount(0);
  const kept = await e2eDb().select().from(schema.holidayReports).where(eq(schema.holidayReports.holidayId, coming.id));
  expect(kept).toHaveLength(2);

  // The deleted holiday's answers stay readable: under Avslutade helgdagar, marked Borttagen.
  const ended = page.getByRole("region", { name: "Avslutade helgdagar" });
  const endedRow = ended.getByRole("row", { name: new RegExp(coming.description) });
  await expect(endedRow).toContainText("Borttagen");
  await expect(endedRow.getByRole("cell").nth(3)).toHaveText("2");
  await endedRow.getByRole("link", { name: `Svar för ${coming.description} ${coming.day}` }).click();
  await expect(page.getByRole("heading", { name: `Svar: ${coming.description} ${coming.day}`, level: 1 })).toBeVisible();
  await expect(page.getByText("Helgdagen är borttagen: återförsäljarna frågas inte längre, men svaren finns kvar.")).toBeVisible();
  // Searched by this run's mark: the shared database holds more customers than a page.
  await page.getByLabel("Sök kund (nummer, namn, ort)").fill(run);
  await page.getByLabel("Sök kund (nummer, namn, ort)").press("Enter");
  await expect(page.getByRole("row", { name: new RegExp(retailer.name) })).toContainText("Öppet");
  await expect(page.getByRole("row", { name: new RegExp(other.name) })).toContainText("Stängt");
  await page.goto("/admin/holidays");

  // Completed, the passed holiday leaves the current lists for Avslutade helgdagar.
  await page.getByRole("link", { name: `Klarmarkera ${past.description}` }).click();
  await page.getByRole("button", { name: "Klarmarkera" }).click();
  await expect(page.getByRole("status")).toHaveText("Helgdagen klarmarkerad.");
  await expect(pastSection.getByRole("row", { name: new RegExp(past.description) })).toHaveCount(0);
  await expect(ended.getByRole("row", { name: new RegExp(past.description) })).toContainText("Klarmarkerad");
  await expect(page.getByRole("row", { name: new RegExp(past.description) })).toHaveCount(1);
});

test("sales search, sort and page a distributor's 130 answers, and the export holds the search's rows", async ({ page }, info) => {
  test.setTimeout(90_000);
  const run = `${Date.now()}${info.project.name}`;
  const distributorId = 100_000 + Math.floor(Math.random() * 800_000);
  const dist = await createDistributor(e2eDb(), distributorId, `Tidningsbud Mitt ${distributorId}`);
  const names = ["Şahin Livs", "Åre Tobak", "Örebro Kiosk", ...Array.from({ length: 127 }, (_, i) => `Kiosk ${String(i).padStart(3, "0")}`)];
  const customers = [];
  for (const name of names) customers.push(await makeRetailer(info.workerIndex, { distributorId, name: `${name} ${distributorId}` }));
  const [holiday] = await e2eDb()
    .insert(schema.holidays)
    .values({ description: `Julafton ${run}`, day: addDays(today(), 500), startReportDay: addDays(today(), 480), startForceReportDay: addDays(today(), 490) })
    .returning();
  // The first 60 answered, Öppet and Stängt in turn; 70 have not.
  await e2eDb()
    .insert(schema.holidayReports)
    .values(customers.slice(0, 60).map((c, i) => ({ holidayId: holiday.id, customerId: c.id, open: i % 2 === 0 })));

  const sales = await makeStaff("sales");
  await loginAs(page, sales.email, sales.password);
  await page.goto("/admin/distribution");
  await page.getByRole("region", { name: "Butikernas svar om helgdagar" }).getByRole("link", { name: `Svar för Julafton ${run}` }).click();
  await expect(page.getByRole("heading", { name: new RegExp(`Svar: Julafton ${run}`), level: 1 })).toBeVisible();
  await page.getByLabel("Distributör").selectOption({ label: dist.name });
  await page.getByRole("button", { name: "Visa" }).click();
  const table = page.getByRole("table").filter({ has: page.getByRole("columnheader", { name: "Kundnummer" }) });
  // All 130, no stop at 500 or anywhere: a page of 100, then the rest.
  await expect(page.getByText("130 kunder.", { exact: true })).toBeVisible();
  await expect(page.getByText("Sida 1 av 2")).toBeVisible();
  await expect(table.getByRole("row")).toHaveCount(101);
  await page.getByRole("link", { name: "Nästa" }).click();
  await expect(table.getByRole("row")).toHaveCount(31);

  // Sorted by name in Swedish order, descending: Ö, Å, then S (Ş sorts as S), then K.
  await table.getByRole("link", { name: "Namn" }).click();
  await expect(page).not.toHaveURL(/sida=/);
  await table.getByRole("link", { name: /Namn/ }).click();
  await expect(table.getByRole("columnheader", { name: /Namn/ })).toHaveAttribute("aria-sort", "descending");
  await expect(table.getByRole("row").nth(1)).toContainText(`Örebro Kiosk ${distributorId}`);
  await expect(table.getByRole("row").nth(2)).toContainText(`Åre Tobak ${distributorId}`);
  await expect(table.getByRole("row").nth(3)).toContainText(`Şahin Livs ${distributorId}`);

  // Searched the way staff type, the order and the filters kept.
  await page.getByLabel("Sök kund (nummer, namn, ort)").fill("SAHIN");
  await page.getByRole("button", { name: "Visa" }).click();
  await expect(page).toHaveURL(/sortera=namn&ordning=fallande/);
  await expect(page.getByText("1 kund.", { exact: true })).toBeVisible();
  await expect(table.getByRole("row")).toHaveCount(2);
  await expect(table.getByRole("row").nth(1)).toContainText("Öppet");

  // Only the unanswered, sorted by when they answered: none has, so the order is by number.
  await page.getByLabel("Sök kund (nummer, namn, ort)").fill("kiosk");
  await page.getByLabel("Svar", { exact: true }).selectOption({ label: "Ej svarat" });
  await page.getByRole("button", { name: "Visa" }).click();
  await expect(page.getByText("70 kunder.", { exact: true })).toBeVisible();

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Exportera till Excel" }).click()]);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile((await download.path())!);
  const rows: unknown[][] = [];
  wb.worksheets[0].eachRow((row, n) => n > 1 && rows.push((row.values as unknown[]).slice(1)));
  expect(rows).toHaveLength(70);
  expect(rows.every((r) => r[4] === "Ej svarat" && String(r[1]).startsWith("Kiosk"))).toBe(true);
  // Descending by name, as the screen: Kiosk 126 first.
  expect(rows[0][1]).toBe(`Kiosk 126 ${distributorId}`);
});
