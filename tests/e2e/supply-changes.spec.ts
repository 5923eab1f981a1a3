// Leveransändring (decision 037), as the people who use it: a shop on a 360 px phone reads its
// Saturdays, asks for the suggested number and a one-off day, takes the one-off back; the
// distributor's utb user approves from the queue and sends the file to planning; the shop
// sees it approved. Then the utb user proposes a cut from the suggestions, the shop answers
// on its start page's way in, a utb user of another distributor cannot reach the request,
// and an adjustment without a reason is refused with what was typed kept. JS off and on.
import ExcelJS from "exceljs";
import { eq } from "drizzle-orm";
import { schema } from "../../db/client";
import { createBundle, createDistributor } from "../../cli/seed/factories";
import { addDays, isoWeekday, today } from "../../app/lib/dates";
import { e2eDb, expect, loginAs, makeRetailer, makeStaff, test } from "./fixtures";
import { delivery } from "./returns-data";
import { portalNow } from "../../db/clock";

/** The last eight dates before today on ISO weekday `weekday`, newest first. */
function lastEight(weekday: number): string[] {
  const t = today();
  let d = addDays(t, -1);
  while (isoWeekday(d) !== weekday) d = addDays(d, -1);
  return Array.from({ length: 8 }, (_, i) => addDays(d, -7 * i));
}

/** A shop's history: one paper on one weekday, `returned[i]` copies back on the i-th latest, all reported. */
async function history(customerId: number, paper: { titleId: number; editionId: number; weekday: number; delivered: number; returned: number[] }) {
  const db = e2eDb();
  const dates = lastEight(paper.weekday);
  for (let i = 0; i < 8; i++) {
    const d = await delivery(customerId, { date: dates[i], titleId: paper.titleId, editionId: paper.editionId, delivered: paper.delivered, reported: true });
    if (paper.returned[i] > 0) {
      const b = await createBundle(db, { customerId, number: 9000 + paper.weekday * 10 + i, type: 0, open: false, closedDate: dates[i] });
      await db.insert(schema.returns).values({ customerId, bundleId: b.id, deliveryId: d.id, amount: paper.returned[i] });
    }
  }
}

test("a shop asks for more Saturdays and a one-off day; the utb user approves and sends it to planning", async ({ page, browser }, info) => {
  test.setTimeout(120_000);
  const js = info.project.name !== "js-off";
  const slot = info.workerIndex * 2 + (js ? 1 : 0);
  const distributor = await createDistributor(e2eDb(), 8600 + slot, `Tidningsbud Norr ${slot}`);
  const shop = await makeRetailer(info.workerIndex, { distributorId: distributor.id, name: "Şahin Livs" });
  // Aftonbladet 10 on Saturdays: sold out on the three latest, one back on the others.
  await history(shop.id, { titleId: 1, editionId: 1, weekday: 6, delivered: 10, returned: [0, 0, 0, 1, 1, 1, 1, 1] });

  await loginAs(page, shop.id, shop.pin);
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto("/");
  await page.getByText("Meny", { exact: true }).click();
  await page.getByRole("navigation", { name: "Meny" }).getByRole("link", { name: "Leveransändring" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Leveransändring" })).toBeVisible();
  const ab = page.locator("section").filter({ has: page.getByRole("heading", { level: 2, name: "Aftonbladet" }) });
  const saturday = ab.getByRole("row", { name: /^Lördag/ });
  // Brukar få, Sålt, Retur, Slutsålt.
  await expect(saturday.getByRole("cell")).toContainText(["10 ex", "75 ex", "5 ex", "3 av 8"]);
  await expect(saturday).toContainText("12 ex. Slutsålt 3 av de 8 senaste lördagarna: förslag 12 i stället för 10.");
  const start = (await page.getByText(/Skickar du nu gäller den från/).textContent())!.match(/\d{4}-\d{2}-\d{2}/)![0];
  expect(isoWeekday(start)).toBe(1);

  // The usual number is no change: said beside the field, the number kept.
  const field = ab.getByLabel("Aftonbladet, lördag");
  await field.fill("10");
  await ab.getByRole("button", { name: "Skicka ändringarna för Aftonbladet" }).click();
  await expect(ab.getByText("Det är samma antal som du brukar få (10 ex).")).toBeVisible();
  await expect(ab.getByLabel("Aftonbladet, lördag")).toHaveValue("10");
  await ab.getByLabel("Aftonbladet, lördag").fill("12");
  await ab.getByRole("button", { name: "Skicka ändringarna för Aftonbladet" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Ändringen av Aftonbladet är skickad: lördag 12 ex från ${start}.` })).toBeVisible();
  const sent = ab.getByRole("listitem").filter({ hasText: /^Ändring \d+: lördagar från/ });
  await expect(sent).toContainText(`10 → 12 ex. Skickad (från ${start})`);
  const id = Number(/Ändring (\d+)/.exec((await sent.textContent())!)![1]);

  // A one-off day three weeks ahead, then taken back; a second Ångra is refused.
  const oneOff = addDays(today(), 21);
  await ab.getByLabel("Datum för Aftonbladet").fill(oneOff);
  await ab.getByLabel("Antal ex av Aftonbladet den dagen").fill("30");
  await ab.getByRole("button", { name: "Skicka ändringen för en dag av Aftonbladet" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Ändringen för ${oneOff} är skickad: 30 ex.` })).toBeVisible();
  const day = ab.getByRole("listitem").filter({ hasText: `endast ${oneOff}` });
  const dayId = Number(/Ändring (\d+)/.exec((await day.textContent())!)![1]);
  // A second tab still shows it: the Ångra there comes second and says so.
  const tab = await page.context().newPage();
  await tab.setViewportSize({ width: 360, height: 740 });
  await tab.goto("/leverans");
  await day.getByRole("button", { name: `Ångra ändring ${dayId}` }).click();
  await expect(page.getByRole("status").filter({ hasText: `Ändring ${dayId} är återtagen.` })).toBeVisible();
  const answered = tab.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith("/leverans"));
  await tab.getByRole("button", { name: `Ångra ändring ${dayId}` }).click();
  expect((await answered).status()).toBe(409);
  await expect(tab.getByRole("alert").filter({ hasText: `Ändring ${dayId} är redan besvarad.` })).toBeVisible();
  await tab.close();

  // The distributor's utb user approves it from the queue's boxes and sends it to planning.
  const staff = await browser.newContext({ baseURL: info.project.use.baseURL, javaScriptEnabled: js });
  const staffPage = await staff.newPage();
  const utb = await makeStaff("utb", distributor.id);
  await loginAs(staffPage, utb.email, utb.password);
  await staffPage.goto("/admin/leveransandringar");
  const row = staffPage.getByRole("row").filter({ hasText: `Ändring ${id}` });
  await expect(row).toContainText("Şahin Livs");
  await expect(row).toContainText(`Skickad (från ${start})`);
  await staffPage.getByLabel(`Välj ändring ${id}`).check();
  await staffPage.getByRole("button", { name: "Godkänn markerade" }).click();
  await expect(staffPage.getByRole("status").filter({ hasText: `Ändring ${id} godkänd.` })).toBeVisible();
  const downloading = staffPage.waitForEvent("download");
  await staffPage.getByRole("button", { name: "Exportera till planeringen" }).click();
  const download = await downloading;
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile((await download.path())!);
  const sheet = wb.getWorksheet("Leveransändringar")!;
  expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(["Kundnummer", "Kund", "Tidning", "Veckodag eller datum", "Gammalt antal", "Nytt antal", "Startdatum", "Beslutat av", "Anledning"]);
  const rows = [];
  for (let n = 2; n <= sheet.rowCount; n++) rows.push((sheet.getRow(n).values as unknown[]).slice(1, 7));
  expect(rows).toContainEqual([shop.id, "Şahin Livs", "Aftonbladet", "lördag", 10, 12]);
  await staff.close();

  // The shop sees it approved.
  await page.goto("/leverans");
  await expect(ab.getByRole("listitem").filter({ hasText: `Ändring ${id}:` })).toContainText(`Godkänd (12 ex från ${start})`);
});

test("the utb user proposes a cut from the suggestions; the shop says yes; others cannot reach it; a Justera without reason keeps what was typed", async ({ page, browser }, info) => {
  test.setTimeout(120_000);
  const js = info.project.name !== "js-off";
  const slot = info.workerIndex * 2 + (js ? 1 : 0);
  const distributor = await createDistributor(e2eDb(), 8700 + slot, `Tidningsbud Söder ${slot}`);
  const shop = await makeRetailer(info.workerIndex, { distributorId: distributor.id, name: "Pressbyrån Malmö C" });
  // Kvällsposten 20 on Fridays: half comes back every week.
  await history(shop.id, { titleId: 2, editionId: 2, weekday: 5, delivered: 20, returned: [10, 10, 10, 10, 10, 10, 10, 10] });
  const asker = await makeRetailer(info.workerIndex, { distributorId: distributor.id, name: "Kiosk Ådalen" });
  await history(asker.id, { titleId: 1, editionId: 1, weekday: 3, delivered: 8, returned: [1, 1, 1, 1, 1, 1, 1, 1] });

  const utbContext = await browser.newContext({ baseURL: info.project.use.baseURL, javaScriptEnabled: js });
  const utbPage = await utbContext.newPage();
  const utb = await makeStaff("utb", distributor.id);
  await loginAs(utbPage, utb.email, utb.password);
  await utbPage.goto("/admin/leveransandringar");
  const suggestion = utbPage.getByRole("row").filter({ hasText: "Pressbyrån Malmö C" }).filter({ hasText: "Fredag" });
  await expect(suggestion).toContainText("I snitt 10 ex i retur de 8 senaste fredagarna: förslag 16 i stället för 20");
  await utbPage.getByLabel(`Välj förslaget för ${shop.id} Pressbyrån Malmö C, Expressen – Kvällsposten, fredag`).check();
  await utbPage.getByRole("button", { name: "Föreslå markerade för butikerna" }).click();
  const proposed = utbPage.getByRole("status").filter({ hasText: /^Ändring \d+ är föreslagen för butiken\.$/ });
  await expect(proposed).toBeVisible();
  const id = Number(/Ändring (\d+)/.exec((await proposed.textContent())!)![1]);

  // The shop's start page says so; Leveransändring takes the answer.
  await loginAs(page, shop.id, shop.pin);
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto("/");
  const notice = page.getByRole("region", { name: "Förslag om ändrad leverans" });
  await expect(notice).toContainText("Expressen – Kvällsposten, fredag: 20 → 16 ex");
  await notice.getByRole("link", { name: "Svara i Leveransändring" }).click();
  await page.getByRole("button", { name: `Tacka ja till ändring ${id}` }).click();
  const accepted = page.getByRole("status").filter({ hasText: new RegExp(`^Du har tackat ja till ändring ${id}: den gäller från (\\d{4}-\\d{2}-\\d{2})\\.$`) });
  await expect(accepted).toBeVisible();
  const start = /(\d{4}-\d{2}-\d{2})/.exec((await accepted.textContent())!)![1];
  // At least 48 hours after the yes: a Monday more than two days ahead.
  expect(isoWeekday(start)).toBe(1);
  expect(start > addDays(today(), 2)).toBe(true);
  await page.goto("/");
  await expect(page.getByRole("region", { name: "Förslag om ändrad leverans" })).toHaveCount(0);

  // A utb user of another distributor: the request is unknown; sales may read it.
  const other = await createDistributor(e2eDb(), 8800 + slot, `Annan utb ${slot}`);
  const outsider = await browser.newContext({ baseURL: info.project.use.baseURL, javaScriptEnabled: js });
  const outsiderPage = await outsider.newPage();
  const otherUtb = await makeStaff("utb", other.id);
  await loginAs(outsiderPage, otherUtb.email, otherUtb.password);
  expect((await outsiderPage.request.get(`/admin/leveransandringar/${id}`)).status()).toBe(404);
  await outsiderPage.goto("/admin/leveransandringar?visa=alla");
  await expect(outsiderPage.getByRole("link", { name: `Ändring ${id}` })).toHaveCount(0);
  await outsider.close();

  // Sales see every distributor: the accepted proposal, filtered to this one, approved.
  const salesContext = await browser.newContext({ baseURL: info.project.use.baseURL, javaScriptEnabled: js });
  const salesPage = await salesContext.newPage();
  const sales = await makeStaff("sales");
  await loginAs(salesPage, sales.email, sales.password);
  await salesPage.goto("/admin/leveransandringar");
  await salesPage.getByLabel("Visa").selectOption({ label: "Godkända" });
  await salesPage.getByLabel("Distributör").selectOption({ label: distributor.name });
  await salesPage.getByRole("button", { name: "Visa", exact: true }).click();
  await expect(salesPage.getByRole("row").filter({ hasText: `Ändring ${id}` })).toContainText(`Godkänd (16 ex från ${start})`);
  await salesContext.close();

  // The other shop's request: Justera without a reason is refused, the number kept.
  const [asked] = await e2eDb()
    .insert(schema.supplyChanges)
    .values({ customerId: asker.id, titleId: 1, editionId: 1, weekday: 3, oldCopies: 8, requested: 15, status: "sent", origin: "retailer", startDate: addDays(today(), 14), cutoffAt: portalNow() + 7 * 86_400_000, createdBy: `customer:${asker.id}` })
    .returning();
  await utbPage.goto(`/admin/leveransandringar/${asked.id}`);
  await utbPage.getByRole("radio", { name: "Justera" }).check();
  await utbPage.getByLabel("Nytt antal (vid Justera)").fill("11");
  if (js) {
    // The form knows the rule: nothing to send until there is a reason.
    await expect(utbPage.getByRole("button", { name: "Spara beslut" })).toBeDisabled();
  } else {
    await utbPage.getByRole("button", { name: "Spara beslut" }).click();
    await expect(utbPage.getByText("Ange en anledning.")).toBeVisible();
    await expect(utbPage.getByLabel("Nytt antal (vid Justera)")).toHaveValue("11");
  }
  await utbPage.getByLabel("Anledning (krävs vid Justera och Avslå)").fill("Tryckeriets upplaga räcker till 11");
  await utbPage.getByRole("button", { name: "Spara beslut" }).click();
  await expect(utbPage.getByRole("status").filter({ hasText: `Ändring ${asked.id} justerad till 11 ex.` })).toBeVisible();
  const [stored] = await e2eDb().select().from(schema.supplyChanges).where(eq(schema.supplyChanges.id, asked.id));
  expect(stored).toMatchObject({ status: "adjusted", newCopies: 11, reason: "Tryckeriets upplaga räcker till 11", decidedBy: utb.email });
  await utbContext.close();
});
