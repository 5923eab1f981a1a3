// An admin adds an account (one-time password shown once),
// changes its roles and distributor, resets its password, deactivates and reactivates
// it; the account's sessions end each time, and the last admin is protected.
import { eq } from "drizzle-orm";
import { schema } from "../../db/client";
import { createDistributor } from "../../cli/seed/factories";
import { e2eDb, expect, loginAs, loginViaForm, makeStaff, test } from "./fixtures";

test("an admin adds a staff user, changes roles, resets the password, deactivates and reactivates", async ({ page, browser }, info) => {
  // Two users' whole lives (add, first login with a new password, roles, reset, deactivation): a limit for hangs only.
  test.setTimeout(150_000);
  await createDistributor(e2eDb(), 51, "Tidningsbud Łódź AB");
  const admin = await makeStaff("admin");
  await loginAs(page, admin.email, admin.password);
  await page.goto("/admin");
  await page.getByRole("navigation", { name: "Huvudmeny" }).getByRole("link", { name: "Personal" }).click();
  await expect(page.getByRole("heading", { name: "Personal", level: 1 })).toBeVisible();

  const email = `nguyen-${Date.now()}-${info.project.name}@test.example`;
  // utb without a distributor: refused, what was typed kept.
  await page.getByLabel("E-post", { exact: true }).fill(email);
  await page.getByLabel("Namn", { exact: true }).fill("Nguyễn Văn An");
  await page.getByRole("region", { name: "Ny användare" }).getByLabel("Distributör (utb)").check();
  await page.getByRole("button", { name: "Lägg till användare" }).click();
  await expect(page.getByText("En utb-användare måste höra till en distributör.")).toBeVisible();
  await expect(page.getByLabel("Namn", { exact: true })).toHaveValue("Nguyễn Văn An");
  await page.getByLabel("Distributör (för utb)").selectOption({ label: "Tidningsbud Łódź AB" });
  await page.getByRole("region", { name: "Ny användare" }).getByLabel("Distributör (utb)").check();
  await page.getByRole("button", { name: "Lägg till användare" }).click();
  const shown = page.getByRole("status").filter({ hasText: "Engångslösenord" });
  await expect(shown).toContainText(email);
  const password = (await shown.locator(".pin").textContent())!.trim();
  expect(password).toHaveLength(16);
  const [user] = await e2eDb().select().from(schema.staffUsers).where(eq(schema.staffUsers.email, email));
  expect([user.roles, user.distributorId]).toEqual(["utb", 51]);

  // What the page says is what will happen: a utb user is asked for no authenticator app.
  await expect(shown).toContainText("Vid första inloggningen väljer användaren ett eget lösenord.");
  await expect(shown).not.toContainText("autentiseringsapp");

  // The new user logs in with the one-time password: every page leads to Byt lösenord first.
  const other = await browser.newContext({ javaScriptEnabled: info.project.name !== "js-off" });
  const theirs = await other.newPage();
  await loginViaForm(theirs, email, password);
  await expect(theirs).toHaveURL("/admin/losenord");
  await expect(theirs.getByRole("status")).toHaveText("Du loggade in med ett engångslösenord. Välj ett eget lösenord innan du fortsätter.");
  await theirs.goto("/admin/distribution");
  await expect(theirs).toHaveURL("/admin/losenord");
  await theirs.getByLabel("Nuvarande lösenord").fill("inte-det-har-losenordet");
  await theirs.getByLabel("Nytt lösenord", { exact: true }).fill("Mitt eget lösenord 2026");
  await theirs.getByLabel("Nytt lösenord igen").fill("Mitt eget lösenord 2026");
  await theirs.getByRole("button", { name: "Byt lösenord" }).click();
  await expect(theirs.getByText("Fel nuvarande lösenord.")).toBeVisible();
  await theirs.getByLabel("Nuvarande lösenord").fill(password);
  await theirs.getByLabel("Nytt lösenord", { exact: true }).fill("Mitt eget lösenord 2026");
  await theirs.getByLabel("Nytt lösenord igen").fill("Mitt eget lösenord 2027");
  await theirs.getByRole("button", { name: "Byt lösenord" }).click();
  await expect(theirs.getByText("Lösenorden är inte likadana.")).toBeVisible();
  await theirs.getByLabel("Nuvarande lösenord").fill(password);
  await theirs.getByLabel("Nytt lösenord", { exact: true }).fill("Mitt eget lösenord 2026");
  await theirs.getByLabel("Nytt lösenord igen").fill("Mitt eget lösenord 2026");
  await theirs.getByRole("button", { name: "Byt lösenord" }).click();
  await expect(theirs).toHaveURL("/admin/distribution");
  await expect(theirs.getByRole("status").filter({ hasText: "Lösenordet är bytt." })).toBeVisible();
  const [own] = await e2eDb().select().from(schema.staffUsers).where(eq(schema.staffUsers.email, email));
  expect(own.passwordOneTime).toBe(false);

  // The status leads to the new account in the list (a network has hundreds: the list is searched and paged).
  await shown.getByRole("link", { name: `Visa ${email} i listan` }).click();
  await expect(page.getByLabel("Sök (namn, e-post eller distributör)")).toHaveValue(email);
  await expect(page.getByText("1 användare matchar sökningen.")).toBeVisible();

  // Roles: sales instead of utb; the list stays searched.
  const row = page.getByRole("row").filter({ hasText: email });
  await row.getByLabel("Sälj").check();
  await row.getByLabel("Distributör (utb)").uncheck();
  await row.getByRole("button", { name: `Spara roller för ${email}` }).click();
  await expect(page.getByRole("status")).toHaveText("Rollerna är ändrade. Användarens inloggningar är avslutade.");
  const [changed] = await e2eDb().select().from(schema.staffUsers).where(eq(schema.staffUsers.id, user.id));
  expect([changed.roles, changed.distributorId]).toEqual(["sales", null]);
  await expect(page.getByLabel("Sök (namn, e-post eller distributör)")).toHaveValue(email);

  // A new password: shown once, the old one stops working.
  await page.getByRole("row").filter({ hasText: email }).getByRole("link", { name: `Nytt lösenord för ${email}` }).click();
  await page.getByRole("button", { name: "Ge nytt lösenord" }).click();
  const second = (await page.getByRole("status").filter({ hasText: "Engångslösenord" }).locator(".pin").textContent())!.trim();
  expect(second).not.toBe(password);
  await other.clearCookies();
  await loginViaForm(theirs, email, password);
  await expect(theirs.getByText(/Felaktig/).first()).toBeVisible();

  // Deactivate: asked first; the login is refused; reactivate.
  await page.goto(`/admin/personal?sok=${encodeURIComponent(email)}`);
  // With JavaScript the link is pressed once the page is hydrated (root.tsx marks it); the
  // page's own question then becomes React Aria's modal, and the press in it waits for the
  // modal, so it cannot land in the swap.
  if (info.project.name === "js-on") await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await page.getByRole("link", { name: `Stäng av ${email}` }).click();
  if (info.project.name === "js-on") await expect(page.getByRole("dialog", { name: "Stäng av kontot?" })).toBeVisible();
  await page.getByRole("button", { name: "Stäng av", exact: true }).click();
  await expect(page.getByRole("status")).toHaveText("Kontot är avstängt och dess inloggningar avslutade.");
  await loginViaForm(theirs, email, second);
  await expect(theirs.getByText("Kontot är avstängt. Kontakta en administratör.")).toBeVisible();
  await page.getByRole("button", { name: `Aktivera ${email}` }).click();
  await expect(page.getByRole("status")).toHaveText("Kontot är aktivt igen.");
  const actions = (await e2eDb().select().from(schema.auditLog).where(eq(schema.auditLog.target, `staff:${user.id}`))).map((a) => a.action);
  expect(actions).toEqual(expect.arrayContaining(["staff.add", "staff.set-roles", "staff.set-password", "staff.deactivate", "staff.activate"]));
  expect(JSON.stringify(await e2eDb().select().from(schema.auditLog).where(eq(schema.auditLog.target, `staff:${user.id}`)))).not.toContain(second);
  await other.close();
});

test("an admin cannot demote or deactivate themself", async ({ page }) => {
  const admin = await makeStaff("admin");
  await loginAs(page, admin.email, admin.password);
  await page.goto("/admin/personal");
  await page.getByLabel("Sök (namn, e-post eller distributör)").fill(admin.email);
  await page.getByRole("button", { name: "Sök", exact: true }).click();
  const row = page.getByRole("row").filter({ hasText: admin.email });
  await expect(row.getByRole("link", { name: `Stäng av ${admin.email}` })).toHaveCount(0);
  await row.getByLabel("Administratör").uncheck();
  await row.getByLabel("Sälj").check();
  await row.getByRole("button", { name: `Spara roller för ${admin.email}` }).click();
  await expect(page.getByText("Du kan inte stänga av eller ta bort administratörsrollen från dig själv.")).toBeVisible();
  const [still] = await e2eDb().select().from(schema.staffUsers).where(eq(schema.staffUsers.id, admin.id));
  expect(still.roles).toBe("admin");
});

test("the staff list of a national network is searched and paged, so every account's page stays small", async ({ page }, info) => {
  const tag = `riks${Date.now()}${info.project.name.replace("-", "")}`;
  // 120 accounts: named as a real network's staff, Swedish letters and all.
  const first = ["Şahin", "Åsa", "Örjan", "Nguyễn", "Zlatan", "Ängla"];
  await e2eDb()
    .insert(schema.staffUsers)
    .values(Array.from({ length: 120 }, (_, i) => ({ email: `${tag}-${i}@test.example`, name: `${first[i % first.length]} ${tag} ${String(i).padStart(3, "0")}`, passwordHash: "x", roles: "sales" })));
  const admin = await makeStaff("admin");
  await loginAs(page, admin.email, admin.password);
  await page.goto("/admin/personal");
  await page.getByLabel("Sök (namn, e-post eller distributör)").fill(tag);
  await page.getByRole("button", { name: "Sök", exact: true }).click();
  await expect(page.getByText("120 användare matchar sökningen.")).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Sidor" })).toContainText("Sida 1 av 3");
  expect(await page.locator("tbody tr").count()).toBe(50);
  await page.getByRole("link", { name: "Nästa" }).click();
  await expect(page.getByRole("navigation", { name: "Sidor" })).toContainText("Sida 2 av 3");
  await expect(page.getByLabel("Sök (namn, e-post eller distributör)")).toHaveValue(tag);
  // Folded letters: "sahin" finds Şahin, "orjan" finds Örjan.
  await page.getByLabel("Sök (namn, e-post eller distributör)").fill(`sahin ${tag}`);
  await page.getByRole("button", { name: "Sök", exact: true }).click();
  await expect(page.getByText("20 användare matchar sökningen.")).toBeVisible();
  await expect(page.locator("tbody tr").first()).toContainText("Şahin");
  await page.getByLabel("Sök (namn, e-post eller distributör)").fill(`orjan ${tag} 002`);
  await page.getByRole("button", { name: "Sök", exact: true }).click();
  await expect(page.getByRole("row").filter({ hasText: `Örjan ${tag} 002` })).toBeVisible();
  await page.getByLabel("Sök (namn, e-post eller distributör)").fill(`${tag} ingen-sadan`);
  await page.getByRole("button", { name: "Sök", exact: true }).click();
  await expect(page.getByText("Ingen användare matchar sökningen.")).toBeVisible();
});
