// Two tabs of one admin edit the same shared row. The
// later save from a page opened before the first save is refused (409) with what is
// stored now; the typed values stay in the form; a second press saves them on purpose.
// Runs with JavaScript off and on.
import { eq } from "drizzle-orm";
import type { Page } from "@playwright/test";
import { schema } from "../../db/client";
import { addDays, today } from "../../app/lib/dates";
import { e2eDb, expect, formToken, freeHolidayOffset, loginAs, makeStaff, test } from "./fixtures";

const T = today();
let seq = 0;
const unique = (prefix: string) => `${prefix} ${Date.now().toString(36)}${process.pid}${seq++}`;

async function asAdmin(page: Page) {
  const admin = await makeStaff("admin");
  await loginAs(page, admin.email, admin.password);
}

test.describe("two tabs edit the same row: nothing vanishes silently", () => {
  test("Meddelanden: the later save is refused with what is stored now, the typed text kept", async ({ page }) => {
    await asAdmin(page);
    const header = unique("Två flikar");
    const [msg] = await e2eDb()
      .insert(schema.messages)
      .values({ type: 1, header, content: "Ursprunglig text", startDate: T, stopDate: addDays(T, 5) })
      .returning();
    const tabA = page;
    const tabB = await page.context().newPage();
    await tabA.goto(`/admin/messages?id=${msg.id}`);
    await tabB.goto(`/admin/messages?id=${msg.id}`);
    // The version both tabs were opened on.

    await tabA.getByLabel("Innehåll", { exact: true }).fill("Text från flik A");
    await tabA.getByRole("button", { name: "Uppdatera" }).click();
    await expect(tabA.getByRole("status")).toHaveText("Meddelandet är uppdaterat.");

    await tabB.getByLabel("Innehåll", { exact: true }).fill("Text från flik B");
    await tabB.getByRole("button", { name: "Uppdatera" }).click();
    await expect(tabB.getByText(/^Meddelandet har ändrats i en annan flik eller av någon annan sedan du öppnade det\. Det som är sparat nu visas nedan; dina ändringar finns kvar i formuläret\./)).toBeVisible();
    const storedNow = tabB.locator(".stored-now");
    await expect(storedNow).toContainText("Sparat nu");
    await expect(storedNow).toContainText("Text från flik A");
    await expect(tabB.getByLabel("Innehåll", { exact: true })).toHaveValue("Text från flik B");
    await expect(tabB.getByRole("status")).toHaveCount(0);
    // Not said to be saved, and not stored.
    let [row] = await e2eDb().select().from(schema.messages).where(eq(schema.messages.id, msg.id));
    expect(row.content).toBe("Text från flik A");

    // The same stale save as a plain POST answers 409.
    const res = await page.request.post(`/admin/messages?id=${msg.id}`, {
      form: { csrf: await formToken(page.request), intent: "save", id: String(msg.id), version: String(msg.updatedAt), type: "1", startDate: T, content: "Sent" },
    });
    expect(res.status()).toBe(409);
    [row] = await e2eDb().select().from(schema.messages).where(eq(schema.messages.id, msg.id));
    expect(row.content).toBe("Text från flik A");

    // Having seen what is stored, B saves its text on purpose.
    await tabB.getByRole("button", { name: "Uppdatera" }).click();
    await expect(tabB.getByRole("status")).toHaveText("Meddelandet är uppdaterat.");
    [row] = await e2eDb().select().from(schema.messages).where(eq(schema.messages.id, msg.id));
    expect(row.content).toBe("Text från flik B");
  });

  test("Helgspärr: the later save is refused with what is stored now, the typed description kept", async ({ page }) => {
    await asAdmin(page);
    const description = unique("Helg");
    // One holiday per day: a day of this run's own.
    const day = addDays(T, await freeHolidayOffset(200, 0));
    const [holiday] = await e2eDb()
      .insert(schema.holidays)
      .values({ description, day, startReportDay: addDays(day, -10), startForceReportDay: addDays(day, -5) })
      .returning();
    const tabA = page;
    const tabB = await page.context().newPage();
    await tabA.goto(`/admin/holidays?redigera=${holiday.id}`);
    await tabB.goto(`/admin/holidays?redigera=${holiday.id}`);
    // The version both tabs were opened on.

    await tabA.getByLabel("Beskrivning", { exact: true }).fill(`${description} A`);
    await tabA.getByRole("button", { name: "Uppdatera" }).click();
    await expect(tabA.getByRole("status")).toHaveText("Helgdagen sparad.");

    await tabB.getByLabel("Beskrivning", { exact: true }).fill(`${description} B`);
    await tabB.getByRole("button", { name: "Uppdatera" }).click();
    await expect(tabB.getByText(/^Helgdagen har ändrats i en annan flik eller av någon annan sedan du öppnade den\./)).toBeVisible();
    await expect(tabB.locator(".stored-now")).toContainText(`${description} A`);
    await expect(tabB.getByLabel("Beskrivning", { exact: true })).toHaveValue(`${description} B`);
    await expect(tabB.getByRole("status")).toHaveCount(0);
    let [row] = await e2eDb().select().from(schema.holidays).where(eq(schema.holidays.id, holiday.id));
    expect(row.description).toBe(`${description} A`);

    const res = await page.request.post(`/admin/holidays?redigera=${holiday.id}`, {
      form: {
        csrf: await formToken(page.request),
        intent: "save",
        id: String(holiday.id),
        version: String(holiday.updatedAt),
        description: "Sent",
        day,
        startReportDay: addDays(day, -10),
        startForceReportDay: addDays(day, -5),
      },
    });
    expect(res.status()).toBe(409);

    await tabB.getByRole("button", { name: "Uppdatera" }).click();
    await expect(tabB.getByRole("status")).toHaveText("Helgdagen sparad.");
    [row] = await e2eDb().select().from(schema.holidays).where(eq(schema.holidays.id, holiday.id));
    expect(row.description).toBe(`${description} B`);

    // Deleting it in both tabs: the second says it is already gone, in the layout.
    await tabA.goto("/admin/holidays");
    await tabB.goto("/admin/holidays");
    await tabA.getByRole("link", { name: `Ta bort ${description} B` }).click();
    await tabB.getByRole("link", { name: `Ta bort ${description} B` }).click();
    // Both questions are open before tab A answers: a page still loading in tab B
    // would read the session's one-time message meant for tab A.
    await expect(tabA.getByRole("button", { name: "Ta bort", exact: true })).toBeVisible();
    await expect(tabB.getByRole("button", { name: "Ta bort", exact: true })).toBeVisible();
    await tabA.getByRole("button", { name: "Ta bort", exact: true }).click();
    await expect(tabA.getByRole("status")).toHaveText("Helgdagen borttagen.");
    await tabB.getByRole("button", { name: "Ta bort", exact: true }).click();
    await expect(tabB.getByRole("status")).toHaveText("Helgdagen finns inte längre i listan (redan klarmarkerad eller borttagen).");
    await expect(tabB.getByRole("navigation", { name: "Huvudmeny" })).toBeVisible();
  });
});
