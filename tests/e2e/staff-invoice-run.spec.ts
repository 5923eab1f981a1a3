// An admin chooses the period, sees a dry-run
// preview, confirms, sees the result; the same period twice creates nothing new; two
// admins pressing at once make one set of invoices; the history shows every run.
import { and, eq } from "drizzle-orm";
import ExcelJS from "exceljs";
import { schema } from "../../db/client";
import { e2eDb, expect, formToken, loginAs, makeRetailer, makeStaff, test, withGlobalLock } from "./fixtures";
import { delivery } from "./returns-data";

test("an admin previews, runs and reruns an invoice period; two at once make one set", async ({ page, browser }, info) => {
  // Three runs, each a child process of the server.
  test.setTimeout(120_000);
  // A period of this run's own, far from other tests' deliveries.
  const year = 2100 + (info.project.name === "js-on" ? 1 : 0) * 50 + Math.floor(Math.random() * 40);
  const from = `${year}-03-01`;
  const to = `${year}-03-31`;
  // The run invoices every sent extra line and transferred order line up to the period's
  // end: not while the tests that send or transfer them run.
  await withGlobalLock("invoice-run", () => withGlobalLock("order-transfer", async () => {
    const shop = await makeRetailer(info.workerIndex, { name: "Şahin Livs" });
    await delivery(shop.id, { date: `${year}-03-02`, delivered: 10 });
    const admin = await makeStaff("admin");
    await loginAs(page, admin.email, admin.password);
    await page.goto("/admin/invoice");
    await page.getByRole("link", { name: "Fakturakörning och historik" }).click();
    await page.getByLabel("Från").fill(to);
    await page.getByLabel("Till").fill(from);
    await page.getByRole("button", { name: "Förhandsgranska" }).click();
    await expect(page.getByText("Felaktig period")).toBeVisible();
    await page.getByLabel("Från").fill(from);
    await page.getByLabel("Till").fill(to);
    await page.getByRole("button", { name: "Förhandsgranska" }).click();
    await expect(page.getByRole("heading", { name: `Förhandsgranskning ${from}–${to}` })).toBeVisible();
    // Other tests' sent extra lines and transferred orders may be due too: at least ours.
    await expect(page.getByText(/(1 ny faktura|\d+ nya fakturor) till \d+ kund(er)?/)).toBeVisible();
    await expect(page.getByRole("table", { name: "Per papperstyp" }).getByRole("row", { name: /Huvudtidningar/ })).toBeVisible();
    // The period's papers can still come back (their last return day lies ahead): the
    // preview says so, and where their returns will be credited.
    const open = page.getByRole("note", { name: "Leveranser som fortfarande kan returneras" });
    await expect(open).toContainText(/(1 leverans|\d+ leveranser) i perioden kan fortfarande returneras, till och med \d{4}-\d\d-\d\d: \d+ ex för [\d\s]+,\d\d kr exkl\. moms\./);
    await expect(open).toContainText("Returer som rapporteras efter körningen krediteras på kundens nästa faktura.");
    // What will be billed, per customer and paper type, searchable.
    const planned = page.getByRole("table", { name: "Fakturor i förhandsgranskningen" });
    await page.getByLabel("Sök bland fakturorna (kundnummer, namn)").fill(String(shop.id));
    await page.getByRole("button", { name: "Sök", exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`sok=${shop.id}`));
    await expect(planned.getByRole("row")).toHaveCount(2);
    await expect(planned.getByRole("row").nth(1)).toContainText(`${shop.id} Şahin Livs`);
    await expect(planned.getByRole("row").nth(1)).toContainText(`sålda exemplar ${from}–${to}: 10 × `);
    // The preview wrote nothing.
    expect(await e2eDb().select().from(schema.invoices).where(and(eq(schema.invoices.customerId, shop.id), eq(schema.invoices.periodFrom, from)))).toHaveLength(0);

    // A second admin presses at the same moment (a second tab): one set of invoices (the
    // second press is refused while the first runs, or finds everything made).
    const csrf = await formToken(page.request);
    const [, other] = await Promise.all([
      page.getByRole("button", { name: /^Skapa \d+ faktur(a|or)$/ }).click(),
      page.request.post("/admin/invoice/korning", { form: { csrf, fran: from, till: to }, maxRedirects: 0 }),
    ]);
    expect(other.status()).toBe(302);
    // The run goes on in the background; the page follows it to its result. If the other
    // press started first, this one was refused while it ran: follow that one instead.
    // The run works in the server's child process (a Node start of its own, a second or
    // more on a loaded machine): the page is given the time a background job takes.
    const refused = page.getByText(/En körning pågår redan/);
    await expect(page.getByRole("heading", { name: "Resultat" }).or(refused)).toBeVisible({ timeout: 30_000 });
    if (await refused.isVisible()) await page.goto(other.headers()["location"]);
    await expect(page.getByRole("heading", { name: "Resultat" })).toBeVisible({ timeout: 30_000 });
    await expect(page).toHaveURL(/resultat=\d+/);
    await expect(page.getByRole("status")).toHaveText(/Körningen är klar: \d+ faktur(a|or)|Inget nytt att fakturera/);
    const made = await e2eDb().select().from(schema.invoices).where(and(eq(schema.invoices.customerId, shop.id), eq(schema.invoices.periodFrom, from)));
    expect(made).toHaveLength(1);
    // The history says how each run ended.
    const ourRuns = page.getByRole("row").filter({ has: page.getByRole("link", { name: new RegExp(`, ${from}–${to}$`) }) });
    await expect(ourRuns.first().getByRole("cell").last()).toHaveText("Klar");

    // A correction dated inside the invoiced period: the next preview says it goes on the next invoices.
    const [file] = await e2eDb().insert(schema.extraInvoiceFiles).values({}).returning();
    const [late] = await e2eDb()
      .insert(schema.extraInvoiceLines)
      .values({ fileId: file.id, magazineTitle: "Expressen", customerId: shop.id, productGroup: "Huvudtidning", articleName: "Rättelse Kvällsposten", deliveryDate: `${year}-03-15`, deliveredAmount: 2, grossPriceOre: 700, nettoPriceOre: 600, vatPermille: 60 })
      .returning();
    try {
      await page.goto(`/admin/invoice/korning?fran=${year}-04-01&till=${year}-04-30&granska=1`);
      const note = page.getByRole("note", { name: "Rader från tidigare perioder" });
      await expect(note).toContainText("före perioden, i en period som redan är fakturerad.");
      await expect(note).toContainText(`med på fakturorna för ${year}-04-01–${year}-04-30:`);
      await expect(note.getByRole("listitem").filter({ hasText: `${shop.id} Şahin Livs: Rättelse Kvällsposten (Expressen) ${year}-03-15 (daterad ${year}-03-15)` })).toHaveCount(1);
    } finally {
      await e2eDb().delete(schema.extraInvoiceLines).where(eq(schema.extraInvoiceLines.id, late.id));
    }

    // The same period again: nothing new, and it says so.
    await page.goto(`/admin/invoice/korning?fran=${from}&till=${to}&granska=1`);
    await expect(page.getByText("Inget nytt att fakturera för perioden.")).toBeVisible();
    await expect(page.getByRole("button", { name: /Skapa/ })).toHaveCount(0);
    // Pressed again anyway (a stale tab): the run makes nothing new and says so.
    const again = await page.request.post("/admin/invoice/korning", { form: { csrf, fran: from, till: to }, maxRedirects: 0 });
    expect(again.status()).toBe(302);
    await page.goto(again.headers()["location"]);
    await expect(page.getByRole("heading", { name: "Resultat" })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole("status")).toHaveText(new RegExp(`Inget nytt att fakturera för ${from}–${to}`));
    // The history: the run that made the invoice and the rerun that found it made.
    const history = page.getByRole("row").filter({ hasText: `${from}–${to}` });
    expect(await history.count()).toBeGreaterThanOrEqual(2);
    await expect(history.first()).toContainText(admin.email);
    await expect(history.first().getByRole("cell").nth(3)).toHaveText("0");

    // The run that made the invoice: its files, each invoice as the customer's PDF.
    await history.filter({ has: page.getByRole("cell", { name: /^[1-9]\d*$/ }) }).first().getByRole("link").click();
    const files = page.getByRole("table", { name: "Fakturor i körningen" });
    await page.getByLabel("Sök bland körningens fakturor (kundnummer, namn, fakturanummer)").fill("şahin");
    await page.getByRole("button", { name: "Sök", exact: true }).click();
    const ours = files.getByRole("row").filter({ hasText: `${shop.id} Şahin Livs` });
    await expect(ours).toBeVisible();
    // Every invoice of the run to Excel, as the invoices name them.
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: /^Exportera (alla \d+ fakturor|fakturan) till Excel$/ }).click()]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^fakturor-${from}-${to}-korning-\\d+\\.xlsx$`));
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile((await download.path())!);
    const sheet = book.getWorksheet("Fakturor")!;
    expect(sheet.getRow(1).values).toEqual([undefined, "Fakturanummer", "OCR-nummer", "Kundnummer", "Kund", "Avser", "Fakturadatum", "Förfallodatum", "Netto (kr)", "Moms (kr)", "Att betala (kr)"]);
    const row = sheet.getRows(2, sheet.rowCount - 1)!.find((r) => r.getCell(1).value === made[0].number)!;
    expect([row.getCell(3).value, row.getCell(4).value, row.getCell(10).value]).toEqual([shop.id, "Şahin Livs", made[0].amountOre / 100]);
    const pdf = await page.request.get((await ours.getByRole("link", { name: /\(PDF\)/ }).getAttribute("href"))!);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()["content-type"]).toBe("application/pdf");
    expect((await pdf.body()).subarray(0, 5).toString()).toBe("%PDF-");
    void browser;
  }));
});

test("a run whose server stopped mid-way says so and shows its period again; a run that never was says so too", async ({ page }) => {
  const admin = await makeStaff("admin");
  await loginAs(page, admin.email, admin.password);
  // Far from other tests' periods, and left 'failed' so it blocks no one.
  const [run] = await e2eDb()
    .insert(schema.invoiceRuns)
    .values({ actor: `staff:${admin.id}`, periodFrom: "2199-01-01", periodTo: "2199-01-31", created: 12, existing: 0, planned: 40, netOre: 0, vatOre: 0, amountOre: 0, status: "failed", message: "Körningen avbröts innan den var klar (servern stoppades). Fakturorna som hann skapas finns kvar; starta samma period igen så fortsätter den där den slutade." })
    .returning();
  // Followed from any server: the page says why and shows the period again to start it anew.
  await page.goto(`/admin/invoice/korning?korning=${run.id}`);
  await expect(page.getByRole("status")).toContainText("Körningen avbröts innan den var klar");
  await expect(page.getByRole("heading", { name: "Förhandsgranskning 2199-01-01–2199-01-31" })).toBeVisible();
  await page.goto("/admin/invoice/korning?korning=999999999");
  await expect(page.getByRole("alert")).toHaveText("Körningen finns inte. Se historiken nedan.");
  await expect(page.getByRole("heading", { name: "Historik" })).toBeVisible();
});
