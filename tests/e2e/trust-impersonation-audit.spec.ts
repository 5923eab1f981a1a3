// Trust, second round: what staff do in a retailer's portal is recorded as the staff user
// acting for the customer — a change, a download — shown that way in Logg and found by
// its Vem and Kund filters; a deactivated customer's portal opens only after a question,
// and the opening is logged. JavaScript off and on.
import { and, eq } from "drizzle-orm";
import { schema } from "../../db/client";
import { e2eDb, expect, loginAs, makeStaff, test } from "./fixtures";
import { portalNow } from "../../db/clock";

test("staff acting in a customer's portal are named in Logg as acting for the customer, downloads included", async ({ page, retailer }) => {
  const admin = await makeStaff("admin");
  await loginAs(page, admin.email, admin.password);
  await page.goto("/admin/kund/oppna");
  await page.getByLabel("Kundnummer", { exact: true }).fill(String(retailer.id));
  await page.getByRole("button", { name: "Öppna kundens portal" }).click();
  await expect(page).toHaveURL("/");

  // A change of the customer's reminder address, made by the staff user.
  await page.goto("/paminnelser");
  await page.getByLabel("Skicka påminnelser till min e-post").check();
  await page.getByLabel("E-postadress").fill("sahin.livs@example.se");
  await page.getByRole("button", { name: "Spara" }).click();
  await expect(page.getByText("Sparat: påminnelser skickas till sahin.livs@example.se.").first()).toBeVisible();
  // A download in the same portal.
  expect((await page.request.get("/journal.pdf")).status()).toBe(200);

  const rows = await e2eDb().select().from(schema.auditLog).where(eq(schema.auditLog.onBehalfOf, `customer:${retailer.id}`));
  const change = rows.find((r) => r.action === "reminder.on");
  expect(change).toMatchObject({ actor: `staff:${admin.id}`, target: `customer:${retailer.id}` });
  expect(rows.find((r) => r.action === "impersonation.download")).toMatchObject({ actor: `staff:${admin.id}`, detail: JSON.stringify({ method: "GET", path: "/journal.pdf" }) });
  // Nothing of it is recorded as the customer's own doing.
  const asCustomer = await e2eDb()
    .select()
    .from(schema.auditLog)
    .where(and(eq(schema.auditLog.actor, `customer:${retailer.id}`), eq(schema.auditLog.action, "reminder.on")));
  expect(asCustomer).toHaveLength(0);

  await page.getByRole("button", { name: "Tillbaka till personalkontot" }).click();
  await expect(page).toHaveURL("/admin");
  await page.goto(`/admin/logg?vem=staff:${admin.id}&kund=${retailer.id}`);
  const row = page.getByRole("row").filter({ hasText: "reminder.on" });
  await expect(row).toContainText(`${admin.email} (staff:${admin.id}) för customer:${retailer.id}`);
  await expect(page.getByRole("row").filter({ hasText: "impersonation.download" })).toHaveCount(1);
  // Found by the staff user's e-mail too.
  await page.goto(`/admin/logg?vem=${encodeURIComponent(admin.email)}&kund=${retailer.id}`);
  await expect(page.getByRole("row").filter({ hasText: "reminder.on" })).toHaveCount(1);
});

test("a deactivated customer's portal opens only after a question, and the opening is logged", async ({ page, retailer }) => {
  await e2eDb().update(schema.customers).set({ deactivatedAt: portalNow() }).where(eq(schema.customers.id, retailer.id));
  const admin = await makeStaff("admin");
  await loginAs(page, admin.email, admin.password);
  await page.goto("/admin/kund/oppna");
  await page.getByLabel("Kundnummer", { exact: true }).fill(String(retailer.id));
  await page.getByRole("button", { name: "Öppna kundens portal" }).click();
  const question = page.getByRole("alert").filter({ hasText: "Kunden är avstängd" });
  await expect(question).toContainText(`${retailer.id} ${retailer.name} är avstängd och kan inte logga in själv.`);
  // Nothing opened yet, nothing logged.
  const before = await e2eDb().select().from(schema.auditLog).where(and(eq(schema.auditLog.actor, `staff:${admin.id}`), eq(schema.auditLog.action, "impersonation.start")));
  expect(before).toHaveLength(0);
  await question.getByRole("button", { name: "Öppna den avstängda kundens portal" }).click();
  await expect(page).toHaveURL("/");
  await expect(page.getByRole("region", { name: "Personalinloggning" })).toContainText(retailer.name);
  const [start] = await e2eDb().select().from(schema.auditLog).where(and(eq(schema.auditLog.actor, `staff:${admin.id}`), eq(schema.auditLog.action, "impersonation.start")));
  expect(start).toMatchObject({ target: `customer:${retailer.id}`, detail: JSON.stringify({ deactivated: true }) });
});
