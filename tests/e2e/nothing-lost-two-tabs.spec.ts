// Retailer side: concurrent edits never vanish silently. Two tabs of
// the same customer each save: rows the later tab did not touch are not overwritten with
// its stale values, and a row both changed is refused with what is stored now and what
// was typed, the typed values kept, nothing stored. JS off and on (the two projects).
import { and, eq } from "drizzle-orm";
import type { Page } from "@playwright/test";
import { schema } from "../../db/client";
import { createDelivery, ensureTitlesAndEditions } from "../../cli/seed/factories";
import { addDays, today } from "../../app/lib/dates";
import { shownField } from "../../app/features/placards/words";
import { e2eDb, expect, loginAs, test } from "./fixtures";
import { bundle, day, delivery, labelBlock, openDay, returnRow, returnsOf, saveLeavingBlanks } from "./returns-data";

const ab = (date: string) => `Aftonbladet ${date}`;
const row = (page: Page, label: string) => page.locator("tr").filter({ has: page.getByLabel(label) });

test.describe("two tabs never lose a save silently", () => {
  test("state 2: the stale tab's untouched row stays; a row both tabs changed is refused with both values", async ({ page, retailer }) => {
    await labelBlock(retailer.id);
    const [d1, d2] = [day(-1), day(-2)];
    const a = await delivery(retailer.id, { date: d1, delivered: 10, reported: true });
    const b = await delivery(retailer.id, { date: d2, delivered: 10, reported: true });
    const open = await bundle(retailer.id, 101);
    await returnRow(retailer.id, open.id, a.id, 5);
    await returnRow(retailer.id, open.id, b.id, 3);
    await loginAs(page, retailer.id, retailer.pin);
    const tab2 = await page.context().newPage();
    await page.goto("/rapportering/2");
    await tab2.goto("/rapportering/2");

    // Tab 1 changes a to 6.
    await page.getByLabel(`Retur för ${ab(d1)}`).fill("6");
    await page.getByRole("button", { name: "Spara och fortsätt" }).click();
    await expect(page).toHaveURL(/\/rapportering\/2\/bekrafta/);
    // Tab 2 (loaded before) changes only b to 2: saved, and a keeps tab 1's 6 (before: back to 5).
    await openDay(tab2, d2);
    await tab2.getByLabel(`Retur för ${ab(d2)}`).fill("2");
    await tab2.getByRole("button", { name: "Spara och fortsätt" }).click();
    await expect(tab2).toHaveURL(/\/rapportering\/2\/bekrafta/);
    expect((await returnsOf(a.id)).map((r) => r.amount)).toEqual([6]);
    expect((await returnsOf(b.id)).map((r) => r.amount)).toEqual([2]);

    // Both tabs open afresh; tab 1 sets a to 8, tab 2 (stale) a to 7 and b to 1.
    await page.goto("/rapportering/2");
    await tab2.goto("/rapportering/2");
    await page.getByLabel(`Retur för ${ab(d1)}`).fill("8");
    await page.getByRole("button", { name: "Spara och fortsätt" }).click();
    await expect(page).toHaveURL(/\/rapportering\/2\/bekrafta/);
    await tab2.getByLabel(`Retur för ${ab(d1)}`).fill("7");
    await openDay(tab2, d2);
    await tab2.getByLabel(`Retur för ${ab(d2)}`).fill("1");
    await tab2.getByRole("button", { name: "Spara och fortsätt" }).click();
    await expect(row(tab2, `Retur för ${ab(d1)}`)).toContainText("Raden har ändrats i en annan flik eller av någon annan: nu sparat 8, du skrev 7. Kontrollera och spara igen.");
    await expect(tab2.getByText("Inget sparades. Rätta raderna som är markerade nedan.")).toBeVisible();
    await expect(tab2).toHaveURL(/\/rapportering\/2$/);
    await expect(tab2.getByLabel(`Retur för ${ab(d1)}`)).toHaveValue("7");
    await expect(tab2.getByLabel(`Retur för ${ab(d2)}`)).toHaveValue("1");
    expect((await returnsOf(a.id)).map((r) => r.amount)).toEqual([8]);
    expect((await returnsOf(b.id)).map((r) => r.amount)).toEqual([2]);
    // Checked: Spara again stores the user's 7 and 1.
    await tab2.getByRole("button", { name: "Spara och fortsätt" }).click();
    await expect(tab2).toHaveURL(/\/rapportering\/2\/bekrafta/);
    expect((await returnsOf(a.id)).map((r) => r.amount)).toEqual([7]);
    expect((await returnsOf(b.id)).map((r) => r.amount)).toEqual([1]);
  });

  test("state 1: a paper the other tab reported meanwhile is refused with what is stored, the rest kept, nothing stored", async ({ page, retailer }) => {
    await labelBlock(retailer.id);
    await bundle(retailer.id, 101);
    const [d1, d2] = [day(-1), day(-2)];
    const a = await delivery(retailer.id, { date: d1, delivered: 10 });
    const b = await delivery(retailer.id, { date: d2, delivered: 10 });
    await loginAs(page, retailer.id, retailer.pin);
    const tab2 = await page.context().newPage();
    await page.goto("/rapportering/1");
    await tab2.goto("/rapportering/1");

    await page.getByLabel(`Retur för ${ab(d1)}`).fill("5");
    await saveLeavingBlanks(page);
    await expect(page).toHaveURL(/\/rapportering\/1\/bekrafta/);

    await tab2.getByLabel(`Retur för ${ab(d1)}`).fill("7");
    await tab2.getByLabel(`Retur för ${ab(d2)}`).fill("2");
    await tab2.getByRole("button", { name: "Spara och fortsätt" }).click();
    // Before: a's 7 was dropped silently, b saved, "Returerna är sparade."
    await expect(row(tab2, `Retur för ${ab(d1)}`)).toContainText("Tidningen har redan rapporterats i en annan flik eller av någon annan: nu sparat 5, du skrev 7.");
    await expect(tab2.getByLabel(`Retur för ${ab(d1)}`)).toHaveValue("7");
    await expect(tab2.getByLabel(`Retur för ${ab(d2)}`)).toHaveValue("2");
    expect((await returnsOf(a.id)).map((r) => r.amount)).toEqual([5]);
    expect(await returnsOf(b.id)).toHaveLength(0);
    // The row emptied: the rest is stored, and the toast speaks of it.
    await tab2.getByLabel(`Retur för ${ab(d1)}`).fill("");
    await tab2.getByRole("button", { name: "Spara och fortsätt" }).click();
    await expect(tab2).toHaveURL(/\/rapportering\/1\/bekrafta/);
    expect((await returnsOf(a.id)).map((r) => r.amount)).toEqual([5]);
    expect((await returnsOf(b.id)).map((r) => r.amount)).toEqual([2]);
  });
});

test.describe("two tabs of the delivery note", () => {
  test("a Mottagit the other tab changed meanwhile is refused with the stored value; the other row is saved as typed", async ({ page, retailer }) => {
    await ensureTitlesAndEditions(e2eDb());
    const on = today();
    const a = await createDelivery(e2eDb(), { customerId: retailer.id, titleId: 1, editionId: 1, deliveryDate: on, delivered: 20, priceOre: 1500 });
    const b = await createDelivery(e2eDb(), { customerId: retailer.id, titleId: 2, editionId: 1, deliveryDate: on, delivered: 12, priceOre: 1500 });
    const note = (p: Page, delivered: number) => p.locator(".delivery-row").filter({ hasText: `Levererat: ${delivered}` });
    const stored = async (id: number) => (await e2eDb().select().from(schema.deliveries).where(eq(schema.deliveries.id, id)))[0].received;
    await loginAs(page, retailer.id, retailer.pin);
    const tab2 = await page.context().newPage();
    await page.goto("/foljesedel");
    await tab2.goto("/foljesedel");

    await note(page, 20).getByLabel("Mottagit").fill("18");
    await note(page, 20).getByRole("button", { name: "Spara" }).click();
    await expect(page.getByText("Mottaget antal sparat.")).toBeVisible();
    expect(await stored(a.id)).toBe(18);

    // Tab 2 (loaded before) types 17 for the same row and 11 for the other, Enter: before, 17 overwrote 18.
    await note(tab2, 20).getByLabel("Mottagit").fill("17");
    await note(tab2, 12).getByLabel("Mottagit").fill("11");
    await note(tab2, 12).getByLabel("Mottagit").press("Enter");
    await expect(note(tab2, 20)).toContainText("Raden har ändrats i en annan flik eller av någon annan: nu sparat 18, du skrev 17. Kontrollera och spara igen.");
    await expect(note(tab2, 20).getByLabel("Mottagit")).toHaveValue("17");
    expect(await stored(a.id)).toBe(18);
    expect(await stored(b.id)).toBe(11);
    // Checked: Spara on the row again stores the user's 17.
    await note(tab2, 20).getByRole("button", { name: "Spara" }).click();
    // The confirmation of the earlier save may still be showing: wait for the row itself.
    await expect(note(tab2, 20)).not.toContainText("Raden har ändrats i en annan flik eller av någon annan");
    await expect(tab2.getByText("Mottaget antal sparat.")).toBeVisible();
    await expect.poll(() => stored(a.id)).toBe(17);
  });
});

test.describe("two tabs of Löpsedlar and Helgspärr", () => {
  test("Löpsedlar: the stale tab's untouched title stays; a title both changed is refused with both values", async ({ page, retailer }) => {
    await ensureTitlesAndEditions(e2eDb());
    const titles = await e2eDb().select().from(schema.titles);
    for (const t of titles) await e2eDb().insert(schema.placards).values({ customerId: retailer.id, titleId: t.id, amount: 1, newAmount: 2 });
    const wanted = async (titleId: number) =>
      (await e2eDb().select().from(schema.placards).where(and(eq(schema.placards.customerId, retailer.id), eq(schema.placards.titleId, titleId))))[0].newAmount;
    await loginAs(page, retailer.id, retailer.pin);
    const tab2 = await page.context().newPage();
    await page.goto("/lopsedlar");
    await tab2.goto("/lopsedlar");

    await page.getByLabel("Önskat antal Aftonbladet").fill("7");
    await page.getByRole("button", { name: "Spara" }).click();
    await expect(page.getByRole("status")).toHaveText("Sparat!");
    await tab2.getByLabel("Önskat antal Expressen").fill("4");
    await tab2.getByRole("button", { name: "Spara" }).click();
    await expect(tab2.getByRole("status")).toHaveText("Sparat!");
    // Before: Aftonbladet went back to tab 2's stale 2.
    expect(await wanted(1)).toBe(7);
    expect(await wanted(2)).toBe(4);

    await page.goto("/lopsedlar");
    await tab2.goto("/lopsedlar");
    await page.getByLabel("Önskat antal Aftonbladet").fill("8");
    await page.getByRole("button", { name: "Spara" }).click();
    await expect(page.getByRole("status")).toHaveText("Sparat!");
    await tab2.getByLabel("Önskat antal Aftonbladet").fill("9");
    await tab2.getByLabel("Önskat antal Expressen").fill("5");
    await tab2.getByRole("button", { name: "Spara" }).click();
    const card = tab2.getByRole("listitem").filter({ hasText: "Aftonbladet" });
    await expect(card.getByRole("alert")).toHaveText("Raden har ändrats i en annan flik eller av någon annan: nu sparat 8, du skrev 9. Kontrollera och spara igen.");
    await expect(tab2.getByLabel("Önskat antal Aftonbladet")).toHaveValue("9");
    await expect(tab2.getByLabel("Önskat antal Expressen")).toHaveValue("5");
    expect(await wanted(1)).toBe(8);
    expect(await wanted(2)).toBe(4);
    // The page now knows what is stored (8): without JavaScript from the answer itself, with
    // it once its data is fetched again after the refusal. A second Spara is then the user's own.
    await expect(tab2.locator(`input[name="${shownField(1)}"]`)).toHaveValue("8");
    await tab2.getByRole("button", { name: "Spara" }).click();
    await expect(tab2.getByRole("status")).toHaveText("Sparat!");
    expect(await wanted(1)).toBe(9);
    expect(await wanted(2)).toBe(5);
  });

  test("Helgspärr: an answer the other tab gave meanwhile is refused with both; choosing again saves", async ({ page, retailer }) => {
    const description = `Tvåflik ${retailer.id}`;
    const [h] = await e2eDb()
      .insert(schema.holidays)
      .values({ description, day: addDays(today(), 30), startReportDay: addDays(today(), 20), startForceReportDay: addDays(today(), 25) })
      .returning();
    const answer = async () =>
      (await e2eDb().select().from(schema.holidayReports).where(and(eq(schema.holidayReports.customerId, retailer.id), eq(schema.holidayReports.holidayId, h.id))))[0]?.open ?? null;
    await loginAs(page, retailer.id, retailer.pin);
    const tab2 = await page.context().newPage();
    await page.goto("/helgsparr");
    await tab2.goto("/helgsparr");
    const card = (p: Page) => p.getByRole("listitem").filter({ has: p.getByRole("heading", { name: description }) });
    await card(page).getByRole("button", { name: "Öppet" }).click();
    await expect(card(page)).toContainText("Ditt svar: Öppet");
    // Before: tab 2's Stängt replaced Öppet and said "Sparat!".
    await card(tab2).getByRole("button", { name: "Stängt" }).click();
    await expect(card(tab2)).toContainText("Svaret har ändrats i en annan flik eller av någon annan: nu sparat Öppet, du valde Stängt. Kontrollera och spara igen.");
    expect(await answer()).toBe(true);
    // The page shows what is stored (Öppet pressed): without JavaScript in the answer itself,
    // with it once its data is fetched again after the refusal. Choosing again is then the user's own.
    await expect(card(tab2).getByRole("button", { name: "Öppet" })).toHaveAttribute("aria-pressed", "true");
    await card(tab2).getByRole("button", { name: "Stängt" }).click();
    await expect(card(tab2)).toContainText("Ditt svar: Stängt");
    expect(await answer()).toBe(false);
  });
});
