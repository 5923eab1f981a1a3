// Dagens produkter in the browser: an admin creates and prices a product (Kvällsposten,
// not only Expressen), bad values refused beside their fields with everything typed kept,
// and a cover uploaded with an extra description stores both, or neither when there is
// no product yet. JS off and on.
import { and, eq } from "drizzle-orm";
import { schema } from "../../db/client";
import { ensureTitlesAndEditions } from "../../cli/seed/factories";
import { addDays, today } from "../../app/lib/dates";
import { e2eDb, expect, loginAs, makeStaff, test } from "./fixtures";

const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");

test("an admin creates Kvällsposten for a day, prices it again, and uploads its cover with an extra description", async ({ page }, info) => {
  await ensureTitlesAndEditions(e2eDb());
  // A day of its own: Kvällsposten is title 2, edition 2.
  const day = addDays(today(), 700 + Math.floor(Math.random() * 5000));
  const stored = () => e2eDb().select().from(schema.dailyProducts).where(and(eq(schema.dailyProducts.titleId, 2), eq(schema.dailyProducts.editionId, 2), eq(schema.dailyProducts.startDate, day)));
  const admin = await makeStaff("admin");
  await loginAs(page, admin.email, admin.password);
  await page.goto("/admin/dailyproducts");
  await page.getByRole("link", { name: "Ny produkt eller nytt pris" }).click();
  await expect(page.getByRole("heading", { name: "Ny produkt eller nytt pris", level: 1 })).toBeVisible();

  await page.getByLabel("Titel").selectOption({ label: "Expressen" });
  await page.getByLabel("Utgåva").selectOption({ label: "Expressen: Kvällsposten" });
  await page.getByLabel("Första dag").fill(day);
  await page.getByLabel("Sista dag").fill(addDays(day, -1));
  await page.getByLabel("Beskrivning").fill("Kvällsposten");
  await page.getByLabel("Rubrik").fill("Skåne i dag");
  await page.getByLabel("Pris (kr)").fill("29,50");
  await page.getByLabel("EAN-kod").fill("12");
  await page.getByLabel("Rubrik").focus();
  if (info.project.name === "js-off") await page.getByRole("button", { name: "Spara produkten" }).click();
  else await expect(page.getByRole("button", { name: "Spara produkten" })).toBeDisabled();
  await expect(page.getByText("Sista dag kan inte vara före första dag.")).toBeVisible();
  await expect(page.getByText("EAN-koden är 8–14 siffror.")).toBeVisible();
  await expect(page.getByLabel("Rubrik")).toHaveValue("Skåne i dag");
  await expect(page.getByLabel("Pris (kr)")).toHaveValue("29,50");
  expect(await stored()).toHaveLength(0);

  await page.getByLabel("Sista dag").fill(day);
  await page.getByLabel("EAN-kod").fill("7388002000029");
  await page.getByRole("button", { name: "Spara produkten" }).click();
  await expect(page.getByRole("status")).toHaveText(`Produkten är tillagd: Kvällsposten ${day}, 29,50 kr.`);
  expect((await stored()).map((p) => [p.priceOre, p.heading, p.eanCode, p.endDate])).toEqual([[2950, "Skåne i dag", "7388002000029", day]]);

  // Priced again: the same product, the new price; nothing doubled.
  await page.goto(`/admin/dailyproducts/ny?datum=${day}`);
  await page.getByLabel("Titel").selectOption({ label: "Expressen" });
  await page.getByLabel("Utgåva").selectOption({ label: "Expressen: Kvällsposten" });
  await page.getByLabel("Beskrivning").fill("Kvällsposten");
  await page.getByLabel("Pris (kr)").fill("32");
  await page.getByRole("button", { name: "Spara produkten" }).click();
  await expect(page.getByRole("status")).toHaveText(`Produkten är uppdaterad: Kvällsposten ${day}, 32,00 kr.`);
  expect((await stored()).map((p) => p.priceOre)).toEqual([3200]);

  // A cover with a description for a day without the product: refused, the text kept, nothing stored.
  const other = addDays(day, 1);
  await page.goto(`/admin/dailyproducts?datum=${day}`);
  await page.getByLabel("Titel").selectOption({ label: "Expressen" });
  await page.getByLabel("Utgåva").selectOption({ label: "Expressen: Kvällsposten" });
  await page.getByLabel("Datum").first().fill(other);
  await page.getByLabel("Extra beskrivning").fill("Med Skånebilaga, Şahin");
  await page.getByLabel(/Omslag/).setInputFiles({ name: "kvp.png", mimeType: "image/png", buffer: PNG });
  await page.getByRole("button", { name: "Ladda upp omslag" }).click();
  await expect(page.getByText("Det finns ingen produkt för den titeln, utgåvan och dagen ännu")).toBeVisible();
  await expect(page.getByLabel("Extra beskrivning")).toHaveValue("Med Skånebilaga, Şahin");
  expect(await e2eDb().select().from(schema.images).where(eq(schema.images.date, other))).toHaveLength(0);

  // The same for the day that has it: both stored, the status says both.
  await page.getByLabel("Datum").first().fill(day);
  await page.getByLabel(/Omslag/).setInputFiles({ name: "kvp.png", mimeType: "image/png", buffer: PNG });
  await page.getByRole("button", { name: "Ladda upp omslag" }).click();
  await expect(page.getByRole("status")).toHaveText("Omslaget är publicerat och beskrivningen sparad.");
  const [product] = await stored();
  expect(product.extraDescription).toBe("Med Skånebilaga, Şahin");
  expect(product.coverImageId).not.toBeNull();
});
