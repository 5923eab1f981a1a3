// "Sista returdag" (decision 018). The returns form and the history show each paper's last
// return day; after it the distributor's rule locks the row or stores the return marked
// late; the start page reminds; staff set the windows and the rule; the RETURDAG alert
// locks where the distributor wants it; the distribution monitor counts what is missing
// and late. Runs with JavaScript on and off. Each project has distributors of its own,
// so no other test's retailers are touched by a rule changed here.
import { and, eq } from "drizzle-orm";
import { schema } from "../../db/client";
import { createDistributor } from "../../cli/seed/factories";
import { e2eDb, expect, forgetUser, loginAs, makeRetailer, makeStaff, test } from "./fixtures";
import { day, delivery, labelBlock, returnsOf, saveLeavingBlanks } from "./returns-data";

const ab = (date: string) => `Aftonbladet ${date}`;

async function distributors(project: string) {
  const off = project === "js-off";
  const strict = await createDistributor(e2eDb(), off ? 71 : 72, `Returdag Şahin ${project}`);
  const lenient = await createDistributor(e2eDb(), off ? 73 : 74, `Returdag Łódź ${project}`);
  return { strict, lenient };
}

test("the returns form shows Sista returdag, locks a paper past it, and the start page reminds of today's and tomorrow's", async ({ page }, info) => {
  const { strict } = await distributors(info.project.name);
  const retailer = await makeRetailer(info.workerIndex, { distributorId: strict.id, name: "Şahin Livs" });
  await labelBlock(retailer.id);
  // Main newspapers: 7 days. Delivered 8 days ago: passed yesterday; 7 days ago: today; 6: tomorrow.
  const passed = await delivery(retailer.id, { date: day(-8) });
  const dueToday = await delivery(retailer.id, { date: day(-7) });
  await delivery(retailer.id, { date: day(-6) });
  await loginAs(page, retailer.id, retailer.pin);

  await page.goto("/");
  // The day's work first: the form's papers (the passed one too, which it lists locked), and the nearest day ahead.
  await expect(page.getByRole("link", { name: "Rapportera returer – 3 tidningar" })).toBeVisible();
  await expect(page.getByText("Närmaste sista returdag: i dag.")).toBeVisible();
  const reminder = page.getByRole("region", { name: "Sista returdag" });
  await expect(reminder.getByRole("link", { name: "1 tidning har sista returdag i dag" })).toBeVisible();
  await expect(reminder.getByRole("link", { name: "1 tidning har sista returdag i morgon" })).toBeVisible();
  await reminder.getByRole("link", { name: "1 tidning har sista returdag i dag" }).click();
  await expect(page).toHaveURL(/\/rapportering\/1$/);

  await expect(page.getByRole("columnheader", { name: "Sista returdag" }).first()).toBeVisible();
  const passedRow = page.getByRole("row").filter({ hasText: day(-8) });
  await expect(passedRow).toContainText(day(-1));
  await expect(passedRow).toContainText(`Sista returdag var ${day(-1)}. Returen kan inte längre rapporteras.`);
  await expect(page.getByLabel(`Retur för ${ab(day(-8))}`)).toHaveCount(0);
  await expect(page.getByRole("button", { name: `Slutsåld för ${ab(day(-8))}` })).toHaveCount(0);
  await expect(page.getByRole("row").filter({ hasText: day(-7) })).toContainText(day(0));

  // The paper due today is reported; the one past its day is left as it was.
  await page.getByLabel(`Bunt för ${ab(day(-7))}`, { exact: true }).fill("101");
  await page.getByLabel(`Retur för ${ab(day(-7))}`).fill("4");
  await saveLeavingBlanks(page);
  await expect(page.getByRole("heading", { name: "Returerna är sparade" })).toBeVisible();
  expect((await returnsOf(dueToday.id)).map((r) => [r.amount, r.late])).toEqual([[4, false]]);
  expect(await returnsOf(passed.id)).toEqual([]);

  await page.goto("/");
  await expect(page.getByRole("link", { name: /sista returdag i dag/ })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "1 tidning har sista returdag i morgon" })).toBeVisible();

  // The history shows the last return day beside the delivery date.
  await page.goto(`/historik?fran=${day(-20)}&till=${day(0)}`);
  await expect(page.getByRole("row").filter({ hasText: day(-7) })).toContainText(day(0));
});

test("staff set an edition's window and a distributor's rule; a late return is then stored marked late, and the lock the day before sends the retailer to the form", async ({ page }, info) => {
  const { lenient } = await distributors(info.project.name);
  const run = `${Date.now().toString(36)}${info.retry}`;
  // An edition of this test's own, so the window changed here moves no other test's papers.
  const editionId = 500 + (info.project.name === "js-off" ? 0 : 1) * 100 + (Date.now() % 100);
  const description = `Expressen Test ${run}`;
  await e2eDb().insert(schema.editions).values({ titleId: 2, editionId, type: 0, description, code: `T${run}` }).onConflictDoNothing();
  const retailer = await makeRetailer(info.workerIndex, { distributorId: lenient.id, name: "Kiosk Łódź" });
  await labelBlock(retailer.id);
  const late = await delivery(retailer.id, { date: day(-4), titleId: 2, editionId });
  await delivery(retailer.id, { date: day(-6) }); // Aftonbladet, due tomorrow

  const admin = await makeStaff("admin");
  await loginAs(page, admin.email, admin.password);
  await page.goto("/admin");
  await page.getByRole("navigation", { name: "Huvudmeny" }).getByRole("link", { name: "Sista returdag" }).click();
  await expect(page.getByRole("heading", { name: "Sista returdag", level: 1 })).toBeVisible();

  // The window per paper type as stored; a wrong value for the edition is refused with what was typed.
  const windows = page.getByRole("region", { name: "Returfönster per papperstyp" });
  await expect(windows.getByLabel("Huvudtidningar, dagar")).toHaveValue("7");
  await expect(windows.getByLabel("Bilagor, dagar")).toHaveValue("14");
  const days = page.getByLabel(`Dagar för ${description}`);
  await days.fill("15");
  await page.getByRole("button", { name: `Spara returfönster för ${description}` }).click();
  await expect(page.getByRole("row").filter({ hasText: description })).toContainText("Ange 1–14 dagar.");
  await expect(page.getByLabel(`Dagar för ${description}`)).toHaveValue("15");
  await page.getByLabel(`Dagar för ${description}`).fill("2");
  await page.getByRole("button", { name: `Spara returfönster för ${description}` }).click();
  // The retailer's paper of this edition (last return day in 3 days) passes: the page asks first.
  const askEdition = page.getByRole("alert").filter({ hasText: "Spara utgåvans returfönster?" });
  await expect(askEdition).toContainText(`${description}, 2 dagar: 1 tidning får en ny sista returdag; 1 blir passerade i dag.`);
  await expect(page.getByLabel(`Dagar för ${description}`)).toHaveValue("2");
  expect((await e2eDb().select().from(schema.editions).where(and(eq(schema.editions.titleId, 2), eq(schema.editions.editionId, editionId))))[0].returnDays).toBeNull();
  await askEdition.getByRole("button", { name: "Spara ändå" }).click();
  await expect(page.getByRole("status")).toHaveText("Utgåvans returfönster sparat: 2 dagar.");
  await expect(page.getByLabel(`Dagar för ${description}`)).toHaveValue("2");

  // The distributor accepts late returns and locks the day before.
  const policy = page.getByRole("row").filter({ hasText: lenient.name });
  await policy.getByLabel("Ta emot och märk som sena").check();
  await policy.getByLabel(`Lås portalen dagen före sista returdag för ${lenient.name}`).check();
  await policy.getByRole("button", { name: `Spara regler för ${lenient.name}` }).click();
  // What the rule does to the distributor's retailers now, asked before it is saved.
  const askPolicy = page.getByRole("alert").filter({ hasText: "Spara distributörens regler?" });
  await expect(askPolicy).toContainText(
    new RegExp(
      `${lenient.name}, \\d+ kunde?r?\\. Sena returer tas emot och märks som sena: [1-9]\\d* tidninga?r? som passerat sista returdag utan retur kan returneras igen\\. ` +
        `Portalen låses dagen före sista returdag: [1-9]\\d* kunde?r? har tidningar med sista returdag i dag eller i morgon och låses nu tills de har rapporterat\\.`,
    ),
  );
  expect((await e2eDb().select().from(schema.distributors).where(eq(schema.distributors.id, lenient.id)))[0].deadlineLock).toBe(false);
  await askPolicy.getByRole("button", { name: "Spara ändå" }).click();
  await expect(page.getByRole("status")).toHaveText("Distributörens regler för sena returer sparade.");
  // Saved again as it is now: nothing changes, nothing is asked.
  await page.getByRole("row").filter({ hasText: lenient.name }).getByRole("button", { name: `Spara regler för ${lenient.name}` }).click();
  await expect(page.getByRole("status")).toHaveText("Distributörens regler för sena returer sparade.");
  await expect(page.getByRole("alert").filter({ hasText: "Spara distributörens regler?" })).toHaveCount(0);
  const [stored] = await e2eDb().select().from(schema.distributors).where(eq(schema.distributors.id, lenient.id));
  expect([stored.lateReturns, stored.deadlineLock]).toEqual(["accept", true]);
  const audit = await e2eDb()
    .select()
    .from(schema.auditLog)
    .where(and(eq(schema.auditLog.action, "edition.return-days"), eq(schema.auditLog.target, `edition:2/${editionId}`)));
  expect(audit).toHaveLength(1);

  // The retailer: Aftonbladet is due tomorrow, so every page leads to the returns form.
  await forgetUser(page);
  await loginAs(page, retailer.id, retailer.pin);
  await page.goto("/historik");
  await expect(page).toHaveURL(/\/rapportering\/1$/);
  await expect(page.getByRole("region", { name: "Att göra" })).toContainText("Rapportera returer före sista returdag");
  // The test edition's day (delivered 4 days ago + 2) has passed: editable, marked late.
  const lateRow = page.getByRole("row").filter({ hasText: day(-4) });
  await expect(lateRow).toContainText(`${day(-2)} Passerad, returen märks sen`);
  // The test edition has a name of its own: the paper as printed (catalog paperName).
  const name = `Expressen – ${description} ${day(-4)}`;
  await page.getByLabel(`Bunt för ${name}`, { exact: true }).fill("101");
  await page.getByLabel(`Retur för ${name}`).fill("3");
  await page.getByLabel(`Retur för ${ab(day(-6))}`).fill("0");
  await page.getByRole("button", { name: "Spara och fortsätt" }).click();
  await expect(page.getByRole("heading", { name: "Returerna är sparade" })).toBeVisible();
  expect((await returnsOf(late.id)).map((r) => [r.amount, r.late])).toEqual([[3, true]]);

  // Reported: the lock is gone, and the history marks the late return.
  await page.goto(`/historik?fran=${day(-20)}&till=${day(0)}`);
  await expect(page).toHaveURL(/\/historik/);
  await expect(page.getByRole("row").filter({ hasText: description })).toContainText("Sen retur");
});

test("the distribution monitor counts per distributor the papers unreported after their last return day and the late returns", async ({ page }, info) => {
  const { strict } = await distributors(info.project.name);
  const retailer = await makeRetailer(info.workerIndex, { distributorId: strict.id, name: "Nguyễn Tobak" });
  await delivery(retailer.id, { date: day(-10) });
  await delivery(retailer.id, { date: day(-9), reported: true });
  const admin = await makeStaff("admin");
  await loginAs(page, admin.email, admin.password);
  await page.goto(`/admin/distribution?fran=${day(-12)}&till=${day(0)}&utb=${strict.id}`);
  const section = page.getByRole("region", { name: strict.name });
  await expect(section.getByRole("term").filter({ hasText: "Ej rapporterade efter sista returdag" })).toBeVisible();
  // At least this retailer's paper (the other test of this project may add its own).
  const missing = Number(await section.locator("dt:has-text('Ej rapporterade efter sista returdag') + dd").textContent());
  expect(missing).toBeGreaterThanOrEqual(1);
});

test("new windows per paper type say how many papers get a new last return day and ask first; Avbryt saves nothing", async ({ page }, info) => {
  const retailer = await makeRetailer(info.workerIndex, { name: "Kiosk Łódź" });
  // Today's paper, and one whose last return day (7 days) is tomorrow.
  await delivery(retailer.id, { date: day(0) });
  await delivery(retailer.id, { date: day(-6) });
  const stored = async () => (await e2eDb().select().from(schema.returnWindows)).map((w) => [w.paperType, w.days]).sort();
  const before = await stored();
  const admin = await makeStaff("admin");
  await loginAs(page, admin.email, admin.password);
  await page.goto("/admin/returdagar");
  const windows = page.getByRole("region", { name: "Returfönster per papperstyp" });
  await windows.getByLabel("Huvudtidningar, dagar").fill("3");
  await windows.getByRole("button", { name: "Spara returfönster" }).click();
  const ask = page.getByRole("alert").filter({ hasText: "Spara returfönstret?" });
  await expect(ask).toBeVisible();
  // Counted on the whole network's papers: at least the two above move, the one due tomorrow passes.
  const text = (await ask.textContent()) ?? "";
  const [, changed, passed] = /Huvudtidningar 3 dagar, bilagor 14 dagar: ([\d\s]+) tidningar? får en ny sista returdag; ([\d\s]+) blir passerade i dag/.exec(text) ?? [];
  expect(Number(changed?.replace(/\s/g, ""))).toBeGreaterThanOrEqual(2);
  expect(Number(passed?.replace(/\s/g, ""))).toBeGreaterThanOrEqual(1);
  await expect(windows.getByLabel("Huvudtidningar, dagar")).toHaveValue("3");
  expect(await stored()).toEqual(before);

  await ask.getByRole("link", { name: "Avbryt" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Spara returfönstret?" })).toHaveCount(0);
  await expect(windows.getByLabel("Huvudtidningar, dagar")).toHaveValue("7");
  expect(await stored()).toEqual(before);
});
