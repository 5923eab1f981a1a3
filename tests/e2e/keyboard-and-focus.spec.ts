// The portal by keyboard and screen reader. The skip link is the first Tab
// stop on every page and leads into the content; the focus ring stands out (≥ 3:1) from
// what is around it; with JavaScript, focus follows the user after menu navigation, a
// save, a refused save and a closed dialog instead of dropping to <body>.
import type { Page } from "@playwright/test";
import { createLabelBlock } from "../../cli/seed/factories";
import { addDays, today } from "../../app/lib/dates";
import { e2eDb, expect, forgetUser, loginAs, makeStaff, test } from "./fixtures";
import { day as dayFrom, delivery } from "./returns-data";

const day = today();

async function giveLabels(customerId: number) {
  await createLabelBlock(e2eDb(), { customerId, type: 0, status: "Levererad", fromDate: day, toDate: addDays(day, 365), fromNumber: 1, toNumber: 50 });
}

async function expectSkipLinkFirst(page: Page, path: string) {
  await page.goto(path);
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Hoppa till innehållet" });
  await expect(skip, path).toBeFocused();
  await expect(skip, `${path}: visible when focused`).toBeInViewport();
  await page.keyboard.press("Enter");
  // Focus is in the content now: the next Tab stop is inside <main>, not the menu.
  await page.keyboard.press("Tab");
  expect(await page.evaluate(() => document.getElementById("main")?.contains(document.activeElement) ?? false), `${path}: next stop in main`).toBe(true);
}

/** Contrast ratio of two CSS colours (rgb/rgba strings), WCAG 2. */
const CONTRAST = `(a, b) => {
  const parse = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = (c) => { const [r, g, b] = parse(c).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}`;

/** Tabs through the first `stops` focus stops; each one's ring against what lies around it. */
async function focusRings(page: Page, stops: number) {
  const seen: { what: string; ratio: number; width: number }[] = [];
  for (let i = 0; i < stops; i++) {
    await page.keyboard.press("Tab");
    const ring = await page.evaluate(`(() => {
      const contrast = ${CONTRAST};
      const el = document.activeElement;
      if (!el || el === document.body) return null;
      const style = getComputedStyle(el);
      // The ring lies outside the element (outline-offset), on its parent's background.
      let bg = "rgb(255, 255, 255)";
      for (let p = el.parentElement; p; p = p.parentElement) {
        const c = getComputedStyle(p).backgroundColor;
        if (c && c !== "transparent" && !/rgba\\(.*, 0\\)$/.test(c)) { bg = c; break; }
      }
      return { what: el.tagName + " " + (el.textContent || el.getAttribute("aria-label") || "").trim().slice(0, 30), ratio: contrast(style.outlineColor, bg), width: parseFloat(style.outlineWidth) };
    })()`);
    if (ring) seen.push(ring as { what: string; ratio: number; width: number });
  }
  return seen;
}

test("the skip link is the first Tab stop and leads into the content, logged out, as a retailer and as staff", async ({ page, retailer }) => {
  await expectSkipLinkFirst(page, "/login");
  await giveLabels(retailer.id);
  await loginAs(page, retailer.id, retailer.pin);
  for (const path of ["/", "/rapportering/1", "/foljesedel", "/historik"]) await expectSkipLinkFirst(page, path);
  const admin = await makeStaff("admin");
  await forgetUser(page);
  await loginAs(page, admin.email, admin.password);
  await expectSkipLinkFirst(page, "/admin");
});

test("the focus ring has at least 3:1 against its background, in the header, the menu and the content", async ({ page, retailer }) => {
  await giveLabels(retailer.id);
  await loginAs(page, retailer.id, retailer.pin);
  await page.goto("/lopsedlar");
  const rings = await focusRings(page, 25);
  expect(rings.length).toBeGreaterThan(10);
  for (const r of rings) {
    expect(r.width, r.what).toBeGreaterThanOrEqual(2);
    expect(r.ratio, r.what).toBeGreaterThanOrEqual(3);
  }
});

test("a wrong PIN marks the PIN field invalid, tells why once, and keeps the number", async ({ page, retailer }, info) => {
  await page.goto("/login");
  const pin = page.getByLabel("Pinkod");
  await expect(pin).toHaveAttribute("inputmode", "numeric");
  await expect(pin).toHaveAttribute("autocomplete", "current-password");
  await page.getByLabel("Kundnummer").fill(String(retailer.id));
  await pin.fill("0000");
  await page.getByRole("button", { name: "Logga in" }).click();
  await expect(pin).toHaveAttribute("aria-invalid", "true");
  const reasonId = (await pin.getAttribute("aria-describedby"))!;
  const reason = page.locator(`[id="${reasonId}"]`);
  await expect(reason).toHaveText(/.+/);
  await expect(page.getByLabel("Kundnummer")).toHaveValue(String(retailer.id));
  await expect(pin).toHaveValue("");
  if (info.project.name === "js-on") {
    // Read once: the focus on the field reads the reason; no alert on top of it.
    await expect(pin).toBeFocused();
    await expect(reason).not.toHaveAttribute("role", "alert");
  } else {
    await expect(reason).toHaveAttribute("role", "alert");
  }
});

test.describe("with JavaScript", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "focus is moved by the page's script; without it each page load starts at the top");

  test("after menu navigation the new page's h1 has the focus", async ({ page, retailer }) => {
    await giveLabels(retailer.id);
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/");
    const menu = page.getByRole("navigation", { name: "Huvudmeny" });
    await menu.getByRole("link", { name: "Historik" }).focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/historik/);
    await expect(page.getByRole("heading", { level: 1 })).toBeFocused();
  });

  test("a refused save focuses the first invalid field; a save focuses its confirmation, which stays", async ({ page, retailer }) => {
    await giveLabels(retailer.id);
    // The page's timers run on Playwright's clock, so "long after" is run, not waited for.
    await page.clock.install();
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/lopsedlar");
    await page.getByLabel("Önskat antal Aftonbladet").fill("7");
    // The fields show the amounts in force; an emptied one is refused.
    await page.getByLabel("Önskat antal Expressen").fill("");
    await page.getByRole("button", { name: "Spara" }).click();
    await expect(page.getByLabel("Önskat antal Expressen")).toBeFocused();
    await page.getByLabel("Önskat antal Expressen").fill("3");
    await page.getByRole("button", { name: "Spara" }).click();
    const saved = page.getByRole("status").filter({ hasText: "Sparat!" });
    await expect(saved).toBeFocused();
    // Still there a minute later (no timer takes it away before the next action).
    await page.clock.runFor(60_000);
    await expect(saved).toBeVisible();
    await expect(saved).toBeFocused();
  });

  test("the returns save is the browser's own POST (fast on a slow phone), and a refusal still focuses the first refused field", async ({ page, retailer }) => {
    await giveLabels(retailer.id);
    const paper = await delivery(retailer.id, { date: dayFrom(-1), delivered: 10 });
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/rapportering/1");
    await page.waitForFunction(() => document.documentElement.dataset.hydrated);
    await page.locator(`input[name="d${paper.id}.bundle"]`).fill("7");
    // A full page load answers the save: the marker of the page that sent it is gone.
    await page.evaluate(() => ((window as unknown as { sentFrom: string }).sentFrom = "returns"));
    await page.getByRole("button", { name: "Spara och fortsätt" }).click();
    const amount = page.locator(`input[name="d${paper.id}.amount"]`);
    await expect(amount).toHaveAttribute("aria-invalid", "true");
    expect(await page.evaluate(() => (window as unknown as { sentFrom?: string }).sentFrom)).toBeUndefined();
    await page.waitForFunction(() => document.documentElement.dataset.hydrated);
    // The refused field has the focus: the amount ("Ange antal."), not the row's bundle.
    await expect(amount).toBeFocused();
    await expect(page.locator(`input[name="d${paper.id}.bundle"]`)).not.toHaveAttribute("aria-invalid", "true");
    await expect(page.locator(`input[name="d${paper.id}.bundle"]`)).toHaveValue("7");
    await amount.fill("4");
    await page.getByRole("button", { name: "Spara och fortsätt" }).click();
    await expect(page).toHaveURL(/\/rapportering\/1\/bekrafta$/);
    await expect(page.getByRole("heading", { name: "Returerna är sparade" })).toBeVisible();
  });

  test("'Hämtar data...' shows while a slow page's data loads, and goes when it is there", async ({ page, retailer }) => {
    await giveLabels(retailer.id);
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/kontakt");
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/_root\.data|\.data(\?|$)/, async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole("navigation", { name: "Huvudmeny" }).getByRole("link", { name: "Start" }).click();
    await expect(page.getByText("Hämtar data...")).toBeVisible();
    release();
    await expect(page.getByRole("heading", { level: 1 })).not.toHaveText("Kontakt");
    await expect(page.getByText("Hämtar data...")).toHaveCount(0);
  });

  test("a closed dialog gives the focus back to what opened it", async ({ page }) => {
    const admin = await makeStaff("admin");
    await loginAs(page, admin.email, admin.password);
    await page.goto("/admin");
    await page.getByLabel("Titel", { exact: true }).fill("Fokuslänken");
    await page.getByLabel("Länk", { exact: true }).fill("https://intra.example/fokus");
    await page.getByRole("button", { name: "Lägg till" }).click();
    // Saved and the list shown again: a link focused before would be replaced under the focus.
    await expect(page.getByRole("status")).toHaveText("Länken är sparad.");
    // (The save's confirmation takes the focus first; from there the user goes to the link.)
    await expect(page.getByRole("status")).toBeFocused();
    const opener = page.getByRole("link", { name: "Ta bort Fokuslänken" }).first();
    await opener.focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("dialog")).toBeVisible();
    // A modal (React Aria): the page behind it is inert, out of reach of Tab and screen
    // readers, and the focus is inside (both set just after the dialog appears).
    await expect.poll(() => page.locator("#main").evaluate((el) => el.closest("[inert]") !== null)).toBe(true);
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest('[role="dialog"]') !== null)).toBe(true);
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(opener).toBeFocused();
  });

  test("a dialog's field entered before the modal's code arrives keeps the focus and what is typed in it", async ({ page, retailer }) => {
    const paper = await delivery(retailer.id, { date: dayFrom(0), delivered: 9 });
    const other = await delivery(retailer.id, { date: dayFrom(0), titleId: 2, editionId: 2, delivered: 20 });
    await loginAs(page, retailer.id, retailer.pin);
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto("/foljesedel");
    await page.waitForFunction(() => document.documentElement.dataset.hydrated);
    // Every time the dialog's section leaves the page while it is open (a swap under the user's hands).
    await page.evaluate(() => {
      const w = window as unknown as { sectionsRemoved: number };
      w.sectionsRemoved = 0;
      new MutationObserver((changes) => {
        for (const c of changes) for (const n of c.removedNodes) if (n instanceof HTMLElement && n.matches("section.url-dialog")) w.sectionsRemoved++;
      }).observe(document.body, { childList: true, subtree: true });
    });
    // The modal's code is held back (a slow line): the dialog opens as the section.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let chunk = "";
    await page.route(/\/aria-modal-[^/]*\.js$/, async (route) => {
      chunk = route.request().url();
      await held;
      await route.continue();
    });
    await page.locator(`#leverans-${paper.id}`).getByRole("link", { name: /^Ändra mottaget/ }).click();
    const section = page.locator("section.url-dialog");
    await section.getByLabel("Mottagit").click();
    await expect(section.getByLabel("Mottagit")).toBeFocused();
    // The code arrives while the user is in the field; the page has run it when this returns.
    await expect.poll(() => chunk).not.toBe("");
    release();
    await page.evaluate(async (url) => {
      await import(url);
      await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    }, chunk);
    await page.keyboard.type("12");
    await expect(section.getByLabel("Mottagit")).toHaveValue("12");
    await page.keyboard.press("Enter");
    await expect(section.getByRole("alert")).toHaveText("Du skrev 12, fler än de 9 som levererades. Stämmer det? Tryck Spara igen så sparas 12.");
    await expect(section.getByLabel("Mottagit")).toHaveValue("12");
    expect(await page.evaluate(() => (window as unknown as { sectionsRemoved: number }).sectionsRemoved)).toBe(0);

    // Another row's dialog, opened from the page behind the section, is a new opening: its own
    // field, empty (not the 12 typed for the first row), and the modal, its code being here.
    await page.locator(`#leverans-${other.id}`).getByRole("link", { name: /^Ändra mottaget/ }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog).toContainText("Levererat: 20");
    await expect(dialog.getByLabel("Mottagit")).toHaveValue("");
  });
});

test.describe("without JavaScript", () => {
  test.skip(({ javaScriptEnabled }) => javaScriptEnabled, "with JavaScript nothing reloads, so the page stays where it is");

  test("a row's button brings the answer back to that row, not the top of the page", async ({ page, retailer }) => {
    await giveLabels(retailer.id);
    const papers = [];
    for (let i = 1; i <= 14; i++) papers.push(await delivery(retailer.id, { date: dayFrom(-i), delivered: 10 }));
    // The newest paper is the form's last row (papers older than their last return day are locked).
    const last = papers[0];
    await loginAs(page, retailer.id, retailer.pin);
    await page.setViewportSize({ width: 360, height: 640 });
    await page.goto("/rapportering/1");
    await page.getByRole("button", { name: `Slutsåld för Aftonbladet ${dayFrom(-1)}` }).click();
    await expect(page).toHaveURL(new RegExp(`#rad-d${last.id}$`));
    await expect(page.locator(`#rad-d${last.id}`)).toBeInViewport();
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);

    // The delivery note's Spara, too (its answer is a redirect; the fragment survives it).
    const fresh = await delivery(retailer.id, { date: dayFrom(0), delivered: 7 });
    await page.goto("/foljesedel");
    const row = page.locator(`#leverans-${fresh.id}`);
    // On a small screen Mottagit is entered in a dialog (spec 2.6), a section without JavaScript.
    await row.getByRole("link", { name: /^Ändra mottaget för / }).click();
    await page.locator("section.url-dialog").getByLabel("Mottagit").fill("7");
    await page.locator("section.url-dialog").getByRole("button", { name: "Spara" }).click();
    await expect(page).toHaveURL(new RegExp(`#leverans-${fresh.id}$`));
    await expect(row).toBeInViewport();
  });
});
