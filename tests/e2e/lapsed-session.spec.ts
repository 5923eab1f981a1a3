// A lapsed session keeps what was typed. The retailer fills in the returns
// form, the session runs out (its row's last use is moved back past the idle limit),
// Spara meets the login page, which says why; after logging in the form is back filled
// in (nothing saved) and one press saves it. Another customer logging in on the same
// browser gets nothing, and the values are gone.
import { eq } from "drizzle-orm";
import { schema } from "../../db/client";
import { SESSION_LIMITS } from "../../app/features/auth/sessions.server";
import { e2eDb, expect, forgetUser, formToken, loginAs, makeRetailer, type Retailer, test } from "./fixtures";
import { bundle, day, delivery, labelBlock, returnRow, returnsOf } from "./returns-data";
import { portalNow } from "../../db/clock";

const ab = (date: string) => `Aftonbladet ${date}`;
const NOTICE = "Du har loggats ut eftersom du varit inaktiv. Logga in igen så sparas dina returer.";

async function lapse(customerId: number) {
  await e2eDb()
    .update(schema.sessions)
    .set({ lastSeenAt: portalNow() - SESSION_LIMITS.idleMs - 60_000 })
    .where(eq(schema.sessions.customerId, customerId));
}

async function logIn(page: import("@playwright/test").Page, who: Retailer) {
  await page.getByLabel("Kundnummer").fill(String(who.id));
  await page.getByLabel("Pinkod").fill(who.pin);
  await page.getByRole("button", { name: "Logga in" }).click();
  await expect(page).not.toHaveURL(/\/login/);
}

async function fillAndLapse(page: import("@playwright/test").Page, retailer: Retailer, d: string) {
  await labelBlock(retailer.id);
  const paper = await delivery(retailer.id, { date: d, delivered: 20 });
  await loginAs(page, retailer.id, retailer.pin);
  await page.goto("/rapportering/1");
  await page.getByLabel(`Bunt för ${ab(d)}`).fill("101");
  await page.getByLabel(`Retur för ${ab(d)}`).fill("7");
  await lapse(retailer.id);
  await page.getByRole("button", { name: "Spara och fortsätt" }).click();
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByRole("status").filter({ hasText: NOTICE })).toBeVisible();
  return paper;
}

test("a returns form saved after the session lapsed comes back filled in after the login, saved with one press", async ({ page, retailer }) => {
  const d = day(-1);
  const paper = await fillAndLapse(page, retailer, d);
  expect(await returnsOf(paper.id)).toHaveLength(0);

  await logIn(page, retailer);
  await expect(page).toHaveURL(/\/rapportering\/1$/);
  await expect(page.getByLabel(`Bunt för ${ab(d)}`)).toHaveValue("101");
  await expect(page.getByLabel(`Retur för ${ab(d)}`)).toHaveValue("7");
  await expect(page.getByRole("status").filter({ hasText: "står kvar men är inte sparat" })).toBeVisible();
  // Shown, not saved.
  expect(await returnsOf(paper.id)).toHaveLength(0);

  await page.getByRole("button", { name: "Spara och fortsätt" }).click();
  await expect(page).toHaveURL(/\/rapportering\/1\/bekrafta$/);
  const saved = await returnsOf(paper.id);
  expect(saved.map((r) => r.amount)).toEqual([7]);

  // Read once: the form is not filled in again, and the login page no longer says it.
  await page.goto("/rapportering/1");
  await forgetUser(page);
  await page.goto("/login");
  await expect(page.getByText(NOTICE)).toHaveCount(0);
});

test("another customer logging in on the same browser gets nothing carried, and the values are discarded", async ({ page, retailer }, info) => {
  const d = day(-1);
  const paper = await fillAndLapse(page, retailer, d);
  const other = await makeRetailer(info.workerIndex);
  await delivery(other.id, { date: d, delivered: 20 });
  await logIn(page, other);
  await expect(page).not.toHaveURL(/\/login/);
  await page.goto("/rapportering/1");
  await expect(page.getByLabel(`Bunt för ${ab(d)}`)).not.toHaveValue("101");
  await expect(page.getByLabel(`Retur för ${ab(d)}`)).toHaveValue("");
  expect(await e2eDb().select().from(schema.carriedForms).where(eq(schema.carriedForms.customerId, retailer.id))).toHaveLength(0);

  // The first customer logging in afterwards finds nothing either.
  await forgetUser(page);
  await page.goto("/login");
  await expect(page.getByText(NOTICE)).toHaveCount(0);
  await logIn(page, retailer);
  await page.goto("/rapportering/1");
  await expect(page.getByLabel(`Retur för ${ab(d)}`)).toHaveValue("");
  expect(await returnsOf(paper.id)).toHaveLength(0);
});

test("a fresh visitor and a plain logged-out visit get no notice; a lapsed GET carries nothing", async ({ page, retailer }) => {
  await page.goto("/login");
  await expect(page.getByRole("heading", { name: "Logga in" })).toBeVisible();
  await expect(page.getByText(NOTICE)).toHaveCount(0);
  await loginAs(page, retailer.id, retailer.pin);
  await lapse(retailer.id);
  await page.goto("/rapportering/1");
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByText(NOTICE)).toHaveCount(0);
});

test("a post without any session (no cookie) is only sent to the login: nothing kept, no notice", async ({ page, retailer }) => {
  await labelBlock(retailer.id);
  const paper = await delivery(retailer.id, { date: day(-1), delivered: 20 });
  const res = await page.request.post("/rapportering/1", {
    form: { csrf: await formToken(page.request), intent: "save", token: "t", [`n-${paper.id}.bundle`]: "101" },
    maxRedirects: 0,
  });
  expect(res.status()).toBe(302);
  expect(res.headers()["set-cookie"] ?? "").not.toContain("rp_carried");
  await page.goto("/login");
  await expect(page.getByText(NOTICE)).toHaveCount(0);
});

test("state 2: an addition typed before the session lapsed comes back after the login, saved with one press", async ({ page, retailer }) => {
  await labelBlock(retailer.id);
  const d = day(-2);
  const paper = await delivery(retailer.id, { date: d, delivered: 10, reported: true });
  const closed = await bundle(retailer.id, 101, { open: false });
  await bundle(retailer.id, 102);
  await returnRow(retailer.id, closed.id, paper.id, 6);
  await loginAs(page, retailer.id, retailer.pin);
  await page.goto("/rapportering/2");
  await page.getByRole("button", { name: `Tilläggsrapportera för ${ab(d)}` }).click();
  await page.getByLabel(`Bunt för ${ab(d)}`).fill("102");
  await page.getByLabel(`Retur för ${ab(d)}`).fill("3");
  await lapse(retailer.id);
  await page.getByRole("button", { name: "Spara och fortsätt" }).click();
  await expect(page.getByRole("status").filter({ hasText: NOTICE })).toBeVisible();

  await logIn(page, retailer);
  await expect(page).toHaveURL(/\/rapportering\/2$/);
  await expect(page.getByLabel(`Bunt för ${ab(d)}`)).toHaveValue("102");
  await expect(page.getByLabel(`Retur för ${ab(d)}`)).toHaveValue("3");
  expect((await returnsOf(paper.id)).map((r) => r.amount)).toEqual([6]);
  await page.getByRole("button", { name: "Spara och fortsätt" }).click();
  await expect(page).toHaveURL(/\/rapportering\/2\/bekrafta$/);
  expect((await returnsOf(paper.id)).map((r) => r.amount).sort()).toEqual([3, 6]);
});
