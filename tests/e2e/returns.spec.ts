import { PDFDocument } from "pdf-lib";
import { eq } from "drizzle-orm";
import { schema } from "../../db/client";
import { e2eDb, expect, formToken, loginAs, makeRetailer, test } from "./fixtures";
import { bundle, bundleRow, day, delivery, labelBlock, returnRow, returnsOf, saveLeavingBlanks } from "./returns-data";

const ab = (date: string) => `Aftonbladet ${date}`;

test.describe("return reporting", () => {
  test("reports returns into a new bundle and closes it in the confirm step", async ({ page, retailer }, testInfo) => {
    await labelBlock(retailer.id);
    const d = day(-1);
    const paper = await delivery(retailer.id, { date: d, delivered: 20 });
    await delivery(retailer.id, { date: day(-2), titleId: 1, editionId: 21, delivered: 8 });
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/rapportering/1");
    await expect(page.getByRole("heading", { name: "Returrapportera" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Huvudtidningar" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Bilagor" })).toBeVisible();
    await expect(page.getByText("- Ingen öppen bunt")).toHaveCount(2);
    await expect(page.getByRole("columnheader", { name: "Utgåva" })).toHaveCount(1);
    await expect(page.getByText("Levererat antal: 20")).toBeVisible();

    await page.getByLabel(`Bunt för ${ab(d)}`).fill("101");
    await page.getByLabel(`Retur för ${ab(d)}`).fill("5");
    await saveLeavingBlanks(page);

    await expect(page).toHaveURL(/\/rapportering\/1\/bekrafta$/);
    await expect(page.getByRole("heading", { name: "Returerna är sparade" })).toBeVisible();
    const group = page.getByRole("group", { name: /Bunt #101/ });
    await expect(group).toBeVisible();
    // The only open bundle of its type is Öppen already: one press would answer the step.
    await expect(group.getByRole("radio", { name: "Öppen" })).toBeChecked();
    await expect(group.getByRole("radio", { name: "Stängd" })).not.toBeChecked();
    await expect(page.getByText(/bara en kan vara öppen/)).toHaveCount(0);

    await group.getByRole("radio", { name: "Stängd" }).check();
    await page.getByRole("button", { name: "Spara", exact: true }).click();
    if (testInfo.project.name === "js-on") await expect(page.getByText("Sparat!")).toBeVisible();
    else await expect(page.getByRole("status").filter({ hasText: "Buntarna är sparade." })).toBeVisible();
    await expect(page).toHaveURL(/\/rapportering\/1$/);
    await expect(page.getByRole("heading", { name: "Returerna är sparade" })).toHaveCount(0);
    // The paper left the unreported list; the inserts one is still there.
    await expect(page.getByLabel(`Retur för ${ab(d)}`)).toHaveCount(0);
    await expect(page.getByText("Inget att rapportera")).toHaveCount(1);

    expect((await returnsOf(paper.id)).map((r) => r.amount)).toEqual([5]);
    expect(await bundleRow(retailer.id, 101)).toMatchObject({ open: false, closedDate: day(0), type: 0 });
  });

  test("the confirm step: one press keeps the one open bundle open; two open bundles of a type need a choice, and the page says why", async ({ page, retailer }, testInfo) => {
    await labelBlock(retailer.id);
    const d = day(-1);
    await delivery(retailer.id, { date: d, delivered: 20 });
    await delivery(retailer.id, { date: d, titleId: 2, editionId: 1, delivered: 12 });
    await bundle(retailer.id, 120);
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/rapportering/1");
    // Aftonbladet into a second main-paper bundle (120 is open); Expressen into the open one.
    await page.getByLabel(`Bunt för ${ab(d)}`).fill("101");
    await page.getByLabel(`Retur för ${ab(d)}`).fill("5");
    await page.getByLabel(`Retur för Expressen ${d}`).fill("2");
    await page.getByRole("button", { name: "Spara och fortsätt" }).click();
    await expect(page).toHaveURL(/\/rapportering\/1\/bekrafta$/);
    const why = page.getByText("Du har 2 öppna buntar här, men bara en kan vara öppen. Välj Öppen för den du fortsätter med och Stängd för de andra.");
    await expect(why).toBeVisible();
    for (const n of [101, 120]) {
      const group = page.getByRole("group", { name: new RegExp(`Bunt #${n}`) });
      await expect(group.getByRole("radio", { name: "Öppen" })).not.toBeChecked();
      await expect(group.getByRole("radio", { name: "Stängd" })).not.toBeChecked();
    }
    await page.getByRole("button", { name: "Spara", exact: true }).click();
    await expect(page.getByText("Välj Öppen eller Stängd.")).toHaveCount(2);
    await page.getByRole("group", { name: /Bunt #101/ }).getByRole("radio", { name: "Öppen" }).check();
    await page.getByRole("group", { name: /Bunt #120/ }).getByRole("radio", { name: "Stängd" }).check();
    await page.getByRole("button", { name: "Spara", exact: true }).click();
    if (testInfo.project.name === "js-on") await expect(page.getByText("Sparat!")).toBeVisible();
    else await expect(page.getByRole("status").filter({ hasText: "Buntarna är sparade." })).toBeVisible();
    expect(await bundleRow(retailer.id, 101)).toMatchObject({ open: true });
    expect(await bundleRow(retailer.id, 120)).toMatchObject({ open: false, closedDate: day(0) });

    // The next save: 101 is the only open main-paper bundle, so one press on Spara answers the step.
    await delivery(retailer.id, { date: day(-2), delivered: 9 });
    await page.goto("/rapportering/1");
    await page.getByLabel(`Retur för ${ab(day(-2))}`).fill("1");
    await page.getByRole("button", { name: "Spara och fortsätt" }).click();
    await expect(page.getByRole("group", { name: /Bunt #101/ }).getByRole("radio", { name: "Öppen" })).toBeChecked();
    await expect(why).toHaveCount(0);
    await page.getByRole("button", { name: "Spara", exact: true }).click();
    if (testInfo.project.name === "js-on") await expect(page.getByText("Sparat!")).toBeVisible();
    else await expect(page.getByRole("status").filter({ hasText: "Buntarna är sparade." })).toBeVisible();
    expect(await bundleRow(retailer.id, 101)).toMatchObject({ open: true });
  });

  test("a split row with 'Ny bunt', 'Ångra', and saving both lines", async ({ page, retailer }) => {
    await labelBlock(retailer.id);
    const d = day(-1);
    const paper = await delivery(retailer.id, { date: d, delivered: 20 });
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/rapportering/1");
    await page.getByLabel(`Bunt för ${ab(d)}`).fill("101");
    await page.getByLabel(`Retur för ${ab(d)}`).fill("5");
    await page.getByRole("button", { name: `Ny bunt för ${ab(d)}` }).click();
    await expect(page.getByLabel(`Bunt för ${ab(d)}`)).toHaveCount(2);
    // Typed values are kept, and the split row names the delivery and what the row above holds.
    await expect(page.getByLabel(`Retur för ${ab(d)}`).first()).toHaveValue("5");
    await expect(page.getByText("Levererat 20, redan returnerat 5", { exact: true })).toBeVisible();
    await page.getByRole("button", { name: `Ångra för ${ab(d)}` }).click();
    await expect(page.getByLabel(`Bunt för ${ab(d)}`)).toHaveCount(1);
    await expect(page.getByLabel(`Retur för ${ab(d)}`)).toHaveValue("5");

    await page.getByRole("button", { name: `Ny bunt för ${ab(d)}` }).click();
    await page.getByLabel(`Bunt för ${ab(d)}`).nth(1).fill("102");
    await page.getByLabel(`Retur för ${ab(d)}`).nth(1).fill("3");
    await page.getByRole("button", { name: "Spara och fortsätt" }).click();
    await expect(page).toHaveURL(/\/bekrafta$/);
    expect((await returnsOf(paper.id)).map((r) => r.amount).sort()).toEqual([3, 5]);
  });

  test("'Slutsåld' reports 0 without asking for a bundle, and the paper leaves the list", async ({ page, retailer }) => {
    await labelBlock(retailer.id);
    const d = day(-3);
    const paper = await delivery(retailer.id, { date: d });
    await bundle(retailer.id, 120);
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/rapportering/1");
    // The newest open bundle is the default.
    await expect(page.getByLabel(`Bunt för ${ab(d)}`)).toHaveValue("120");
    await page.getByRole("button", { name: `Slutsåld för ${ab(d)}` }).click();
    await expect(page.getByLabel(`Retur för ${ab(d)}`)).toHaveValue("0");
    // Nothing goes in a bundle: no bundle field to fill.
    await expect(page.getByLabel(`Bunt för ${ab(d)}`)).toHaveCount(0);
    await expect(page.getByRole("row").filter({ hasText: d })).toContainText("Slutsåld");
    await page.getByRole("button", { name: "Spara och fortsätt" }).click();
    await expect(page).toHaveURL(/\/bekrafta$/);
    expect(await returnsOf(paper.id)).toEqual([]);
    const [stored] = await e2eDb().select().from(schema.deliveries).where(eq(schema.deliveries.id, paper.id));
    expect(stored.reportedAt).not.toBeNull();
    await page.goto("/rapportering/1");
    await expect(page.getByLabel(`Retur för ${ab(d)}`)).toHaveCount(0);
  });

  test("each validation message, with what was typed kept and nothing saved", async ({ page, retailer }, testInfo) => {
    await labelBlock(retailer.id);
    const dates = [day(-1), day(-2), day(-3), day(-4), day(-5)];
    const papers = [];
    for (const date of dates) papers.push(await delivery(retailer.id, { date, delivered: 10 }));
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/rapportering/1");
    // (Typing a bundle in one row never changes another row; the order here is free.)
    await page.getByLabel(`Retur för ${ab(dates[0])}`).fill("4");
    await page.getByLabel(`Retur för ${ab(dates[2])}`).fill("abc");
    await page.getByLabel(`Retur för ${ab(dates[3])}`).fill("11");
    await page.getByLabel(`Retur för ${ab(dates[4])}`).fill("2");
    await page.getByLabel(`Bunt för ${ab(dates[1])}`).fill("101");
    await page.getByLabel(`Bunt för ${ab(dates[2])}`).fill("101");
    await page.getByLabel(`Bunt för ${ab(dates[3])}`).fill("101");
    await page.getByLabel(`Bunt för ${ab(dates[4])}`).fill("101");
    await page.getByRole("button", { name: "Spara och fortsätt" }).click();
    await expect(page.getByText("Ange buntnr.", { exact: true })).toBeVisible();
    await expect(page.getByText("Ange antal.", { exact: true })).toBeVisible();
    await expect(page.getByText("Orimligt värde har angetts. Skriv antalet med siffror, 0–999.", { exact: true })).toBeVisible();
    await expect(page.getByText("Kan inte vara större än antal levererat. Högst 10 – så många levererades.", { exact: true })).toBeVisible();
    // The summary at the top counts the refused fields and links to each, in the page's order.
    const summary = page.getByRole("alert").filter({ has: page.getByRole("heading", { name: "Inget sparades. Rätta raderna som är markerade nedan." }) });
    await expect(summary).toContainText("4 fält behöver rättas:");
    await expect(summary.getByRole("link")).toHaveText([
      `${ab(dates[3])}, Retur: Kan inte vara större än antal levererat. Högst 10 – så många levererades.`,
      `${ab(dates[2])}, Retur: Orimligt värde har angetts. Skriv antalet med siffror, 0–999.`,
      `${ab(dates[1])}, Retur: Ange antal.`,
      `${ab(dates[0])}, Bunt: Ange buntnr.`,
    ]);
    // A link goes to its field (with JavaScript it takes the focus; without, the browser scrolls there).
    await summary.getByRole("link", { name: `${ab(dates[3])}, Retur` }).click();
    if (testInfo.project.name === "js-on") await expect(page.getByLabel(`Retur för ${ab(dates[3])}`)).toBeFocused();
    await expect(page).toHaveURL(new RegExp(testInfo.project.name === "js-on" ? "/rapportering/1$" : "/rapportering/1#l-d\\d+-amount$"));
    await expect(page.getByLabel(`Retur för ${ab(dates[3])}`)).toBeInViewport();
    await expect(page.getByLabel(`Bunt för ${ab(dates[3])}`)).not.toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel(`Retur för ${ab(dates[2])}`)).toHaveValue("abc");
    await expect(page.getByLabel(`Retur för ${ab(dates[2])}`)).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel(`Retur för ${ab(dates[4])}`)).toHaveValue("2");
    await expect(page).toHaveURL(/\/rapportering\/1(#[\w-]+)?$/);
    for (const p of papers) expect(await returnsOf(p.id)).toHaveLength(0);
  });

  test("the server refuses more than delivered and numbers outside the label blocks with 400", async ({ page, retailer }) => {
    await labelBlock(retailer.id);
    const paper = await delivery(retailer.id, { date: day(-1), delivered: 10 });
    await loginAs(page, retailer.id, retailer.pin);
    const csrf = await formToken(page.request);
    const key = `d${paper.id}`;
    const post = (bundleNo: string, amount: string) =>
      page.request.post("/rapportering/1", {
        form: { csrf, intent: "save", token: `t-${Math.random()}`, line: key, [`${key}.delivery`]: String(paper.id), [`${key}.bundle`]: bundleNo, [`${key}.amount`]: amount },
        maxRedirects: 0,
      });
    const tooMany = await post("101", "11");
    expect(tooMany.status()).toBe(400);
    expect(await tooMany.text()).toContain("Kan inte vara större än antal levererat.");
    const outside = await post("999", "1");
    expect(outside.status()).toBe(400);
    expect(await outside.text()).toContain("Buntnummer 999 finns inte bland dina returetiketter.");
    expect(await returnsOf(paper.id)).toHaveLength(0);
  });

  test("submitting the same form twice never doubles a return", async ({ page, retailer }) => {
    await labelBlock(retailer.id);
    const paper = await delivery(retailer.id, { date: day(-1), delivered: 10 });
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/rapportering/1");
    const token = await page.locator('input[name="token"]').inputValue();
    const csrf = await page.locator('input[name="csrf"]').first().inputValue();
    const key = `d${paper.id}`;
    const form = { csrf, intent: "save", token, line: key, [`${key}.delivery`]: String(paper.id), [`${key}.bundle`]: "101", [`${key}.amount`]: "4" };
    const [a, b] = await Promise.all([
      page.request.post("/rapportering/1", { form, maxRedirects: 0 }),
      page.request.post("/rapportering/1", { form, maxRedirects: 0 }),
    ]);
    expect([a.status(), b.status()]).toEqual([302, 302]);
    const again = await page.request.post("/rapportering/1", { form, maxRedirects: 0 });
    expect(again.status()).toBe(302);
    expect((await returnsOf(paper.id)).map((r) => r.amount)).toEqual([4]);
  });

  test("additions in state 2: a closed bundle's row is locked, extra returns go to an open bundle", async ({ page, retailer }) => {
    await labelBlock(retailer.id);
    const d = day(-2);
    const paper = await delivery(retailer.id, { date: d, delivered: 10, reported: true });
    const closed = await bundle(retailer.id, 101, { open: false });
    await bundle(retailer.id, 102);
    await returnRow(retailer.id, closed.id, paper.id, 6);
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/tillaggsrapportering");
    await expect(page).toHaveURL(/\/rapportering\/2$/);
    await expect(page.getByRole("heading", { name: "Ändra/tillägg" })).toBeVisible();
    await expect(page.getByRole("img", { name: "Stängd bunt" })).toBeVisible();
    // Drawn as inline SVG, not an emoji an old phone shows as a box.
    expect(await page.getByRole("img", { name: "Stängd bunt" }).evaluate((el) => el.tagName.toLowerCase())).toBe("svg");
    expect(await page.locator("body").innerText()).not.toMatch(/\p{Extended_Pictographic}/u);
    await expect(page.getByLabel(`Retur för ${ab(d)}`)).toHaveCount(0);

    await page.getByRole("button", { name: `Tilläggsrapportera för ${ab(d)}` }).click();
    await page.getByLabel(`Bunt för ${ab(d)}`).fill("101");
    await page.getByLabel(`Retur för ${ab(d)}`).fill("2");
    await page.getByRole("button", { name: "Spara och fortsätt" }).click();
    await expect(page.getByText("Bunt 101 är stängd. Använd ett annat buntnummer.", { exact: true })).toBeVisible();

    // The addition row names what was delivered and what is already returned, and so does a refusal.
    await expect(page.getByText("Levererat 10, redan returnerat 6", { exact: true })).toBeVisible();
    await page.getByLabel(`Bunt för ${ab(d)}`).fill("102");
    await page.getByLabel(`Retur för ${ab(d)}`).fill("5");
    await page.getByRole("button", { name: "Spara och fortsätt" }).click();
    await expect(page.getByText("Kan inte vara större än antal levererat. Högst 4 till – 10 levererades och 6 är redan returnerade.", { exact: true })).toBeVisible();

    await page.getByLabel(`Retur för ${ab(d)}`).fill("4");
    await page.getByRole("button", { name: "Spara och fortsätt" }).click();
    await expect(page).toHaveURL(/\/rapportering\/2\/bekrafta$/);
    expect((await returnsOf(paper.id)).map((r) => r.amount).sort()).toEqual([4, 6]);
  });

  test("the confirm step allows only one open bundle per paper type", async ({ page, retailer }, testInfo) => {
    await bundle(retailer.id, 101);
    await bundle(retailer.id, 102);
    await bundle(retailer.id, 103, { type: 1 });
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/rapportering/1/bekrafta");
    const choose = (n: number, label: "Öppen" | "Stängd") => page.getByRole("group", { name: new RegExp(`Bunt #${n}\\b`) }).getByRole("radio", { name: label }).check();
    await choose(101, "Öppen");
    await choose(102, "Öppen");
    await choose(103, "Öppen");
    await page.getByRole("button", { name: "Spara", exact: true }).click();
    await expect(page.getByText("Du kan bara ha en öppen bunt per returtyp.", { exact: true })).toBeVisible();
    // The choices are kept.
    await expect(page.getByRole("group", { name: /Bunt #103/ }).getByRole("radio", { name: "Öppen" })).toBeChecked();
    await choose(102, "Stängd");
    await page.getByRole("button", { name: "Spara", exact: true }).click();
    if (testInfo.project.name === "js-on") await expect(page.getByText("Sparat!")).toBeVisible();
    await expect(page).toHaveURL(/\/rapportering\/1$/);
    expect((await bundleRow(retailer.id, 101)).open).toBe(true);
    expect((await bundleRow(retailer.id, 102)).open).toBe(false);
    expect((await bundleRow(retailer.id, 103)).open).toBe(true);
  });

  test("'Skriv ut räknelista' downloads Returer.pdf in A4", async ({ page, retailer }) => {
    await delivery(retailer.id, { date: day(-1) });
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/rapportering/1");
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Skriv ut räknelista", exact: true }).click()]);
    expect(download.suggestedFilename()).toBe("Returer.pdf");
    const res = await page.request.get("/rapportering/1/returer.pdf");
    expect(res.headers()["content-type"]).toBe("application/pdf");
    expect(res.headers()["content-disposition"]).toContain('filename="Returer.pdf"');
    const pdf = await PDFDocument.load(await res.body());
    const { width, height } = pdf.getPage(0).getSize();
    expect([Math.round(width), Math.round(height)]).toEqual([595, 842]);
  });

  test("a retailer cannot report on, or into, another retailer's papers and bundles", async ({ page, retailer }, testInfo) => {
    const other = await makeRetailer(testInfo.workerIndex);
    await labelBlock(retailer.id, 101, 150);
    await labelBlock(other.id, 201, 250);
    const foreignPaper = await delivery(other.id, { date: day(-1) });
    const foreignBundle = await bundle(other.id, 201);
    const own = await delivery(retailer.id, { date: day(-1) });
    await loginAs(page, retailer.id, retailer.pin);
    const csrf = await formToken(page.request);
    const post = (deliveryId: number, bundleNo: string) => {
      const key = `d${deliveryId}`;
      return page.request.post("/rapportering/1", {
        form: { csrf, intent: "save", token: `t-${Math.random()}`, line: key, [`${key}.delivery`]: String(deliveryId), [`${key}.bundle`]: bundleNo, [`${key}.amount`]: "1" },
        maxRedirects: 0,
      });
    };
    const paperRes = await post(foreignPaper.id, "101");
    expect(paperRes.status()).toBe(400);
    const bundleRes = await post(own.id, "201");
    expect(bundleRes.status()).toBe(400);
    expect(await bundleRes.text()).toContain("Buntnummer 201 finns inte bland dina returetiketter.");
    expect(await returnsOf(foreignPaper.id)).toHaveLength(0);
    expect(await returnsOf(own.id)).toHaveLength(0);
    // Nor close it in the confirm step.
    const confirm = await page.request.post("/rapportering/1/bekrafta", { form: { csrf, "b.201": "closed" }, maxRedirects: 0 });
    expect(confirm.status()).toBe(302);
    expect((await bundleRow(other.id, 201)).open).toBe(true);
    expect(foreignBundle.open).toBe(true);
    // The page lists none of the other retailer's papers.
    await page.goto("/rapportering/1");
    await expect(page.getByLabel(/Retur för/)).toHaveCount(1);
  });

  test("the old addresses redirect", async ({ page, retailer }) => {
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/returrapportering");
    await expect(page).toHaveURL(/\/rapportering\/1$/);
    await expect(page.getByText("Inget att rapportera")).toHaveCount(2);
  });
});
