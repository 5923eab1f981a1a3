// Avstämning (decision 033) as the distributor's accountant (an admin): a month invoiced
// with a return reported after the run reads "Perioden stämmer" with the return waiting for
// the next invoice; the Excel export holds the same rows; a delivery written into the billed
// month behind the import's back shows as the difference. JavaScript off and on.
import { and, between, eq } from "drizzle-orm";
import ExcelJS from "exceljs";
import { schema } from "../../db/client";
import { e2eDb, expect, formToken, loginAs, makeRetailer, makeStaff, test, withGlobalLock } from "./fixtures";
import { bundle, delivery, labelBlock, returnRow } from "./returns-data";

test("an admin reconciles an invoiced month and sees what was never billed", async ({ page }, info) => {
  test.setTimeout(120_000);
  const off = info.project.name === "js-off";
  // A month of this test's own: the first March from 2500 on that holds no delivery, taken
  // under a lock (the other project's run of this test picks at the same time), with the
  // deliveries written before the lock is let go.
  const shop = await makeRetailer(info.workerIndex, { name: "Şahin Livs" });
  await labelBlock(shop.id);
  const b = await bundle(shop.id, 101);
  const { year, d1, d2 } = await withGlobalLock("reconciliation-month", async () => {
    for (let y = 2500 + (off ? 0 : 250); ; y++) {
      const taken = await e2eDb()
        .select({ id: schema.deliveries.id })
        .from(schema.deliveries)
        .where(between(schema.deliveries.deliveryDate, `${y}-03-01`, `${y}-03-31`))
        .limit(1);
      if (taken.length > 0) continue;
      const d1 = await delivery(shop.id, { date: `${y}-03-02`, delivered: 20 });
      const d2 = await delivery(shop.id, { date: `${y}-03-03`, titleId: 2, editionId: 2, delivered: 12 });
      return { year: y, d1, d2 };
    }
  });
  const from = `${year}-03-01`;
  const to = `${year}-03-31`;
  await returnRow(shop.id, b.id, d1.id, 5);
  const admin = await makeStaff("admin");
  await loginAs(page, admin.email, admin.password);
  await withGlobalLock("invoice-run", () =>
    withGlobalLock("order-transfer", async () => {
      const res = await page.request.post("/admin/invoice/korning", { form: { csrf: await formToken(page.request), fran: from, till: to }, maxRedirects: 0 });
      expect(res.status()).toBe(302);
      await page.goto(res.headers()["location"]);
      await expect(page.getByRole("heading", { name: "Resultat" })).toBeVisible({ timeout: 30_000 });
    }),
  );
  // Reported after the run: waits for the next invoice, and the month still adds up.
  await returnRow(shop.id, b.id, d2.id, 2);

  await page.goto("/admin");
  await page.getByRole("link", { name: "Avstämning" }).first().click();
  await page.getByLabel("Från").fill(from);
  await page.getByLabel("Till").fill(to);
  await page.getByRole("button", { name: "Visa" }).click();
  await expect(page.getByRole("heading", { name: `${from}–${to}` })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Perioden stämmer: differensen är 0 för varje titel." })).toBeVisible();
  // Only this test's deliveries are in the month (else the figures below are someone else's).
  const inMonth = await e2eDb().select({ customerId: schema.deliveries.customerId, date: schema.deliveries.deliveryDate }).from(schema.deliveries).where(between(schema.deliveries.deliveryDate, from, to));
  expect(inMonth.filter((d) => d.customerId !== shop.id), "another customer's deliveries in the test's month").toEqual([]);
  const table = page.getByRole("table", { name: "Avstämning per titel" });
  // Aftonbladet: 20 delivered, 5 returned, 15 billed at 22 kr.
  const ab = table.getByRole("row", { name: /^Aftonbladet, huvudtidning/ });
  await expect(ab).toContainText("20 ex440,00 kr");
  await expect(ab).toContainText("15 ex330,00 kr349,80 kr inkl. moms");
  // Expressen: 12 billed, 2 to be credited on the next invoice.
  const ex = table.getByRole("row", { name: /^Expressen, huvudtidning/ });
  await expect(ex).toContainText("12 ex264,00 kr279,84 kr inkl. moms");
  await expect(ex).toContainText("2 ex44,00 kr");

  // The Excel export: the same rows and the total.
  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "Exportera till Excel" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`avstamning-${from}-${to}.xlsx`);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile((await download.path())!);
  const sheet = wb.getWorksheet("Avstämning")!;
  const values = (n: number) => (sheet.getRow(n).values as unknown[]).slice(1);
  expect(values(1).slice(0, 3)).toEqual(["Titel", "Levererat (ex)", "Levererat (kr)"]);
  expect(values(2).slice(0, 3)).toEqual(["Aftonbladet, huvudtidning", 20, 440]);
  expect(values(4)[0]).toBe("Totalt");

  // A delivery written into the billed month behind the import's back: never billed.
  const [sneaked] = await e2eDb()
    .insert(schema.deliveries)
    .values({ customerId: shop.id, titleId: 1, editionId: 1, deliveryDate: `${year}-03-20`, delivered: 3, priceOre: 2200 })
    .returning();
  try {
    await page.reload();
    await expect(page.getByRole("status").filter({ hasText: "Perioden stämmer inte: differens 3 ex, 66,00 kr." })).toBeVisible();
  } finally {
    await e2eDb().delete(schema.deliveries).where(and(eq(schema.deliveries.id, sneaked.id), eq(schema.deliveries.customerId, shop.id)));
  }
});
