// Messages, tables and confirmation: a message to chosen customers keeps
// them through every edit, the customer list is read tolerantly, the list of messages
// names each message's targets, is searched, sorted and paged in the URL, and a delete
// asks first and may happen twice.
import { eq } from "drizzle-orm";
import { schema } from "../../db/client";
import { addDays, today } from "../../app/lib/dates";
import { e2eDb, expect, forgetUser, formToken, loginAs, makeRetailer, makeStaff, test } from "./fixtures";

const T = today();

async function linksOf(messageId: number) {
  const rows = await e2eDb().select().from(schema.messageCustomers).where(eq(schema.messageCustomers.messageId, messageId));
  return rows.map((r) => r.customerId).sort((a, b) => a - b);
}

async function messageByHeader(header: string) {
  const [row] = await e2eDb().select().from(schema.messages).where(eq(schema.messages.header, header));
  return row;
}

test("a customer list on several lines, with spaces and semicolons, is saved as the customers typed and kept through edits", async ({ page }, info) => {
  const admin = await makeStaff("admin");
  const a = await makeRetailer(info.workerIndex, { name: "Şahin Livs" });
  const b = await makeRetailer(info.workerIndex, { name: "Kiosk Łódź" });
  const c = await makeRetailer(info.workerIndex, { name: "Nguyễn Tobak" });
  await loginAs(page, admin.email, admin.password);
  await page.goto("/admin/messages");
  const header = `Till tre ${Date.now()}-${info.project.name}`;
  await page.getByLabel("Typ", { exact: true }).selectOption("3");
  await page.getByLabel("Från", { exact: true }).fill(T);
  await page.getByLabel("Rubrik", { exact: true }).fill(header);
  await page.getByLabel("Innehåll", { exact: true }).fill("Hej!");
  // Unknown numbers are refused by number, and everything typed stays.
  await page.getByLabel("Kundnummer", { exact: true }).fill(`${a.id} 99997\n0${b.id};${c.id}`);
  await page.getByRole("button", { name: "Spara" }).click();
  await expect(page.getByText("Okända kundnummer: 99997")).toBeVisible();
  await expect(page.getByLabel("Kundnummer", { exact: true })).toHaveValue(`${a.id} 99997\n0${b.id};${c.id}`);
  await expect(page.getByLabel("Rubrik", { exact: true })).toHaveValue(header);
  await page.getByLabel("Kundnummer", { exact: true }).fill(`${a.id}\n0${b.id};  ${c.id}`);
  await page.getByRole("button", { name: "Spara" }).click();
  await expect(page.getByRole("status")).toHaveText("Meddelandet är sparat.");
  const saved = await messageByHeader(header);
  const all = [a.id, b.id, c.id].sort((x, y) => x - y);
  expect(await linksOf(saved.id)).toEqual(all);
  // The list of messages names the targets.
  const row = page.getByRole("row").filter({ hasText: header });
  await expect(row).toContainText(all.join(", "));

  // Edit: change the heading and press Uppdatera; then type 3 to 4. The customers stay.
  await row.getByRole("link", { name: `Redigera ${header}` }).click();
  await expect(page.getByRole("heading", { name: `Redigera meddelande ${saved.id}` })).toBeVisible();
  await expect(page.getByLabel("Kundnummer", { exact: true })).toHaveValue(all.join(", "));
  await page.getByLabel("Rubrik", { exact: true }).fill(`${header} (ändrad)`);
  await page.getByRole("button", { name: "Uppdatera" }).click();
  await expect(page.getByRole("status")).toHaveText("Meddelandet är uppdaterat.");
  expect(await linksOf(saved.id)).toEqual(all);
  await page.getByRole("row").filter({ hasText: `${header} (ändrad)` }).getByRole("link", { name: `Redigera ${header} (ändrad)` }).click();
  await expect(page.getByRole("heading", { name: `Redigera meddelande ${saved.id}` })).toBeVisible();
  await expect(page.getByLabel("Rubrik", { exact: true })).toHaveValue(`${header} (ändrad)`);
  await page.getByLabel("Typ", { exact: true }).selectOption("4");
  await page.getByRole("button", { name: "Uppdatera" }).click();
  await expect(page.getByRole("status")).toHaveText("Meddelandet är uppdaterat.");
  expect(await linksOf(saved.id)).toEqual(all);
  await expect(page.getByRole("row").filter({ hasText: `${header} (ändrad)` })).toContainText("Returrapportering");
  await expect(page.getByRole("row").filter({ hasText: `${header} (ändrad)` })).toContainText(all.join(", "));

  // The retailer it was meant for sees it; another does not.
  const outsider = await makeRetailer(info.workerIndex);
  await forgetUser(page);
  await loginAs(page, a.id, a.pin);
  await page.goto("/");
  // The banners fold into one line; opened, ours is there.
  await page.locator("details.banner summary").click();
  await expect(page.getByText(`${header} (ändrad)`)).toBeVisible();
  await forgetUser(page);
  await loginAs(page, outsider.id, outsider.pin);
  await page.goto("/");
  await expect(page.getByText(`${header} (ändrad)`)).toHaveCount(0);
});

test("the list of messages is searched, sorted and paged in the URL, and Back returns to the view", async ({ page }, info) => {
  const admin = await makeStaff("admin");
  const tag = `Sok${Date.now()}${info.project.name}`;
  // 27 messages with the tag: two pages of 25.
  await e2eDb()
    .insert(schema.messages)
    .values(Array.from({ length: 27 }, (_, i) => ({ type: 1, header: `${tag} nr ${String(i + 1).padStart(2, "0")}`, content: "x", startDate: addDays(T, -i), stopDate: addDays(T, -i) })));
  await loginAs(page, admin.email, admin.password);
  await page.goto("/admin/messages");
  await page.getByLabel("Sök i rubrik och innehåll").fill(tag);
  await page.getByRole("button", { name: "Sök", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`sok=${tag}`));
  await expect(page.getByText(`27 meddelanden matchar "${tag}".`)).toBeVisible();
  const rows = page.getByRole("row").filter({ hasText: tag });
  await expect(rows).toHaveCount(25);
  await expect(rows.first()).toContainText(`${tag} nr 01`);
  await page.getByRole("link", { name: "Rubrik" }).click();
  await expect(page).toHaveURL(/sortera=rubrik&ordning=stigande/);
  await expect(page.getByRole("columnheader", { name: /Rubrik/ })).toHaveAttribute("aria-sort", "ascending");
  await page.getByRole("link", { name: /^Rubrik/ }).click();
  await expect(page).toHaveURL(/ordning=fallande/);
  await expect(rows.first()).toContainText(`${tag} nr 27`);
  await page.getByRole("link", { name: "Nästa" }).click();
  await expect(page).toHaveURL(/sida=2/);
  await expect(rows).toHaveCount(2);
  await expect(rows.last()).toContainText(`${tag} nr 01`);
  await page.goBack();
  await expect(rows).toHaveCount(25);
  await expect(rows.first()).toContainText(`${tag} nr 27`);
});

test("a delete asks first; Avbryt keeps the message; deleting it twice says it was already deleted, inside the layout", async ({ page }, info) => {
  const admin = await makeStaff("admin");
  const header = `Ta bort mig ${Date.now()}-${info.project.name}`;
  const [m] = await e2eDb().insert(schema.messages).values({ type: 1, header, content: "x", startDate: T, stopDate: T }).returning();
  await loginAs(page, admin.email, admin.password);
  await page.goto(`/admin/messages?sok=${encodeURIComponent(header)}`);
  await page.getByRole("link", { name: `Ta bort ${header}` }).click();
  const dialog = info.project.name === "js-on" ? page.getByRole("dialog") : page.locator("section.url-dialog");
  await expect(dialog.getByRole("heading", { name: "Ta bort meddelandet?" })).toBeVisible();
  await dialog.getByRole("link", { name: "Avbryt" }).click();
  await expect(page.getByRole("heading", { name: "Ta bort meddelandet?" })).toHaveCount(0);
  expect(await messageByHeader(header)).toBeTruthy();

  await page.getByRole("link", { name: `Ta bort ${header}` }).click();
  // A second tab deletes it first.
  const csrf = await formToken(page.request);
  expect((await page.request.post("/admin/messages", { form: { csrf, intent: "delete", id: String(m.id) }, maxRedirects: 0 })).status()).toBe(302);
  await page.getByRole("button", { name: "Ta bort meddelandet" }).click();
  await expect(page.getByRole("status")).toHaveText("Meddelandet var redan borttaget.");
  await expect(page.getByRole("heading", { name: "Meddelanden", level: 1 })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Huvudmeny" })).toBeVisible();
  // The search stays.
  await expect(page).toHaveURL(/sok=/);
  expect(await messageByHeader(header)).toBeUndefined();
  // An old edit link to it: the layout, a clear message, 404.
  const res = await page.goto(`/admin/messages?id=${m.id}`);
  expect(res?.status()).toBe(404);
  await expect(page.getByText("Meddelandet finns inte.")).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Huvudmeny" })).toBeVisible();
});

test("a new message to every retailer says how many it reaches and asks first; the text typed stays to be changed", async ({ page }, info) => {
  const admin = await makeStaff("admin");
  await loginAs(page, admin.email, admin.password);
  await page.goto("/admin/messages");
  const header = `Till alla ${Date.now()}-${info.project.name}`;
  const content = "Tidningarna kommer sent i dag.\nVi ber om ursäkt – Şahin på kundtjänst";
  await page.getByLabel("Typ", { exact: true }).selectOption("3");
  await page.getByLabel("Från", { exact: true }).fill(T);
  await page.getByLabel("Rubrik", { exact: true }).fill(header);
  await page.getByLabel("Innehåll", { exact: true }).fill(content);
  await page.getByRole("button", { name: "Spara", exact: true }).click();
  const ask = page.getByRole("alert").filter({ hasText: "Spara meddelandet till alla kunder?" });
  await expect(ask).toContainText(new RegExp(`Kundmeddelande "${header}" visas för alla [1-9][\\d\\s]* aktiva kunder den ${T}\\.`));
  await expect(ask).toContainText("Inget är sparat än.");
  expect(await messageByHeader(header)).toBeUndefined();
  await expect(page.getByLabel("Innehåll", { exact: true })).toHaveValue(content);
  await expect(page.getByLabel("Rubrik", { exact: true })).toHaveValue(header);

  // Changed to one customer instead: saved at once, no question.
  const retailer = await makeRetailer(info.workerIndex, { name: "Şahin Livs" });
  await page.getByLabel("Kundnummer", { exact: true }).fill(String(retailer.id));
  await page.getByRole("button", { name: "Spara", exact: true }).click();
  await expect(page.getByRole("status")).toHaveText("Meddelandet är sparat.");
  expect(await linksOf((await messageByHeader(header)).id)).toEqual([retailer.id]);
  // Saved, the form is empty for the next message (a second Spara would write it twice).
  await expect(page.getByLabel("Innehåll", { exact: true })).toHaveValue("");
  await expect(page.getByLabel("Kundnummer", { exact: true })).toHaveValue("");

  // A second one to everybody, confirmed: stored with the text as typed.
  await page.getByLabel("Typ", { exact: true }).selectOption("1");
  await page.getByLabel("Från", { exact: true }).fill(T);
  await page.getByLabel("Rubrik", { exact: true }).fill(`${header} B`);
  await page.getByLabel("Innehåll", { exact: true }).fill(content);
  await page.getByRole("button", { name: "Spara", exact: true }).click();
  await page.getByRole("alert").filter({ hasText: "Spara meddelandet till alla kunder?" }).getByRole("button", { name: "Spara ändå" }).click();
  await expect(page.getByRole("status")).toHaveText("Meddelandet är sparat.");
  // The first save's toast says the same: the emptied form is what tells this save is done.
  await expect(page.getByLabel("Rubrik", { exact: true })).toHaveValue("");
  const stored = await messageByHeader(`${header} B`);
  expect([stored.type, stored.content]).toEqual([1, content]);
  expect(await linksOf(stored.id)).toEqual([]);
});
