// The morning's returns form as a newsagent uses it: eight papers (Aftonbladet, Expressen
// and Kvällsposten over three days, two inserts), a shop named "Şahin Livs". Enter (a phone's
// "Nästa") goes on to the next Retur field and only the last one saves; Slutsåld is a toggle;
// after Ny bunt the new row's bundle field has the focus; saving with papers left blank asks
// once with JavaScript, and without it the plain form is sent. JS off and on, 1280 and 360 px.
import type { Page } from "@playwright/test";
import { schema } from "../../db/client";
import { e2eDb, expect, forgetUser, loginAs, makeRetailer, test } from "./fixtures";
import { bundle, bundleRow, day, delivery, labelBlock, returnRow, returnsOf, saveLeavingBlanks } from "./returns-data";

async function morning(customerId: number) {
  await labelBlock(customerId, 101, 150);
  await bundle(customerId, 101);
  const papers = {
    ab1: await delivery(customerId, { date: day(-1), titleId: 1, editionId: 1, delivered: 36 }),
    ab2: await delivery(customerId, { date: day(-2), titleId: 1, editionId: 1, delivered: 36 }),
    ab3: await delivery(customerId, { date: day(-3), titleId: 1, editionId: 1, delivered: 30 }),
    ex1: await delivery(customerId, { date: day(-1), titleId: 2, editionId: 1, delivered: 12 }),
    ex2: await delivery(customerId, { date: day(-2), titleId: 2, editionId: 1, delivered: 12 }),
    kvp1: await delivery(customerId, { date: day(-1), titleId: 2, editionId: 2, delivered: 9 }),
    sport: await delivery(customerId, { date: day(-1), titleId: 1, editionId: 21, delivered: 8 }),
    leva: await delivery(customerId, { date: day(-1), titleId: 2, editionId: 21, delivered: 5 }),
  };
  return papers;
}

const amountFields = (page: Page) => page.getByRole("textbox", { name: /^Retur för / });

/** "Şahin Livs" logged in on its returns form, its eight papers listed. */
async function openMorning(page: Page, workerIndex: number) {
  const shop = await makeRetailer(workerIndex, { name: "Şahin Livs" });
  const p = await morning(shop.id);
  await loginAs(page, shop.id, shop.pin);
  await page.goto("/rapportering/1");
  const amounts = amountFields(page);
  await expect(amounts).toHaveCount(8);
  return { shop, p, amounts };
}

for (const width of [1280, 360]) {
  test.describe(`the morning's form at ${width} px`, () => {
    test.use({ viewport: { width, height: width === 360 ? 740 : 900 } });

    test("Slutsåld is a toggle that gives the bundle back; after Ny bunt the new row's bundle field has the focus", async ({ page }, info) => {
      const shop = await makeRetailer(info.workerIndex, { name: "Şahin Livs" });
      const p = await morning(shop.id);
      await loginAs(page, shop.id, shop.pin);
      await page.goto("/rapportering/1");
      await expect(page.getByRole("textbox", { name: /^Bunt för .* \d{4}-\d{2}-\d{2}$/ })).toHaveCount(8);
      const ab = `Aftonbladet ${day(-1)}`;

      const soldOut = page.getByRole("button", { name: `Slutsåld för ${ab}` });
      await expect(soldOut).toHaveAttribute("aria-pressed", "false");
      await soldOut.click();
      await expect(page.getByRole("button", { name: `Slutsåld för ${ab}` })).toHaveAttribute("aria-pressed", "true");
      await expect(page.getByLabel(`Bunt för ${ab}`)).toHaveCount(0);
      await expect(page.getByText(`Slutsåld för ${ab}, ingen bunt`)).toBeVisible();
      // Pressed again: undone, the open bundle back, no amount.
      await page.getByRole("button", { name: `Slutsåld för ${ab}` }).click();
      await expect(page.getByRole("button", { name: `Slutsåld för ${ab}` })).toHaveAttribute("aria-pressed", "false");
      await expect(page.getByLabel(`Bunt för ${ab}`)).toHaveValue("101");
      await expect(page.getByLabel(`Retur för ${ab}`)).toHaveValue("");

      const kvp = `Expressen – Kvällsposten ${day(-1)}`;
      await page.getByRole("button", { name: `Ny bunt för ${kvp}` }).click();
      await expect(page.getByLabel(`Bunt för ${kvp}`)).toHaveCount(2);
      await expect(page.getByLabel(`Bunt för ${kvp}`).nth(1)).toBeFocused();
      await page.keyboard.type("102");
      await expect(page.getByLabel(`Bunt för ${kvp}`).nth(1)).toHaveValue("102");
      // Nothing was saved by the row buttons.
      for (const paper of Object.values(p)) expect(await returnsOf(paper.id)).toHaveLength(0);
    });
  });
}

test("typing a bundle in one row changes no other row; 'Bunt för huvudtidningar – Byt' gives it to the rows not touched", async ({ page }, info) => {
  const shop = await makeRetailer(info.workerIndex, { name: "Şahin Livs" });
  await morning(shop.id);
  await loginAs(page, shop.id, shop.pin);
  await page.goto("/rapportering/1");
  const ab1 = `Aftonbladet ${day(-1)}`;
  const ab2 = `Aftonbladet ${day(-2)}`;
  const ex1 = `Expressen ${day(-1)}`;
  await expect(page.getByLabel("Bunt för huvudtidningar")).toHaveValue("101");
  await page.getByLabel(`Bunt för ${ab1}`).fill("105");
  await page.getByLabel(`Retur för ${ab2}`).fill("3");
  // Another row's field left: nothing else changed.
  await expect(page.getByLabel(`Bunt för ${ex1}`)).toHaveValue("101");
  await expect(page.getByLabel(`Bunt för ${ab2}`)).toHaveValue("101");

  await page.getByLabel("Bunt för huvudtidningar").fill("107");
  await page.getByRole("button", { name: "Byt bunt för huvudtidningar" }).click();
  // Untouched rows take 107; the typed bundle and the row with an amount keep theirs; inserts are another type.
  await expect(page.getByLabel(`Bunt för ${ex1}`)).toHaveValue("107");
  await expect(page.getByLabel(`Bunt för Expressen – Kvällsposten ${day(-1)}`)).toHaveValue("107");
  await expect(page.getByLabel(`Bunt för ${ab1}`)).toHaveValue("105");
  await expect(page.getByLabel(`Bunt för ${ab2}`)).toHaveValue("101");
  await expect(page.getByLabel(`Retur för ${ab2}`)).toHaveValue("3");
  await expect(page.getByLabel(`Bunt för Aftonbladet – Sportbladet ${day(-1)}`)).toHaveValue("");

  // Not a number: refused where it was typed, the rows as they were.
  await page.getByLabel("Bunt för huvudtidningar").fill("sju");
  await page.getByRole("button", { name: "Byt bunt för huvudtidningar" }).click();
  await expect(page.getByText("Orimligt värde har angetts. Skriv buntnumret med siffror.")).toBeVisible();
  await expect(page.getByLabel("Bunt för huvudtidningar")).toHaveValue("sju");
  await expect(page.getByLabel(`Bunt för ${ex1}`)).toHaveValue("107");
  await expect(page.getByLabel(`Retur för ${ab2}`)).toHaveValue("3");
});

test("0 is Slutsåld, and 'Bunt för bilagor' typed once counts for both inserts when the form is saved, without Byt", async ({ page }, info) => {
  const { shop, p, amounts } = await openMorning(page, info.workerIndex);
  await page.getByLabel("Bunt för bilagor").fill("120");
  // Five returns, a sold-out Kvällsposten typed as 0 (its bundle field still says 101), the inserts.
  const typed = ["2", "3", "4", "5", "6", "0", "3", "2"];
  for (const [i, amount] of typed.entries()) await amounts.nth(i).fill(amount);
  await expect(page.getByLabel(`Bunt för Expressen – Kvällsposten ${day(-1)}`)).toHaveValue("101");
  await page.getByRole("button", { name: "Spara och fortsätt" }).click();
  await expect(page).toHaveURL(/\/rapportering\/1\/bekrafta$/);
  // Sold out: reported, and no return row of 0 copies in bundle 101.
  expect(await returnsOf(p.kvp1.id)).toEqual([]);
  const b120 = await bundleRow(shop.id, 120);
  expect((await returnsOf(p.sport.id)).map((r) => [r.bundleId, r.amount])).toEqual([[b120.id, 3]]);
  expect((await returnsOf(p.leva.id)).map((r) => [r.bundleId, r.amount])).toEqual([[b120.id, 2]]);
  await expect(page.getByRole("group", { name: /Bunt #120/ })).toBeVisible();
  await page.getByRole("button", { name: "Spara", exact: true }).click();
  await expect(page.getByText("Inget att rapportera")).toHaveCount(2);

  // A bundle typed there that is not a number is refused where it was typed; nothing saved.
  const other = await makeRetailer(info.workerIndex, { name: "Şahin Livs 2" });
  const q = await morning(other.id);
  await forgetUser(page);
  await loginAs(page, other.id, other.pin);
  await page.goto("/rapportering/1");
  await page.getByLabel("Bunt för bilagor").fill("tolv");
  await amountFields(page).nth(6).fill("3");
  await saveLeavingBlanks(page);
  await expect(page.getByText("Orimligt värde har angetts. Skriv buntnumret med siffror.")).toBeVisible();
  await expect(page.getByLabel("Bunt för bilagor")).toHaveValue("tolv");
  await expect(amountFields(page).nth(6)).toHaveValue("3");
  expect(await returnsOf(q.sport.id)).toEqual([]);
});

test("on a phone 'Att göra' is one line away from the start page and each paper is compact: the first paper's Retur on the first screen", async ({ page }, info) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const shop = await makeRetailer(info.workerIndex, { name: "Şahin Livs" });
  const p = await morning(shop.id);
  // One thing to do: the placards of Expressen are not set.
  await e2eDb().insert(schema.placards).values({ customerId: shop.id, titleId: 2, amount: 2, newAmount: null });
  await loginAs(page, shop.id, shop.pin);
  await page.goto("/rapportering/1");
  const todo = page.getByRole("region", { name: "Att göra" });
  // Away from the start page "Att göra" is one line naming what to do (decision 038): the
  // page's heading follows right under it. The line opens to the links and Stäng.
  const line = (await todo.boundingBox())!;
  expect(line.height).toBeLessThanOrEqual(48);
  await expect(todo.locator("summary")).toContainText("Antal löpsedlar");
  const heading = (await page.getByRole("heading", { name: "Returrapportera", level: 1 }).boundingBox())!;
  expect(heading.y).toBeLessThanOrEqual(line.y + line.height + 24);
  await todo.locator("summary").click();
  await expect(todo.getByRole("link", { name: "Gå till löpsedlar" })).toBeVisible();
  await expect(todo.getByRole("button", { name: "Stäng" })).toBeVisible();
  // Opened: "Att göra", one line per thing to do, its text and its link (other tests'
  // holidays may add "Rapportera helgdagar"), and Stäng.
  const lines = 2 + (await todo.getByRole("listitem").count());
  expect((await todo.boundingBox())!.height).toBeLessThanOrEqual(lines * 34 + 12);
  await todo.locator("summary").click();
  // A paper is compact on a phone: its name, day and last return day on one line, Bunt and
  // Retur side by side, the buttons after them; the first one's Retur on the first screen.
  const first = page.locator(`#rad-d${p.ab3.id}`);
  expect((await first.boundingBox())!.height).toBeLessThanOrEqual(200);
  const bundleBox = (await page.getByLabel(`Bunt för Aftonbladet ${day(-3)}`).boundingBox())!;
  const amountBox = (await page.getByLabel(`Retur för Aftonbladet ${day(-3)}`).boundingBox())!;
  expect(Math.abs(bundleBox.y - amountBox.y)).toBeLessThanOrEqual(12);
  await expect(amountFields(page).first()).toHaveAccessibleName(`Retur för Aftonbladet ${day(-3)}`);
  await expect(amountFields(page).first()).toBeInViewport();
});

test.describe("Enter and the phone's Nästa", () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test("with JavaScript Enter goes from Retur to Retur and the last one saves, asking once about the papers left blank", async ({ page }, info) => {
    test.skip(info.project.name !== "js-on", "with JavaScript only; the plain form is below");
    const shop = await makeRetailer(info.workerIndex, { name: "Şahin Livs" });
    const p = await morning(shop.id);
    await loginAs(page, shop.id, shop.pin);
    await page.goto("/rapportering/1");
    await page.waitForFunction(() => document.documentElement.dataset.hydrated);
    const amounts = amountFields(page);
    await expect(amounts).toHaveCount(8);
    // The phone's key says "Nästa" on every field but the last, which says "Klar".
    for (let i = 0; i < 7; i++) await expect(amounts.nth(i)).toHaveAttribute("enterkeyhint", "next");
    await expect(amounts.nth(7)).toHaveAttribute("enterkeyhint", "done");
    await expect(page.getByRole("textbox", { name: /^Bunt för .* \d{4}-\d{2}-\d{2}$/ }).first()).toHaveAttribute("enterkeyhint", "next");

    await amounts.nth(0).fill("4");
    await amounts.nth(0).press("Enter");
    await expect(amounts.nth(1)).toBeFocused();
    await page.keyboard.type("2");
    await page.keyboard.press("Enter");
    await expect(amounts.nth(2)).toBeFocused();
    await expect(page).toHaveURL(/\/rapportering\/1$/);
    // Enter in the last field saves: two of eight filled, so the page asks first.
    await amounts.nth(7).press("Enter");
    const ask = page.getByRole("dialog", { name: "Du har fyllt i 2 av 8 tidningar – spara ändå?" });
    await expect(ask).toBeVisible();
    await ask.getByRole("button", { name: "Fyll i fler" }).click();
    await expect(ask).toBeHidden();
    for (const paper of Object.values(p)) expect(await returnsOf(paper.id)).toHaveLength(0);
    // Asked once: the next Spara saves.
    await page.getByRole("button", { name: "Spara och fortsätt" }).click();
    await expect(page).toHaveURL(/\/rapportering\/1\/bekrafta$/);
    const saved = (await Promise.all(Object.values(p).map((paper) => returnsOf(paper.id)))).filter((r) => r.length > 0);
    expect(saved.map((r) => r.map((x) => x.amount)).sort()).toEqual([[2], [4]]);
  });

  test("every paper filled: no question, the save goes straight to the confirm step", async ({ page }, info) => {
    const { p, amounts } = await openMorning(page, info.workerIndex);
    // The two inserts have no open bundle: a bundle of their own.
    await page.getByLabel(`Bunt för Aftonbladet – Sportbladet ${day(-1)}`).fill("120");
    await page.getByLabel(`Bunt för Expressen – Leva & Bo ${day(-1)}`).fill("120");
    for (let i = 0; i < 8; i++) await amounts.nth(i).fill(String((i % 5) + 1));
    await page.getByRole("button", { name: "Spara och fortsätt" }).click();
    await expect(page).toHaveURL(/\/rapportering\/1\/bekrafta$/);
    for (const paper of Object.values(p)) expect(await returnsOf(paper.id)).toHaveLength(1);
  });

  test("without JavaScript Enter sends the plain form at once, with no question", async ({ page }, info) => {
    test.skip(info.project.name !== "js-off", "the plain form");
    const shop = await makeRetailer(info.workerIndex, { name: "Şahin Livs" });
    const p = await morning(shop.id);
    await loginAs(page, shop.id, shop.pin);
    await page.goto("/rapportering/1");
    await page.getByLabel(`Retur för Aftonbladet ${day(-2)}`).fill("3");
    await page.getByLabel(`Retur för Aftonbladet ${day(-2)}`).press("Enter");
    await expect(page).toHaveURL(/\/rapportering\/1\/bekrafta$/);
    expect((await returnsOf(p.ab2.id)).map((r) => r.amount)).toEqual([3]);
  });
});

test("Ändra/tillägg: the newest day first, a day per group, older days folded and opened by a press; a refused row opens its day", async ({ page }, info) => {
  const shop = await makeRetailer(info.workerIndex, { name: "Şahin Livs" });
  await labelBlock(shop.id, 101, 150);
  const open = await bundle(shop.id, 101);
  const days = [day(-1), day(-2), day(-3)];
  for (const [i, d] of days.entries()) {
    const paper = await delivery(shop.id, { date: d, delivered: 20, reported: true });
    await returnRow(shop.id, open.id, paper.id, i + 2);
  }
  await loginAs(page, shop.id, shop.pin);
  await page.goto("/rapportering/2");
  const groups = page.locator("details.day-group");
  await expect(groups).toHaveCount(3);
  // Newest first, each named by its day.
  await expect(groups.locator("summary")).toHaveText([new RegExp(`\\(${days[0]}\\) – 1 tidning$`), new RegExp(`\\(${days[1]}\\)`), new RegExp(`\\(${days[2]}\\)`)]);
  await expect(groups.nth(0)).toHaveAttribute("open", "");
  await expect(groups.nth(1)).not.toHaveAttribute("open", "");
  await expect(page.getByLabel(`Retur för Aftonbladet ${days[0]}`)).toBeVisible();
  await expect(page.getByLabel(`Retur för Aftonbladet ${days[2]}`)).toBeHidden();
  // Opened by a press (no script needed: <details>).
  await groups.nth(2).locator("summary").click();
  await expect(page.getByLabel(`Retur för Aftonbladet ${days[2]}`)).toHaveValue("4");
  // A change in a folded day is refused: that day comes back open, with the message.
  await page.getByLabel(`Retur för Aftonbladet ${days[2]}`).fill("99");
  await page.getByRole("button", { name: "Spara och fortsätt" }).click();
  await expect(page.getByText("Kan inte vara större än antal levererat. Högst 20 – så många levererades.", { exact: true })).toBeVisible();
  await expect(page.locator("details.day-group").nth(2)).toHaveAttribute("open", "");
  await expect(page.locator("details.day-group").nth(1)).not.toHaveAttribute("open", "");
});
