// Staff whose role requires it (STAFF_TOTP_ROLES, default admin)
// give a TOTP code after the password; the first login enrols the app. JS off and on.
import { eq, sql } from "drizzle-orm";
import { TOTP } from "otpauth";
import { schema } from "../../db/client";
import { e2eDb, expect, loginAs, loginViaForm, makeStaff, nextTotpCode, test, totpCode } from "./fixtures";
import type { Page } from "@playwright/test";

async function passwordStep(page: Page, email: string, password: string) {
  await page.goto("/personal/logga-in");
  await page.getByLabel("E-post").fill(email);
  await page.getByLabel("Lösenord").fill(password);
  await page.getByRole("button", { name: "Logga in" }).click();
  await expect(page).toHaveURL("/login/kod");
  await expect(page.getByRole("heading", { name: "Tvåstegsverifiering" })).toBeVisible();
}

async function staffRow(id: number) {
  const [row] = await e2eDb().select().from(schema.staffUsers).where(eq(schema.staffUsers.id, id));
  return row;
}

/** Enrols through the page, as a person with an authenticator app does; returns what it showed. */
async function enrol(page: Page, staff: { email: string; password: string }) {
  await passwordStep(page, staff.email, staff.password);
  const secret = (await page.getByTestId("totp-secret").innerText()).replace(/\s/g, "");
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await page.getByLabel("Kod från appen").fill(totpCode(secret));
  await page.getByRole("button", { name: "Bekräfta" }).click();
  await expect(page.getByRole("heading", { name: "Dina återställningskoder" })).toBeVisible();
  const codes = await page.getByRole("list", { name: "Återställningskoder" }).getByRole("listitem").allInnerTexts();
  return { secret, codes: codes.map((c) => c.trim()) };
}

async function logOut(page: Page) {
  await page.getByRole("button", { name: "Logga ut", exact: true }).click();
  await expect(page).toHaveURL("/personal/logga-in");
}

test("first login: an admin enrols with the QR code or the key, gets ten recovery codes once, and is logged in", async ({ page }) => {
  const admin = await makeStaff("admin", null, { totpSecret: null });
  await passwordStep(page, admin.email, admin.password);
  // The QR code is server-rendered SVG: there without JavaScript.
  await expect(page.locator("figure.totp-qr svg")).toBeVisible();
  const field = page.getByLabel("Kod från appen");
  await expect(field).toHaveAttribute("inputmode", "numeric");
  await expect(field).toHaveAttribute("autocomplete", "one-time-code");
  const secret = (await page.getByTestId("totp-secret").innerText()).replace(/\s/g, "");
  expect((await staffRow(admin.id)).totpSecret, "not stored before it is confirmed").toBeNull();

  await field.fill("123456" === totpCode(secret) ? "654321" : "123456");
  await page.getByRole("button", { name: "Bekräfta" }).click();
  await expect(page.getByText("Fel kod. Försök igen.")).toBeVisible();
  await expect(page.getByLabel("Kod från appen")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Kod från appen")).toHaveValue("");
  // The same key after a wrong try: nothing changed while unconfirmed.
  expect((await page.getByTestId("totp-secret").innerText()).replace(/\s/g, "")).toBe(secret);

  await page.getByLabel("Kod från appen").fill(totpCode(secret));
  await page.getByRole("button", { name: "Bekräfta" }).click();
  await expect(page.getByRole("heading", { name: "Dina återställningskoder" })).toBeVisible();
  const codes = await page.getByRole("list", { name: "Återställningskoder" }).getByRole("listitem").allInnerTexts();
  expect(codes).toHaveLength(10);
  const row = await staffRow(admin.id);
  expect(row.totpSecret).toBe(secret);
  for (const c of codes) {
    expect(c.trim()).toMatch(/^\d{4}-\d{4}-\d{4}-\d{4}$/);
    expect(row.totpRecovery).not.toContain(c.trim().replace(/-/g, ""));
  }
  await page.getByRole("link", { name: "Fortsätt" }).click();
  await expect(page).toHaveURL("/admin");
  await expect(page.getByRole("heading", { name: "Admin" })).toBeVisible();
  // The codes are not shown again.
  await page.goto("/login/kod");
  await expect(page.getByRole("heading", { name: "Dina återställningskoder" })).toHaveCount(0);
  const audit = await e2eDb().select().from(schema.auditLog).where(eq(schema.auditLog.actor, `staff:${admin.id}`));
  expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(["totp.failure", "totp.enrol"]));
  for (const a of audit) for (const c of codes) expect(a.detail ?? "").not.toContain(c.trim().slice(0, 9));
});

test("an enrolled admin logs in with password and a code from the app; the waiting login reaches no staff page", async ({ page, retailer }) => {
  const admin = await makeStaff("admin");
  await passwordStep(page, admin.email, admin.password);
  await expect(page.getByLabel("Engångskod")).toHaveAttribute("autocomplete", "one-time-code");
  await expect(page.locator("figure.totp-qr")).toHaveCount(0);
  // Between the password and the code the session is not logged in.
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/personal\/logga-in\?redirectTo=%2Fadmin$/);
  const post = await page.request.post("/admin/kund/logga-ut", { form: { kundnummer: String(retailer.id) }, maxRedirects: 0 });
  expect(post.status()).toBe(302);
  expect(post.headers()["location"]).toMatch(/^\/personal\/logga-in\?redirectTo=/);

  await page.goto("/login/kod");
  await page.getByLabel("Engångskod").fill(await nextTotpCode(admin.email));
  await page.getByRole("button", { name: "Logga in" }).click();
  await expect(page).toHaveURL("/admin");
  await expect(page.getByRole("heading", { name: "Admin" })).toBeVisible();
});

test("a code that logged in once is refused the second time (400, field marked), and a waiting login expires", async ({ page, browser }) => {
  const admin = await makeStaff("admin");
  const code = await nextTotpCode(admin.email);
  const first = await browser.newContext();
  const firstPage = await first.newPage();
  await passwordStep(firstPage, admin.email, admin.password);
  await firstPage.getByLabel("Engångskod").fill(code);
  await firstPage.getByRole("button", { name: "Logga in" }).click();
  await expect(firstPage).toHaveURL("/admin");
  await first.close();

  // An onlooker who saw the code and knows the password, within the same 30 s.
  await passwordStep(page, admin.email, admin.password);
  await page.getByLabel("Engångskod").fill(code);
  await page.getByRole("button", { name: "Logga in" }).click();
  await expect(page.getByText("Fel kod. Försök igen.")).toBeVisible();
  await expect(page.getByLabel("Engångskod")).toHaveAttribute("aria-invalid", "true");
  const again = await page.request.post("/login/kod", { form: { kod: code }, maxRedirects: 0 });
  expect(again.status()).toBe(400);
  expect(await again.text()).toContain("Fel kod. Försök igen.");
  expect((await page.goto("/admin"))?.url()).toMatch(/\/personal\/logga-in\?redirectTo=/);

  // Ten minutes later the waiting login is gone, whatever code comes.
  await e2eDb()
    .update(schema.sessions)
    .set({ data: sql`json_set(${schema.sessions.data}, '$.pendingUntil', 0)` })
    .where(sql`json_extract(${schema.sessions.data}, '$.pendingStaffId') = ${admin.id}`);
  const late = await page.request.post("/login/kod", { form: { kod: await nextTotpCode(admin.email) }, maxRedirects: 0 });
  expect(late.status()).toBe(302);
  expect(late.headers()["location"]).toBe("/personal/logga-in");
});

test("a recovery code logs in once in place of the app's code", async ({ page }) => {
  const admin = await makeStaff("admin", null, { totpSecret: null });
  const { codes } = await enrol(page, admin);
  await page.getByRole("link", { name: "Fortsätt" }).click();
  await logOut(page);

  await passwordStep(page, admin.email, admin.password);
  await page.getByLabel("Engångskod").fill(codes[3]);
  await page.getByRole("button", { name: "Logga in" }).click();
  await expect(page).toHaveURL("/admin");
  await expect(page.getByText("Du loggade in med en återställningskod. 9 koder kvar.")).toBeVisible();
  await logOut(page);

  await passwordStep(page, admin.email, admin.password);
  await page.getByLabel("Engångskod").fill(codes[3]);
  await page.getByRole("button", { name: "Logga in" }).click();
  await expect(page.getByText("Fel kod. Försök igen.")).toBeVisible();
  await expect(page).toHaveURL("/login/kod");
  const audit = await e2eDb().select().from(schema.auditLog).where(eq(schema.auditLog.actor, `staff:${admin.id}`));
  expect(audit.filter((a) => a.action === "totp.recovery-code").map((a) => JSON.parse(a.detail!))).toEqual([{ left: 9 }]);
});

test("a sales user, whose role is not in STAFF_TOTP_ROLES, logs in with the password alone; an admin may not", async ({ page, browser }) => {
  const sales = await makeStaff("sales", null, { totpSecret: null });
  await page.goto("/personal/logga-in");
  await page.getByLabel("E-post").fill(sales.email);
  await page.getByLabel("Lösenord").fill(sales.password);
  await page.getByRole("button", { name: "Logga in" }).click();
  await expect(page).toHaveURL("/admin/distribution");
  await expect(page.getByRole("heading", { name: "Distribution", level: 1 })).toBeVisible();
  expect((await staffRow(sales.id)).totpSecret).toBeNull();

  // The same step for an admin who has no app yet leads to enrolment, not in.
  const admin = await makeStaff("admin", null, { totpSecret: null });
  const other = await browser.newContext();
  const adminPage = await other.newPage();
  await passwordStep(adminPage, admin.email, admin.password);
  await expect(adminPage.getByLabel("Kod från appen")).toBeVisible();
  expect((await adminPage.goto("/admin"))?.url()).toMatch(/\/personal\/logga-in\?redirectTo=%2Fadmin$/);
  await other.close();
});

test("the fixtures' logins answer the code step for enrolled staff of every role, four times within 30 s too, without waiting for the clock", async ({ page }) => {
  const sales = await makeStaff("sales");
  await loginViaForm(page, sales.email, sales.password);
  await expect(page).toHaveURL("/admin/distribution");
  const admin = await makeStaff("admin");
  // The server takes now's code and the next step's: a third and a fourth login within
  // one step used to wait for the clock, one step each.
  const before = TOTP.counter({ period: 30 });
  for (let i = 0; i < 4; i++) await loginAs(page, admin.email, admin.password);
  expect(TOTP.counter({ period: 30 }) - before, "the logins waited for the clock").toBeLessThanOrEqual(1);
  expect((await page.goto("/admin"))?.status()).toBe(200);
  for (const id of [sales.id, admin.id]) {
    const audit = await e2eDb().select().from(schema.auditLog).where(eq(schema.auditLog.actor, `staff:${id}`));
    expect(audit.filter((a) => a.action === "totp.success")).toHaveLength(id === admin.id ? 4 : 1);
  }
});
