// B12 (decision 026): the morning. A newsagent on a 390 px phone (CPU ×4, 1.6 Mbit/s with
// 150 ms latency) reports eight papers: five main papers with returns in the open bundle,
// a sixth main paper Slutsåld, two inserts in a new bundle (120), then the confirm step.
// Counted: taps (presses on the screen) and key presses besides the digits typed (Enter,
// or the phone keyboard's "Nästa", which moves to the next text field without any script);
// measured: the time spent waiting for the portal, from pressing Logga in to the page
// after the confirm step's Spara. JavaScript off and on, a fresh shop each.
import type { Locator } from "@playwright/test";
import { addDays, today } from "../app/lib/dates";
import { openDb } from "../db/client";
import { createBundle, createCustomer, createDelivery, createLabelBlock, ensureTitlesAndEditions } from "../db/factories";
import { median } from "./lib";

export type Morning = { taps: number; keys: number; digits: number; waitMs: number };

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

export async function b12(url: string, dbFile: string): Promise<{ off: Morning; on: Morning }> {
  const { chromium } = await import("@playwright/test");
  const { existsSync } = await import("node:fs");
  const exe = "/usr/bin/chromium";
  const args = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"];
  const browser = await chromium.launch(existsSync(exe) ? { executablePath: exe, args } : { args });

  async function morning(js: boolean, id: number): Promise<Morning> {
    await shop(dbFile, id);
    const context = await browser.newContext({ javaScriptEnabled: js, viewport: { width: 390, height: 844 }, locale: "sv-SE", hasTouch: true, isMobile: true });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 150, downloadThroughput: 1_600_000 / 8, uploadThroughput: 1_600_000 / 8 });
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
    const m: Morning = { taps: 0, keys: 0, digits: 0, waitMs: 0 };
    const tap = (l: Locator) => (m.taps++, l.click());
    const type = (digits: string) => ((m.digits += digits.length), page.keyboard.type(digits));
    const enter = () => (m.keys++, page.keyboard.press("Enter"));
    // The phone keyboard's "Nästa": the browser's own move to the next text field.
    const next = () => (
      m.keys++,
      page.evaluate(() => {
        const fields = [...document.querySelectorAll<HTMLInputElement>('input[type="text"], input[type="password"], input:not([type])')];
        fields[fields.indexOf(document.activeElement as HTMLInputElement) + 1]?.focus();
      })
    );
    /** An action that makes the user wait: from the press until `ready` is on screen. */
    const waitFor = async (action: () => Promise<unknown>, ready: Locator) => {
      const started = performance.now();
      await action();
      await ready.waitFor({ timeout: 60_000 });
      if (js) await page.waitForFunction(() => document.documentElement.dataset.hydrated, undefined, { timeout: 60_000 });
      m.waitMs += performance.now() - started;
    };
    const amounts = page.getByRole("textbox", { name: /^Retur för / });

    await page.goto(`${url}/login`);
    if (js) await page.waitForFunction(() => document.documentElement.dataset.hydrated, undefined, { timeout: 60_000 });
    await tap(page.getByLabel("Kundnummer"));
    await type(String(id));
    await next();
    await type("4321");
    const start = page.getByRole("link", { name: /^Rapportera returer – 8 tidningar/ });
    await waitFor(() => tap(page.getByRole("button", { name: "Logga in" })), start);
    await waitFor(() => tap(start), amounts.first());
    await amounts.nth(7).waitFor();

    if (js) {
      // The inserts' bundle once for both, then Retur to Retur with Enter.
      await tap(page.getByLabel("Bunt för bilagor"));
      await type("120");
      await enter();
      await tap(amounts.nth(0));
      for (let i = 0; i < 5; i++) {
        await type(String(i + 2));
        await enter();
      }
      await tap(page.getByRole("button", { name: /^Slutsåld för / }).nth(5));
      await tap(amounts.nth(6));
      await type("3");
      await enter();
      await type("2");
      await waitFor(() => enter(), page.getByRole("heading", { name: "Returerna är sparade" }));
    } else {
      // The phone's Nästa goes through every text field: each row's Bunt, then its Retur.
      await tap(amounts.nth(0));
      for (let i = 0; i < 5; i++) {
        await type(String(i + 2));
        if (i < 4) {
          await next();
          await next();
        }
      }
      await waitFor(() => tap(page.getByRole("button", { name: /^Slutsåld för / }).nth(5)), page.getByRole("button", { name: /^Slutsåld för / }).nth(5).and(page.locator('[aria-pressed="true"]')));
      await tap(page.getByRole("textbox", { name: /^Bunt för .*Sportbladet/ }));
      await type("120");
      await next();
      await type("3");
      await next();
      await type("120");
      await next();
      await type("2");
      await waitFor(() => tap(page.getByRole("button", { name: "Spara och fortsätt" })), page.getByRole("heading", { name: "Returerna är sparade" }));
    }
    // The confirm step: Öppen is chosen already for the one open bundle of each type; saved,
    // the form is back with nothing left to report.
    await waitFor(() => tap(page.getByRole("button", { name: "Spara", exact: true })), page.getByText("Inget att rapportera").nth(1));
    await context.close();
    return m;
  }

  const off: Morning[] = [];
  const on: Morning[] = [];
  const base = 90_000 + Math.floor(Math.random() * 4000) * 2;
  for (let i = 0; i < 3; i++) {
    off.push(await morning(false, base + i * 2));
    on.push(await morning(true, base + i * 2 + 1));
  }
  await browser.close();
  const med = (ms: Morning[]): Morning => ({ ...ms[0], waitMs: median(ms.map((x) => x.waitMs)) });
  return { off: med(off), on: med(on) };
}
