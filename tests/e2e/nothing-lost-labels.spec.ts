// Every label order is new. A second order from the result page (no
// reload) gets new numbers; the same form sent twice (double click, retry) orders once.
// Runs with JavaScript off and on (the two projects).
import { eq } from "drizzle-orm";
import { schema } from "../../db/client";
import { e2eDb, expect, formToken, loginAs, test } from "./fixtures";

async function blocksOf(customerId: number) {
  return e2eDb().select().from(schema.labelBlocks).where(eq(schema.labelBlocks.customerId, customerId));
}

function series(text: string): [number, number] {
  const m = text.match(/(\d+)\s*-\s*(\d+)/);
  if (!m) throw new Error(`no series in ${text}`);
  return [Number(m[1]), Number(m[2])];
}

test.describe("every label order is new", () => {
  test("emergency labels: two orders from one page give two disjoint series, each with its PDF", async ({ page, retailer }) => {
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/nodetiketter");
    await page.getByLabel("Antal etiketter").selectOption("3");
    await page.getByRole("button", { name: "Hämta etiketter" }).click();
    await expect(page).toHaveURL(/\/nodetiketter\?order=\d+$/);
    const first = series(await page.locator(".series").innerText());
    expect(first).toEqual([1, 3]);
    const firstPdf = await page.getByRole("link", { name: "Ladda ner etiketterna (PDF)" }).getAttribute("href");

    // The same page, no reload: a second deliberate order.
    await page.getByLabel("Antal etiketter").selectOption("2");
    await page.getByRole("button", { name: "Hämta etiketter" }).click();
    await expect(page.locator(".series")).not.toHaveText("1 - 3");
    const second = series(await page.locator(".series").innerText());
    expect(second).toEqual([4, 5]);
    const secondPdf = await page.getByRole("link", { name: "Ladda ner etiketterna (PDF)" }).getAttribute("href");
    expect(secondPdf).not.toBe(firstPdf);

    for (const href of [firstPdf, secondPdf]) {
      const res = await page.request.get(href!);
      expect(res.status()).toBe(200);
      expect(res.headers()["content-type"]).toContain("application/pdf");
    }
    const blocks = await blocksOf(retailer.id);
    expect(blocks.map((b) => [b.fromNumber, b.toNumber]).sort((a, b) => a[0] - b[0])).toEqual([first, second]);
  });

  test("emergency labels: the same form sent twice (double submit) orders once", async ({ page, retailer }) => {
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/nodetiketter");
    const token = await page.locator('input[name="token"]').inputValue();
    const locations: string[] = [];
    for (let i = 0; i < 2; i++) {
      const res = await page.request.post("/nodetiketter", { form: { csrf: await formToken(page.request), antal: "4", token }, maxRedirects: 0 });
      expect(res.status()).toBe(302);
      locations.push(res.headers()["location"]);
    }
    expect(locations[0]).toMatch(/^\/nodetiketter\?order=\d+$/);
    expect(locations[1]).toBe(locations[0]);
    expect(await blocksOf(retailer.id)).toHaveLength(1);
    // And the result page's own form is a new one.
    await page.goto(locations[0]);
    expect(await page.locator('input[name="token"]').inputValue()).not.toBe(token);
  });

  test("label blocks: a second order from the result page gets the next 50 numbers; a double submit orders once", async ({ page, retailer }) => {
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/order?steg=bekrafta");
    const confirmToken = await page.locator('input[name="token"]').inputValue();
    await page.getByRole("button", { name: "Beställ", exact: true }).click();
    await expect(page.locator(".series")).toHaveText("1 - 50");
    await page.getByRole("button", { name: "Beställ ett block till" }).click();
    await expect(page.locator(".series")).toHaveText("51 - 100");
    expect(await blocksOf(retailer.id)).toHaveLength(2);

    // The first confirm form sent again (back button, retry): its own block, nothing new.
    const res = await page.request.post("/order", { form: { csrf: await formToken(page.request), intent: "bestall", token: confirmToken }, maxRedirects: 0 });
    expect(res.status()).toBe(302);
    await page.goto(res.headers()["location"]);
    await expect(page.locator(".series")).toHaveText("1 - 50");
    expect(await blocksOf(retailer.id)).toHaveLength(2);
  });
});
