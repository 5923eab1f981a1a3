// The shop owner checks every number (decision 038), on a 390 px phone with the text at
// 200 %, JavaScript off and on: an addition names what was delivered and what is already
// returned, and a refusal the real limit; after a report the day's returns slip prints
// (bundle, paper, copies), a bundle's content prints from Buntinnehåll, and the blank
// counting sheet stays a choice of its own, each button saying which print it gives.
import { execFileSync } from "node:child_process";
import type { Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import { schema } from "../../db/client";
import { e2eDb, expect, loginAs, test } from "./fixtures";
import { bundle, day, delivery, labelBlock, openDay, returnRow } from "./returns-data";

const pdfText = (body: Buffer) => execFileSync("pdftotext", ["-layout", "-", "-"], { input: body, encoding: "utf8" }).replace(/[ \t]+/g, " ");

/** A 390 px phone with the browser's text at 200 %. */
async function phoneAt200(page: Page) {
  await page.setViewportSize({ width: 390, height: 844 });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Page.setFontSizes", { fontSizes: { standard: 32, fixed: 26 } });
}

test("an addition names what was delivered and already returned, and a refusal the real limit", async ({ page, retailer }) => {
  await labelBlock(retailer.id);
  const d = day(-2);
  const paper = await delivery(retailer.id, { date: d, delivered: 13, reported: true });
  const closed = await bundle(retailer.id, 101, { open: false, closedDate: day(-1) });
  await bundle(retailer.id, 102);
  await returnRow(retailer.id, closed.id, paper.id, 3);
  await phoneAt200(page);
  await loginAs(page, retailer.id, retailer.pin);
  await page.goto("/rapportering/2");
  await openDay(page, d);
  await page.getByRole("button", { name: `Tilläggsrapportera för Aftonbladet ${d}` }).click();
  await expect(page.getByText("Levererat 13, redan returnerat 3", { exact: true })).toBeVisible();
  await page.getByLabel(`Bunt för Aftonbladet ${d}`).fill("102");
  await page.getByLabel(`Retur för Aftonbladet ${d}`).fill("12");
  await page.getByRole("button", { name: "Spara och fortsätt" }).click();
  const refusal = "Kan inte vara större än antal levererat. Högst 10 till – 13 levererades och 3 är redan returnerade.";
  await expect(page.getByText(refusal, { exact: true })).toBeVisible();
  // Nothing typed is lost; the real limit goes through.
  await expect(page.getByLabel(`Bunt för Aftonbladet ${d}`)).toHaveValue("102");
  await page.getByLabel(`Retur för Aftonbladet ${d}`).fill("10");
  await page.getByRole("button", { name: "Spara och fortsätt" }).click();
  await expect(page).toHaveURL(/\/rapportering\/2\/bekrafta$/);
});

test("after a report the day's returns slip prints, a bundle's content prints, and the counting sheet is its own choice", async ({ page, retailer }) => {
  await labelBlock(retailer.id);
  const d = day(-1);
  await delivery(retailer.id, { date: d, delivered: 20 });
  await delivery(retailer.id, { date: d, titleId: 2, editionId: 2, delivered: 9 });
  await phoneAt200(page);
  await loginAs(page, retailer.id, retailer.pin);
  await page.goto("/rapportering/1");
  // Before any report: only the blank counting sheet, named so.
  await expect(page.getByRole("link", { name: "Skriv ut räknelista" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Skriv ut dagens returer" })).toHaveCount(0);
  await page.getByLabel(`Bunt för Aftonbladet ${d}`).fill("101");
  await page.getByLabel(`Retur för Aftonbladet ${d}`).fill("6");
  await page.getByLabel(`Bunt för Expressen – Kvällsposten ${d}`).fill("101");
  await page.getByLabel(`Retur för Expressen – Kvällsposten ${d}`).fill("2");
  await page.getByRole("button", { name: "Spara och fortsätt" }).click();
  await expect(page).toHaveURL(/\/rapportering\/1\/bekrafta$/);
  await page.goto("/rapportering/1");

  const slip = page.getByRole("link", { name: "Skriv ut dagens returer" });
  await expect(slip).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent("download"), slip.click()]);
  expect(download.suggestedFilename()).toBe(`Returer-${day(0)}.pdf`);
  const text = pdfText(await page.request.get("/returkvitto.pdf").then((r) => r.body()));
  expect(text).toContain(`${retailer.name}, kundnummer ${retailer.id}`);
  expect(text).toContain("Bunt 101 – Huvudtidningar, öppen");
  expect(text).toMatch(/Aftonbladet 6\n/);
  expect(text).toMatch(/Expressen – Kvällsposten 2\n/);
  expect(text).toMatch(/Totalt 8\n/);

  await page.goto("/buntsok?id=101");
  const content = page.getByRole("link", { name: "Skriv ut buntinnehåll" });
  const [bundleDownload] = await Promise.all([page.waitForEvent("download"), content.click()]);
  expect(bundleDownload.suggestedFilename()).toBe("Bunt-101.pdf");
  const bundleText = pdfText(await page.request.get("/buntinnehall/101.pdf").then((r) => r.body()));
  expect(bundleText).toContain("Buntinnehåll bunt 101");
  expect(bundleText).toMatch(/Totalt 8\n/);
  // Another shop's bundle, or a number that is none, is unknown.
  expect((await page.request.get("/buntinnehall/999.pdf")).status()).toBe(404);
  expect((await page.request.get("/buntinnehall/abc.pdf")).status()).toBe(404);
});

test("Löpsedlar shows the amounts in force, so changing one title changes only that one", async ({ page, retailer }) => {
  await e2eDb()
    .insert(schema.placards)
    .values([
      { customerId: retailer.id, titleId: 1, amount: 2, newAmount: null },
      { customerId: retailer.id, titleId: 2, amount: 3, newAmount: null },
    ]);
  await phoneAt200(page);
  await loginAs(page, retailer.id, retailer.pin);
  await page.goto("/lopsedlar");
  await expect(page.getByLabel("Önskat antal Aftonbladet")).toHaveValue("2");
  await expect(page.getByLabel("Önskat antal Expressen")).toHaveValue("3");
  await page.getByLabel("Önskat antal Aftonbladet").fill("4");
  await page.getByRole("button", { name: "Spara" }).click();
  await expect(page.getByRole("status")).toHaveText("Sparat!");
  // The confirmation closes by its own link, with or without JavaScript, and the page stays.
  await page.getByRole("link", { name: "Stäng meddelandet" }).click();
  await expect(page.getByRole("status")).toHaveCount(0);
  await expect(page).toHaveURL(/\/lopsedlar$/);
  const rows = await e2eDb().select().from(schema.placards).where(eq(schema.placards.customerId, retailer.id)).orderBy(schema.placards.titleId);
  // Expressen's amount in force, sent back as shown, is confirmed as its wish: the question
  // "Antal löpsedlar" is answered for both titles by one Spara.
  expect(rows.map((r) => [r.titleId, r.newAmount])).toEqual([
    [1, 4],
    [2, 3],
  ]);
});

test("ordering labels says first how many are unused, and Garantibelopp says what the amount is", async ({ page, retailer }) => {
  await labelBlock(retailer.id, 101, 150);
  await phoneAt200(page);
  await loginAs(page, retailer.id, retailer.pin);
  await page.goto("/order");
  await expect(page.getByText("Du har 50 oanvända returetiketter (101–150).")).toBeVisible();
  await expect(page.getByRole("link", { name: "Se dina buntblock" })).toHaveAttribute("href", "/buntblock");
  await page.goto("/faktura");
  await expect(page.getByText(/^Garantibelopp är pengar som tidningen ska betala tillbaka till er/)).toBeVisible();
  // The version is no customer detail.
  await page.goto("/");
  await expect(page.locator("dl.facts")).not.toContainText("Version");
});

test("on a 360 px phone with 200 % text, messages and 'Att göra' are a line each: the heading is on the first screen", async ({ page, retailer }) => {
  await labelBlock(retailer.id);
  await delivery(retailer.id, { date: day(-1), delivered: 20 });
  for (const header of ["Ändrade leveranstider under julen", "Nya returetiketter från januari", "Kvällsposten byter tryckeri"]) {
    const [m] = await e2eDb()
      .insert(schema.messages)
      .values({ type: 3, header: `${header} ${retailer.id}`, content: "<p>Ett långt meddelande. ".repeat(20) + "</p>", startDate: day(-1), stopDate: day(1) })
      .returning();
    await e2eDb().insert(schema.messageCustomers).values({ messageId: m.id, customerId: retailer.id });
  }
  // Something to do that does not lock: the placards of Expressen are not set.
  await e2eDb().insert(schema.placards).values({ customerId: retailer.id, titleId: 2, amount: 2, newAmount: null });
  await loginAs(page, retailer.id, retailer.pin);
  await page.setViewportSize({ width: 360, height: 640 });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Page.setFontSizes", { fontSizes: { standard: 32, fixed: 26 } });
  await page.goto("/rapportering/1");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  const todo = page.getByRole("region", { name: "Att göra" });
  await expect(todo).toContainText("Antal löpsedlar");
  // Ours and the demo's messages for everyone, behind one line.
  await expect(page.locator("details.banner summary")).toHaveText(/^\d+ meddelanden\s*Visa$/);
  await expect(page.getByRole("heading", { name: "Returrapportera", level: 1 })).toBeInViewport();
  // Opened by keyboard, it leads to what is to be done.
  await todo.locator("summary").focus();
  await page.keyboard.press("Enter");
  await expect(todo.getByRole("link", { name: "Gå till löpsedlar" })).toBeVisible();
  // On the start page it stands open.
  await page.goto("/");
  await expect(todo.getByRole("link", { name: "Gå till löpsedlar" })).toBeVisible();
});

test("after the confirm step closes a bundle, the address and the focus follow to the returns form", async ({ page, retailer }, info) => {
  await labelBlock(retailer.id);
  const d = day(-1);
  await delivery(retailer.id, { date: d, delivered: 20 });
  await phoneAt200(page);
  await loginAs(page, retailer.id, retailer.pin);
  await page.goto("/rapportering/1");
  if (info.project.name === "js-on") await page.waitForFunction(() => document.documentElement.dataset.hydrated);
  await page.getByLabel(`Bunt för Aftonbladet ${d}`).fill("101");
  await page.getByLabel(`Retur för Aftonbladet ${d}`).fill("5");
  await page.getByRole("button", { name: "Spara och fortsätt" }).click();
  await expect(page).toHaveURL(/\/rapportering\/1\/bekrafta$/);
  const group = page.getByRole("group", { name: /Bunt #101/ });
  await group.getByRole("radio", { name: "Stängd" }).check();
  await page.getByRole("button", { name: "Spara", exact: true }).click();
  await expect(page).toHaveURL(/\/rapportering\/1$/);
  // With JavaScript the dialog closes onto the form and the focus goes to its heading, not
  // to the page's body; without, the browser loads the form with the confirmation.
  if (info.project.name === "js-on") await expect(page.getByRole("heading", { name: "Returrapportera", level: 1 })).toBeFocused();
  else await expect(page.getByRole("status")).toHaveText("Buntarna är sparade.");
});
