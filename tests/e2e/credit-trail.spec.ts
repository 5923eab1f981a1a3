// The credit trail as a retailer and as customer service: a return waits for
// the invoice run ("Väntar på kreditering"), then names the invoice that credited it with
// a link, in Buntinnehåll and on the invoice page and its PDF; staff look up the same trail
// by customer and bundle, a utb user only for their own distributor's customers.
import { execFileSync } from "node:child_process";
import { eq } from "drizzle-orm";
import { createDistributor } from "../../cli/seed/factories";
import { schema } from "../../db/client";
import { e2eDb, expect, formToken, loginAs, makeRetailer, makeStaff, test, withGlobalLock } from "./fixtures";
import { bundle, day, delivery, labelBlock, returnRow } from "./returns-data";
import { portalNow } from "../../db/clock";

test("a return waits for the invoice run, then names the invoice that credited it; staff see the same trail", async ({ page, browser }, info) => {
  // Two invoice runs over every customer of the test database, waiting for the lock other tests' runs hold.
  test.setTimeout(150_000);
  const off = info.project.name === "js-off";
  // A period of this run's own, far from other tests' deliveries (and from staff-invoice-run's).
  const year = 2300 + (off ? 0 : 50) + Math.floor(Math.random() * 40);
  const from = `${year}-04-01`;
  const to = `${year}-04-30`;
  const mine = await createDistributor(e2eDb(), off ? 77 : 78, `Kreditering ${info.project.name}`);
  const elsewhere = await createDistributor(e2eDb(), off ? 79 : 80, `Annan distributör ${info.project.name}`);
  const shop = await makeRetailer(info.workerIndex, { distributorId: mine.id, name: "Kiosk Łódź" });
  await labelBlock(shop.id);
  const b = await bundle(shop.id, 101);
  const inPeriod = await delivery(shop.id, { date: `${year}-04-02`, delivered: 20 });
  await returnRow(shop.id, b.id, inPeriod.id, 5);
  const recent = await delivery(shop.id, { date: day(-1), delivered: 20, reported: true });
  await returnRow(shop.id, b.id, recent.id, 3);

  await loginAs(page, shop.id, shop.pin);
  await page.goto("/buntsok");
  await page.getByLabel("Buntnummer").fill("101");
  await page.getByRole("button", { name: "Sök" }).click();
  await expect(page.getByRole("heading", { name: "Bunt #101" })).toBeVisible();
  await expect(page.getByRole("columnheader", { name: "Kreditering" })).toBeVisible();
  await expect(page.getByRole("row", { name: `${year}-04-02 Aftonbladet 5 Väntar på kreditering` })).toBeVisible();
  await expect(page.getByRole("row", { name: `${day(-1)} Aftonbladet 3 Väntar på kreditering` })).toBeVisible();
  // History says the same for the recent return.
  await page.goto("/historik");
  await expect(page.getByRole("columnheader", { name: "Kreditering" })).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: day(-1) }).filter({ hasText: "Väntar på kreditering" }).first()).toBeVisible();

  // Staff run the period (twice: the rerun credits nothing again).
  const staff = await browser.newContext({ baseURL: info.project.use.baseURL, javaScriptEnabled: !off });
  const staffPage = await staff.newPage();
  const admin = await makeStaff("admin");
  await loginAs(staffPage, admin.email, admin.password);
  await withGlobalLock("invoice-run", () =>
    withGlobalLock("order-transfer", async () => {
      for (let i = 0; i < 2; i++) {
        const res = await staffPage.request.post("/admin/invoice/korning", { form: { csrf: await formToken(staffPage.request), fran: from, till: to }, maxRedirects: 0 });
        expect(res.status()).toBe(302);
        await staffPage.goto(res.headers()["location"]);
        // The run works in the server's child process: the time a background job takes.
        await expect(staffPage.getByRole("heading", { name: "Resultat" })).toBeVisible({ timeout: 30_000 });
      }
    }),
  );
  const rows = await e2eDb().query.invoices.findMany({ where: (t, { and, eq }) => and(eq(t.customerId, shop.id), eq(t.periodFrom, from)) });
  expect(rows).toHaveLength(1);
  const invoice = rows[0].number;
  // Two runs, one credit: the period's return on this invoice, once.
  const credited = await e2eDb().query.invoiceCredits.findMany({ where: (t, { eq }) => eq(t.invoiceId, rows[0].id) });
  expect(credited.map((c) => c.amount)).toEqual([5]);

  // The retailer's bundle: the period's return names its invoice with a link to the PDF;
  // the recent one still waits.
  await page.goto("/buntsok?id=101");
  const creditedRow = page.getByRole("row", { name: `${year}-04-02 Aftonbladet 5 Krediterad på faktura ${invoice}` });
  await expect(creditedRow).toBeVisible();
  await expect(page.getByRole("row", { name: `${day(-1)} Aftonbladet 3 Väntar på kreditering` })).toBeVisible();
  const link = creditedRow.getByRole("link", { name: `Krediterad på faktura ${invoice}` });
  await expect(link).toHaveAttribute("href", `/faktura/${invoice}.pdf`);
  const pdf = await page.request.get(`/faktura/${invoice}.pdf`);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()["content-type"]).toBe("application/pdf");
  // The invoice page: what the invoice credited, per bundle.
  await page.goto("/faktura");
  const invoiceRow = page.getByRole("row").filter({ has: page.getByRole("cell", { name: String(invoice), exact: true }) });
  await expect(invoiceRow).toContainText("Bunt 101: 5 ex");

  // Customer service: the same trail by customer and bundle.
  await staffPage.goto("/admin");
  await staffPage.getByRole("link", { name: "Kreditering" }).first().click();
  await expect(staffPage.getByRole("heading", { name: "Kreditering", level: 1 })).toBeVisible();
  // A typing slip keeps what was typed and says what is wrong.
  await staffPage.getByLabel("Kundnummer").fill("12a");
  await staffPage.getByLabel("Buntnummer").fill("101");
  await staffPage.getByRole("button", { name: "Sök" }).click();
  await expect(staffPage.getByText("Ange ett kundnummer (1–5 siffror).")).toBeVisible();
  await expect(staffPage.getByLabel("Buntnummer")).toHaveValue("101");
  expect((await staffPage.request.get(`/admin/kreditering?kund=12a&bunt=101`)).status()).toBe(400);
  await staffPage.getByLabel("Kundnummer").fill(` ${shop.id} `);
  await staffPage.getByRole("button", { name: "Sök" }).click();
  await expect(staffPage.getByRole("heading", { name: `Bunt #101 hos kund ${shop.id}` })).toBeVisible();
  const staffRow = staffPage.getByRole("row", { name: `${year}-04-02 Aftonbladet 5 Krediterad på faktura ${invoice}` });
  await expect(staffRow).toBeVisible();
  const staffPdf = (await staffRow.getByRole("link").getAttribute("href"))!;
  expect(staffPdf).toBe(`/admin/kunder/${shop.id}/faktura/${invoice}.pdf`);
  expect((await staffPage.request.get(staffPdf)).status()).toBe(200);
  await expect(staffPage.getByRole("row", { name: `${day(-1)} Aftonbladet 3 Väntar på kreditering` })).toBeVisible();

  // Two more copies of the billed delivery come back after the run (inside its window): the
  // retailer, on a phone, sees them waiting for the next invoice; the next period's run
  // credits them there, naming the invoice that billed the delivery.
  // Every run settles every customer's changes (this test's other project's too): the
  // change, the check and the run all happen under the run lock.
  const [periodReturn] = await e2eDb().select().from(schema.returns).where(eq(schema.returns.deliveryId, inPeriod.id));
  await page.setViewportSize({ width: 360, height: 800 });
  const next = { from: `${year}-05-01`, to: `${year}-05-31` };
  await withGlobalLock("invoice-run", () =>
    withGlobalLock("order-transfer", async () => {
      await e2eDb().update(schema.returns).set({ amount: 7, updatedAt: portalNow() }).where(eq(schema.returns.id, periodReturn.id));
      await page.goto("/buntsok?id=101");
      await expect(page.getByRole("row", { name: `${year}-04-02 Aftonbladet 7 Krediterad på faktura ${invoice} Krediteras på nästa faktura: 2 ex` })).toBeVisible();
      const res = await staffPage.request.post("/admin/invoice/korning", { form: { csrf: await formToken(staffPage.request), fran: next.from, till: next.to }, maxRedirects: 0 });
      expect(res.status()).toBe(302);
      await staffPage.goto(res.headers()["location"]);
      await expect(staffPage.getByRole("heading", { name: "Resultat" })).toBeVisible({ timeout: 30_000 });
    }),
  );
  const [later] = await e2eDb().query.invoices.findMany({ where: (t, { and, eq }) => and(eq(t.customerId, shop.id), eq(t.periodFrom, next.from)) });
  await page.goto("/buntsok?id=101");
  const settledRow = page.getByRole("row", { name: `${year}-04-02 Aftonbladet 7 Krediterad på faktura ${invoice} Krediterad på faktura ${later.number} 2 ex (efter fakturering av faktura ${invoice})` });
  await expect(settledRow).toBeVisible();
  await expect(settledRow.getByRole("link", { name: `Krediterad på faktura ${later.number}` })).toHaveAttribute("href", `/faktura/${later.number}.pdf`);
  const laterPdf = await page.request.get(`/faktura/${later.number}.pdf`);
  const laterText = execFileSync("pdftotext", ["-layout", "-", "-"], { input: await laterPdf.body(), encoding: "utf8" });
  // The line names the period and the invoice that billed the delivery (wrapped, whole).
  expect(laterText.replace(/\s+/g, " ")).toContain(`Returer efter fakturering, ${from}–${to}: −2 22,00 6% −44,00 Aftonbladet 2 ex (faktura ${invoice})`);
  expect(laterText).toMatch(/Att få tillgodo\s+46,64 kr/);
  await staff.close();

  // A utb user of the retailer's distributor sees it; of another distributor, as unknown.
  for (const [distributor, visible] of [
    [mine.id, true],
    [elsewhere.id, false],
  ] as const) {
    const ctx = await browser.newContext({ baseURL: info.project.use.baseURL, javaScriptEnabled: !off });
    const utbPage = await ctx.newPage();
    const utb = await makeStaff("utb", distributor);
    await loginAs(utbPage, utb.email, utb.password);
    const res = await utbPage.goto(`/admin/kreditering?kund=${shop.id}&bunt=101`);
    if (visible) {
      expect(res?.status()).toBe(200);
      await expect(utbPage.getByRole("link", { name: `Krediterad på faktura ${invoice}` })).toBeVisible();
    } else {
      expect(res?.status()).toBe(404);
      await expect(utbPage.getByText(`Kund ${shop.id} har ingen bunt 101.`)).toBeVisible();
      await expect(utbPage.getByText("Krediterad på faktura")).toHaveCount(0);
    }
    await ctx.close();
  }
});
