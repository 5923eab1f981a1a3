import { and, eq } from "drizzle-orm";
import { schema } from "../../db/client";
import { e2eDb, expect, formToken, loginAs, loginViaForm, makeStaff, test } from "./fixtures";
import { portalNow } from "../../db/clock";

test.describe("login", () => {
  test("a retailer logs in with customer number and PIN and reaches Sammanfattning", async ({ page, retailer }) => {
    await loginViaForm(page, String(retailer.id), retailer.pin);
    await expect(page).toHaveURL("/");
    await expect(page.getByRole("heading", { name: "Sammanfattning" })).toBeVisible();
    await expect(page.getByText(retailer.name).first()).toBeVisible();
    await expect(page.getByText(String(retailer.id), { exact: true })).toBeVisible();
    await expect(page.getByText("1.1.2")).toBeVisible();
    await expect(page.getByText("Inga öppna buntar")).toBeVisible();
    await expect(page.getByRole("button", { name: "Logga ut" })).toBeVisible();
  });

  test("the login box has the spec's texts", async ({ page }) => {
    await page.goto("/login");
    await expect(page.getByRole("heading", { name: "Återförsäljarlogin" })).toBeVisible();
    await expect(page.getByLabel("Kundnummer")).toBeVisible();
    await expect(page.getByLabel("Pinkod")).toBeVisible();
    await expect(page.getByRole("button", { name: "Logga in" })).toBeVisible();
  });

  test("empty Kundnummer gives 'Kundnummer måste anges'", async ({ page }) => {
    await page.goto("/login");
    await page.getByLabel("Pinkod").fill("1234");
    await page.getByRole("button", { name: "Logga in" }).click();
    await expect(page.getByText("Kundnummer måste anges")).toBeVisible();
    await expect(page.getByLabel("Kundnummer")).toHaveAttribute("aria-invalid", "true");
  });

  test("the server answers 400 to an empty Kundnummer", async ({ request }) => {
    const res = await request.post("/login", { form: { kundnummer: "", pinkod: "1234" } });
    expect(res.status()).toBe(400);
    expect(await res.text()).toContain("Kundnummer måste anges");
  });

  test("a wrong PIN answers 400 with a message, keeps the customer number and never the PIN", async ({ page, retailer }) => {
    await loginViaForm(page, String(retailer.id), "9999");
    await expect(page.getByText("Felaktigt kundnummer eller pinkod.")).toBeVisible();
    await expect(page.getByLabel("Kundnummer")).toHaveValue(String(retailer.id));
    await expect(page.getByLabel("Pinkod")).toHaveValue("");
    const res = await page.request.post("/login", { form: { kundnummer: String(retailer.id), pinkod: "9999" } });
    expect(res.status()).toBe(400);
  });

  test("ten wrong PINs in a quarter of an hour are the limit; the right PIN works again once they age out", async ({ page, retailer }) => {
    for (let i = 0; i < 9; i++) {
      const r = await page.request.post("/login", { form: { kundnummer: String(retailer.id), pinkod: "0000" } });
      expect(r.status()).toBe(400);
    }
    await loginViaForm(page, String(retailer.id), "0000");
    await expect(page.getByText("Felaktigt kundnummer eller pinkod.")).toBeVisible();
    // The tenth was the last one weighed: even the right PIN is refused, unchecked.
    await loginViaForm(page, String(retailer.id), retailer.pin);
    await expect(page.getByText(/För många misslyckade inloggningar\. Vänta \d+ minuter och försök igen\./)).toBeVisible();
    // A quarter of an hour later (the stored attempts aged), the right PIN works.
    const aged = JSON.stringify(Array(10).fill(portalNow() - 16 * 60_000));
    await e2eDb().update(schema.loginThrottle).set({ recent: aged }).where(eq(schema.loginThrottle.key, `customer:${retailer.id}`));
    await loginViaForm(page, `0${retailer.id}`, retailer.pin);
    await expect(page.getByRole("heading", { name: "Sammanfattning" })).toBeVisible();
  });

  test("staff log in with an e-mail address and password", async ({ page }) => {
    const admin = await makeStaff("admin");
    await loginViaForm(page, admin.email, admin.password);
    await expect(page).toHaveURL("/admin");
    await expect(page.getByRole("heading", { name: "Admin" })).toBeVisible();
  });

  test("a wrong staff password is refused with 400", async ({ page }) => {
    const admin = await makeStaff("admin");
    await loginViaForm(page, admin.email, "wrong-password");
    await expect(page.getByText("Felaktig e-postadress eller lösenord.")).toBeVisible();
    await expect(page.getByLabel("E-post")).toHaveValue(admin.email);
  });
});

test.describe("guards", () => {
  test("an anonymous visitor goes to login and comes back after it", async ({ page, retailer }) => {
    await page.goto("/kontakt");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fkontakt/);
    await page.getByLabel("Kundnummer").fill(String(retailer.id));
    await page.getByLabel("Pinkod").fill(retailer.pin);
    await page.getByRole("button", { name: "Logga in" }).click();
    await expect(page).toHaveURL("/kontakt");
    await expect(page.getByRole("heading", { name: "Kontakt" })).toBeVisible();
  });

  test("redirectTo never leaves the site", async ({ page, retailer }) => {
    await page.goto("/login?redirectTo=//evil.example/x");
    await page.getByLabel("Kundnummer").fill(String(retailer.id));
    await page.getByLabel("Pinkod").fill(retailer.pin);
    await page.getByRole("button", { name: "Logga in" }).click();
    await expect(page).toHaveURL("/");
  });

  test("an anonymous visitor to a staff page goes to the staff login", async ({ page }) => {
    await page.goto("/admin");
    await expect(page).toHaveURL(/\/personal\/logga-in\?redirectTo=%2Fadmin/);
  });

  // Back-office spec §6: a screen the role may not open sends the user to their
  // own start with a message (audited); a write to it is still 403 and changes nothing.
  test("a retailer on a staff page is sent to the start page with a message", async ({ page, retailer }) => {
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/admin/messages");
    await expect(page).toHaveURL("/");
    await expect(page.getByRole("status")).toHaveText("Du har inte behörighet till den sidan.");
    await expect(page.getByRole("heading", { name: "Sammanfattning" })).toBeVisible();
    // A post to it changes nothing and ends on the start page the same way.
    const post = await page.request.post("/admin/messages", { form: { csrf: await formToken(page.request), intent: "delete", id: "1" }, maxRedirects: 0 });
    expect(post.status()).toBe(302);
    expect(post.headers()["location"]).toBe("/");
  });

  test("a sales user on an admin-only page goes to the distribution monitor with a message; staff at / go to their start", async ({ page }) => {
    const sales = await makeStaff("sales");
    await loginAs(page, sales.email, sales.password);
    await page.goto("/admin/messages");
    await expect(page).toHaveURL("/admin/distribution");
    await expect(page.getByRole("status")).toHaveText("Du har inte behörighet till den sidan.");
    await expect(page.getByRole("heading", { name: "Distribution", level: 1 })).toBeVisible();
    // A retailer page: the same.
    await page.goto("/historik");
    await expect(page).toHaveURL("/admin/distribution");
    await expect(page.getByRole("status")).toHaveText("Du har inte behörighet till den sidan.");
    // `/` is a staff user's start: no message.
    await page.goto("/");
    await expect(page).toHaveURL("/admin/distribution");
    await expect(page.getByRole("status")).toHaveCount(0);
    const refused = await e2eDb().select().from(schema.auditLog).where(and(eq(schema.auditLog.actor, `staff:${sales.id}`), eq(schema.auditLog.action, "access.refused")));
    expect(refused.map((r) => r.target).sort()).toEqual(["/admin/messages", "/historik"]);
  });
});

test.describe("logout", () => {
  test("logging out ends the session on the server: the old cookie no longer works", async ({ page, retailer, browser }) => {
    await loginViaForm(page, String(retailer.id), retailer.pin);
    await expect(page.getByRole("heading", { name: "Sammanfattning" })).toBeVisible();
    const cookies = await page.context().cookies();
    await page.getByRole("button", { name: "Logga ut" }).click();
    await expect(page).toHaveURL("/login");

    const other = await browser.newContext();
    await other.addCookies(cookies);
    const p2 = await other.newPage();
    await p2.goto("/");
    await expect(p2).toHaveURL("/login");
    await other.close();
  });

  test("a new session id is issued at login", async ({ page, retailer }) => {
    await page.goto("/login");
    await loginAs(page, retailer.id, retailer.pin);
    const first = (await page.context().cookies()).find((c) => c.name === "rp_session")?.value;
    await loginAs(page, retailer.id, retailer.pin);
    const second = (await page.context().cookies()).find((c) => c.name === "rp_session")?.value;
    expect(first).toBeTruthy();
    expect(second).not.toBe(first);
    const cookie = (await page.context().cookies()).find((c) => c.name === "rp_session");
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe("Lax");
  });
});

test.describe("layout", () => {
  test("the menu works by keyboard-free links on a 360 px screen", async ({ page, retailer }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/");
    await page.getByText("Meny", { exact: true }).click();
    await page.getByRole("link", { name: "Kontakt" }).click();
    await expect(page.getByRole("heading", { name: "Kontakt" })).toBeVisible();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(360);
  });

  test("the menu marks the current page and its links lead to the page they name", async ({ page, retailer }, testInfo) => {
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/historik");
    // With JavaScript the menu navigates in the page; without, it is plain links. Both end the same.
    await page.evaluate(() => ((window as unknown as { marker: string }).marker = "same document"));
    const menu = page.getByRole("navigation", { name: "Huvudmeny" });
    await expect(menu.getByRole("link", { name: "Historik" })).toHaveAttribute("aria-current", "page");
    await expect(menu.getByRole("link", { name: "Start" })).not.toHaveAttribute("aria-current", "page");
    await menu.getByRole("link", { name: "Kontakt" }).click();
    await expect(page.getByRole("heading", { name: "Kontakt" })).toBeVisible();
    await expect(page).toHaveURL(/\/kontakt$/);
    await expect(menu.getByRole("link", { name: "Kontakt" })).toHaveAttribute("aria-current", "page");
    await expect(menu.getByRole("link", { name: "Historik" })).not.toHaveAttribute("aria-current", "page");
    const marker = await page.evaluate(() => (window as unknown as { marker?: string }).marker ?? "new document");
    expect(marker).toBe(testInfo.project.name === "js-on" ? "same document" : "new document");
    // The long label may wrap after its slash and is still found by its whole name.
    await expect(menu.getByRole("link", { name: "Följesedel/Leveransreklamation" })).toHaveAttribute("href", "/foljesedel");
  });

  test("on a narrow screen the menu closes once a link in it is followed", async ({ page, retailer }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/");
    await page.getByText("Meny", { exact: true }).click();
    const menu = page.getByRole("navigation", { name: "Meny" });
    await menu.getByRole("link", { name: "Historik" }).click();
    await expect(page.getByRole("heading", { name: "Historik" })).toBeVisible();
    await expect(menu).toBeHidden();
    await page.getByText("Meny", { exact: true }).click();
    await expect(menu.getByRole("link", { name: "Historik" })).toHaveAttribute("aria-current", "page");
  });

  test("every response carries an X-Request-Id and the security headers", async ({ request }) => {
    const res = await request.get("/login");
    expect(res.headers()["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(res.headers()["x-content-type-options"]).toBe("nosniff");
    expect(res.headers()["referrer-policy"]).toBeTruthy();
  });

  test("a cross-site POST is refused with 403", async ({ request, retailer }) => {
    // Right credentials of a retailer of its own: refused all the same.
    const res = await request.post("/login", {
      form: { kundnummer: String(retailer.id), pinkod: retailer.pin },
      headers: { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
    });
    expect(res.status()).toBe(403);
  });
});
