// Kreditfaktura (decision 032), as the admin who credits and the retailer who receives it:
// from the customer's page, Kreditera one line of an issued invoice with a reason (none is
// refused, the boxes kept), then the rest; the retailer finds both credit notes beside the
// invoice under Fakturor, on a phone, and downloads one. JavaScript off and on.
import { execFileSync } from "node:child_process";
import { eq } from "drizzle-orm";
import { schema } from "../../db/client";
import { addDays, addMonths, endOfMonth, startOfMonth, today } from "../../app/lib/dates";
import { e2eDb, expect, loginAs, makeRetailer, makeStaff, test } from "./fixtures";

test("an admin credits an invoice line by line; the retailer gets the credit notes", async ({ page, browser }, info) => {
  const off = info.project.name === "js-off";
  const shop = await makeRetailer(info.workerIndex, { name: "Şahin Livs" });
  const number = 6_000_000 + Math.floor(Math.random() * 900_000) * 2 + (off ? 0 : 1);
  // Last month's invoice, issued on the 1st of this one: never dated after the credit note.
  const issued = startOfMonth(today());
  const from = addMonths(issued, -1);
  const to = endOfMonth(from);
  const period = `${from}–${to}`;
  const [invoice] = await e2eDb()
    .insert(schema.invoices)
    .values({ number, customerId: shop.id, paperType: 0, date: issued, dueDate: addDays(issued, 30), periodFrom: from, periodTo: to, netOre: 48_426, vatOre: 2_906, amountOre: 51_332, status: "Obetald" })
    .returning();
  await e2eDb().insert(schema.invoiceLines).values([
    { invoiceId: invoice.id, description: `Aftonbladet, sålda exemplar ${period}`, quantity: 15, unitPriceOre: 2219, vatPermille: 60, netOre: 33_285 },
    { invoiceId: invoice.id, description: `Expressen – Kvällsposten, sålda exemplar ${period}`, quantity: 7, unitPriceOre: 2163, vatPermille: 60, netOre: 15_141 },
  ]);

  const admin = await makeStaff("admin");
  const staff = await browser.newContext({ baseURL: info.project.use.baseURL, javaScriptEnabled: !off });
  const staffPage = await staff.newPage();
  await loginAs(staffPage, admin.email, admin.password);
  await staffPage.goto(`/admin/kunder/${shop.id}`);
  await staffPage.getByRole("link", { name: `Kreditera faktura ${number}` }).click();
  await expect(staffPage.getByRole("heading", { name: `Kreditera faktura ${number}` })).toBeVisible();
  await staffPage.getByLabel(`Kreditera Expressen – Kvällsposten, sålda exemplar ${period}`).check();
  await staffPage.getByRole("button", { name: "Kreditera" }).click();
  await expect(staffPage.getByText("Ange varför fakturan krediteras.")).toBeVisible();
  // The box stays as it was chosen.
  await expect(staffPage.getByLabel(`Kreditera Expressen – Kvällsposten, sålda exemplar ${period}`)).toBeChecked();
  await staffPage.getByLabel("Orsak").fill("Fel pris på Kvällsposten");
  await staffPage.getByRole("button", { name: "Kreditera" }).click();
  const toast = staffPage.getByRole("status").filter({ hasText: /^Kreditfaktura \d+ skapad: −160,49 kr för faktura/ });
  await expect(toast).toBeVisible();
  const first = Number(/Kreditfaktura (\d+)/.exec((await toast.textContent())!)![1]);
  await expect(staffPage.getByRole("row").filter({ hasText: "Expressen – Kvällsposten" })).toContainText(`Kreditfaktura ${first}`);
  // The rest: no box chosen credits every line not yet credited.
  await staffPage.getByLabel("Orsak").fill("Kunden har stängt");
  await staffPage.getByRole("button", { name: "Kreditera" }).click();
  await expect(staffPage.getByText("Fakturan är krediterad i sin helhet.")).toBeVisible();
  const notes = await e2eDb().select().from(schema.creditNotes).where(eq(schema.creditNotes.invoiceId, invoice.id));
  expect(notes.map((n) => n.netOre).sort((a, b) => a - b)).toEqual([-33_285, -15_141]);
  await staff.close();

  // The retailer, on a phone: both credit notes beside the invoice, which says it was credited.
  await page.setViewportSize({ width: 360, height: 800 });
  await loginAs(page, shop.id, shop.pin);
  await page.goto("/faktura");
  const row = page.getByRole("row").filter({ has: page.getByRole("cell", { name: String(number), exact: true }) });
  await expect(row).toContainText("Krediterad");
  for (const n of notes) await expect(row.getByRole("link", { name: `Ladda ner kreditfaktura ${n.number} (PDF)` })).toBeVisible();
  const pdf = await page.request.get(`/kreditfaktura/${first}.pdf`);
  expect(pdf.status()).toBe(200);
  const text = execFileSync("pdftotext", ["-layout", "-", "-"], { input: await pdf.body(), encoding: "utf8" });
  expect(text).toContain("Kreditfaktura");
  expect(text).toContain(`Kreditering av faktura ${number} daterad ${issued}.`);
  expect(text).toContain("Şahin Livs");
  // Another customer's credit note is not found.
  const other = await makeRetailer(info.workerIndex);
  const otherContext = await browser.newContext({ baseURL: info.project.use.baseURL });
  const otherPage = await otherContext.newPage();
  await loginAs(otherPage, other.id, other.pin);
  expect((await otherPage.request.get(`/kreditfaktura/${first}.pdf`)).status()).toBe(404);
  await otherContext.close();
});
