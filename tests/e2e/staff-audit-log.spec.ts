// An admin finds what happened to a customer — an
// impersonation, a new PIN — by customer, kind and date, pages and sorts it, and exports
// the same rows to Excel with Swedish headings and the time as a date.
import ExcelJS from "exceljs";
import { schema } from "../../db/client";
import { addDays, today } from "../../app/lib/dates";
import { e2eDb, expect, loginAs, makeRetailer, makeStaff, test } from "./fixtures";
import { portalNow } from "../../db/clock";

test("an admin searches the trail by customer, kind and date, and exports it", async ({ page }, info) => {
  const shop = await makeRetailer(info.workerIndex, { name: "Şahin Livs" });
  const admin = await makeStaff("admin");
  const now = portalNow();
  await e2eDb()
    .insert(schema.auditLog)
    .values([
      { actor: `staff:${admin.id}`, action: "impersonation.start", target: `customer:${shop.id}`, at: now - 60_000, ip: "192.0.2.7" },
      { actor: `staff:${admin.id}`, action: "customer.set-pin", target: `customer:${shop.id}`, at: now - 30_000, detail: '{"sessionsEnded":1}' },
      { actor: `customer:${shop.id}`, action: "login.success", at: now - 10_000 },
      { actor: `staff:${admin.id}`, action: "impersonation.start", target: `customer:${shop.id}`, at: now - 40 * 86_400_000 },
    ]);
  await loginAs(page, admin.email, admin.password);
  await page.goto("/admin");
  await page.getByRole("navigation", { name: "Huvudmeny" }).getByRole("link", { name: "Logg" }).click();
  await page.getByLabel("Gäller kund (kundnummer)").fill(String(shop.id));
  await page.getByLabel("Händelse").selectOption({ label: "Personalinloggning som kund" });
  await page.getByLabel("Från").fill(addDays(today(), -7));
  await page.getByLabel("Till").fill(today());
  await page.getByRole("button", { name: "Sök", exact: true }).click();
  await expect(page.getByText("1 händelse.")).toBeVisible();
  // In words: what happened, to whom by number and name.
  const row = page.getByRole("row").filter({ hasText: `Öppnade kundens portal: ${shop.id} Şahin Livs` });
  await expect(row).toContainText(admin.email);
  await expect(row).toContainText("192.0.2.7");
  await expect(row.getByRole("cell").nth(3)).toHaveText(`${shop.id} Şahin Livs`);
  // Every kind for the customer: their own login and the PIN change too, newest first.
  await page.getByLabel("Händelse").selectOption({ label: "Alla" });
  await page.getByRole("button", { name: "Sök", exact: true }).click();
  await expect(page.getByText("3 händelser.")).toBeVisible();
  await expect(page.getByRole("row").nth(1).getByRole("cell").nth(2)).toContainText(/^Inloggning/);
  await page.getByRole("link", { name: "Händelse" }).click();
  await expect(page.getByRole("row").nth(1)).toContainText(`Ny pinkod för ${shop.id} Şahin Livs; 1 inloggning avslutad`);
  // Vem by part of the admin's e-mail address finds the admin's rows.
  await page.getByLabel(/^Vem/).fill(admin.email.slice(0, 12));
  await page.getByRole("button", { name: "Sök", exact: true }).click();
  await expect(page.getByText("2 händelser.")).toBeVisible();
  await page.getByLabel(/^Vem/).fill("");
  await page.getByRole("button", { name: "Sök", exact: true }).click();
  await expect(page.getByText("3 händelser.")).toBeVisible();

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Exportera till Excel" }).click()]);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile((await download.path())!);
  const sheet = wb.worksheets[0];
  expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(["Tid", "Vem", "Händelse", "Händelsetyp", "Gäller", "Kod", "Tekniska detaljer", "IP-adress"]);
  expect(sheet.rowCount).toBe(4);
  expect(sheet.getCell("A2").value).toBeInstanceOf(Date);
  expect(sheet.getCell("A2").numFmt).toBe("yyyy-mm-dd hh:mm");
  // In the screen's order (newest first, as the search above left it), in the screen's words.
  expect(sheet.getCell("C2").value).toBe("Inloggning");
  expect(sheet.getCell("C3").value).toBe(`Ny pinkod för ${shop.id} Şahin Livs; 1 inloggning avslutad`);
  expect(sheet.getCell("D3").value).toBe("Pinkoder");
  // The target by number and name, as the screen shows it; the code beside the technical detail.
  expect(sheet.getCell("E4").value).toBe(`${shop.id} Şahin Livs`);
  expect(sheet.getCell("F4").value).toBe("impersonation.start");

  // A reversed period: 'Felaktig period', 400.
  const res = await page.goto(`/admin/logg?fran=${today()}&till=${addDays(today(), -3)}`);
  expect(res?.status()).toBe(400);
  await expect(page.getByText("Felaktig period")).toBeVisible();
});
