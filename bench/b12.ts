// B12 (decision 026): the morning. A newsagent on a 390 px phone (CPU ×4, 1.6 Mbit/s with
// 150 ms latency) reports eight papers: five main papers with returns in the open bundle,
// a sixth main paper sold out (0 typed, what Slutsåld does), two inserts in a new bundle
// (120), then the confirm step. Counted: taps (presses on the screen) and key presses
// besides the digits typed (Enter, or the phone keyboard's "Nästa", which moves to the next
// text field without any script); measured: the time spent waiting for the portal, from
// pressing Logga in to the confirm step's "saved" (what counts as waiting: decision 026).
// JavaScript off and on, a fresh shop each, the median of nine mornings after a warm-up:
// a step takes 300–600 ms on the phone and 1.1 × of that is 30–60 ms, about what one
// morning differs from the next on a shared machine, so five were not enough to tell.
import type { Locator } from "@playwright/test";
import { addDays, today } from "../app/lib/dates";
import { openDb } from "../db/client";
import { createBundle, createCustomer, createDelivery, createLabelBlock, ensureTitlesAndEditions } from "../cli/seed/factories";
import { median, SMOKE } from "./lib";

/** Mornings each way, after the warm-up: the figures are their medians. */
const MORNINGS = SMOKE ? 1 : 9;

/** How long a person looks at a page before the next tap (not counted as waiting). */
const READING_MS = SMOKE ? 0 : 1000;
/** A digit typed on a phone's keyboard by a practised hand (about seven a second). */
const TYPING_MS = SMOKE ? 0 : 150;

/** What shows that a step is done: see onScreen. */
type Ready = { css: string; text?: RegExp; count?: number };
const SAVED: Ready = { css: "h1, h2, h3", text: /^Returerna är sparade$/ };

export type Morning = { taps: number; keys: number; digits: number; waitMs: number; steps: Record<string, number> };

async function shop(dbFile: string, id: number) {
  const db = openDb(`file:${dbFile}`);
  await ensureTitlesAndEditions(db);
  await createCustomer(db, { id, distributorId: 1, pin: "4321", name: "Şahin Livs", address: "Storgatan 1", zip: "211 20", city: "Malmö" });
  const t = today();
  const from = addDays(t, -30);
  const to = addDays(t, 300);
  await createLabelBlock(db, { customerId: id, type: 0, status: "Levererad", fromDate: from, toDate: to, fromNumber: 101, toNumber: 119 });
  await createLabelBlock(db, { customerId: id, type: 1, status: "Levererad", fromDate: from, toDate: to, fromNumber: 120, toNumber: 140 });
  await createBundle(db, { customerId: id, number: 101, type: 0, open: true });
  const paper = (deliveryDate: string, titleId: number, editionId: number, delivered: number) =>
    createDelivery(db, { customerId: id, titleId, editionId, deliveryDate, delivered, priceOre: 1500 });
  // Six main papers (Aftonbladet, Expressen, Kvällsposten over three days), two inserts.
  await paper(addDays(t, -3), 1, 1, 30);
  await paper(addDays(t, -2), 1, 1, 36);
  await paper(addDays(t, -2), 2, 1, 12);
  await paper(addDays(t, -1), 1, 1, 36);
  await paper(addDays(t, -1), 2, 1, 12);
  await paper(addDays(t, -1), 2, 2, 9);
  await paper(addDays(t, -1), 1, 21, 8);
  await paper(addDays(t, -1), 2, 21, 5);
  db.$client.close();
}

/**
 * "phone": a 390 px phone, CPU ×4, 1.6 Mbit/s with 150 ms latency, taps on the touch screen.
 * "desktop": a shop terminal's plain desktop browser, 1280 × 800, no throttling, clicks.
 */
export type MorningProfile = "phone" | "desktop";

export async function b12(url: string, dbFile: string, profile: MorningProfile = "phone"): Promise<{ off: Morning; on: Morning }> {
  const { chromium } = await import("@playwright/test");
  const { existsSync } = await import("node:fs");
  const exe = "/usr/bin/chromium";
  const args = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"];
  const browser = await chromium.launch(existsSync(exe) ? { executablePath: exe, args } : { args });

  async function morning(js: boolean, id: number): Promise<Morning> {
    await shop(dbFile, id);
    const phone = profile === "phone";
    const context = await browser.newContext(
      phone
        ? { javaScriptEnabled: js, viewport: { width: 390, height: 844 }, locale: "sv-SE", hasTouch: true, isMobile: true }
        : { javaScriptEnabled: js, viewport: { width: 1280, height: 800 }, locale: "sv-SE" },
    );
    const page = await context.newPage();
    if (phone) {
      const cdp = await context.newCDPSession(page);
      await cdp.send("Network.enable");
      await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 150, downloadThroughput: 1_600_000 / 8, uploadThroughput: 1_600_000 / 8 });
      await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
    }
    const m: Morning = { taps: 0, keys: 0, digits: 0, waitMs: 0, steps: {} };
    // A tap is the finger's: touch events at the middle of the element, found before the clock
    // starts (Playwright's own click first scrolls and waits for the element to stand still,
    // which on the slowed CPU adds ~120 ms a person never waits for).
    const aim = async (l: Locator) => {
      // A page that re-renders as it settles may swap the element while it is found (seen with
      // no reading time, in the smoke): looked for again, the locator finds the new one. Before
      // the clock starts, so it is not counted as waiting.
      let box: { x: number; y: number; width: number; height: number } | null = null;
      for (let attempt = 1; !box; attempt++) {
        try {
          await l.waitFor({ state: "visible" });
          await l.scrollIntoViewIfNeeded();
          box = await l.boundingBox();
        } catch (e) {
          if (attempt >= 5) throw e;
        }
        if (!box && attempt >= 5) throw new Error(`Not on screen: ${l}`);
      }
      const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
      return () => (m.taps++, phone ? page.touchscreen.tap(x, y) : page.mouse.click(x, y));
    };
    const tap = async (l: Locator) => (await aim(l))();
    // A person's typing, a key per TYPING_MS (not counted as waiting): typed in a few
    // milliseconds, the customer number and PIN sent the login while the login page was still
    // fetching the start page's code, on the phone's line beside the login itself.
    const type = (digits: string) => ((m.digits += digits.length), page.keyboard.type(digits, { delay: TYPING_MS }));
    const enter = () => (m.keys++, page.keyboard.press("Enter"));
    // The phone keyboard's "Nästa": the browser's own move to the next text field.
    const next = () => (
      m.keys++,
      page.evaluate(() => {
        const fields = [...document.querySelectorAll<HTMLInputElement>('input[type="text"], input[type="password"], input:not([type])')];
        fields[fields.indexOf(document.activeElement as HTMLInputElement) + 1]?.focus();
      })
    );
    // What a step waits for, found with one plain DOM query: elements matching `css` that have
    // a box on the page and whose text matches `text`, at least `count` of them. Not Playwright's
    // role locators: those compute the accessible name of every element on the page, tens of
    // milliseconds on the slowed CPU, and with JavaScript they queue behind hydration's slices,
    // so they measured the query, not the page (decision 026).
    const onScreen = (r: Ready) =>
      page
        .evaluate(
          ({ css, text, count }) =>
            [...document.querySelectorAll(css)].filter((e) => e.getClientRects().length > 0 && (!text || new RegExp(text).test((e.textContent ?? "").trim()))).length >= count,
          { css: r.css, text: r.text?.source, count: r.count ?? 1 },
        )
        // Asked while the old page is leaving: not there yet.
        .catch(() => false);
    // An action that makes the person wait: from the tap until `ready` is on screen. Every page
    // works before its script has run (a tap on a link or a submit is the browser's own), so
    // the wait ends there; then the person reads the page for a second before the next tap.
    // A next step that needs the script (Enter to the next field) needs the page hydrated: the
    // part of that which outlasts the reading is waiting too.
    const waitFor = async (step: string, press: Locator | (() => Promise<unknown>), ready: Ready, needsScript = false) => {
      const action = typeof press === "function" ? press : await aim(press);
      const started = performance.now();
      await action();
      // Looked for every few milliseconds: Playwright's own waitFor backs off to 500 ms
      // between looks, which read a step of 350 ms as up to 850 ms.
      const until = performance.now() + 60_000;
      while (!(await onScreen(ready))) {
        if (performance.now() > until) throw new Error(`Not shown within a minute: ${JSON.stringify(ready)}`);
        await page.waitForTimeout(5);
      }
      let ms = performance.now() - started;
      const shown = performance.now();
      if (js && needsScript) await page.waitForFunction(() => document.documentElement.dataset.hydrated, undefined, { timeout: 60_000 });
      const readingLeft = READING_MS - (performance.now() - shown);
      if (readingLeft > 0) await page.waitForTimeout(readingLeft);
      else ms -= readingLeft;
      m.waitMs += ms;
      m.steps[step] = Math.round(ms);
    };
    const amounts = page.getByRole("textbox", { name: /^Retur för / });

    await page.goto(`${url}/login`);
    if (js) await page.waitForFunction(() => document.documentElement.dataset.hydrated, undefined, { timeout: 60_000 });
    await tap(page.getByLabel("Kundnummer"));
    await type(String(id));
    await next();
    await type("4321");
    const start = page.getByRole("link", { name: /^Rapportera returer – 8 tidningar/ });
    await waitFor("login", page.getByRole("button", { name: "Logga in" }), { css: "a", text: /^Rapportera returer – 8 tidningar/ });
    await start.waitFor();
    await waitFor("form", start, { css: 'input[name$=".amount"]', count: 8 }, true);
    await amounts.nth(7).waitFor();

    if (js) {
      // The inserts' bundle once for both, then Retur to Retur with Enter; the sold-out paper
      // gets 0, which is what Slutsåld does.
      await tap(page.getByLabel("Bunt för bilagor"));
      await type("120");
      await enter();
      await tap(amounts.nth(0));
      for (const amount of ["2", "3", "4", "5", "6", "0", "3"]) {
        await type(amount);
        await enter();
      }
      await type("2");
      await waitFor("save", () => enter(), SAVED);
    } else {
      // The phone's Nästa goes through every text field: each row's Bunt, then its Retur.
      await tap(amounts.nth(0));
      for (const [i, amount] of ["2", "3", "4", "5", "6", "0"].entries()) {
        if (i > 0) {
          await next();
          await next();
        }
        await type(amount);
      }
      // On to "Bunt för bilagor": typed once, it counts for both inserts when the form is saved.
      await next();
      await type("120");
      for (const amount of ["3", "2"]) {
        await next();
        await next();
        await type(amount);
      }
      await waitFor("save", page.getByRole("button", { name: "Spara och fortsätt" }), SAVED);
    }
    // The confirm step: Öppen is chosen already for the one open bundle of each type; saved,
    // the form is back, saying so, with nothing left to report.
    const dialog = page.getByRole("heading", { name: "Returerna är sparade" });
    await waitFor("confirm", page.getByRole("button", { name: "Spara", exact: true }), { css: '[role="status"]', text: /^(Buntarna är sparade\.|Sparat!)/ });
    await dialog.waitFor({ state: "hidden" });
    await page.getByText("Inget att rapportera").nth(1).waitFor();
    await context.close();
    return m;
  }

  const off: Morning[] = [];
  const on: Morning[] = [];
  const base = 90_000 + Math.floor(Math.random() * 4000) * 2;
  // A first morning each way warms the server and the browser, as the morning's first shops do.
  if (!SMOKE) {
    await morning(false, base - 2);
    await morning(true, base - 1);
  }
  for (let i = 0; i < MORNINGS; i++) {
    off.push(await morning(false, base + i * 2));
    on.push(await morning(true, base + i * 2 + 1));
  }
  await browser.close();
  const med = (ms: Morning[]): Morning => ({
    ...ms[0],
    waitMs: median(ms.map((x) => x.waitMs)),
    steps: Object.fromEntries(Object.keys(ms[0].steps).map((k) => [k, median(ms.map((x) => x.steps[k]))])),
  });
  return { off: med(off), on: med(on) };
}
