// Axe (WCAG 2.1 A and AA rules) finds nothing on any retailer or staff page,
// with and without JavaScript, in the states a user meets: with data, refused forms,
// an open confirmation, the narrow layout with large text.
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, loginAs, makeRetailer, makeStaff, test } from "./fixtures";
import { retailerWithAMorning } from "./returns-data";

// axe runs inside the page, so it needs JavaScript: it checks the pages as rendered by the
// server and hydrated (the same HTML a browser without JavaScript gets).
test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "axe-core runs as a script in the page");

const RETAILER_PAGES = ["/", "/rapportering/1", "/rapportering/2", "/historik", "/buntsok", "/foljesedel", "/nodetiketter", "/buntblock", "/journal", "/faktura", "/helgsparr", "/order", "/provision", "/lopsedlar", "/oppettider", "/forsaljning", "/paminnelser", "/produkter", "/reklamationer", "/aterkallelser", "/leverans", "/kontakt"];
const STAFF_PAGES = ["/admin", "/admin/distribution", "/admin/distribution/forsaljning?utb=1", "/admin/messages", "/admin/kunder", "/admin/invoice", "/admin/invoice?flik=poster&ny=1", "/admin/invoice/korning", "/admin/guarantees", "/admin/bundles", "/admin/holidays", "/admin/products", "/admin/returdagar", "/admin/kreditering", "/admin/logg", "/admin/personal", "/admin/losenord", "/admin/dailyproducts", "/admin/dailyproducts/ny", "/admin/leveransreklamation", "/admin/leveransreklamation?utb=1", "/admin/aterkallelser", "/admin/leveransandringar", "/admin/leveransandringar?utb=1"];

async function violations(page: Page, paths: string[]) {
  const found: string[] = [];
  for (const path of paths) {
    await page.goto(path);
    // Legacy mode runs axe in the page itself. Otherwise AxeBuilder opens a blank page for
    // each analysis to put the frames' results together (a portal page has no frames), which
    // took half of each page's time: 1.0–4.0 s against 0.5–1.2 s, on every page (docs/testing.md).
    const result = await new AxeBuilder({ page }).setLegacyMode(true).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]).analyze();
    for (const v of result.violations) found.push(`${path}: ${v.id} (${v.nodes.length}) ${v.nodes[0]?.target.join(" ")}`);
    // Targets at least 24 × 24 px (WCAG 2.5.8); a link inside a sentence is exempt.
    const small = await page.evaluate(() => {
      const out: string[] = [];
      for (const el of Array.from(document.querySelectorAll<HTMLElement>("button, input:not([type=hidden]), select, textarea, a[href]"))) {
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.height === 0 || el.closest(".visually-hidden, .skip-link")) continue;
        if (el.tagName === "A" && el.closest("p, li:not(nav li), td, dd") && !el.matches(".button")) continue;
        if (r.width < 24 || r.height < 24) out.push(`${el.tagName.toLowerCase()} "${(el.textContent || el.getAttribute("aria-label") || el.getAttribute("name") || "").trim().slice(0, 25)}" ${Math.round(r.width)}×${Math.round(r.height)}`);
      }
      return out;
    });
    for (const t of small) found.push(`${path}: target-size ${t}`);
  }
  return found;
}

test("axe finds nothing on the login page and every retailer page", async ({ page }, info) => {
  // Twenty pages, each analysed: a limit for hangs on a loaded machine, not for speed.
  test.setTimeout(240_000);
  expect(await violations(page, ["/login", "/app"])).toEqual([]);
  const r = await makeRetailer(info.workerIndex, { name: "Şahin Livs" });
  await retailerWithAMorning(r.id);
  await loginAs(page, r.id, r.pin);
  expect(await violations(page, RETAILER_PAGES)).toEqual([]);
});

// The staff pages in two halves, so that each test analyses ten pages within its limit (a
// limit for hangs on a loaded machine, not for speed), and two workers share them.
const half = Math.ceil(STAFF_PAGES.length / 2);
for (const [part, pages] of [STAFF_PAGES.slice(0, half), STAFF_PAGES.slice(half)].entries()) {
  test(`axe finds nothing on the staff pages, part ${part + 1} of 2`, async ({ page }) => {
    test.setTimeout(240_000);
    const admin = await makeStaff("admin");
    await loginAs(page, admin.email, admin.password);
    expect(await violations(page, pages)).toEqual([]);
  });
}
