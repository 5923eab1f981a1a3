// A half-filled row (a bundle but no amount, or the reverse) is an
// error, not half a save. Enter in a field (the form's default button) refuses the half
// row with its row's message, stores nothing, and keeps every typed value. JS off and on.
import type { Page } from "@playwright/test";
import { expect, loginAs, test } from "./fixtures";
import { bundle, day, delivery, labelBlock, returnRow, returnsOf } from "./returns-data";

const ab = (date: string) => `Aftonbladet ${date}`;

/**
 * Enter in a half row's field. Without JavaScript it sends the form. With it, focus moves
 * to the row's missing field and the form is sent with its button, so the
 * server's refusal of the half row is tried either way.
 */
async function enterInHalfRow(page: Page, field: string, missing: string) {
  await page.getByLabel(field).press("Enter");
  if (test.info().project.name !== "js-on") return;
  await expect(page.getByLabel(missing)).toBeFocused();
  await page.getByRole("button", { name: "Spara och fortsätt" }).click();
}

function rowError(page: Page, label: string) {
  return page.locator("tr").filter({ has: page.getByLabel(label) });
}

test.describe("half-filled rows are an error, not half a save", () => {
  test("state 1, Enter: a bundle without amount and an amount without bundle refuse the whole form", async ({ page, retailer }) => {
    await labelBlock(retailer.id);
    const dates = [day(-1), day(-2), day(-3)];
    const papers = [];
    for (const date of dates) papers.push(await delivery(retailer.id, { date, delivered: 10 }));
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/rapportering/1");
    // Typing a bundle in one row never changes another row (returns-morning.spec.ts).
    await page.getByLabel(`Retur för ${ab(dates[2])}`).fill("3");
    await page.getByLabel(`Bunt för ${ab(dates[0])}`).fill("101");
    await page.getByLabel(`Retur för ${ab(dates[0])}`).fill("4");
    await page.getByLabel(`Bunt för ${ab(dates[1])}`).fill("102");
    await page.getByLabel(`Retur för ${ab(dates[0])}`).press("Enter");

    await expect(page.getByText("Inget sparades. Rätta raderna som är markerade nedan.")).toBeVisible();
    await expect(rowError(page, `Bunt för ${ab(dates[1])}`)).toContainText("Ange antal.");
    await expect(rowError(page, `Retur för ${ab(dates[2])}`)).toContainText("Ange buntnr.");
    await expect(page).toHaveURL(/\/rapportering\/1$/);
    await expect(page.getByLabel(`Bunt för ${ab(dates[0])}`)).toHaveValue("101");
    await expect(page.getByLabel(`Retur för ${ab(dates[0])}`)).toHaveValue("4");
    await expect(page.getByLabel(`Bunt för ${ab(dates[1])}`)).toHaveValue("102");
    await expect(page.getByLabel(`Retur för ${ab(dates[2])}`)).toHaveValue("3");
    for (const p of papers) expect(await returnsOf(p.id)).toHaveLength(0);
  });

  test("state 1 with a pre-filled bundle, Enter: a changed bundle without amount and a cleared bundle refuse", async ({ page, retailer }, info) => {
    await labelBlock(retailer.id);
    await bundle(retailer.id, 101);
    const dates = [day(-1), day(-2), day(-3)];
    const papers = [];
    for (const date of dates) papers.push(await delivery(retailer.id, { date, delivered: 10 }));
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/rapportering/1");
    await expect(page.getByLabel(`Bunt för ${ab(dates[0])}`)).toHaveValue("101");
    await page.getByLabel(`Retur för ${ab(dates[0])}`).fill("4");
    await page.getByLabel(`Bunt för ${ab(dates[1])}`).fill("102");
    // As a user clears a field: select all, delete.
    await page.getByLabel(`Bunt för ${ab(dates[2])}`).press("ControlOrMeta+a");
    await page.getByLabel(`Bunt för ${ab(dates[2])}`).press("Backspace");
    await page.getByLabel(`Retur för ${ab(dates[2])}`).fill("2");
    await page.getByLabel(`Retur för ${ab(dates[2])}`).press("Enter");
    if (info.project.name === "js-on") {
      // With JavaScript, Enter in the half row moves to its missing bundle;
      // Enter in a complete row then saves, and the half rows are refused.
      await expect(page.getByLabel(`Bunt för ${ab(dates[2])}`)).toBeFocused();
      await page.getByLabel(`Retur för ${ab(dates[0])}`).press("Enter");
    }

    await expect(rowError(page, `Bunt för ${ab(dates[1])}`)).toContainText("Ange antal.");
    await expect(rowError(page, `Retur för ${ab(dates[2])}`)).toContainText("Ange buntnr.");
    await expect(page.getByLabel(`Retur för ${ab(dates[0])}`)).toHaveValue("4");
    await expect(page.getByLabel(`Bunt för ${ab(dates[1])}`)).toHaveValue("102");
    await expect(page.getByLabel(`Bunt för ${ab(dates[2])}`)).toHaveValue("");
    await expect(page.getByLabel(`Retur för ${ab(dates[2])}`)).toHaveValue("2");
    for (const p of papers) expect(await returnsOf(p.id)).toHaveLength(0);
  });

  test("a bundle typed into a row without an amount is refused even when it equals the pre-filled one (JS on)", async ({ page, retailer }) => {
    await labelBlock(retailer.id);
    await bundle(retailer.id, 101);
    const dates = [day(-1), day(-2)];
    const papers = [];
    for (const date of dates) papers.push(await delivery(retailer.id, { date, delivered: 10 }));
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/rapportering/1");
    await page.getByLabel(`Retur för ${ab(dates[0])}`).fill("4");
    // As a user types it: select the pre-filled number and type it again, key by key.
    await page.getByLabel(`Bunt för ${ab(dates[1])}`).press("ControlOrMeta+a");
    await page.getByLabel(`Bunt för ${ab(dates[1])}`).pressSequentially("101");
    await enterInHalfRow(page, `Bunt för ${ab(dates[1])}`, `Retur för ${ab(dates[1])}`);
    if (test.info().project.name === "js-off") {
      // Without JavaScript the pre-filled number typed again posts exactly what an untouched row posts:
      // that row is no return (not half of one), and the full row is stored.
      await expect(page).toHaveURL(/\/rapportering\/1\/bekrafta$/);
      expect((await returnsOf(papers[0].id)).map((r) => r.amount)).toEqual([4]);
      expect(await returnsOf(papers[1].id)).toHaveLength(0);
      return;
    }
    await expect(rowError(page, `Bunt för ${ab(dates[1])}`)).toContainText("Ange antal.");
    await expect(page.getByLabel(`Retur för ${ab(dates[0])}`)).toHaveValue("4");
    for (const p of papers) expect(await returnsOf(p.id)).toHaveLength(0);
  });

  test("a bundle field the user cleared is not filled again from another row: the half row is refused", async ({ page, retailer }) => {
    await labelBlock(retailer.id);
    await bundle(retailer.id, 101);
    const dates = [day(-1), day(-2)];
    const papers = [];
    for (const date of dates) papers.push(await delivery(retailer.id, { date, delivered: 10 }));
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/rapportering/1");
    const cleared = page.getByLabel(`Bunt för ${ab(dates[0])}`);
    await cleared.press("ControlOrMeta+a");
    await cleared.press("Backspace");
    const other = page.getByLabel(`Bunt för ${ab(dates[1])}`);
    await other.press("ControlOrMeta+a");
    await other.pressSequentially("102");
    await page.getByLabel(`Retur för ${ab(dates[1])}`).fill("1");
    await page.getByLabel(`Retur för ${ab(dates[0])}`).fill("2");
    await enterInHalfRow(page, `Retur för ${ab(dates[0])}`, `Bunt för ${ab(dates[0])}`);
    await expect(rowError(page, `Retur för ${ab(dates[0])}`)).toContainText("Ange buntnr.");
    await expect(cleared).toHaveValue("");
    await expect(page.getByLabel(`Retur för ${ab(dates[0])}`)).toHaveValue("2");
    await expect(other).toHaveValue("102");
    for (const p of papers) expect(await returnsOf(p.id)).toHaveLength(0);
  });

  test("state 2, Enter: an added row with a bundle but no amount refuses the changed amount too", async ({ page, retailer }) => {
    await labelBlock(retailer.id);
    const d = day(-2);
    const paper = await delivery(retailer.id, { date: d, delivered: 10, reported: true });
    const open = await bundle(retailer.id, 101);
    await returnRow(retailer.id, open.id, paper.id, 3);
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/rapportering/2");
    await page.getByRole("button", { name: `Tilläggsrapportera för ${ab(d)}` }).click();
    const amounts = page.getByLabel(`Retur för ${ab(d)}`);
    await expect(amounts).toHaveCount(2);
    await amounts.nth(0).fill("5");
    await page.getByLabel(`Bunt för ${ab(d)}`).fill("101");
    await page.getByLabel(`Bunt för ${ab(d)}`).press("Enter");
    if (test.info().project.name === "js-on") {
      await expect(amounts.nth(1)).toBeFocused();
      await page.getByRole("button", { name: "Spara och fortsätt" }).click();
    }

    await expect(page.getByText("Ange antal.", { exact: true })).toBeVisible();
    await expect(page.getByLabel(`Retur för ${ab(d)}`).nth(0)).toHaveValue("5");
    await expect(page.getByLabel(`Bunt för ${ab(d)}`)).toHaveValue("101");
    expect((await returnsOf(paper.id)).map((r) => r.amount)).toEqual([3]);
  });
});

test.describe("with JavaScript, Enter moves through a half-typed row", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "without JavaScript Enter sends the form (the server refuses half rows, above)");

  test("bundle, Enter, amount, Enter: the row is filled by keyboard and then saved", async ({ page, retailer }) => {
    await labelBlock(retailer.id);
    const d = day(-1);
    const paper = await delivery(retailer.id, { date: d, delivered: 10 });
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/rapportering/1");
    const bundleField = page.getByLabel(`Bunt för ${ab(d)}`);
    await bundleField.fill("101");
    await bundleField.press("Enter");
    // Not saved: on to the amount.
    await expect(page.getByLabel(`Retur för ${ab(d)}`)).toBeFocused();
    await expect(page).toHaveURL(/\/rapportering\/1$/);
    expect(await returnsOf(paper.id)).toHaveLength(0);
    await page.keyboard.type("6");
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/bekrafta$/);
    expect((await returnsOf(paper.id)).map((r) => r.amount)).toEqual([6]);
  });
});
