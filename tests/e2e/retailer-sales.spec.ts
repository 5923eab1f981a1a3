// Försäljning — the retailer's own 13 weeks per title as a server-drawn chart
// and a table, with a hint when the return rate stays high. JavaScript off and on.
import { createBundle, createDelivery, createReturn } from "../../cli/seed/factories";
import { addDays, isoWeek, isoWeekday, today } from "../../app/lib/dates";
import { e2eDb, expect, forgetUser, loginAs, makeRetailer, makeStaff, test } from "./fixtures";

test("Försäljning shows the last 13 weeks per title as a chart and a table, and suggests fewer copies when half keeps coming back", async ({ page, retailer }, info) => {
  const day = today();
  const thisMonday = addDays(day, 1 - isoWeekday(day));
  const bundle = await createBundle(e2eDb(), { customerId: retailer.id, number: 1, type: 0 });
  // Four finished weeks of Aftonbladet: 20 delivered on the week's Tuesday, 12 back.
  for (let i = 1; i <= 4; i++) {
    const d = await createDelivery(e2eDb(), { customerId: retailer.id, titleId: 1, editionId: 1, deliveryDate: addDays(thisMonday, -7 * i + 1), delivered: 20, priceOre: 1500 });
    await createReturn(e2eDb(), { customerId: retailer.id, bundleId: bundle.id, deliveryId: d.id, amount: 12 });
  }
  // Someone else's week must not show.
  const other = await makeRetailer(info.workerIndex);
  await createDelivery(e2eDb(), { customerId: other.id, titleId: 2, editionId: 1, deliveryDate: addDays(thisMonday, -6), delivered: 77, priceOre: 1500 });

  await loginAs(page, retailer.id, retailer.pin);
  await page.goto("/");
  await page.getByRole("link", { name: "Försäljning" }).first().click();
  await expect(page).toHaveURL("/forsaljning");
  await expect(page.getByRole("heading", { name: "Försäljning", level: 1 })).toBeVisible();
  const ab = page.getByRole("region", { name: "Aftonbladet" });
  await expect(ab.getByText("Returandel 13 veckor: 60 % (48 av 80)")).toBeVisible();
  await expect(ab.getByText("Överväg att minska leveransen av Aftonbladet")).toBeVisible();
  await expect(ab.getByRole("img", { name: /^Aftonbladet, vecka \d+–\d+: 80 levererade, 48 returnerade, 32 sålda\.$/ })).toBeVisible();
  const lastWeek = isoWeek(addDays(thisMonday, -7)).week;
  const row = ab.getByRole("row", { name: new RegExp(`^v\\. ${lastWeek} `) });
  await expect(row.getByRole("cell")).toHaveText(["20", "12", "8", "60 %"]);
  await expect(ab.getByRole("row")).toHaveCount(14);
  await expect(page.getByRole("region", { name: "Expressen" })).toHaveCount(0);
  // Exactly "77" (a random customer number in the header may contain the digits).
  await expect(page.getByText("77", { exact: true })).toHaveCount(0);

  // Customer service sees the same on the customer's page.
  await forgetUser(page);
  const admin = await makeStaff("admin");
  await loginAs(page, admin.email, admin.password);
  await page.goto(`/admin/kunder/${retailer.id}`);
  await expect(page.getByRole("heading", { name: "Försäljning", level: 2 })).toBeVisible();
  await expect(page.getByRole("img", { name: /^Aftonbladet, vecka \d+–\d+: 80 levererade, 48 returnerade, 32 sålda\.$/ })).toBeVisible();
  await expect(page.getByText("Överväg att minska leveransen av Aftonbladet")).toBeVisible();
});

test("Försäljning without deliveries says so", async ({ page, retailer }) => {
  await loginAs(page, retailer.id, retailer.pin);
  await page.goto("/forsaljning");
  await expect(page.getByText("Inga leveranser de senaste 13 veckorna.")).toBeVisible();
});

test("staff see the same chart summed over a distributor's customers; a utb user only for their own distributor", async ({ page }, info) => {
  const { createDistributor } = await import("../../cli/seed/factories");
  const day = today();
  const thisMonday = addDays(day, 1 - isoWeekday(day));
  const off = info.project.name === "js-off";
  const mine = await createDistributor(e2eDb(), off ? 75 : 76, `Försäljning Şahin ${info.project.name}`);
  const a = await makeRetailer(info.workerIndex, { distributorId: mine.id, name: "Kiosk Łódź" });
  const b = await makeRetailer(info.workerIndex, { distributorId: mine.id, name: "Nguyễn Tobak" });
  for (const [customerId, delivered, returned] of [
    [a.id, 30, 3],
    [b.id, 10, 7],
  ] as const) {
    const bundle = await createBundle(e2eDb(), { customerId, number: 1, type: 0 });
    const d = await createDelivery(e2eDb(), { customerId, titleId: 2, editionId: 1, deliveryDate: addDays(thisMonday, -6), delivered, priceOre: 1500 });
    await createReturn(e2eDb(), { customerId, bundleId: bundle.id, deliveryId: d.id, amount: returned });
  }

  const admin = await makeStaff("admin");
  await loginAs(page, admin.email, admin.password);
  await page.goto(`/admin/distribution?utb=${mine.id}`);
  await page.getByRole("link", { name: `Försäljning för ${mine.name}` }).click();
  await expect(page.getByRole("heading", { name: "Försäljning per distributör", level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: mine.name, level: 2 })).toBeVisible();
  const ex = page.getByRole("region", { name: "Expressen" });
  await expect(ex.getByText("Returandel 13 veckor: 25 % (10 av 40)")).toBeVisible();
  await expect(ex.getByRole("img", { name: /40 levererade, 10 returnerade, 30 sålda\.$/ })).toBeVisible();
  // Another distributor through the form.
  await page.getByLabel("Distributör").selectOption({ label: "Tidningsbud Norr AB" });
  await page.getByRole("button", { name: "Visa" }).click();
  await expect(page).toHaveURL(/utb=1$/);
  await expect(page.getByRole("heading", { name: "Tidningsbud Norr AB", level: 2 })).toBeVisible();

  // A utb user: their own distributor at once; another distributor's figures are refused.
  await forgetUser(page);
  const utb = await makeStaff("utb", mine.id);
  await loginAs(page, utb.email, utb.password);
  await page.goto("/admin/distribution/forsaljning");
  await expect(page.getByRole("heading", { name: mine.name, level: 2 })).toBeVisible();
  await expect(page.getByText("Returandel 13 veckor: 25 % (10 av 40)")).toBeVisible();
  const other = await page.request.get("/admin/distribution/forsaljning?utb=1");
  expect(other.status()).toBe(403);
  expect(await other.text()).not.toContain("Returandel");
});
