// Återkallelser (decision 036), as the people who use it: an admin recalls Kvällsposten of
// one day for one distributor; the shop that got it is locked until it says how many copies
// it took off the shelf (360 px), the shop next door that got only Expressen is not; the
// admin follows it and ends it; a utb user of another distributor cannot see it. JavaScript
// off and on.
import ExcelJS from "exceljs";
import { eq } from "drizzle-orm";
import { schema } from "../../db/client";
import { createDelivery, createDistributor } from "../../cli/seed/factories";
import { addDays, today } from "../../app/lib/dates";
import { e2eDb, expect, loginAs, makeRetailer, makeStaff, test } from "./fixtures";
import { day, delivery, labelBlock, returnsOf } from "./returns-data";
import { portalNow } from "../../db/clock";

test("an admin recalls Kvällsposten of one day; the shop that got it acknowledges before anything else; the admin follows and ends it", async ({ page, browser }, info) => {
  const js = info.project.name !== "js-off";
  const db = e2eDb();
  // A day and a distributor no other test uses: the recall reaches only this test's shops.
  const slot = info.workerIndex * 2 + (js ? 1 : 0);
  const day = addDays("2019-01-01", slot);
  const distributor = await createDistributor(db, 8000 + slot, `Tidningsbud Öst ${slot}`);
  const malmo = await makeRetailer(info.workerIndex, { distributorId: distributor.id, name: "Şahin Livs" });
  const nextDoor = await makeRetailer(info.workerIndex, { distributorId: distributor.id, name: "Kiosken bredvid" });
  await db.update(schema.customers).set({ phone: "040-12 34 56" }).where(eq(schema.customers.id, malmo.id));
  await createDelivery(db, { customerId: malmo.id, titleId: 2, editionId: 2, deliveryDate: day, delivered: 14, priceOre: 2400 });
  await createDelivery(db, { customerId: nextDoor.id, titleId: 2, editionId: 1, deliveryDate: day, delivered: 30, priceOre: 2400 });

  const admin = await makeStaff("admin");
  await loginAs(page, admin.email, admin.password);
  await page.goto("/admin/aterkallelser");
  await expect(page.getByRole("heading", { name: "Återkallelser", level: 1 })).toBeVisible();
  // Nothing chosen: each missing part is said beside its field, what was typed is kept.
  await page.getByLabel("Orsak (visas för återförsäljarna)").fill("Fel bilaga – domstolsbeslut");
  await page.getByRole("button", { name: "Skapa återkallelse" }).click();
  await expect(page.getByText("Välj minst en utgåva.")).toBeVisible();
  await expect(page.getByLabel("Orsak (visas för återförsäljarna)")).toHaveValue("Fel bilaga – domstolsbeslut");

  await page.getByLabel("Expressen – Kvällsposten").check();
  await page.getByLabel("Utgivningsdag från").fill(day);
  await page.getByLabel("Utgivningsdag till").fill(day);
  await page.getByLabel("Ta bort från hyllan och returnera").check();
  await page.getByLabel("Bara de valda nedan").check();
  await page.getByLabel(distributor.name, { exact: true }).check();
  await page.getByLabel("Sista dag").fill(addDays(today(), 1));
  await page.getByLabel("Klockan (svensk tid)").fill("12:00");
  await page.getByRole("button", { name: "Skapa återkallelse" }).click();
  await expect(page.getByRole("status").filter({ hasText: /Återkallelse \d+ är skapad och når 1 kund\./ })).toBeVisible();
  const id = Number(/\/admin\/aterkallelser\/(\d+)$/.exec(page.url())?.[1]);
  expect(id).toBeGreaterThan(0);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Återkallelse ${id}: Expressen – Kvällsposten, ${day}`);
  const waiting = page.getByRole("table").filter({ has: page.getByRole("columnheader", { name: "Telefon" }) });
  await expect(waiting.getByRole("row").filter({ hasText: "Şahin Livs" })).toContainText("040-12 34 56");
  await expect(waiting.getByRole("row")).toHaveCount(2);
  // The distribution monitor names the open recall and how many have not acknowledged.
  await page.goto("/admin/distribution");
  await expect(page.getByRole("note", { name: "Pågående återkallelser" }).getByRole("listitem").filter({ hasText: `Återkallelse ${id}:` })).toContainText("1 kund har inte bekräftat.");

  // The shop that got it, on a phone: every page leads to the recall until it is acknowledged.
  const shop = await browser.newContext({ javaScriptEnabled: js, viewport: { width: 360, height: 740 } });
  const phone = await shop.newPage();
  await loginAs(phone, malmo.id, malmo.pin);
  await phone.goto("/historik");
  await expect(phone).toHaveURL("/aterkallelser");
  await expect(phone.getByRole("status")).toHaveText("Sidan är låst tills detta är gjort: Bekräfta återkallelse.");
  const card = phone.getByRole("region", { name: `Återkallelse ${id}: Expressen – Kvällsposten, ${day}` });
  await expect(card).toContainText("Fel bilaga – domstolsbeslut");
  await expect(card).toContainText("Ta bort från hyllan och returnera");
  await expect(card).toContainText("14 ex");
  await card.getByRole("button", { name: "Bekräfta" }).click();
  await expect(phone.getByText("Ange antal borttagna ex (0 eller fler), eller kryssa i Jag har inga kvar.")).toBeVisible();
  await phone.getByLabel("Antal borttagna ex").fill("9");
  await phone.getByRole("button", { name: "Bekräfta" }).click();
  await expect(phone.getByRole("status")).toHaveText(`Återkallelse ${id} är bekräftad: 9 ex borttagna.`);
  // Acknowledged: listed with its deadline, and the portal opens again.
  await expect(phone.getByText(/Bekräftad \d{4}-\d{2}-\d{2} \d{2}:\d{2}: 9 ex borttagna\./)).toBeVisible();
  const width = await phone.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(360);
  await phone.goto("/historik");
  await expect(phone).toHaveURL(/\/historik/);
  // Acknowledged, it stays among the messages with its deadline.
  await phone.locator("details.banner summary").click();
  await expect(phone.locator("details.banner")).toContainText(`Återkallelse ${id}: Expressen – Kvällsposten, ${day}`);
  await expect(phone.locator("details.banner")).toContainText(/Ta bort från hyllan och returnera, senast \d{4}-\d{2}-\d{2} 12:00\. Bekräftad: 9 ex borttagna\./);
  await shop.close();

  // The shop next door got Expressen, not Kvällsposten: not asked, not locked.
  const door = await browser.newContext({ javaScriptEnabled: js });
  const other = await door.newPage();
  await loginAs(other, nextDoor.id, nextDoor.pin);
  await other.goto("/historik");
  await expect(other).toHaveURL(/\/historik/);
  await other.goto("/aterkallelser");
  await expect(other.getByText("Du har inga återkallelser.")).toBeVisible();
  await door.close();

  // The admin sees who did and how many; then ends it.
  await page.goto(`/admin/aterkallelser/${id}`);
  await expect(page.getByText("1 av 1 kunder, 9 av 14 ex borttagna, 0 ex returnerade")).toBeVisible();
  await expect(page.getByText("Alla kunder har bekräftat.")).toBeVisible();
  // The same as Excel: one row per shop, with phone, copies and when.
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Exportera till Excel" }).click()]);
  expect(download.suggestedFilename()).toBe(`aterkallelse-${id}.xlsx`);
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile((await download.path())!);
  const sheet = book.worksheets[0];
  expect(sheet.getRow(1).values).toEqual([undefined, "Distributör", "Kundnr", "Namn", "Telefon", "Levererat (ex)", "Bekräftad", "Borttagna (ex)", "Returnerade (ex)"]);
  expect((sheet.getRow(2).values as unknown[]).slice(1, 6)).toEqual([distributor.name, malmo.id, "Şahin Livs", "040-12 34 56", 14]);
  expect((sheet.getRow(2).values as unknown[])[7]).toBe(9);
  await page.getByRole("button", { name: "Avsluta återkallelse" }).click();
  await expect(page.getByRole("status")).toHaveText(`Återkallelse ${id} är avslutad.`);
  const [row] = await db.select().from(schema.recalls).where(eq(schema.recalls.id, id));
  expect(row.endedAt).not.toBeNull();

  // A utb user of another distributor: the recall is not theirs to see.
  const utb = await makeStaff("utb", 1);
  const theirs = await browser.newContext({ javaScriptEnabled: js });
  const utbPage = await theirs.newPage();
  await loginAs(utbPage, utb.email, utb.password);
  const answer = await utbPage.goto(`/admin/aterkallelser/${id}`);
  expect(answer?.status()).toBe(404);
  await utbPage.goto("/admin/aterkallelser");
  await expect(utbPage.getByRole("link", { name: new RegExp(`^Återkallelse ${id}:`) })).toHaveCount(0);
  await theirs.close();
});

test("a recall made while the shop has the returns form open: what it typed is saved, then the recall is shown", async ({ page }, info) => {
  const js = info.project.name !== "js-off";
  const db = e2eDb();
  const slot = info.workerIndex * 2 + (js ? 1 : 0);
  const distributor = await createDistributor(db, 8400 + slot, `Tidningsbud Väst ${slot}`);
  const shop = await makeRetailer(info.workerIndex, { distributorId: distributor.id, name: "Kiosk Ådalen" });
  await labelBlock(shop.id);
  const d = day(-1);
  const kvp = await delivery(shop.id, { date: d, titleId: 2, editionId: 2, delivered: 20 });
  await loginAs(page, shop.id, shop.pin);
  await page.goto("/rapportering/1");
  await page.getByLabel(`Bunt för Expressen – Kvällsposten ${d}`).fill("101");
  await page.getByLabel(`Retur för Expressen – Kvällsposten ${d}`).fill("5");

  // Meanwhile the distributor's duty officer recalls that Kvällsposten for this distributor.
  const [recall] = await db
    .insert(schema.recalls)
    .values({ titleId: 2, dateFrom: d, dateTo: d, reason: "Fel bilaga", action: "returnera", allDistributors: false, deadlineAt: portalNow() + 3_600_000, returnUntil: day(14), createdBy: "staff:1" })
    .returning();
  await db.insert(schema.recallEditions).values({ recallId: recall.id, editionId: 2 });
  await db.insert(schema.recallDistributors).values({ recallId: recall.id, distributorId: distributor.id });
  await db.insert(schema.recallCustomers).values({ recallId: recall.id, customerId: shop.id, delivered: 20 });

  await page.getByRole("button", { name: "Spara och fortsätt" }).click();
  // The save went through; the next page is the recall, which the shop must acknowledge first.
  await expect(page).toHaveURL("/aterkallelser");
  expect((await returnsOf(kvp.id)).map((r) => r.amount)).toEqual([5]);
  await page.getByLabel("Jag har inga kvar").check();
  await page.getByRole("button", { name: "Bekräfta" }).click();
  await expect(page.getByRole("status")).toHaveText(`Återkallelse ${recall.id} är bekräftad: 0 ex borttagna.`);
  // The recalled paper is marked on the form, with the day it may be returned until.
  await page.goto("/rapportering/2");
  await expect(page.getByText(`Återkallad – returnera senast ${day(14)}`)).toBeVisible();
  await expect(page.getByLabel(`Retur för Expressen – Kvällsposten ${d}`)).toHaveValue("5");
});
