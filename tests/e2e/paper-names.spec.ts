// Every row names the paper as printed: a shop that sells Expressen and Kvällsposten (the
// Malmö edition of Expressen) sees two different main-paper rows, in Returrapportera,
// Ändra/tillägg and the Returer PDF, as Följesedel and Historik name them.
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, loginAs, test } from "./fixtures";
import { bundle, day, delivery, labelBlock, returnsOf, saveLeavingBlanks } from "./returns-data";

function pdfText(body: Buffer): string {
  const file = join(mkdtempSync(join(tmpdir(), "paper-names-")), "Returer.pdf");
  writeFileSync(file, body);
  return execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
}

test("Expressen and Kvällsposten of the same day are two rows with two names, reported and changed apart", async ({ page, retailer }) => {
  await labelBlock(retailer.id);
  await bundle(retailer.id, 101);
  const d = day(-1);
  const expressen = await delivery(retailer.id, { date: d, titleId: 2, editionId: 1, delivered: 12 });
  const kvp = await delivery(retailer.id, { date: d, titleId: 2, editionId: 2, delivered: 9 });
  await delivery(retailer.id, { date: d, titleId: 1, editionId: 21, delivered: 5 });
  await loginAs(page, retailer.id, retailer.pin);
  await page.goto("/rapportering/1");

  const main = page.getByRole("table").first();
  await expect(main.getByRole("cell", { name: "Expressen", exact: true })).toHaveCount(1);
  await expect(main.getByRole("cell", { name: "Expressen – Kvällsposten", exact: true })).toHaveCount(1);
  // An insert keeps its title and its Utgåva column.
  await expect(page.getByRole("cell", { name: "Sportbladet", exact: true })).toHaveCount(1);
  await expect(page.getByLabel(`Retur för Aftonbladet – Sportbladet ${d}`)).toBeVisible();

  // The Returer PDF names them the same way.
  const pdf = pdfText(await (await page.request.get("/rapportering/1/returer.pdf")).body());
  // (Title and edition in their two columns.)
  expect(pdf).toMatch(/Expressen\s+Kvällsposten\s+\S+\s+9/);
  expect(pdf).toMatch(/Expressen\s+\S+\s+12/);

  await page.getByLabel(`Bunt för Expressen – Kvällsposten ${d}`).fill("101");
  await page.getByLabel(`Retur för Expressen – Kvällsposten ${d}`).fill("4");
  await page.getByLabel(`Bunt för Expressen ${d}`).fill("101");
  await page.getByLabel(`Retur för Expressen ${d}`).fill("2");
  await saveLeavingBlanks(page);
  await expect(page.getByRole("heading", { name: "Returerna är sparade" })).toBeVisible();
  expect((await returnsOf(kvp.id)).map((r) => r.amount)).toEqual([4]);
  expect((await returnsOf(expressen.id)).map((r) => r.amount)).toEqual([2]);

  // Ändra/tillägg: the same two names, each with its own return.
  await page.goto("/rapportering/2");
  await expect(page.getByLabel(`Retur för Expressen – Kvällsposten ${d}`)).toHaveValue("4");
  await expect(page.getByLabel(`Retur för Expressen ${d}`)).toHaveValue("2");
  const changed = pdfText(await (await page.request.get("/rapportering/2/returer.pdf")).body());
  expect(changed).toMatch(/Expressen\s+Kvällsposten\s+\S+\s+9\s+101\s+4/);
});
