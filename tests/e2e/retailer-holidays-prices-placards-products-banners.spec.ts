// Retailer services B: holidays, prices, placards, current products, banners, alerts, /app.
import { and, eq, gte, ne } from "drizzle-orm";
import { createCookie } from "@remix-run/node";
import { createHash, randomBytes } from "node:crypto";
import { schema } from "../../db/client";
import { createBundle, createLabelBlock } from "../../cli/seed/factories";
import { addDays, today } from "../../app/lib/dates";
import { baseURL } from "../playwright.config";
import { e2eDb, expect, formToken, loginAs, makeRetailer, makeStaff, test, type Retailer } from "./fixtures";
import type { Page } from "@playwright/test";
import { portalNow } from "../../db/clock";

const day = today();
let seq = 0;
const unique = (prefix: string) => `${prefix} ${Date.now().toString(36)}${process.pid}${seq++}`;

/** A full label block, so the retailer has no 'Beställ returetiketter' alert unless a test wants it. */
async function giveLabels(customerId: number) {
  await createLabelBlock(e2eDb(), { customerId, type: 0, status: "Levererad", fromDate: day, toDate: addDays(day, 365), fromNumber: 1, toNumber: 50 });
}

/** A holiday outside its report window, so it raises no alert for anyone. */
async function quietHoliday(description: string, inDays = 30) {
  const [h] = await e2eDb()
    .insert(schema.holidays)
    .values({ description, day: addDays(day, inDays), startReportDay: addDays(day, inDays - 10), startForceReportDay: addDays(day, inDays - 5) })
    .returning();
  return h;
}

async function holidayAnswer(customerId: number, holidayId: number) {
  const [row] = await e2eDb()
    .select()
    .from(schema.holidayReports)
    .where(and(eq(schema.holidayReports.customerId, customerId), eq(schema.holidayReports.holidayId, holidayId)));
  return row ?? null;
}

async function expectFitsNarrowScreen(page: Page, name: string, projectName: string) {
  await page.setViewportSize({ width: 360, height: 780 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, "no horizontal scrolling at 360 px").toBeLessThanOrEqual(0);
  await page.screenshot({ path: `test-results/services-b-${name}-${projectName}.png`, fullPage: true });
}

test.describe("Helgspärr", () => {
  test("a retailer answers Öppet, changes to Stängt and sees it under Tidigare rapporterat", async ({ page, retailer }, info) => {
    await giveLabels(retailer.id);
    const description = unique("Midsommarafton");
    const h = await quietHoliday(description);
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/");
    await page.getByRole("navigation", { name: "Huvudmeny" }).getByRole("link", { name: "Helgspärr" }).click();
    await expect(page.getByRole("heading", { name: "Helgspärr", level: 1 })).toBeVisible();
    const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: description }) });
    await expect(card).toContainText("Inte rapporterat");
    await expect(card).toContainText(h.day);

    await card.getByRole("button", { name: "Öppet" }).click();
    await expect(page.getByRole("status")).toHaveText("Sparat!");
    await expect(card).toContainText("Ditt svar: Öppet");
    await expect(card.getByRole("button", { name: "Öppet" })).toHaveAttribute("aria-pressed", "true");
    const table = page.getByRole("table");
    await expect(table.getByRole("row").filter({ hasText: description })).toContainText("Öppet");

    await card.getByRole("button", { name: "Stängt" }).click();
    await expect(card).toContainText("Ditt svar: Stängt");
    await expect(table.getByRole("row").filter({ hasText: description })).toContainText("Stängt");
    expect((await holidayAnswer(retailer.id, h.id))?.open).toBe(false);
    await expectFitsNarrowScreen(page, "helgsparr", info.project.name);
  });

  test("an answer for a holiday that was withdrawn meanwhile is refused with a message", async ({ page, retailer }) => {
    await giveLabels(retailer.id);
    const description = unique("Annandag");
    const h = await quietHoliday(description, 40);
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/helgsparr");
    const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: description }) });
    await expect(card).toBeVisible();
    await e2eDb().update(schema.holidays).set({ deleted: true }).where(eq(schema.holidays.id, h.id));
    await card.getByRole("button", { name: "Stängt" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Den här helgdagen går inte längre att rapportera." })).toBeVisible();
    await expect(page.getByRole("heading", { name: description })).toHaveCount(0);
    expect(await holidayAnswer(retailer.id, h.id)).toBeNull();
  });

  test("a retailer cannot answer for another retailer", async ({ page, retailer }, info) => {
    const other = await makeRetailer(info.workerIndex);
    const h = await quietHoliday(unique("Nyårsafton"));
    await loginAs(page, retailer.id, retailer.pin);
    const res = await page.request.post("/helgsparr", {
      form: { csrf: await formToken(page.request), intent: "stangt", holidayId: String(h.id), customerId: String(other.id) },
      maxRedirects: 0,
    });
    expect(res.status()).toBe(302);
    expect(await holidayAnswer(other.id, h.id)).toBeNull();
    expect((await holidayAnswer(retailer.id, h.id))?.open).toBe(false);
  });
});

test.describe("In- & utpriser", () => {
  test("the calculator gives the section 9 prices for 30,00 kr", async ({ page, retailer }, info) => {
    await giveLabels(retailer.id);
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/provision");
    await expect(page.getByRole("heading", { name: "In- & utpriser" })).toBeVisible();
    await page.getByLabel("Försäljningspris (kr)").fill("30,00");
    if (info.project.name === "js-on") {
      // With JavaScript the results follow the typing, before any submit.
      await expect(page.getByTestId("purchase")).toHaveText("22,22\u00a0kr");
    }
    await page.getByRole("button", { name: "Beräkna" }).click();
    await expect(page).toHaveURL(/\/provision\?pris=30%2C00$/);
    await expect(page.getByTestId("price")).toHaveText("30,00\u00a0kr");
    await expect(page.getByTestId("origin")).toHaveText("28,30\u00a0kr");
    await expect(page.getByTestId("commission")).toHaveText("6,08\u00a0kr");
    await expect(page.getByTestId("purchase")).toHaveText("22,22\u00a0kr");
    await expect(page.getByTestId("vat")).toHaveText("1,33\u00a0kr");
    await expect(page.getByLabel("Försäljningspris (kr)")).toHaveValue("30,00");
    await expectFitsNarrowScreen(page, "provision", info.project.name);
  });

  test("a price that is not a number gets a message and HTTP 400", async ({ page, retailer }) => {
    await giveLabels(retailer.id);
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/provision");
    await page.getByLabel("Försäljningspris (kr)").fill("trettio");
    await page.getByRole("button", { name: "Beräkna" }).click();
    await expect(page.getByText("Ange ett pris i kronor, till exempel 30,00.")).toBeVisible();
    await expect(page.getByLabel("Försäljningspris (kr)")).toHaveValue("trettio");
    await expect(page.getByLabel("Försäljningspris (kr)")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByTestId("purchase")).toHaveCount(0);
    expect((await page.request.get("/provision?pris=trettio")).status()).toBe(400);
  });
});

test.describe("Löpsedlar", () => {
  test("empty desired amounts are refused, then saved with 'Sparat!'", async ({ page, retailer }, info) => {
    await giveLabels(retailer.id);
    await e2eDb().insert(schema.placards).values({ customerId: retailer.id, titleId: 1, amount: 5, newAmount: null });
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/lopsedlar");
    await expect(page.getByRole("heading", { name: "Löpsedlar", level: 1 })).toBeVisible();
    await expect(page.getByRole("listitem").filter({ hasText: "Aftonbladet" })).toContainText("Nuvarande antal: 5");

    await page.getByLabel("Önskat antal Aftonbladet").fill("7");
    // The fields show the amounts in force (decision 038); an emptied one is refused.
    await page.getByLabel("Önskat antal Expressen").fill("");
    await page.getByRole("button", { name: "Spara" }).click();
    const expressenError = page.getByRole("listitem").filter({ hasText: "Expressen" }).getByRole("alert");
    await expect(expressenError).toHaveText("Måste ange ett värde.");
    await expect(page.getByLabel("Önskat antal Aftonbladet")).toHaveValue("7");
    await expect(page.getByLabel("Önskat antal Expressen")).toHaveAttribute("aria-invalid", "true");

    await page.getByLabel("Önskat antal Expressen").fill("3");
    await page.getByRole("button", { name: "Spara" }).click();
    await expect(page.getByRole("status")).toHaveText("Sparat!");
    await expect(page.getByLabel("Önskat antal Aftonbladet")).toHaveValue("7");
    await expect(page.getByLabel("Önskat antal Expressen")).toHaveValue("3");
    const rows = await e2eDb().select().from(schema.placards).where(eq(schema.placards.customerId, retailer.id));
    expect(rows.map((r) => [r.titleId, r.amount, r.newAmount]).sort()).toEqual([[1, 5, 7], [2, 0, 3]]);
    await expectFitsNarrowScreen(page, "lopsedlar", info.project.name);
  });

  test("the server answers 400 to an empty amount and 'Något gick fel!' when a save is refused", async ({ page, retailer }) => {
    await giveLabels(retailer.id);
    await loginAs(page, retailer.id, retailer.pin);
    const empty = await page.request.post("/lopsedlar", { form: { csrf: await formToken(page.request), titel: "1", "antal-1": "" } });
    expect(empty.status()).toBe(400);
    expect(await empty.text()).toContain("Måste ange ett värde.");
    const unknown = await page.request.post("/lopsedlar", { form: { csrf: await formToken(page.request), titel: "999", "antal-999": "4" } });
    expect(unknown.status()).toBe(400);
    expect(await unknown.text()).toContain("Något gick fel!");
  });

  test("another retailer's placards cannot be changed by a form field", async ({ page, retailer }, info) => {
    const other: Retailer = await makeRetailer(info.workerIndex);
    await e2eDb().insert(schema.placards).values({ customerId: other.id, titleId: 1, amount: 9, newAmount: null });
    await loginAs(page, retailer.id, retailer.pin);
    const res = await page.request.post("/lopsedlar", {
      form: { csrf: await formToken(page.request), titel: "1", "antal-1": "4", customerId: String(other.id) },
      maxRedirects: 0,
    });
    expect(res.status()).toBe(302);
    const [theirs] = await e2eDb().select().from(schema.placards).where(eq(schema.placards.customerId, other.id));
    expect(theirs.newAmount).toBeNull();
    const [mine] = await e2eDb().select().from(schema.placards).where(eq(schema.placards.customerId, retailer.id));
    expect(mine.newAmount).toBe(4);
  });
});

// A 2×3 PNG (red), enough for the browser to decode.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAIAAAADCAIAAAA2iEnWAAAAEklEQVR4nGP4z8DAwMDAxAAAHgMDAKqo9y4AAAAASUVORK5CYII=",
  "base64",
);

test.describe("Aktuella produkter", () => {
  test("products are listed by heading with cover, dates, price and EAN", async ({ page, retailer }, info) => {
    await giveLabels(retailer.id);
    const heading = unique("Veckans extra");
    const [img] = await e2eDb()
      .insert(schema.images)
      .values({ filename: "omslag.png", contentType: "image/png", data: PNG, sha256: createHash("sha256").update(PNG).digest("hex"), published: true })
      .returning();
    const editionId = 100_000 + Math.floor(Math.random() * 800_000);
    await e2eDb().insert(schema.dailyProducts).values([
      { titleId: 1, editionId, heading, description: "Korsordsbilaga", startDate: day, endDate: addDays(day, 2), priceOre: 4900, eanCode: "7388000123456", coverImageId: img.id },
      { titleId: 2, editionId, heading, description: "Förra veckans bilaga", startDate: addDays(day, -9), endDate: addDays(day, -2), priceOre: 100 },
      { titleId: 2, editionId: editionId + 1, heading, description: "Pysselbok utan omslag", startDate: day, endDate: day, priceOre: 2900 },
    ]);
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/");
    await page.getByRole("navigation", { name: "Huvudmeny" }).getByRole("link", { name: "Aktuella produkter" }).click();
    await expect(page.getByRole("heading", { name: "Aktuella produkter", level: 1 })).toBeVisible();
    const group = page.getByRole("region", { name: heading });
    const card = group.getByRole("listitem").filter({ hasText: "Korsordsbilaga" });
    await expect(card).toContainText("49,00\u00a0kr");
    await expect(card).toContainText("7388000123456");
    await expect(card).toContainText(`${day} – ${addDays(day, 2)}`);
    await expect(group).not.toContainText("Förra veckans bilaga");
    const cover = card.getByRole("img", { name: "Omslag: Korsordsbilaga" });
    await expect(cover).toHaveAttribute("src", `/bilder/${img.id}`);
    await expect.poll(() => cover.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBe(2);
    // A product without a cover: its text, and no empty picture frame beside it.
    const bare = group.getByRole("listitem").filter({ hasText: "Pysselbok utan omslag" });
    await expect(bare).toContainText("29,00\u00a0kr");
    expect(await bare.evaluate((li) => [...li.children].map((c) => c.tagName))).toEqual(["DIV"]);
    await expectFitsNarrowScreen(page, "produkter", info.project.name);
  });

  test("/bilder serves published covers with cache headers and 304, never pending uploads", async ({ request }) => {
    const sha = createHash("sha256").update(PNG).digest("hex");
    const [pub] = await e2eDb().insert(schema.images).values({ filename: "a.png", contentType: "image/png", data: PNG, sha256: sha, published: true }).returning();
    const [pending] = await e2eDb().insert(schema.images).values({ filename: "b.png", contentType: "image/png", data: PNG, sha256: sha, published: false }).returning();
    const res = await request.get(`/bilder/${pub.id}`);
    expect(res.status()).toBe(200);
    expect(res.headers()["content-type"]).toBe("image/png");
    expect(res.headers()["cache-control"]).toBe("public, max-age=86400");
    expect(res.headers()["etag"]).toBe(`"${sha}"`);
    expect(Buffer.from(await res.body()).equals(PNG)).toBe(true);
    expect((await request.get(`/bilder/${pub.id}`, { headers: { "If-None-Match": `"${sha}"` } })).status()).toBe(304);
    expect((await request.get(`/bilder/${pending.id}`)).status()).toBe(404);
    expect((await request.get("/bilder/abc")).status()).toBe(404);
  });
});

test.describe("Meddelanden", () => {
  test("banners for this retailer show on every retailer page; type 1 and others' messages do not", async ({ page, retailer }, info) => {
    await giveLabels(retailer.id);
    const other = await makeRetailer(info.workerIndex);
    const mine = unique("Ändrade leveranstider");
    const notBanner = unique("Leveransinformation");
    const theirs = unique("Bara för den andra");
    const insert = async (header: string, type: number, content: string, customerId: number) => {
      const [m] = await e2eDb().insert(schema.messages).values({ type, header, content, startDate: addDays(day, -1), stopDate: addDays(day, 1) }).returning();
      await e2eDb().insert(schema.messageCustomers).values({ messageId: m.id, customerId });
    };
    await insert(mine, 3, "<p>Tidningarna kommer <strong>en timme senare</strong>.</p><img src=x onerror=alert(1)>", retailer.id);
    await insert(notBanner, 1, "Visas på följesedeln", retailer.id);
    await insert(theirs, 2, "Hemligt", other.id);
    await loginAs(page, retailer.id, retailer.pin);
    for (const path of ["/", "/provision", "/kontakt"]) {
      await page.goto(path);
      // One line with its header and 'Visa', opened to read it.
      const banner = page.locator("details.banner");
      await expect(banner).toBeVisible();
      await expect(banner.getByText("en timme senare")).toBeHidden();
      await banner.getByText("Visa").click();
      await expect(banner.getByText(mine)).toBeVisible();
      await expect(banner.getByText("en timme senare")).toBeVisible();
      await expect(banner.locator(".banner-content strong").filter({ hasText: "en timme senare" })).toHaveCount(1);
      await expect(banner.locator("img")).toHaveCount(0);
      await expect(page.getByText(notBanner)).toHaveCount(0);
      await expect(page.getByText(theirs)).toHaveCount(0);
    }
  });
});

test.describe("Aviseringar", () => {
  test("the alerts dialog lists what to do, leads there, and 'Stäng' hides it for the session", async ({ page, retailer }, info) => {
    // No label block and an unset placard: 'Beställ returetiketter' and 'Antal löpsedlar'.
    await e2eDb().insert(schema.placards).values({ customerId: retailer.id, titleId: 2, amount: 2, newAmount: null });
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/");
    const dialog = page.getByRole("region", { name: "Att göra" });
    await expect(dialog).toContainText("Beställ returetiketter");
    await expect(dialog).toContainText("Antal löpsedlar");
    await expect(dialog.getByRole("link", { name: "Gå till beställning" })).toHaveAttribute("href", "/order");
    await expect(dialog).not.toContainText("Detta måste göras");
    await expect(page.getByRole("navigation", { name: "Huvudmeny" })).toBeVisible();
    await expectFitsNarrowScreen(page, "alerts", info.project.name);
    await page.setViewportSize({ width: 1280, height: 800 });

    await dialog.getByRole("link", { name: "Gå till löpsedlar" }).click();
    await expect(page).toHaveURL("/lopsedlar");
    await page.getByLabel("Önskat antal Aftonbladet").fill("1");
    await page.getByLabel("Önskat antal Expressen").fill("2");
    await page.getByRole("button", { name: "Spara" }).click();
    await expect(page.getByRole("status")).toHaveText("Sparat!");
    await expect(dialog).not.toContainText("Antal löpsedlar");
    await expect(dialog).toContainText("Beställ returetiketter");

    // Away from the start page "Att göra" is one line; opened, it offers Stäng.
    await dialog.locator("summary").click();
    await dialog.getByRole("button", { name: "Stäng" }).click();
    await expect(page).toHaveURL("/lopsedlar");
    await expect(dialog).toHaveCount(0);
    await page.goto("/provision");
    await expect(page.getByRole("heading", { name: "In- & utpriser" })).toBeVisible();
    await expect(dialog).toHaveCount(0);
  });

  test("a holiday in its report window raises 'Rapportera helgdagar' until it is answered", async ({ page, retailer, globalLock }) => {
    // A holiday in its window reaches every retailer: one such test at a time (both
    // projects run it at once), so no other test's holiday appears after the others
    // are answered below.
    await globalLock("holidays-in-window");
    await giveLabels(retailer.id);
    const description = unique("Trettondedag jul");
    const [h] = await e2eDb()
      .insert(schema.holidays)
      .values({ description, day: addDays(day, 20), startReportDay: addDays(day, -1), startForceReportDay: addDays(day, 10) })
      .returning();
    // Other holidays in their window (demo data, other tests) are answered up front.
    const others = await e2eDb()
      .select({ id: schema.holidays.id })
      .from(schema.holidays)
      .where(and(eq(schema.holidays.deleted, false), eq(schema.holidays.completed, false), gte(schema.holidays.day, day), ne(schema.holidays.id, h.id)));
    if (others.length) await e2eDb().insert(schema.holidayReports).values(others.map((o) => ({ holidayId: o.id, customerId: retailer.id, open: true })));
    try {
      await loginAs(page, retailer.id, retailer.pin);
      await page.goto("/");
      const dialog = page.getByRole("region", { name: "Att göra" });
      await expect(dialog).toContainText("Rapportera helgdagar");
      await dialog.getByRole("link", { name: "Gå till helgspärr" }).click();
      await expect(page).toHaveURL("/helgsparr");
      const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: description }) });
      await card.getByRole("button", { name: "Öppet" }).click();
      await expect(card).toContainText("Ditt svar: Öppet");
      await expect(page.getByText("Rapportera helgdagar")).toHaveCount(0);
    } finally {
      // Holidays concern every retailer: withdraw it so no other test sees the alert.
      await e2eDb().update(schema.holidays).set({ deleted: true }).where(eq(schema.holidays.id, h.id));
    }
  });

  test("an imperative alert locks the menu and the server sends locked pages to what must be done", async ({ page, retailer }) => {
    await giveLabels(retailer.id);
    const a = await createBundle(e2eDb(), { customerId: retailer.id, number: 1, type: 0 });
    await createBundle(e2eDb(), { customerId: retailer.id, number: 2, type: 0 });
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/provision");
    await expect(page).toHaveURL("/");
    // Never silently: the page says why it was sent here.
    await expect(page.getByText("Sidan är låst tills detta är gjort: Stäng buntar.")).toBeVisible();
    const dialog = page.getByRole("region", { name: "Att göra" });
    await expect(dialog).toContainText("Stäng buntar");
    await expect(dialog).toContainText("Detta måste göras innan ni kan påbörja er normala returrapportering.");
    await expect(dialog.getByRole("button", { name: "Stäng" })).toHaveCount(0);
    await expect(page.getByText("Menyn är låst tills det som krävs är gjort.")).toBeVisible();
    await expect(page.getByRole("link", { name: "Löpsedlar" })).toHaveCount(0);
    for (const path of ["/lopsedlar", "/helgsparr", "/produkter"]) {
      const res = await page.request.get(path, { maxRedirects: 0 });
      expect(res.status(), path).toBe(302);
      expect(res.headers()["location"], path).toBe("/");
    }
    // A form posted straight to a locked page is refused the same way, and saves nothing.
    const post = await page.request.post("/lopsedlar", { form: { csrf: await formToken(page.request), titel: "1", "antal-1": "5" }, maxRedirects: 0 });
    expect(post.status()).toBe(302);
    expect(post.headers()["location"]).toBe("/");
    const placards = await e2eDb().select().from(schema.placards).where(eq(schema.placards.customerId, retailer.id));
    expect(placards.every((p) => p.newAmount !== 5)).toBe(true);
    await page.goto("/kontakt");
    await expect(page.getByRole("heading", { name: "Kontakt" })).toBeVisible();

    // The lock itself offers to close the bundles; once one is closed the lock lifts.
    const lock = page.getByRole("navigation", { name: "Meny" });
    await expect(lock.getByRole("button", { name: "Stäng bunt 2" })).toBeVisible();
    await lock.getByRole("button", { name: "Stäng bunt 1" }).click();
    await expect(page.getByText("Bunt #1 är stängd.")).toBeVisible();
    expect((await e2eDb().select().from(schema.bundles).where(eq(schema.bundles.id, a.id)))[0]).toMatchObject({ open: false, closedDate: day });
    await expect(page.getByText("Menyn är låst tills det som krävs är gjort.")).toHaveCount(0);
    await page.goto("/provision");
    await expect(page.getByRole("heading", { name: "In- & utpriser" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Huvudmeny" }).getByRole("link", { name: "Löpsedlar" })).toBeVisible();
  });
});

test.describe("Aviseringar: a refused close", () => {
  test("'Stäng bunt N' in the locked menu for a bundle closed meanwhile says so on the start page", async ({ page, retailer }) => {
    await giveLabels(retailer.id);
    const a = await createBundle(e2eDb(), { customerId: retailer.id, number: 1, type: 0 });
    await createBundle(e2eDb(), { customerId: retailer.id, number: 2, type: 0 });
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/kontakt");
    const lock = page.getByRole("navigation", { name: "Meny" });
    await expect(lock.getByRole("button", { name: "Stäng bunt 1" })).toBeVisible();
    // Another tab (or staff) closed bundle 1 while this page was open.
    await e2eDb().update(schema.bundles).set({ open: false, closedDate: day }).where(eq(schema.bundles.id, a.id));
    await lock.getByRole("button", { name: "Stäng bunt 1" }).click();
    await expect(page).toHaveURL(/\/(\?index)?$/);
    await expect(page.getByRole("alert").filter({ hasText: "Bunten kunde inte stängas. Den är redan stängd eller finns inte." })).toBeVisible();
    await expect(page.getByText("Bunt #1 är stängd.")).toHaveCount(0);
  });
});

test.describe("Aviseringar vid inloggning som kund", () => {
  test("a staff member opening a retailer's portal gets no alerts and no lock", async ({ page, retailer }) => {
    await createBundle(e2eDb(), { customerId: retailer.id, number: 1, type: 0 });
    await createBundle(e2eDb(), { customerId: retailer.id, number: 2, type: 0 });
    const staff = await makeStaff("admin");
    const [staffRow] = await e2eDb().select().from(schema.staffUsers).where(eq(schema.staffUsers.email, staff.email));
    // An impersonated session as the server keeps it: a row with impersonatorId, referenced by the signed cookie.
    const id = randomBytes(32).toString("base64url");
    const now = portalNow();
    const data = { customerId: retailer.id, impersonatorId: staffRow.id };
    await e2eDb().insert(schema.sessions).values({ id, customerId: retailer.id, impersonatorId: staffRow.id, data: JSON.stringify(data), createdAt: now, lastSeenAt: now, expiresAt: now + 3_600_000 });
    const cookie = createCookie("rp_session", { secrets: ["e2e-session-secret-not-for-production-use"], path: "/", httpOnly: true, sameSite: "lax" });
    const value = (await cookie.serialize(id)).split(";")[0].split("=").slice(1).join("=");
    await page.context().addCookies([{ name: "rp_session", value, url: baseURL }]);
    await page.goto("/provision");
    await expect(page).toHaveURL("/provision");
    await expect(page.getByRole("heading", { name: "In- & utpriser" })).toBeVisible();
    await expect(page.getByRole("region", { name: "Att göra" })).toHaveCount(0);
    await expect(page.getByRole("navigation", { name: "Huvudmeny" }).getByRole("link", { name: "Löpsedlar" })).toBeVisible();
  });
});

test.describe("/app", () => {
  test("says the app is closed and links to the portal, without login", async ({ page }) => {
    await page.goto("/app");
    await expect(page.getByRole("heading", { name: "Appen är stängd" })).toBeVisible();
    await page.getByRole("link", { name: "Gå till Returportalen" }).click();
    await expect(page).toHaveURL(/\/login/);
  });
});
