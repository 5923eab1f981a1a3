// Trust, second round §7: every staff user changes their own password (the current one
// and the new one twice, the CLI's policy); the change ends their other sessions and the
// old password stops working. JavaScript off and on.
import { eq } from "drizzle-orm";
import { schema } from "../../db/client";
import { e2eDb, expect, loginAs, loginViaForm, makeStaff, test } from "./fixtures";

test("a sales user changes their own password from the menu; their other login ends and the old password stops working", async ({ page, browser }, info) => {
  const sales = await makeStaff("sales");
  const js = info.project.name !== "js-off";
  const second = await browser.newContext({ javaScriptEnabled: js });
  const elsewhere = await second.newPage();
  await loginAs(elsewhere, sales.email, sales.password);
  await loginAs(page, sales.email, sales.password);
  await page.goto("/admin/distribution");
  await page.getByRole("navigation", { name: "Huvudmeny" }).getByRole("link", { name: "Byt lösenord" }).click();
  await expect(page.getByRole("heading", { name: "Byt lösenord", level: 1 })).toBeVisible();
  // Not forced: no one-time notice.
  await expect(page.getByText("Du loggade in med ett engångslösenord.")).toHaveCount(0);
  await page.getByLabel("Nuvarande lösenord").fill(sales.password);
  await page.getByLabel("Nytt lösenord", { exact: true }).fill("kort");
  await page.getByLabel("Nytt lösenord igen").fill("kort");
  await page.getByRole("button", { name: "Byt lösenord" }).click();
  await expect(page.getByText("Lösenordet ska vara minst 12 tecken (mellanslag först och sist räknas inte).")).toBeVisible();
  // A refused change echoes no password back into the page.
  expect(await page.content()).not.toContain(sales.password);
  await page.getByLabel("Nuvarande lösenord").fill(sales.password);
  await page.getByLabel("Nytt lösenord", { exact: true }).fill("Säljarens nya lösenord");
  await page.getByLabel("Nytt lösenord igen").fill("Säljarens nya lösenord");
  await page.getByRole("button", { name: "Byt lösenord" }).click();
  await expect(page).toHaveURL("/admin/distribution");
  await expect(page.getByRole("status").filter({ hasText: "Lösenordet är bytt. Din andra inloggning är avslutad." })).toBeVisible();
  // This session goes on; the other browser is logged out.
  await page.goto("/admin/kunder");
  await expect(page.getByRole("heading", { name: "Kunder", level: 1 })).toBeVisible();
  await elsewhere.goto("/admin/distribution");
  await expect(elsewhere).toHaveURL(/\/personal\/logga-in\?redirectTo=%2Fadmin%2Fdistribution$/);
  await loginViaForm(elsewhere, sales.email, sales.password);
  await expect(elsewhere.getByText("Felaktig e-postadress eller lösenord.")).toBeVisible();
  await loginViaForm(elsewhere, sales.email, "Säljarens nya lösenord");
  await expect(elsewhere).toHaveURL("/admin/distribution");
  const audit = await e2eDb().select().from(schema.auditLog).where(eq(schema.auditLog.target, `staff:${sales.id}`));
  expect(audit.map((a) => a.action)).toContain("staff.change-own-password");
  expect(JSON.stringify(audit)).not.toContain("Säljarens nya lösenord");
  await second.close();
});
