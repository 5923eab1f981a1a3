// At 320 CSS px, and at 360 px with the text at 200 %, no retailer or staff page scrolls
// sideways: tables become stacked rows, long words wrap, the menu folds. At desktop widths
// (1280 px, staff at 1440 px too) no table breaks a word, number, date or amount inside.
// Every page is filled with real data (long Swedish names, several rows) first.
import type { Page } from "@playwright/test";
import { createLabelBlock } from "../../cli/seed/factories";
import { addDays, today } from "../../app/lib/dates";
import { schema } from "../../db/client";
import { e2eDb, expect, freeHolidayOffset, loginAs, makeRetailer, makeStaff, test } from "./fixtures";
import { day, delivery, retailerWithAMorning } from "./returns-data";
import { portalNow } from "../../db/clock";

const RETAILER_PAGES = ["/", "/rapportering/1", "/rapportering/2", "/historik", "/buntsok", "/foljesedel", "/nodetiketter", "/buntblock", "/journal", "/faktura", "/helgsparr", "/order", "/provision", "/lopsedlar", "/paminnelser", "/produkter", "/reklamationer", "/aterkallelser", "/leverans", "/kontakt"];
const STAFF_PAGES = [
  "/admin",
  "/admin/distribution",
  "/admin/distribution/forsaljning",
  "/admin/messages",
  "/admin/kunder",
  "/admin/invoice",
  "/admin/invoice/korning",
  "/admin/guarantees",
  "/admin/bundles",
  "/admin/dailyproducts",
  "/admin/holidays",
  "/admin/products",
  "/admin/returdagar",
  "/admin/kreditering",
  "/admin/leveransreklamation",
  "/admin/aterkallelser",
  "/admin/leveransandringar",
  "/admin/logg",
  "/admin/personal",
];

/**
 * Words, numbers, dates and amounts in the page's tables that the layout broke inside (a
 * token whose text runs over more than one line), as "path: token". Breaking between words
 * is fine; "Afton|bladet" or "202|6-11-25" is not. Text for screen readers only is skipped.
 */
async function brokenTokens(page: Page, path: string): Promise<string[]> {
  const broken = await page.evaluate(() => {
    const out: string[] = [];
    // (Raw data without spaces, .wrap-anywhere, holds no words to keep whole.)
    for (const cell of document.querySelectorAll("main td:not(.wrap-anywhere), main th, main caption")) {
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const parent = node.parentElement;
        if (!parent || parent.getClientRects().length === 0) continue;
        // Raw data (a log row's code and detail) may break anywhere, at any depth.
        if (parent.closest(".wrap-anywhere")) continue;
        // Text for screen readers only: clipped to a pixel (.visually-hidden, a stacked table's header).
        let hidden = false;
        for (let el: Element | null = parent; el && el !== cell.parentElement && !hidden; el = el.parentElement) hidden = el.getBoundingClientRect().width <= 2;
        if (hidden || parent.closest(".visually-hidden, thead")?.getBoundingClientRect().width === 1) continue;
        const text = node.textContent ?? "";
        // In running text (.text) a line may also end after a hyphen, as in print.
        const tokens = parent.closest(".text") ? /[^\s-]+-?/g : /\S+/g;
        for (const m of text.matchAll(tokens)) {
          const range = document.createRange();
          range.setStart(node, m.index);
          range.setEnd(node, m.index + m[0].length);
          const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
          if (lines.size > 1) out.push(m[0]);
        }
      }
    }
    return out;
  });
  return [...new Set(broken)].slice(0, 5).map((t) => `${path}: ${t}`);
}

/** The pages that scroll sideways (with how far) and the tokens their tables break, at the current viewport and text size. */
async function overflowing(page: Page, paths: string[], bigText: boolean) {
  const out: string[] = [];
  // The browser's text size at 200 % (as a phone's font-size setting): the default font
  // 32 px instead of 16, so everything sized in rem and em doubles. (A style tag would be
  // refused by the Content-Security-Policy, rightly.)
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Page.setFontSizes", { fontSizes: bigText ? { standard: 32, fixed: 26 } : { standard: 16, fixed: 13 } });
  for (const path of paths) {
    await page.goto(path);
    const over = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    if (over > 0) out.push(`${path} (+${over} px)`);
    out.push(...(await brokenTokens(page, path)));
  }
  return out;
}

test("no retailer page scrolls sideways or breaks a word in a table at 1280 px, 320 px, nor at 360 px with 200 % text", async ({ page }, info) => {
  test.setTimeout(180_000);
  const r = await makeRetailer(info.workerIndex, { name: "Şahin Livs & Tobak Östra Storgatan Handelsbolag" });
  await retailerWithAMorning(r.id);
  await delivery(r.id, { date: day(0), titleId: 2, editionId: 2, delivered: 9 });
  await loginAs(page, r.id, r.pin);
  await page.setViewportSize({ width: 1280, height: 800 });
  const at1280 = await overflowing(page, RETAILER_PAGES, false);
  await page.setViewportSize({ width: 320, height: 640 });
  const at320 = await overflowing(page, RETAILER_PAGES, false);
  await page.setViewportSize({ width: 360, height: 640 });
  const at360 = await overflowing(page, RETAILER_PAGES, true);
  expect({ at1280, at320, at360 }).toEqual({ at1280: [], at320: [], at360: [] });
});

test("no staff page scrolls sideways or breaks a word in a table at 1440 px, 1280 px, 320 px, nor at 360 px with 200 % text", async ({ page }, info) => {
  test.setTimeout(300_000);
  const admin = await makeStaff("admin");
  // A customer with a long name and a morning's papers, for the customer page and the lists.
  const r = await makeRetailer(info.workerIndex, { name: "Şahin Livs & Tobak Östra Storgatan Handelsbolag" });
  await retailerWithAMorning(r.id);
  // A holiday with answers, for its Svar table.
  const offset = await freeHolidayOffset(500, 0);
  const [holiday] = await e2eDb()
    .insert(schema.holidays)
    .values({ description: `Trettondedag jul ${r.id}`, day: addDays(today(), offset), startReportDay: addDays(today(), offset - 20), startForceReportDay: addDays(today(), offset - 10) })
    .returning();
  await e2eDb().insert(schema.holidayReports).values({ holidayId: holiday.id, customerId: r.id, open: true });
  const pages = [
    ...STAFF_PAGES,
    `/admin/kunder/${r.id}`,
    `/admin/kunder/${r.id}/andra`,
    "/admin/dailyproducts/ny",
    "/admin/leveransreklamation?utb=1",
    "/admin/bundles?flik=innehall",
    "/admin/bundles?flik=andra",
    "/admin/invoice?flik=expo",
    "/admin/distribution?visa=1",
    `/admin/distribution?kund=${r.id}`,
    `/admin/holidays/${holiday.id}/svar?sok=${r.id}`,
  ];
  // A finished invoice run with an invoice to the long-named customer, for the run's result:
  // of a period far from every test's deliveries, so that no other test's returns read as
  // reported after an invoicing (the database is shared).
  const number = 8_000_000 + Math.floor(Math.random() * 1_000_000);
  const year = 2400 + Math.floor(Math.random() * 50);
  const period = { periodFrom: `${year}-01-01`, periodTo: `${year}-01-31` };
  await e2eDb()
    .insert(schema.invoices)
    .values({ number, customerId: r.id, paperType: 0, date: today(), dueDate: addDays(today(), 30), ...period, netOre: 1_234_567_80, vatOre: 74_074_07, amountOre: 1_308_641_87, status: "Obetald", buyer: { id: r.id, name: "Şahin Livs & Tobak Östra Storgatan Handelsbolag", coAddress: "", address: "Östra Storgatan 112", zip: "211 20", city: "Malmö", orgNumber: "556016-0680" } });
  const [run] = await e2eDb()
    .insert(schema.invoiceRuns)
    .values({ actor: `staff:${admin.id}`, ...period, created: 1, existing: 0, firstNumber: number, lastNumber: number, netOre: 1_234_567_80, vatOre: 74_074_07, amountOre: 1_308_641_87, planned: 1, finishedAt: portalNow() })
    .returning();
  pages.push(`/admin/invoice/korning?resultat=${run.id}`, `/admin/invoice/korning?fran=${addDays(today(), -30)}&till=${today()}&granska=1`);
  // Logg with rows whose sentences, targets, codes and raw details are long, of several kinds.
  const at = portalNow();
  await e2eDb()
    .insert(schema.auditLog)
    .values([
      { at, actor: `staff:${admin.id}`, action: "message.add", target: "message:1", detail: JSON.stringify({ type: 3, header: "Ändrade leveranstider under julen och nyåret 2026", customers: 1 }) },
      {
        at: at - 1,
        actor: `staff:${admin.id}`,
        action: "customer.update",
        target: `customer:${r.id}`,
        detail: JSON.stringify({ address: { from: "Storgatan 1", to: "Östra Storgatan 112, uppgång B" }, email: { from: "", to: "sahin.livs.och.tobak@ostrastorgatan-handelsbolag.example" }, bankgiro: { from: "", to: "5050-1055" } }),
      },
      { at: at - 2, actor: `staff:${admin.id}`, onBehalfOf: `customer:${r.id}`, action: "impersonation.start", target: `customer:${r.id}`, ip: "2001:db8:5ee:1:a:b:c:d" },
      { at: at - 3, actor: `staff:${admin.id}`, action: "extra-invoice.draft-add", target: "extra-invoice-line:123456", detail: JSON.stringify({ articleName: "Exponeringsställ Tidningshylla Golvmodell 180 cm", customerId: r.id, nettoPriceOre: 1_250_000, deliveredAmount: 3 }) },
      { at: at - 4, actor: "anonymous", action: "login.failure", target: "staff:forsaljningsansvarig.region.syd@returportalen.example", ip: "198.51.100.254" },
    ]);
  await loginAs(page, admin.email, admin.password);
  await page.setViewportSize({ width: 1440, height: 900 });
  // The back office uses the width it has: at 1440 px the content column is not a 900 px strip.
  await page.goto("/admin/kunder");
  expect(await page.locator("main").evaluate((m) => m.getBoundingClientRect().width)).toBeGreaterThan(1100);
  // The finished run shows its invoice, in the singular.
  await page.goto(`/admin/invoice/korning?resultat=${run.id}`);
  await expect(page.getByRole("table", { name: "Fakturor i körningen" })).toContainText(`${number} (PDF)`);
  await expect(page.getByText("1 faktura, nr")).toBeVisible();
  await expect(page.getByRole("link", { name: "Exportera fakturan till Excel" })).toBeVisible();
  const at1440 = await overflowing(page, pages, false);
  await page.setViewportSize({ width: 1280, height: 800 });
  const at1280 = await overflowing(page, pages, false);
  await page.setViewportSize({ width: 320, height: 640 });
  const at320 = await overflowing(page, pages, false);
  await page.setViewportSize({ width: 360, height: 640 });
  const at360 = await overflowing(page, pages, true);
  expect({ at1440, at1280, at320, at360 }).toEqual({ at1440: [], at1280: [], at320: [], at360: [] });
});

test("on a 360 × 640 phone with 200 % text, banners stay one line each: the h1 is on the first screen and the first heading", async ({ page }, info) => {
  const r = await makeRetailer(info.workerIndex, { name: "Kiosk Łódź Nguyễn & Söner Centralstationen" });
  await createLabelBlock(e2eDb(), { customerId: r.id, type: 0, status: "Levererad", fromDate: today(), toDate: addDays(today(), 365), fromNumber: 1, toNumber: 50 });
  for (const header of ["Ändrade leveranstider under julen", "Nya returetiketter från januari"]) {
    const [m] = await e2eDb().insert(schema.messages).values({ type: 3, header: `${header} ${r.id}`, content: "<p>Ett långt meddelande. ".repeat(20) + "</p>", startDate: addDays(today(), -1), stopDate: addDays(today(), 1) }).returning();
    await e2eDb().insert(schema.messageCustomers).values({ messageId: m.id, customerId: r.id });
  }
  // No alerts (the demo data's holiday answered): this is about the banners.
  const due = await e2eDb().select().from(schema.holidays);
  for (const h of due) await e2eDb().insert(schema.holidayReports).values({ holidayId: h.id, customerId: r.id, open: true }).onConflictDoNothing();
  await loginAs(page, r.id, r.pin);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Page.setFontSizes", { fontSizes: { standard: 32, fixed: 26 } });
  await page.setViewportSize({ width: 360, height: 640 });
  await page.goto("/kontakt");
  await expect(page.getByRole("region", { name: "Att göra" })).toHaveCount(0);
  const h1 = page.getByRole("heading", { level: 1 });
  await expect(h1).toBeInViewport();
  // Both messages are behind the one line.
  await expect(page.locator("details.banner summary")).toHaveText(/\d+ meddelanden\s*Visa/);
  expect(await page.evaluate(() => document.querySelector("main h1, main h2, main h3")?.tagName)).toBe("H1");
  // The retailer's name stays visible, cut to 20 characters (spec).
  await expect(page.getByRole("banner").getByText("Kiosk Łódź Nguyễn & …")).toBeVisible();
});
