// Staff back office, part A: distribution, its Excel export, complaints per
// distributor, messages, the Links panel, impersonation and the role rules.
import ExcelJS from "exceljs";
import { and, eq } from "drizzle-orm";
import { schema } from "../../db/client";
import { createDelivery, createDistributor, ensureTitlesAndEditions } from "../../cli/seed/factories";
import { addDays, isoWeekday, today } from "../../app/lib/dates";
import { e2eDb, expect, expectSentHome, forgetUser, formToken, loginAs, makeRetailer, makeStaff, test } from "./fixtures";

const T = today();
const Y = addDays(T, -1);

/** A distributor of its own with two reporting customers and one that never reports. */
async function distributionFixture(workerIndex: number) {
  const db = e2eDb();
  await ensureTitlesAndEditions(db);
  const distributorId = 100_000 + Math.floor(Math.random() * 800_000);
  const dist = await createDistributor(db, distributorId, `E2E Utb ${distributorId}`);
  const a = await makeRetailer(workerIndex, { distributorId, name: `Kiosk A ${distributorId}` });
  const b = await makeRetailer(workerIndex, { distributorId, name: `Kiosk B ${distributorId}` });
  const c = await makeRetailer(workerIndex, { distributorId, name: `Kiosk C ${distributorId}` });
  // a: |20 − 18| × 22,00 = 44,00 kr; b: received 0 of 5 at 10,90 = 54,50 kr; c: not reported.
  await createDelivery(db, { customerId: a.id, titleId: 1, editionId: 1, deliveryDate: Y, delivered: 20, received: 18, priceOre: 2200 });
  await createDelivery(db, { customerId: a.id, titleId: 2, editionId: 1, deliveryDate: T, delivered: 10, received: 10, priceOre: 2000 });
  await createDelivery(db, { customerId: b.id, titleId: 1, editionId: 21, deliveryDate: T, delivered: 5, received: 0, priceOre: 1090 });
  await createDelivery(db, { customerId: c.id, titleId: 1, editionId: 1, deliveryDate: T, delivered: 7, received: null, priceOre: 2200 });
  return { dist, a, b, c };
}

test.describe("distribution monitoring", () => {
  test("an admin sees the distributor's totals, its customers and a customer's papers", async ({ page }, info) => {
    const { dist, a, b } = await distributionFixture(info.workerIndex);
    const admin = await makeStaff("admin");
    await loginAs(page, admin.email, admin.password);
    await page.goto("/admin");
    await page.getByRole("navigation", { name: "Huvudmeny" }).getByRole("link", { name: "Distribution" }).click();
    await expect(page.getByRole("heading", { name: "Distribution", level: 1 })).toBeVisible();

    // Choose the range and the distributor with the form, as a person does.
    await page.getByLabel("Från", { exact: true }).fill(Y);
    await page.getByLabel("Till", { exact: true }).fill(T);
    await page.getByText("Utb:er", { exact: true }).click();
    await page.getByRole("checkbox", { name: dist.name, exact: true }).check();
    await page.getByRole("button", { name: "Visa" }).click();
    await expect(page).toHaveURL(new RegExp(`utb=${dist.id}`));

    const card = page.getByRole("region", { name: dist.name });
    await expect(card.getByText("2 av 3 (66,7 %)")).toBeVisible();
    await expect(card.getByText("98,50 kr")).toBeVisible();
    await card.getByText("Visa kunder (2)").click();
    const rowB = card.getByRole("row").filter({ hasText: b.name });
    await expect(rowB).toHaveClass(/zero-received/);
    await expect(rowB.getByText("Mottagit 0")).toBeVisible();
    await expect(rowB.getByText("1/30")).toBeVisible();
    await expect(card.getByRole("row").filter({ hasText: a.name }).getByText("2/30")).toBeVisible();

    await card.getByRole("link", { name: a.name }).click();
    const papers = page.getByRole("table", { name: `Tidningar för ${a.name}` });
    await expect(papers.getByRole("columnheader", { name: "Följesedel" })).toBeVisible();
    await expect(papers.getByRole("columnheader", { name: "Mottagit" })).toBeVisible();
    await expect(papers.getByRole("row").filter({ hasText: Y })).toContainText("Aftonbladet");
    await expect(papers.getByRole("row").filter({ hasText: Y }).getByRole("cell").nth(2)).toHaveText("20");
    await expect(papers.getByRole("row").filter({ hasText: Y }).getByRole("cell").nth(3)).toHaveText("18");
    await expect(page.getByRole("img", { name: /Andel rapporterande kunder per dag/ })).toBeVisible();
  });

  test("the range picker says 'Måste ha ett värde' and 'Felaktig period' with status 400", async ({ page }) => {
    const admin = await makeStaff("admin");
    await loginAs(page, admin.email, admin.password);
    await page.goto("/admin/distribution");
    await page.getByLabel("Från", { exact: true }).fill("");
    await page.getByLabel("Till", { exact: true }).fill("");
    await page.getByRole("button", { name: "Visa" }).click();
    await expect(page.getByText("Måste ha ett värde")).toBeVisible();
    await page.getByLabel("Från", { exact: true }).fill(T);
    await page.getByLabel("Till", { exact: true }).fill(Y);
    await page.getByRole("button", { name: "Visa" }).click();
    await expect(page.getByText("Felaktig period")).toBeVisible();
    await expect(page.getByLabel("Från", { exact: true })).toHaveValue(T);
    expect((await page.request.get(`/admin/distribution?fran=${T}&till=${Y}`)).status()).toBe(400);
    // One date only: the end is the start.
    await page.goto(`/admin/distribution?fran=${Y}`);
    await expect(page.getByText(`Period ${Y}.`)).toBeVisible();
    // A preset link sets the range.
    await page.getByRole("link", { name: "Senaste 7 dagarna" }).click();
    await expect(page.getByText(`Period ${addDays(T, -6)} – ${T}.`)).toBeVisible();
    // The office's week: yesterday, this ISO week so far, last week Monday to Sunday.
    const monday = addDays(T, 1 - isoWeekday(T));
    await page.getByRole("link", { name: "Igår" }).click();
    await expect(page.getByText(`Period ${Y}.`)).toBeVisible();
    await page.getByRole("link", { name: "Denna vecka" }).click();
    await expect(page.getByText(monday === T ? `Period ${T}.` : `Period ${monday} – ${T}.`)).toBeVisible();
    await page.getByRole("link", { name: "Förra veckan" }).click();
    await expect(page.getByText(`Period ${addDays(monday, -7)} – ${addDays(monday, -1)}.`)).toBeVisible();
    // The month so far, from its first day.
    const first = `${T.slice(0, 8)}01`;
    await page.getByRole("link", { name: "Denna månad" }).click();
    await expect(page.getByText(first === T ? `Period ${T}.` : `Period ${first} – ${T}.`)).toBeVisible();
    // Without JavaScript the page refreshes itself every 5 minutes.
    expect(await page.request.get("/admin/distribution").then((r) => r.text())).toContain('<meta http-equiv="refresh" content="300"/>');
  });

  test("the Excel export per distributor has typed cells and the page's totals", async ({ page }, info) => {
    const { dist, a, b } = await distributionFixture(info.workerIndex);
    const admin = await makeStaff("admin");
    await loginAs(page, admin.email, admin.password);
    await page.goto(`/admin/distribution?fran=${Y}&till=${T}&utb=${dist.id}`);
    const link = page.getByRole("link", { name: `Exportera ${dist.name} till Excel` });
    const res = await page.request.get((await link.getAttribute("href"))!);
    expect(res.status()).toBe(200);
    expect(res.headers()["content-type"]).toContain("spreadsheetml");
    expect(res.headers()["content-disposition"]).toContain(`distribution-${Y}-${T}-utb${dist.id}.xlsx`);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await res.body()) as unknown as ExcelJS.Buffer);
    const sheet = wb.worksheets[0];
    expect(sheet.views[0]).toMatchObject({ state: "frozen", ySplit: 1 });
    expect(sheet.getRow(1).values).toEqual([undefined, "Namn", "Kundnr", "Postnr", "Ort", "Tidning", "Leveransdatum", "Följesedel", "Mottagit", "Antal", "Summa (kr)", "Distributör"]);
    expect(sheet.getColumn(10).numFmt).toBe("0.00");
    const rows: unknown[][] = [];
    sheet.eachRow((row, n) => {
      if (n > 1) rows.push([row.getCell(2).value, row.getCell(7).value, row.getCell(8).value, row.getCell(9).value, row.getCell(10).value]);
    });
    // Ordered by delivery date, then customer number.
    const todays = [
      [a.id, 10, 10, 0, 0],
      [b.id, 5, 0, 5, 54.5],
    ].sort((x, y) => (x[0] as number) - (y[0] as number));
    expect(rows).toEqual([[a.id, 20, 18, 2, 44], ...todays]);
    expect(sheet.getRow(2).getCell(6).value).toBeInstanceOf(Date);
    // Each row names its distributor; the second sheet sums it, and the total.
    expect(sheet.getRow(2).getCell(11).value).toBe(dist.name);
    const summary: unknown[][] = [];
    wb.getWorksheet("Per distributör")!.eachRow((row, n) => n > 1 && summary.push((row.values as unknown[]).slice(1)));
    expect(summary).toEqual([
      [dist.name, 3, 7, 98.5],
      ["Totalt", 3, 7, 98.5],
    ]);
  });

  test("the all-distributors Excel names each row's distributor and sums every distributor and the country", async ({ page }, info) => {
    const north = await distributionFixture(info.workerIndex);
    const south = await distributionFixture(info.workerIndex);
    const admin = await makeStaff("admin");
    await loginAs(page, admin.email, admin.password);
    await page.goto(`/admin/distribution?fran=${Y}&till=${T}`);
    const link = page.getByRole("link", { name: "Exportera alla till Excel" });
    const res = await page.request.get((await link.getAttribute("href"))!);
    expect(res.status()).toBe(200);
    expect(res.headers()["content-disposition"]).toContain(`distribution-${Y}-${T}.xlsx`);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await res.body()) as unknown as ExcelJS.Buffer);
    // Every row says whose customer it is.
    const distributorOf = new Map<unknown, unknown>();
    wb.worksheets[0].eachRow((row, n) => n > 1 && distributorOf.set(row.getCell(2).value, row.getCell(11).value));
    expect([north.a.id, north.b.id, south.a.id, south.b.id].map((id) => distributorOf.get(id))).toEqual([north.dist.name, north.dist.name, south.dist.name, south.dist.name]);
    // A row per distributor with its sums, and a total row that adds them all up.
    const summary: unknown[][] = [];
    wb.getWorksheet("Per distributör")!.eachRow((row, n) => n > 1 && summary.push((row.values as unknown[]).slice(1)));
    expect(summary).toContainEqual([north.dist.name, 3, 7, 98.5]);
    expect(summary).toContainEqual([south.dist.name, 3, 7, 98.5]);
    const perDistributor = summary.slice(0, -1) as [string, number, number, number][];
    expect(new Set(perDistributor.map((r) => r[0])).size).toBe(perDistributor.length);
    const sum = (i: 1 | 2 | 3) => Math.round(perDistributor.reduce((s, r) => s + r[i], 0) * 100) / 100;
    expect(summary.at(-1)).toEqual(["Totalt", sum(1), sum(2), sum(3)]);
    expect(sum(1)).toBe(wb.worksheets[0].rowCount - 1);
  });
});

test.describe("roles", () => {
  test("a utb user sees only its own distributor, and is refused another's by URL", async ({ page }, info) => {
    const mine = await distributionFixture(info.workerIndex);
    const other = await distributionFixture(info.workerIndex);
    const utb = await makeStaff("utb", mine.dist.id);
    await loginAs(page, utb.email, utb.password);
    await page.goto(`/admin/distribution?fran=${Y}&till=${T}`);
    const nav = page.getByRole("navigation", { name: "Huvudmeny" });
    await expect(nav.getByRole("link", { name: "Distribution" })).toBeVisible();
    await expect(nav.getByText("Kundtjänst")).toHaveCount(0);
    await expect(page.getByRole("region", { name: mine.dist.name })).toBeVisible();
    await expect(page.getByRole("heading", { name: other.dist.name })).toHaveCount(0);
    // One distributor's card (the coming holidays' answers have a heading of their own).
    await expect(page.getByRole("heading", { level: 2 }).filter({ hasNotText: "Butikernas svar om helgdagar" })).toHaveCount(1);

    expect((await page.request.get(`/admin/distribution?fran=${Y}&till=${T}&utb=${other.dist.id}`)).status()).toBe(403);
    expect((await page.request.get(`/admin/distribution?fran=${Y}&till=${T}&kund=${other.a.id}`)).status()).toBe(404);
    expect((await page.request.get(`/admin/distribution/export.xlsx?fran=${Y}&till=${T}&utb=${other.dist.id}`)).status()).toBe(403);
    expect((await page.request.get(`/admin/leveransreklamation?fran=${Y}&till=${T}&utb=${other.dist.id}`)).status()).toBe(403);
    await expectSentHome(page.request, "/admin/messages", "/admin/distribution");
    await expectSentHome(page.request, "/admin", "/admin/distribution");
    expect((await page.request.post("/admin/kund/oppna", { form: { csrf: await formToken(page.request), kundnummer: String(other.a.id) } })).status()).toBe(403);

    // The whole-country export holds only the utb's own rows.
    const res = await page.request.get(`/admin/distribution/export.xlsx?fran=${Y}&till=${T}`);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await res.body()) as unknown as ExcelJS.Buffer);
    const ids = new Set<unknown>();
    wb.worksheets[0].eachRow((row, n) => n > 1 && ids.add(row.getCell(2).value));
    expect([...ids].sort()).toEqual([mine.a.id, mine.b.id].sort());
  });

  test("sales see Distribution but no Kundtjänst; retailers are refused", async ({ page, retailer }) => {
    const sales = await makeStaff("sales");
    await loginAs(page, sales.email, sales.password);
    await page.goto("/admin/distribution");
    const nav = page.getByRole("navigation", { name: "Huvudmeny" });
    await expect(nav.getByRole("link", { name: "Distribution" })).toBeVisible();
    await expect(nav.getByRole("link", { name: "Leveransreklamation per utb" })).toBeVisible();
    await expect(nav.getByText("Kundtjänst")).toHaveCount(0);
    await expect(nav.getByRole("link", { name: "Admin" })).toHaveCount(0);
    await expectSentHome(page.request, "/admin/messages", "/admin/distribution");
    expect((await page.request.post("/admin/messages", { form: { csrf: await formToken(page.request), type: "1", startDate: T, content: "x" } })).status()).toBe(403);
    expect((await page.request.post("/admin", { form: { csrf: await formToken(page.request), intent: "add-shortcut", name: "x", url: "https://x.example" } })).status()).toBe(403);

    await forgetUser(page);
    await loginAs(page, retailer.id, retailer.pin);
    for (const path of ["/admin/distribution", "/admin/leveransreklamation", "/admin/messages", "/admin/distribution/export.xlsx"]) {
      await expectSentHome(page.request, path, "/");
    }
  });
});

test.describe("Leveransreklamation per utb", () => {
  test("lists per distributor the deliveries where received differs, with totals", async ({ page }, info) => {
    const { dist, a, b } = await distributionFixture(info.workerIndex);
    const sales = await makeStaff("sales");
    await loginAs(page, sales.email, sales.password);
    await page.goto("/admin/distribution");
    await page.getByRole("navigation", { name: "Huvudmeny" }).getByRole("link", { name: "Leveransreklamation per utb" }).click();
    await expect(page.getByRole("heading", { name: "Leveransreklamation per utb", level: 1 })).toBeVisible();
    await page.getByRole("link", { name: "Senaste 7 dagarna" }).click();
    const row = page.getByRole("row").filter({ hasText: dist.name });
    await expect(row.getByRole("cell")).toHaveText([dist.name, "2", "2", "-7", "98,50 kr"]);
    await row.getByRole("link", { name: dist.name }).click();
    await expect(page.getByRole("heading", { name: `Reklamationer – ${dist.name}` })).toBeVisible();
    const detail = page.getByRole("region", { name: `Reklamationer – ${dist.name}` });
    await expect(detail.getByRole("row")).toHaveCount(3);
    await expect(detail.getByRole("row").nth(1)).toContainText(b.name);
    await expect(detail.getByRole("row").nth(2)).toContainText(a.name);
  });
});

test.describe("messages", () => {
  test("an admin writes, corrects, edits and deletes a message", async ({ page, retailer }, info) => {
    const js = info.project.name !== "js-off";
    const admin = await makeStaff("admin");
    await loginAs(page, admin.email, admin.password);
    await page.goto("/admin");
    await page.getByRole("navigation", { name: "Kundtjänst" }).getByRole("link", { name: "Meddelanden" }).click();
    await expect(page.getByRole("heading", { name: "Meddelanden", level: 1 })).toBeVisible();

    const header = `Rubrik ${Date.now()}-${Math.random()}`;
    await page.getByLabel("Rubrik", { exact: true }).fill(header);
    await page.getByLabel("Innehåll", { exact: true }).fill("<p>Hej <strong>alla</strong></p><script>alert(1)</script>");
    // With JavaScript the form's own schema speaks as a field is left, and Spara waits
    // until the whole form is valid (back-office spec §5); without, the server answers.
    if (js) {
      await expect(page.getByRole("button", { name: "Spara" })).toBeDisabled();
      await page.getByLabel("Typ", { exact: true }).focus();
      await page.getByLabel("Från", { exact: true }).focus();
      await page.getByLabel("Rubrik", { exact: true }).focus();
    } else await page.getByRole("button", { name: "Spara" }).click();
    await expect(page.getByText("Måste välja typ!")).toBeVisible();
    await expect(page.getByText("Datum ej ifyllt is")).toBeVisible();
    await expect(page.getByLabel("Rubrik", { exact: true })).toHaveValue(header);

    await page.getByLabel("Typ", { exact: true }).selectOption("3");
    await page.getByLabel("Från", { exact: true }).fill(T);
    await page.getByLabel("Till", { exact: true }).fill(Y);
    await page.getByLabel("Kundnummer", { exact: true }).fill(` ${retailer.id} , 99998`);
    if (js) await expect(page.getByRole("button", { name: "Spara" })).toBeDisabled();
    else await page.getByRole("button", { name: "Spara" }).click();
    await expect(page.getByText("Perioden felaktig")).toBeVisible();
    await page.getByLabel("Till", { exact: true }).fill(addDays(T, 3));
    await page.getByRole("button", { name: "Spara" }).click();
    await expect(page.getByText("Okända kundnummer: 99998")).toBeVisible();
    await expect(page.getByLabel("Kundnummer", { exact: true })).toHaveValue(` ${retailer.id} , 99998`);
    const bad = await page.request.post("/admin/messages", { form: { csrf: await formToken(page.request), intent: "save", type: "3", startDate: T, content: "x", customers: "99998" } });
    expect(bad.status()).toBe(400);

    await page.getByLabel("Kundnummer", { exact: true }).fill(` ${retailer.id} `);
    await page.getByRole("button", { name: "Spara" }).click();
    await expect(page.getByRole("status")).toHaveText("Meddelandet är sparat.");
    const row = page.getByRole("row").filter({ hasText: header });
    await expect(row).toContainText("Kundmeddelande");
    await expect(row).toContainText(addDays(T, 3));

    const [saved] = await e2eDb().select().from(schema.messages).where(eq(schema.messages.header, header));
    expect(saved.content).toBe("<p>Hej <strong>alla</strong></p>");
    const links = await e2eDb().select().from(schema.messageCustomers).where(eq(schema.messageCustomers.messageId, saved.id));
    expect(links.map((l) => l.customerId)).toEqual([retailer.id]);

    await row.getByRole("link", { name: `Redigera ${header}` }).click();
    await expect(page).toHaveURL(`/admin/messages?id=${saved.id}`);
    await expect(page.getByLabel("Typ", { exact: true })).toHaveValue("3");
    // The list stays through the edit, and type 1 (for everybody) refuses it rather than drop it.
    await expect(page.getByLabel("Kundnummer", { exact: true })).toHaveValue(String(retailer.id));
    await page.getByLabel("Typ", { exact: true }).selectOption("1");
    if (js) {
      await page.getByLabel("Kundnummer", { exact: true }).focus();
      await page.getByLabel("Rubrik", { exact: true }).focus();
      await expect(page.getByRole("button", { name: "Uppdatera" })).toBeDisabled();
    } else await page.getByRole("button", { name: "Uppdatera" }).click();
    await expect(page.getByText("Leveransinformation och Följesedel går till alla kunder.")).toBeVisible();
    await expect(page.getByLabel("Kundnummer", { exact: true })).toHaveValue(String(retailer.id));
    expect((await e2eDb().select().from(schema.messageCustomers).where(eq(schema.messageCustomers.messageId, saved.id))).map((l) => l.customerId)).toEqual([retailer.id]);
    await page.getByLabel("Kundnummer", { exact: true }).fill("");
    await page.getByRole("button", { name: "Uppdatera" }).click();
    // From one customer to every retailer: the page says how many and asks; the form stays as typed.
    const ask = page.getByRole("alert").filter({ hasText: "Spara meddelandet till alla kunder?" });
    await expect(ask).toContainText(new RegExp(`Leveransinformation "${header.replace(/[.]/g, "\\.")}" visas för alla [\\d\\s\u00a0]+ aktiva kunder från ${T} till ${addDays(T, 3)}\\.`));
    await expect(page.getByLabel("Typ", { exact: true })).toHaveValue("1");
    await expect(page.getByLabel("Rubrik", { exact: true })).toHaveValue(header);
    expect((await e2eDb().select().from(schema.messages).where(eq(schema.messages.id, saved.id)))[0].type).toBe(3);
    await ask.getByRole("button", { name: "Spara ändå" }).click();
    await expect(page.getByRole("status")).toHaveText("Meddelandet är uppdaterat.");
    await expect(page.getByRole("row").filter({ hasText: header })).toContainText("Leveransinformation");
    await expect(page.getByRole("row").filter({ hasText: header })).toContainText("Alla");

    await page.getByRole("row").filter({ hasText: header }).getByRole("link", { name: `Redigera ${header}` }).click();
    await page.getByRole("link", { name: "Nollställ" }).click();
    await expect(page).toHaveURL("/admin/messages");
    await expect(page.getByRole("button", { name: "Spara" })).toBeVisible();
    await expect(page.getByLabel("Rubrik", { exact: true })).toHaveValue("");

    await page.getByRole("link", { name: `Ta bort ${header}` }).click();
    await page.getByRole("button", { name: "Ta bort meddelandet" }).click();
    await expect(page.getByRole("status")).toHaveText("Meddelandet är borttaget.");
    await expect(page.getByRole("row").filter({ hasText: header })).toHaveCount(0);
  });
});

test.describe("messages form contract", () => {
  test("with JavaScript, Spara is disabled while the form is invalid and enabled when it is valid", async ({ page }, info) => {
    test.skip(info.project.name === "js-off", "a JavaScript behaviour");
    const admin = await makeStaff("admin");
    await loginAs(page, admin.email, admin.password);
    await page.goto("/admin/messages");
    const save = page.getByRole("button", { name: "Spara" });
    await expect(save).toBeDisabled();
    await page.getByLabel("Typ", { exact: true }).selectOption("1");
    await page.getByLabel("Från", { exact: true }).fill("2003-01-01");
    await page.getByLabel("Innehåll", { exact: true }).fill("Hej");
    await expect(save).toBeEnabled();
    // A heading over 200 characters: the Swedish limit, and Spara waits again.
    await page.getByLabel("Rubrik", { exact: true }).fill("R".repeat(201));
    await page.getByLabel("Innehåll", { exact: true }).focus();
    await expect(page.getByText("Rubriken får vara högst 200 tecken.")).toBeVisible();
    await expect(save).toBeDisabled();
    await page.getByLabel("Rubrik", { exact: true }).fill("Kort rubrik");
    await expect(save).toBeEnabled();
  });

  test.describe("without JavaScript", () => {
    test("the server answers in Swedish and keeps what was typed", async ({ page }, info) => {
      test.skip(info.project.name !== "js-off", "the server's answer, as a browser without JavaScript gets it");
      const admin = await makeStaff("admin");
      await loginAs(page, admin.email, admin.password);
      await page.goto("/admin/messages");
      const header = `Utan JS ${Date.now()}`;
      await page.getByLabel("Rubrik", { exact: true }).fill(header);
      await page.getByLabel("Innehåll", { exact: true }).fill("<p>Hej</p>");
      await expect(page.getByRole("button", { name: "Spara" })).toBeEnabled();
      await page.getByRole("button", { name: "Spara" }).click();
      await expect(page.getByText("Måste välja typ!")).toBeVisible();
      await expect(page.getByText("Datum ej ifyllt is")).toBeVisible();
      await expect(page.getByLabel("Rubrik", { exact: true })).toHaveValue(header);
      await expect(page.getByLabel("Innehåll", { exact: true })).toHaveValue("<p>Hej</p>");

      // Over the limits (a browser stops at maxlength; a hand-made post does not).

      const res = await page.request.post("/admin/messages", { form: { csrf: await formToken(page.request), intent: "save", type: "1", startDate: "2003-01-01", header: "R".repeat(201), content: "x".repeat(20_001) } });
      expect(res.status()).toBe(400);
      const html = await res.text();
      expect(html).toContain("Rubriken får vara högst 200 tecken.");
      expect(html).toContain("Innehållet får vara högst 20 000 tecken.");
      expect(html).not.toContain("Innehåll saknas");
      expect(html).not.toMatch(/Too big|Invalid input|expected string/);
    });
  });
});

test.describe("admin start", () => {
  test("shows the Kundtjänst entries and keeps the user's own links", async ({ page }, info) => {
    const js = info.project.name !== "js-off";
    const admin = await makeStaff("admin");
    const other = await makeStaff("admin");
    await loginAs(page, admin.email, admin.password);
    await page.goto("/admin");
    await expect(page.getByRole("navigation", { name: "Kundtjänst" }).getByRole("link", { name: "Meddelanden" })).toBeVisible();

    if (js) {
      await expect(page.getByRole("button", { name: "Lägg till" })).toBeDisabled();
      await page.getByLabel("Titel", { exact: true }).focus();
      await page.getByLabel("Länk", { exact: true }).focus();
    } else await page.getByRole("button", { name: "Lägg till" }).click();
    await expect(page.getByText("Required.")).toBeVisible();
    await page.getByLabel("Titel", { exact: true }).fill("Intranätet");
    await page.getByLabel("Länk", { exact: true }).fill("intranet");
    if (js) {
      await page.getByLabel("Titel", { exact: true }).focus();
      await expect(page.getByRole("button", { name: "Lägg till" })).toBeDisabled();
    } else await page.getByRole("button", { name: "Lägg till" }).click();
    await expect(page.getByText("Invalid Url Format!!")).toBeVisible();
    await expect(page.getByLabel("Titel", { exact: true })).toHaveValue("Intranätet");
    const res = await page.request.post("/admin", { form: { csrf: await formToken(page.request), intent: "add-shortcut", name: "", url: "https://x.example" } });
    expect(res.status()).toBe(400);

    await page.getByLabel("Länk", { exact: true }).fill("https://intra.example/start");
    await page.getByRole("button", { name: "Lägg till" }).click();
    await expect(page.getByRole("status")).toHaveText("Länken är sparad.");
    await expect(page.getByRole("link", { name: "Intranätet", exact: true })).toHaveAttribute("href", "https://intra.example/start");

    // Another staff user neither sees nor deletes it.
    const [row] = await e2eDb().select().from(schema.shortcuts).where(eq(schema.shortcuts.name, "Intranätet")).orderBy(schema.shortcuts.id);
    const context = await page.context().browser()!.newContext({ baseURL: page.url() });
    const otherPage = await context.newPage();
    await loginAs(otherPage, other.email, other.password);
    await otherPage.goto("/admin");
    await expect(otherPage.getByText("Inga sparade länkar.")).toBeVisible();
    expect((await otherPage.request.post("/admin", { form: { csrf: await formToken(otherPage.request), intent: "delete-shortcut", id: String(row.id) } })).status()).toBe(404);
    await context.close();

    await page.getByRole("link", { name: "Ta bort Intranätet" }).click();
    await page.getByRole("button", { name: "Ta bort länken" }).click();
    await expect(page.getByRole("status")).toHaveText("Länken är borttagen.");
    await expect(page.getByText("Inga sparade länkar.")).toBeVisible();
  });
});

test.describe("impersonation", () => {
  test("an admin opens a retailer's portal, sees the banner, and goes back; all audited", async ({ page, retailer }) => {
    const admin = await makeStaff("admin");
    await loginAs(page, admin.email, admin.password);
    await page.goto("/admin");
    // The start page also has 'Logga ut kund' with its own Kundnummer field.
    await page.getByRole("region", { name: "Öppna en kunds portal" }).getByLabel("Kundnummer", { exact: true }).fill("99999x");
    await page.getByRole("button", { name: "Öppna kundens portal" }).click();
    await expect(page.getByText("Ange ett kundnummer (1–5 siffror).")).toBeVisible();
    await page.getByLabel("Kundnummer", { exact: true }).fill(String(retailer.id));
    await page.getByRole("button", { name: "Öppna kundens portal" }).click();

    await expect(page).toHaveURL("/");
    const banner = page.getByRole("region", { name: "Personalinloggning" });
    await expect(banner).toContainText(`Du är inloggad som ${retailer.name} via personalkonto`);
    // The impersonated session cannot reach staff pages.
    await expectSentHome(page.request, "/admin/distribution", "/");

    await banner.getByRole("button", { name: "Tillbaka till personalkontot" }).click();
    await expect(page).toHaveURL("/admin");
    await expect(page.getByRole("heading", { name: "Admin" })).toBeVisible();

    const [staff] = await e2eDb().select().from(schema.staffUsers).where(eq(schema.staffUsers.email, admin.email));
    const rows = await e2eDb()
      .select()
      .from(schema.auditLog)
      .where(and(eq(schema.auditLog.actor, `staff:${staff.id}`), eq(schema.auditLog.target, `customer:${retailer.id}`)));
    expect(rows.map((r) => r.action)).toEqual(["impersonation.start", "impersonation.request", "impersonation.end"]);
  });

  test("the way back is refused to a retailer's own session, and only admins may impersonate", async ({ page, retailer }) => {
    const sales = await makeStaff("sales");
    await loginAs(page, sales.email, sales.password);
    expect((await page.request.post("/admin/kund/oppna", { form: { csrf: await formToken(page.request), kundnummer: String(retailer.id) } })).status()).toBe(403);
    await forgetUser(page);
    await loginAs(page, retailer.id, retailer.pin);
    expect((await page.request.post("/tillbaka-till-personal", { form: { csrf: await formToken(page.request) } })).status()).toBe(403);
    await page.goto("/");
    await expect(page.getByRole("region", { name: "Personalinloggning" })).toHaveCount(0);
  });
});
