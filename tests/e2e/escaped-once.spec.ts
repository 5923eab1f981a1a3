// Text is escaped exactly once. A staff member writes messages through the
// Messages form (the real save path), and the retailer reads exactly what was written:
// plain text with & and quotes (not "&amp;"), and HTML with its tag rendered.
import { today } from "../../app/lib/dates";
import { expect, forgetUser, formToken, loginAs, makeStaff, test } from "./fixtures";

test("a staff message with & and quotes reaches the retailer exactly as written", async ({ page, retailer }) => {
  const admin = await makeStaff("admin");
  await loginAs(page, admin.email, admin.password);
  const tag = `${Date.now()}-${Math.random().toString(36).slice(2, 7)}`;
  const plain = { header: `Öppettider & "helg" ${tag}`, content: 'Öppet 9–17 & "söndag" 2 < 3\n\nTack & hej' };
  const html = { header: `Med kursiv ${tag}`, content: 'Öppet 9–17 & "söndag" <i>ej</i>' };
  for (const m of [plain, html]) {
    const res = await page.request.post("/admin/messages", {
      form: { csrf: await formToken(page.request), intent: "save", type: "3", startDate: today(), header: m.header, content: m.content, customers: String(retailer.id) },
      maxRedirects: 0,
    });
    expect(res.status(), await res.text()).toBe(302);
  }
  await forgetUser(page);

  await loginAs(page, retailer.id, retailer.pin);
  await page.goto("/");
  const first = page.locator(".banner-message").filter({ hasText: plain.header });
  await expect(first.locator(".banner-title")).toHaveText(plain.header);
  await expect(first.locator("p")).toHaveText(['Öppet 9–17 & "söndag" 2 < 3', "Tack & hej"]);
  await expect(first).not.toContainText("&amp;");
  await expect(first).not.toContainText("&lt;");

  const second = page.locator(".banner-message").filter({ hasText: html.header });
  await expect(second.locator(".banner-content")).toHaveText('Öppet 9–17 & "söndag" ej');
  await expect(second.locator(".banner-content i")).toHaveText("ej");
  await expect(second).not.toContainText("&amp;");
});
