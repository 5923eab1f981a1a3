// Retailer services A: delivery note and complaints, emergency labels, label blocks,
// ordering, newspaper journal, invoices. Every test makes its own customers and rows.
import { spawnSync, execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import type { Download, Page } from "@playwright/test";
import { schema } from "../../db/client";
import { createBundle, createDelivery, createLabelBlock, createReturn, ensureTitlesAndEditions } from "../../cli/seed/factories";
import { addDays, today } from "../../app/lib/dates";
import { e2eDb, expect, formToken, loginAs, makeRetailer, test } from "./fixtures";

test.beforeAll(async () => {
  await ensureTitlesAndEditions(e2eDb());
});

async function saveDownload(download: Download): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "services-a-e2e-"));
  const file = join(dir, download.suggestedFilename());
  await download.saveAs(file);
  return file;
}

function pdfText(file: string): string {
  return execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
}

function uniqueInvoiceNumber(): number {
  return 7_000_000 + Math.floor(Math.random() * 2_000_000);
}

async function deliveryNoteRow(page: Page, text: string) {
  return page.locator(".delivery-row").filter({ hasText: text });
}

test.describe("delivery note / delivery complaint", () => {
  test("empty state, and /mina-tjanster leads here", async ({ page, retailer }) => {
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/mina-tjanster");
    await expect(page).toHaveURL("/foljesedel");
    await expect(page.getByRole("heading", { name: "Följesedel / leveransreklamation" })).toBeVisible();
    await expect(page.getByText("Inga leveranser")).toBeVisible();
    await expect(page.getByText(/Följesedeln finns kvar här i en vecka/)).toBeVisible();
  });

  test("a retailer reports received amounts: errors, warning and chips", async ({ page, retailer }) => {
    const day = today();
    const db = e2eDb();
    await createDelivery(db, { customerId: retailer.id, titleId: 1, editionId: 1, deliveryDate: day, delivered: 20, priceOre: 1500 });
    await createDelivery(db, { customerId: retailer.id, titleId: 1, editionId: 21, deliveryDate: day, delivered: 5, priceOre: 900 });
    await createDelivery(db, { customerId: retailer.id, titleId: 2, editionId: 1, deliveryDate: addDays(day, -6), delivered: 12, priceOre: 1500 });
    await createDelivery(db, { customerId: retailer.id, titleId: 2, editionId: 1, deliveryDate: addDays(day, -7), delivered: 13, priceOre: 1500 });
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/foljesedel");

    await expect(page.locator(".delivery-day")).toHaveCount(2);
    await expect(page.getByText("Levererat: 13")).toHaveCount(0);
    const ab = await deliveryNoteRow(page, "Levererat: 20");
    await expect(ab.getByText("Mottaget: ej rapporterat")).toBeAttached();

    await ab.getByLabel("Mottagit").fill("-1");
    await ab.getByRole("button", { name: "Spara" }).click();
    await expect(ab.getByText("Kan inte vara negativt.")).toBeVisible();
    await expect(ab.getByLabel("Mottagit")).toHaveValue("-1");
    await expect(ab.getByLabel("Mottagit")).toHaveAttribute("aria-invalid", "true");

    await ab.getByLabel("Mottagit").fill("999");
    await ab.getByRole("button", { name: "Spara" }).click();
    await expect(ab.getByText("Orimligt värde.")).toBeVisible();

    await ab.getByLabel("Mottagit").fill("18");
    await ab.getByRole("button", { name: "Spara" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Mottaget antal sparat." })).toBeVisible();
    const after = await deliveryNoteRow(page, "Levererat: 20");
    await expect(after.locator(".recv-diff")).toHaveText(/18/);
    await expect(after.getByLabel("Mottagit")).toHaveValue("18");

    await after.getByLabel("Mottagit").fill("20");
    await after.getByRole("button", { name: "Spara" }).click();
    const equal = await deliveryNoteRow(page, "Levererat: 20");
    await expect(equal.getByText("Du ska bara rapportera avvikelser.")).toBeVisible();
    await expect(equal.locator(".recv-ok")).toHaveText(/20/);

    const rows = await db.select().from(schema.deliveries).where(eq(schema.deliveries.customerId, retailer.id));
    expect(rows.find((r) => r.delivered === 20)?.received).toBe(20);
    expect(rows.filter((r) => r.received !== null)).toHaveLength(1);
  });

  test("the server answers 400 to bad input and 404 to another retailer's delivery", async ({ page, retailer }) => {
    const other = await makeRetailer(test.info().workerIndex);
    const db = e2eDb();
    const mine = await createDelivery(db, { customerId: retailer.id, titleId: 1, editionId: 1, deliveryDate: today(), delivered: 20, priceOre: 1500 });
    const theirs = await createDelivery(db, { customerId: other.id, titleId: 1, editionId: 1, deliveryDate: today(), delivered: 20, priceOre: 1500 });
    await loginAs(page, retailer.id, retailer.pin);
    const bad = await page.request.post("/foljesedel", { form: { csrf: await formToken(page.request), intent: "spara-mottaget", deliveryId: String(mine.id), mottagit: "-4" } });
    expect(bad.status()).toBe(400);
    const cross = await page.request.post("/foljesedel", { form: { csrf: await formToken(page.request), intent: "spara-mottaget", deliveryId: String(theirs.id), mottagit: "3" } });
    expect(cross.status()).toBe(404);
    const [row] = await db.select().from(schema.deliveries).where(eq(schema.deliveries.id, theirs.id));
    expect(row.received).toBeNull();
    await page.goto("/foljesedel");
    await expect(page.getByText("Levererat: 20")).toHaveCount(1);
  });

  test("the delivery-day message opens 'Leveransinformation {date}'", async ({ page, retailer }) => {
    const day = today();
    const db = e2eDb();
    await createDelivery(db, { customerId: retailer.id, titleId: 1, editionId: 1, deliveryDate: day, delivered: 20, priceOre: 1500 });
    const [msg] = await db
      .insert(schema.messages)
      .values({ type: 1, header: `Försenad bil ${retailer.id}`, content: "Bilen kom två timmar sent.\nVi ber om ursäkt.", startDate: day, stopDate: day })
      .returning();
    await db.insert(schema.messageCustomers).values({ messageId: msg.id, customerId: retailer.id });
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/foljesedel");
    await page.getByRole("link", { name: `Leveransinformation: Försenad bil ${retailer.id}` }).click();
    await expect(page).toHaveURL(`/foljesedel?info=${day}`);
    await expect(page.getByRole("heading", { name: /^Leveransinformation / })).toBeVisible();
    await expect(page.getByText("Bilen kom två timmar sent.")).toBeVisible();
    // A dialog with JavaScript (spec 2.6), a section of the page without.
    if (test.info().project.name === "js-on") await expect(page.getByRole("dialog", { name: /^Leveransinformation / })).toBeVisible();
    await page.getByRole("link", { name: "Stäng" }).click();
    await expect(page.getByText("Bilen kom två timmar sent.")).toHaveCount(0);
  });

  test("the days are panels, the newest open; on a small screen they are a list and Mottagit is entered in a dialog with Avbryt and Spara", async ({ page, retailer }) => {
    const day = today();
    const ab = await createDelivery(e2eDb(), { customerId: retailer.id, titleId: 1, editionId: 1, deliveryDate: day, delivered: 20, priceOre: 1500 });
    await createDelivery(e2eDb(), { customerId: retailer.id, titleId: 2, editionId: 1, deliveryDate: addDays(day, -3), delivered: 12, priceOre: 1500 });
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/foljesedel");
    // Wide: the newest day open, the older one a closed panel that opens on a press.
    await expect(page.getByText("Levererat: 20")).toBeVisible();
    await expect(page.getByText("Levererat: 12")).toBeHidden();
    await page.getByRole("heading", { name: new RegExp(addDays(day, -3)) }).click();
    await expect(page.getByText("Levererat: 12")).toBeVisible();
    await expect(page.getByText("1 tidning").first()).toBeVisible();
    // Wide: Mottagit inline, no dialog link.
    await expect(page.locator(`#leverans-${ab.id}`).getByLabel("Mottagit")).toBeVisible();
    await expect(page.getByRole("link", { name: /^Ändra mottaget/ }).first()).toBeHidden();

    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto("/foljesedel");
    const js = test.info().project.name === "js-on";
    // A list on a small screen (with JavaScript every day opens; without, the panels stay).
    if (js) await expect(page.getByText("Levererat: 12")).toBeVisible();
    const row = page.locator(`#leverans-${ab.id}`);
    await expect(row.getByLabel("Mottagit")).toBeHidden();
    await row.getByRole("link", { name: "Ändra mottaget för Aftonbladet" }).click();
    const dialog = js ? page.getByRole("dialog", { name: "Mottagit: Aftonbladet" }) : page.locator("section.url-dialog");
    await expect(dialog).toContainText("Levererat: 20");
    await dialog.getByLabel("Mottagit").fill("-1");
    await dialog.getByRole("button", { name: "Spara" }).click();
    await expect(dialog.getByText("Kan inte vara negativt.")).toBeVisible();
    await expect(dialog.getByLabel("Mottagit")).toHaveValue("-1");
    await expect(dialog.getByLabel("Mottagit")).toHaveAttribute("aria-invalid", "true");
    await dialog.getByRole("link", { name: "Avbryt" }).click();
    await expect(dialog).toHaveCount(0);
    const stored = async () => (await e2eDb().select().from(schema.deliveries).where(eq(schema.deliveries.id, ab.id)))[0].received;
    expect(await stored()).toBeNull();

    await row.getByRole("link", { name: "Ändra mottaget för Aftonbladet" }).click();
    await dialog.getByLabel("Mottagit").fill("18");
    await dialog.getByRole("button", { name: "Spara" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Mottaget antal sparat." })).toBeVisible();
    await expect(dialog).toHaveCount(0);
    await expect(row.locator(".recv-diff")).toHaveText(/18/);
    expect(await stored()).toBe(18);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  });

  test("works at 360 px without horizontal scrolling", async ({ page, retailer }) => {
    await createDelivery(e2eDb(), { customerId: retailer.id, titleId: 1, editionId: 21, deliveryDate: today(), delivered: 5, priceOre: 900 });
    await page.setViewportSize({ width: 360, height: 740 });
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/foljesedel");
    await expect(page.getByText("Sportbladet")).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    if (test.info().project.name === "js-on") await page.screenshot({ path: "test-results/services-a-foljesedel-360.png", fullPage: true });
  });
});

/**
 * Decodes the six barcodes of every page: each of the six label positions is cropped and read
 * on its own, all crops by one zbarimg (its XML names the image each code came from; a process
 * per crop took 5 s of CPU for 120 crops, one for all of them under 1 s).
 */
function decodeLabelPages(file: string, pages: number): string[][] {
  const dir = mkdtempSync(join(tmpdir(), "labels-crop-"));
  const px = (pt: number) => Math.round((pt * 150) / 72);
  const rowTops = [240, 440, 640];
  // The crops of each label position, page by page.
  const crops: string[][] = [];
  for (const [r, top] of rowTops.entries()) {
    for (const [c, x] of [0, 298].entries()) {
      const prefix = join(dir, `r${r}c${c}`);
      execFileSync("pdftoppm", ["-r", "150", "-png", "-x", String(px(x)), "-y", String(px(top - 15)), "-W", String(px(297)), "-H", String(px(140)), file, prefix]);
      const images = readdirSync(dir)
        .filter((f) => f.startsWith(`r${r}c${c}-`))
        .sort()
        .map((f) => join(dir, f));
      expect(images).toHaveLength(pages);
      crops.push(images);
    }
  }
  const zbar = spawnSync("zbarimg", ["-q", "--xml", "-Sdisable", "-Scode128.enable", ...crops.flat()], { encoding: "utf8", maxBuffer: 16 * 1024 * 1024 });
  // zbarimg itself missing or failing fails here, by name (4: some image had no code, which the pages' checks report).
  if (zbar.error) throw zbar.error;
  expect([0, 4], `zbarimg: ${zbar.stderr}`).toContain(zbar.status);
  const xml = zbar.stdout;
  const codes = new Map<string, string[]>();
  for (const [, href, body] of xml.matchAll(/<source href='([^']*)'>([\s\S]*?)<\/source>/g)) codes.set(href, [...body.matchAll(/<!\[CDATA\[([^\]]*)\]\]>/g)].map((m) => m[1]));
  return Array.from({ length: pages }, (_, i) => crops.flatMap((position) => codes.get(position[i]) ?? []));
}

test.describe("emergency labels", () => {
  test("20 labels: a 20-page A4 PDF whose 120 barcodes all decode, and the block is listed", async ({ page, retailer }) => {
    // Twenty pages rendered and scanned take 30–55 s on a loaded 2-core machine: three times the usual limit.
    test.slow();
    await createLabelBlock(e2eDb(), { customerId: retailer.id, type: 0, status: "Levererad", fromDate: addDays(today(), -30), toDate: addDays(today(), 300), fromNumber: 1, toNumber: 50, numberUnused: 0 });
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/nodetiketter");
    await expect(page.getByRole("heading", { name: "Skriv ut nödetiketter" })).toBeVisible();
    await page.getByLabel("Antal etiketter").selectOption("20");
    await page.getByRole("button", { name: "Hämta etiketter" }).click();
    // The order's result page names the numbers and links their PDF.
    await expect(page.locator(".series")).toHaveText("51 - 70");
    const downloading = page.waitForEvent("download");
    await page.getByRole("link", { name: "Ladda ner etiketterna (PDF)" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe("nodetiketter.pdf");
    const file = await saveDownload(download);

    const info = execFileSync("pdfinfo", [file], { encoding: "utf8" });
    expect(info).toMatch(/Pages:\s+20\n/);
    expect(info).toMatch(/Page size:\s+595\.28 x 841\.89 pts \(A4\)/);

    const codes = decodeLabelPages(file, 20);
    const customer = String(retailer.id).padStart(5, "0");
    codes.forEach((onPage, i) => {
      const expected = `${customer}${String(51 + i).padStart(5, "0")}`;
      expect(onPage, `page ${i + 1}`).toEqual(Array(6).fill(expected));
    });
    const text = pdfText(file);
    // Each label's number as the pages show it ("51 - 70"): 51, never "0051".
    expect(text).toMatch(/^\s*51\s*$/m);
    expect(text).toMatch(/^\s*70\s*$/m);
    expect(text).not.toMatch(/^\s*0051\s*$/m);

    await page.goto("/buntblock");
    const row = page.getByRole("row").filter({ hasText: "Nödetiketter" });
    await expect(row).toContainText("Beställd");
    await expect(row).toContainText("51 - 70");
    await expect(row.getByRole("cell").last()).toHaveText("20");
  });

  test("the server refuses more than 20 labels with 400, and another retailer's labels are 404", async ({ page, retailer }) => {
    const other = await makeRetailer(test.info().workerIndex);
    const theirs = await createLabelBlock(e2eDb(), { customerId: other.id, type: 7, status: "Beställd", fromDate: today(), toDate: addDays(today(), 365), fromNumber: 1, toNumber: 3 });
    await loginAs(page, retailer.id, retailer.pin);
    const res = await page.request.post("/nodetiketter", { form: { csrf: await formToken(page.request), antal: "21", token: "x" } });
    expect(res.status()).toBe(400);
    expect(await res.text()).toContain("Välj mellan 1 och 20 etiketter.");
    expect((await page.request.get(`/nodetiketter/${theirs.id}.pdf`)).status()).toBe(404);
    const blocks = await e2eDb().select().from(schema.labelBlocks).where(eq(schema.labelBlocks.customerId, retailer.id));
    expect(blocks).toHaveLength(0);
  });
});

test.describe("label blocks and ordering", () => {
  test("an empty list says 'Inget att rapportera'", async ({ page, retailer }) => {
    await createLabelBlock(e2eDb(), { customerId: retailer.id, type: 0, status: "Levererad", fromDate: "2025-01-01", toDate: "2026-01-01", fromNumber: 1, toNumber: 50, numberUnused: 0 });
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/buntblock");
    await expect(page.getByRole("heading", { name: "Mina returetiketter/block" })).toBeVisible();
    await expect(page.getByText("Inget att rapportera")).toBeVisible();
  });

  test("ordering a block: confirm step, Avbryt, Beställ, the series and the list", async ({ page, retailer }) => {
    const db = e2eDb();
    await createLabelBlock(db, { customerId: retailer.id, type: 0, status: "Levererad", fromDate: addDays(today(), -70), toDate: addDays(today(), 295), fromNumber: 1, toNumber: 50, numberUnused: 0 });
    await createLabelBlock(db, { customerId: retailer.id, type: 0, status: "Levererad", fromDate: addDays(today(), -14), toDate: addDays(today(), 351), fromNumber: 51, toNumber: 100, numberUnused: 8 });
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/order");
    await expect(page.getByRole("heading", { name: "Beställ returetiketter" })).toBeVisible();

    await page.getByRole("link", { name: "Beställ", exact: true }).click();
    await expect(page.getByText("Vill du beställa ett nytt block med returetiketter?")).toBeVisible();
    await page.getByRole("link", { name: "Avbryt" }).click();
    await expect(page.getByText("Vill du beställa ett nytt block med returetiketter?")).toHaveCount(0);
    expect(await db.select().from(schema.labelBlocks).where(eq(schema.labelBlocks.customerId, retailer.id))).toHaveLength(2);

    await page.getByRole("link", { name: "Beställ", exact: true }).click();
    await page.getByRole("button", { name: "Beställ", exact: true }).click();
    await expect(page.getByText("101 - 150")).toBeVisible();
    await expect(page.getByText("Det nya blocket kommer om cirka två veckor.")).toBeVisible();
    await expect(page.getByRole("link", { name: "Skriv ut nödetiketter" }).last()).toHaveAttribute("href", "/nodetiketter");

    expect(await db.select().from(schema.labelBlocks).where(eq(schema.labelBlocks.customerId, retailer.id))).toHaveLength(3);

    // The same confirm form sent twice (double click, retry) orders one block.
    await page.goto("/order?steg=bekrafta");
    const token = await page.locator('input[name="token"]').inputValue();
    for (let i = 0; i < 2; i++) {
      const res = await page.request.post("/order", { form: { csrf: await formToken(page.request), intent: "bestall", token }, maxRedirects: 0 });
      expect(res.status()).toBe(302);
    }
    expect(await db.select().from(schema.labelBlocks).where(eq(schema.labelBlocks.customerId, retailer.id))).toHaveLength(4);

    await page.goto("/buntblock");
    const rows = page.locator("tbody tr");
    await expect(rows).toHaveCount(3);
    await expect(rows.nth(0)).toContainText("151 - 200");
    await expect(rows.nth(1)).toContainText("Returetiketter");
    await expect(rows.nth(1)).toContainText("Beställd");
    await expect(rows.nth(1)).toContainText("101 - 150");
    await expect(rows.nth(1).getByRole("cell").last()).toHaveText("50");
    await expect(rows.nth(2)).toContainText("51 - 100");
    await expect(rows.nth(2).getByRole("cell").last()).toHaveText("8");
  });

  test("another retailer's block is never shown as an order result", async ({ page, retailer }) => {
    const other = await makeRetailer(test.info().workerIndex);
    const theirs = await createLabelBlock(e2eDb(), { customerId: other.id, type: 0, status: "Beställd", fromDate: today(), toDate: addDays(today(), 365), fromNumber: 4001, toNumber: 4050 });
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto(`/order?block=${theirs.id}`);
    await expect(page.getByText("4001 - 4050")).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Beställ", exact: true })).toBeVisible();
  });
});

test.describe("newspaper journal", () => {
  test("downloads this month's journal as a PDF and links to the web shop", async ({ page, retailer }) => {
    const db = e2eDb();
    const day = today();
    const d = await createDelivery(db, { customerId: retailer.id, titleId: 1, editionId: 1, deliveryDate: day, delivered: 23, priceOre: 1500 });
    const bundle = await createBundle(db, { customerId: retailer.id, number: 1, type: 0 });
    await createReturn(db, { customerId: retailer.id, bundleId: bundle.id, deliveryId: d.id, amount: 4 });
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/journal");
    await expect(page.getByRole("heading", { name: "Tidningsjournal", exact: true })).toBeVisible();
    await expect(page.getByText(/beställa den i webbshoppen till självkostnadspris/)).toBeVisible();
    await expect(page.getByRole("link", { name: "Till webbshoppen" })).toHaveAttribute("href", /^https:\/\//);

    const downloading = page.waitForEvent("download");
    await page.getByRole("button", { name: "Ladda ner tidningsjournal" }).click();
    const file = await saveDownload(await downloading);
    expect(file.endsWith(`tidningsjournal-${day.slice(0, 7)}.pdf`)).toBe(true);
    const text = pdfText(file);
    expect(text).toContain("Tidningsjournal");
    expect(text).toContain(retailer.name);
    expect(text).toContain("Aftonbladet");
    expect(text).toMatch(new RegExp(`\\s${Number(day.slice(8))}\\s+23\\s+4\\s+19`));
    expect(execFileSync("pdfinfo", [file], { encoding: "utf8" })).toMatch(/Page size:\s+595\.28 x 841\.89 pts \(A4\)/);
  });
});

test.describe("invoices", () => {
  async function addInvoice(customerId: number, number: number, paperType: number, lines: boolean) {
    const db = e2eDb();
    const [inv] = await db
      .insert(schema.invoices)
      .values({
        number,
        customerId,
        paperType,
        date: "2026-02-01",
        dueDate: "2026-03-03",
        periodFrom: "2026-01-01",
        periodTo: "2026-01-31",
        netOre: 50_000,
        vatOre: 3_000,
        amountOre: 53_000,
        status: "Obetald",
      })
      .returning();
    if (lines) {
      await db.insert(schema.invoiceLines).values({ invoiceId: inv.id, description: "Aftonbladet, sålda exemplar", quantity: 250, unitPriceOre: 200, vatPermille: 60, netOre: 50_000 });
    }
    return inv;
  }

  test("empty state", async ({ page, retailer }) => {
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/faktura");
    await expect(page.getByRole("heading", { name: "Fakturor" })).toBeVisible();
    await expect(page.getByText("Hittar inga fakturor")).toHaveCount(2);
  });

  test("lists invoices per paper type, downloads one as PDF, and shows the guarantee table", async ({ page, retailer }) => {
    const main = uniqueInvoiceNumber();
    const insert = main + 1;
    await addInvoice(retailer.id, main, 0, true);
    await addInvoice(retailer.id, insert, 1, true);
    await e2eDb().insert(schema.guarantees).values([
      { customerId: retailer.id, ledger: 83, amountOre: 12_550 },
      // Paid out and completed: a refund left "prepared" would join every staff payout file.
      { customerId: retailer.id, ledger: 80, amountOre: 4_000, refunded: true, refundDate: "2026-02-09", completedAt: Date.parse("2026-02-09T12:00:00Z") },
    ]);
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/faktura");
    const mainTable = page.locator("section").filter({ has: page.getByRole("heading", { name: "Huvudtidningar" }) });
    await expect(mainTable.getByRole("row").filter({ hasText: String(main) })).toContainText("2026-03-03");
    await expect(mainTable.getByRole("row").filter({ hasText: String(main) })).toContainText("530,00 kr");
    await expect(mainTable.getByRole("row").filter({ hasText: String(main) })).toContainText("Obetald");
    const insertTable = page.locator("section").filter({ has: page.getByRole("heading", { name: "Bilagor" }) });
    await expect(insertTable.getByRole("row").filter({ hasText: String(insert) })).toBeVisible();

    const guarantees = page.locator("section").filter({ has: page.getByRole("heading", { name: "Garantibelopp" }) });
    await expect(guarantees.getByRole("columnheader")).toHaveText(["Belopp", "Tidning", "Återbetald", "Datum"]);
    await expect(guarantees.getByRole("row").filter({ hasText: "Aftonbladet" })).toContainText("125,50 kr");
    await expect(guarantees.getByRole("row").filter({ hasText: "Aftonbladet" })).toContainText("Nej");
    await expect(guarantees.getByRole("row").filter({ hasText: "Expressen" })).toContainText("Ja");
    await expect(guarantees.getByRole("row").filter({ hasText: "Expressen" })).toContainText("2026-02-09");

    const downloading = page.waitForEvent("download");
    await page.getByRole("link", { name: `Ladda ner faktura ${main} (PDF)` }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`faktura-${main}.pdf`);
    const file = await saveDownload(download);
    const text = pdfText(file);
    for (const s of ["Faktura", String(main), String(retailer.id), retailer.name, "530,00 kr", "2026-03-03"]) expect(text).toContain(s);
  });

  test("another retailer's invoice is 404; an invoice without a file gives 'Gick inte att ladda ner faktura {number}'", async ({ page, retailer }) => {
    const other = await makeRetailer(test.info().workerIndex);
    const theirs = uniqueInvoiceNumber();
    await addInvoice(other.id, theirs, 0, true);
    const broken = uniqueInvoiceNumber();
    await addInvoice(retailer.id, broken, 0, false);
    await loginAs(page, retailer.id, retailer.pin);
    expect((await page.request.get(`/faktura/${theirs}.pdf`)).status()).toBe(404);
    await page.goto("/faktura");
    await expect(page.getByText(String(theirs))).toHaveCount(0);
    await page.getByRole("link", { name: `Ladda ner faktura ${broken} (PDF)` }).click();
    await expect(page.getByRole("alert")).toContainText(`Gick inte att ladda ner faktura ${broken}`);
    await page.getByRole("link", { name: "Stäng" }).click();
    await expect(page.getByText(`Gick inte att ladda ner faktura ${broken}`)).toHaveCount(0);
  });
});

test.describe("menu", () => {
  test("Mina tjänster lists the services in the spec's order", async ({ page, retailer }) => {
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/buntblock");
    const nav = page.getByRole("navigation", { name: "Huvudmeny" });
    const labels = await nav.getByRole("link").allInnerTexts();
    const mine = ["Följesedel/Leveransreklamation", "Beställ returetiketter", "Skriv ut nödetiketter", "Mina returetiketter/block", "Tidningsjournal", "Fakturor"];
    const positions = mine.map((l) => labels.indexOf(l));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    await nav.getByRole("link", { name: "Fakturor" }).click();
    await expect(page.getByRole("heading", { name: "Fakturor" })).toBeVisible();
  });
});
