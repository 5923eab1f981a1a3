import { addDays, addMonths } from "../../app/lib/dates";
import { expect, loginAs, test } from "./fixtures";
import { bundle, day, delivery, returnRow } from "./returns-data";

test.describe("history", () => {
  test("shows the last month by default with both lists and their columns", async ({ page, retailer }) => {
    const b = await bundle(retailer.id, 31);
    const ins = await bundle(retailer.id, 32, { type: 1 });
    const main = await delivery(retailer.id, { date: day(-3), delivered: 20, reported: true, received: 18 });
    const insert = await delivery(retailer.id, { date: day(-4), titleId: 2, editionId: 21, delivered: 9, reported: true });
    const old = await delivery(retailer.id, { date: addMonths(day(0), -2), delivered: 20, reported: true });
    const regional = await delivery(retailer.id, { date: day(-5), titleId: 2, editionId: 2, delivered: 6, reported: true });
    await returnRow(retailer.id, b.id, regional.id, 2);
    await returnRow(retailer.id, b.id, main.id, 7);
    await returnRow(retailer.id, ins.id, insert.id, 3);
    await returnRow(retailer.id, b.id, old.id, 11);
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/historik");
    await expect(page.getByRole("group", { name: "Datumintervall" })).toBeVisible();
    await expect(page.getByLabel("Från")).toHaveValue(addMonths(day(0), -1));
    await expect(page.getByLabel("Till")).toHaveValue(day(0));
    for (const h of ["Titel", "Utgivningsdag", "Sista returdag", "Bunt", "Retur", "Mottagit", "Reklamerat"]) {
      await expect(page.getByRole("columnheader", { name: h, exact: true }).first()).toBeVisible();
    }
    await expect(page.getByRole("columnheader", { name: "Utgåva" })).toHaveCount(1);
    await expect(page.getByRole("row", { name: `Aftonbladet ${day(-3)} ${day(4)} 31 7 18 2` })).toBeVisible();
    await expect(page.getByRole("row", { name: `Expressen Leva & Bo ${day(-4)} ${day(10)} 32 3 – –` })).toBeVisible();
    // A main newspaper's edition beside its title.
    await expect(page.getByRole("row", { name: `Expressen – Kvällsposten ${day(-5)} ${day(2)} 31 2 – –` })).toBeVisible();
    await expect(page.getByRole("row", { name: new RegExp(addMonths(day(0), -2)) })).toHaveCount(0);

    await page.getByLabel("Från").fill(addMonths(day(0), -3));
    await page.getByRole("button", { name: "Visa" }).click();
    await expect(page.getByRole("row", { name: `Aftonbladet ${addMonths(day(0), -2)} ${addDays(addMonths(day(0), -2), 7)} 31 11 – –` })).toBeVisible();
  });

  test("refuses a missing date, a start after the end and more than three months back", async ({ page, retailer }) => {
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/historik");
    await page.getByLabel("Från").fill("");
    await page.getByRole("button", { name: "Visa" }).click();
    await expect(page.getByText("Ange ett från-datum.")).toBeVisible();

    await page.getByLabel("Från").fill(day(-1));
    await page.getByLabel("Till").fill(day(-5));
    await page.getByRole("button", { name: "Visa" }).click();
    await expect(page.getByText("Från-datumet måste vara före till-datumet.")).toBeVisible();
    await expect(page.getByLabel("Till")).toHaveValue(day(-5));

    await page.getByLabel("Från").fill(addMonths(day(-1), -3));
    await page.getByLabel("Till").fill(day(0));
    await page.getByRole("button", { name: "Visa" }).click();
    await expect(page.getByText(/Historiken sträcker sig tre månader tillbaka/)).toBeVisible();
    await expect(page.getByRole("heading", { name: "Huvudtidningar" })).toHaveCount(0);
    const res = await page.request.get(`/historik?fran=${day(-1)}&till=${day(-5)}`);
    expect(res.status()).toBe(400);
  });
});

test.describe("history with JavaScript", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "without JavaScript a search loads the whole page: there is nothing to type into while it loads");

  test("while a search loads the page says it is busy, and what is typed meanwhile is kept; Back shows the range it shows", async ({ page, retailer }) => {
    const b = await bundle(retailer.id, 31);
    const old = await delivery(retailer.id, { date: addMonths(day(0), -2), delivered: 20, reported: true });
    await returnRow(retailer.id, b.id, old.id, 11);
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/historik");
    // The search's data is held until the test lets it go: a slow line, without a clock.
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    await page.route(
      (url) => url.pathname.startsWith("/historik") && url.searchParams.has("fran"),
      async (route) => {
        if (route.request().resourceType() === "document") return route.continue();
        await held;
        await route.continue();
      },
    );
    const main = page.locator("main");
    await page.getByLabel("Från").fill(addMonths(day(0), -3));
    await page.getByRole("button", { name: "Visa" }).click();
    await expect(main).toHaveAttribute("aria-busy", "true");
    // The next range typed while the first one loads.
    await page.getByLabel("Från").fill(addMonths(day(0), -1));
    await page.getByLabel("Till").fill(day(-1));
    release();
    await expect(page.getByRole("row", { name: new RegExp(`^Aftonbladet ${addMonths(day(0), -2)} `) })).toBeVisible();
    await expect(main).not.toHaveAttribute("aria-busy", "true");
    await expect(page.getByLabel("Från")).toHaveValue(addMonths(day(0), -1));
    await expect(page.getByLabel("Till")).toHaveValue(day(-1));
    // Back: the fields show the range of the page shown, not what was typed.
    await page.goBack();
    await expect(page).toHaveURL(/\/historik$/);
    await expect(page.getByLabel("Från")).toHaveValue(addMonths(day(0), -1));
    await expect(page.getByLabel("Till")).toHaveValue(day(0));
    await expect(page.getByRole("row", { name: new RegExp(`^Aftonbladet ${addMonths(day(0), -2)} `) })).toHaveCount(0);
  });
});
