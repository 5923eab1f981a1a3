// Order CSV (Fakturering › Exponeringsutrustning): a file saved by Excel on a
// Swedish Windows (Windows-1252, `;`) is read; every bad line is reported in one round —
// the file's own problems and the database's — and nothing is stored until all are right.
import { eq, like } from "drizzle-orm";
import { schema } from "../../db/client";
import { today } from "../../app/lib/dates";
import { e2eDb, expect, loginAs, makeRetailer, makeStaff, test } from "./fixtures";

const HEADER = "customerNumber;orderDate;articleNumber;articleDescription;amount;price;ledger";

test("Excel's Windows-1252 file is read; all bad lines show at once; then the corrected file is imported whole", async ({ page }, info) => {
  const admin = await makeStaff("admin");
  const shop = await makeRetailer(info.workerIndex, { name: "Café Göta Åhléns" });
  const article = `W${Date.now().toString(36)}${info.project.name === "js-on" ? "n" : "f"}`;
  await loginAs(page, admin.email, admin.password);
  await page.goto("/admin/invoice?flik=expo");

  // Line 3: a customer that does not exist (the database's problem); line 4: a bad date
  // (the file's). One upload reports both.
  const bad = [HEADER, `${shop.id};${today()};${article};Löpsedelsställ;1;49900;83`, `99996;${today()};${article}b;Skylt;1;100;83`, `${shop.id};2026-02-30;${article}c;Skylt;1;100;80`].join("\r\n");
  await page.getByLabel("Fil", { exact: true }).setInputFiles({ name: "beställning.csv", mimeType: "text/csv", buffer: Buffer.from(`${bad}\r\n`, "latin1") });
  await page.getByRole("button", { name: "Ladda upp" }).click();
  await expect(page.getByText("Fel: Filen har felaktiga rader. Inget har sparats.")).toBeVisible();
  await expect(page.getByText("Rad 3: customerNumber: kund 99996 finns inte")).toBeVisible();
  await expect(page.getByText("Rad 4: orderDate: ska vara ett datum ÅÅÅÅ-MM-DD")).toBeVisible();
  expect(await e2eDb().select().from(schema.orderLines).where(like(schema.orderLines.articleNumber, `${article}%`))).toHaveLength(0);

  const good = [HEADER, `${shop.id};${today()};${article};Löpsedelsställ Åhléns;1;49900;83`, `${shop.id};${today()};${article}c;Skylt é;1;100;80`].join("\r\n");
  await page.getByLabel("Fil", { exact: true }).setInputFiles({ name: `beställning-${article}.csv`, mimeType: "text/csv", buffer: Buffer.from(`${good}\r\n`, "latin1") });
  await page.getByRole("button", { name: "Ladda upp" }).click();
  await expect(page.getByRole("status")).toHaveText("Framgång! 2 beställningar har bearbetats");
  const [line] = await e2eDb().select().from(schema.orderLines).where(eq(schema.orderLines.articleNumber, article));
  expect(line.articleDescription).toBe("Löpsedelsställ Åhléns");
  await expect(page.getByRole("region", { name: `Fil beställning-${article}.csv` }).getByRole("cell", { name: "Löpsedelsställ Åhléns" })).toBeVisible();
});

test("a UTF-8 file with a BOM and commas is read too", async ({ page }, info) => {
  const admin = await makeStaff("admin");
  const shop = await makeRetailer(info.workerIndex, { name: "Kiosk Łódź" });
  const article = `C${Date.now().toString(36)}${info.project.name === "js-on" ? "n" : "f"}`;
  await loginAs(page, admin.email, admin.password);
  await page.goto("/admin/invoice?flik=expo");
  const file = `\uFEFF${HEADER.replaceAll(";", ",")}\n${shop.id},${today()},${article},"Ställ, Łódź",2,1500,80\n`;
  await page.getByLabel("Fil", { exact: true }).setInputFiles({ name: "order.csv", mimeType: "text/csv", buffer: Buffer.from(file, "utf8") });
  await page.getByRole("button", { name: "Ladda upp" }).click();
  await expect(page.getByRole("status")).toHaveText("Framgång! 1 beställningar har bearbetats");
  const [line] = await e2eDb().select().from(schema.orderLines).where(eq(schema.orderLines.articleNumber, article));
  expect([line.articleDescription, line.amount, line.ledger, line.customerId]).toEqual(["Ställ, Łódź", 2, 80, shop.id]);
});
