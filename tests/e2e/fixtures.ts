// Test fixtures: every test makes its own customers and staff in the e2e database
// (the server's file, opened here too), so tests never share mutable data.
import { test as base, expect, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { mkdirSync, rmSync } from "node:fs";
import { openDb, schema, type Db } from "../../db/client";
import { createCustomer, createStaff } from "../../cli/seed/factories";
import { addDays, today } from "../../app/lib/dates";
import { loginPost } from "./login-post";
import { serverDatabase, unusedCode } from "./totp-codes";
import { logSize, serverErrorsSince } from "./server-log";

let db: Db | undefined;
export function e2eDb(): Db {
  db ??= openDb(`file:tests/.tmp/e2e-${process.env.E2E_PORT || 3100}.db`);
  return db;
}
serverDatabase(`http://127.0.0.1:${process.env.E2E_PORT || 3100}`, e2eDb);

// Customer numbers 20000–89999 belong to e2e tests: a range per worker and a counter.
let counter = 0;
export function uniqueCustomerId(workerIndex: number): number {
  counter++;
  return 20000 + ((workerIndex * 7000 + Math.floor(Math.random() * 1000) * 7 + counter) % 70000);
}

export type Retailer = { id: number; pin: string; name: string };

export async function makeRetailer(workerIndex: number, opts: { distributorId?: number; name?: string } = {}): Promise<Retailer> {
  for (;;) {
    const id = uniqueCustomerId(workerIndex);
    const name = opts.name ?? `Testkiosken ${id}`;
    try {
      await createCustomer(e2eDb(), { id, distributorId: opts.distributorId ?? 1, pin: "4321", name, address: "Testgatan 1", zip: "123 45", city: "Teststad" });
      return { id, pin: "4321", name };
    } catch (e) {
      // drizzle wraps the driver's error: the UNIQUE message is on the cause.
      if (!`${e} ${(e as { cause?: unknown }).cause}`.includes("UNIQUE")) throw e;
    }
  }
}

let staffCounter = 0;
/**
 * A staff user of its own. Enrolled in the second factor with TEST_TOTP_SECRET unless
 * `totpSecret` is null (then a user whose role requires it enrols at the first login).
 */
export async function makeStaff(roles: string, distributorId: number | null = null, opts: { totpSecret?: string | null; name?: string } = {}) {
  const email = `e2e-${Date.now()}-${process.pid}-${staffCounter++}@test.example`;
  const password = "e2e-password-123";
  const row = await createStaff(e2eDb(), { email, name: opts.name ?? `Test ${roles}`, password, roles, distributorId, totpSecret: opts.totpSecret });
  return { id: row.id, email, password, totpSecret: row.totpSecret };
}

export { totpCode } from "./totp-codes";

/** A code the server has not accepted yet for this staff user of the e2e server (never waits for the clock). */
export function nextTotpCode(email: string): Promise<string> {
  return unusedCode(e2eDb(), email);
}

/** Logs in through the real form, the way a person does (the code step included for staff). */
/** Logs in through the page a person uses: the retailer's box, or staff's own page for an e-mail address. */
export async function loginViaForm(page: Page, name: string, secret: string) {
  const staff = name.includes("@");
  const path = staff ? "/personal/logga-in" : "/login";
  await page.goto(path);
  await page.getByLabel(staff ? "E-post" : "Kundnummer").fill(name);
  await page.getByLabel(staff ? "Lösenord" : "Pinkod").fill(secret);
  await page.getByRole("button", { name: "Logga in" }).click();
  if (!staff) return;
  // Staff: the code step follows a right password, unless the user has no second factor.
  await Promise.race([
    page.waitForURL((url) => url.pathname !== path).catch(() => undefined),
    // A refusal: an alert without JavaScript, the PIN field marked invalid (and focused) with it.
    page.locator('[role="alert"], [aria-invalid="true"]').first().waitFor().catch(() => undefined),
  ]);
  if (new URL(page.url()).pathname !== "/login/kod") return;
  await page.getByLabel("Engångskod").fill(await nextTotpCode(name));
  await page.getByRole("button", { name: "Logga in" }).click();
  await page.waitForURL((url) => url.pathname !== "/login/kod");
}

/** A quick login for tests about other screens: posts the login form (and the code) directly. */
export async function loginAs(page: Page, name: string | number, secret: string) {
  const { path, form } = loginPost(name, secret);
  const res = await page.request.post(path, { form, maxRedirects: 0 });
  expect(res.status(), "login should redirect").toBe(302);
  if (res.headers()["location"] !== "/login/kod") return;
  const code = await page.request.post("/login/kod", { form: { kod: await nextTotpCode(String(name)) }, maxRedirects: 0 });
  expect(code.status(), "the code step should redirect").toBe(302);
  // A redirect back to /login means the pending login was not found: the login is lost.
  const location = new URL(code.headers()["location"] ?? "", "http://x").pathname;
  expect(location, "the code step should log in, not send back to the login").not.toMatch(/^\/login(\/kod)?\/?$/);
}

/**
 * Another person at the same browser: the page first leaves what it shows, so no request
 * of the old page still on its way (a revalidation after a save) can set the old session's
 * cookie again after the new login; then the cookies go.
 */
export async function forgetUser(page: Page) {
  await page.goto("about:blank");
  await page.context().clearCookies();
}

/**
 * Runs `act` (a list's search sent) and waits until `form`, as it was before, is gone. A
 * list's filter form is drawn anew for each search (keyed by the URL), and with JavaScript
 * the address changes before the new list is drawn, so a field typed in between goes into
 * the old form and is lost. Without JavaScript the old document is gone when the click returns.
 */
export async function untilFormReplaced(form: Locator, act: () => Promise<unknown>) {
  const old = await form.elementHandle();
  await act();
  // The handle of a document a navigation replaced cannot be read: that form is gone too.
  const connected = () => old!.evaluate((el) => el.isConnected).catch((e) => (/context was destroyed|disposed|not attached/i.test(String(e)) ? false : Promise.reject(e)));
  await expect.poll(connected, { message: "the search's new form" }).toBe(false);
}

/**
 * The session's form token, read from the csrf-token meta tag of a
 * page fetched with this context's cookies; "" when not logged in. For tests that post
 * straight to an action instead of through the page's form.
 */
export async function formToken(request: APIRequestContext, headers: Record<string, string> = {}): Promise<string> {
  const html = await (await request.get("/logout", { headers })).text();
  return /<meta name="csrf-token" content="([^"]+)"/.exec(html)?.[1] ?? "";
}


/**
 * With JavaScript, a test acts on a hydrated page. The page script starts after the first
 * frame (decision 026), so the browser's load event comes before it, and a press in between
 * meets the page without JavaScript: a link loads the next page, a form posts (the js-off
 * project tests exactly that). A test with JavaScript tests the page with it, so a page
 * load (goto, reload, back, forward) returns once the page is hydrated, and every action
 * (click, fill, a key) first waits for it when a document loaded since (a login, the
 * returns form's save: the browser's own POSTs). Remix's inline context script has run on
 * a Remix page whose JavaScript runs (not on a PDF, not with JavaScript off); every such
 * page, an error page too, stamps <html data-hydrated> (root.tsx). The methods are patched
 * on the classes, so the pages of a test's own contexts wait too.
 */
async function untilHydrated(page: Page) {
  for (let attempt = 0; ; attempt++) {
    try {
      const waiting = await page.evaluate(() => "__remixContext" in window && !document.documentElement.dataset.hydrated);
      // Bounded, so a page that never hydrates fails the step that needed it, by name.
      if (waiting) await page.locator("html[data-hydrated]").waitFor({ state: "attached", timeout: 20_000 }).catch((e: unknown) => Promise.reject(new Error(`${page.url()} did not hydrate: ${String(e)}`)));
      return;
    } catch (e) {
      // A document replaced while asking (a navigation under way): ask the new one.
      if (attempt < 5 && /context was destroyed|navigat/i.test(String(e))) continue;
      if (page.isClosed()) return;
      throw e;
    }
  }
}

/**
 * What the pages of the running test said was wrong: an exception no script caught, or a
 * console.error (a hydration mismatch, a refused inline script, React's warnings). A status
 * the server answered ("Failed to load resource: … 400") is not one: the test asserts those.
 */
const pageProblems: string[] = [];
const heard = new WeakSet<Page>();
function listen(page: Page) {
  if (heard.has(page)) return;
  heard.add(page);
  page.on("pageerror", (e) => {
    // A request the router itself aborted (a navigation that overtook a revalidation) is left
    // unhandled by Remix 2's single fetch (a known react-router bug): the expected end of a
    // request nobody waits for any more, not an error of the page.
    if (e.name === "AbortError") return;
    pageProblems.push(`${page.url()}: uncaught ${e.name}: ${e.message}`);
  });
  page.on("console", (m) => {
    // The same abort, logged: Remix's single fetch logs the error of a response body it was
    // still decoding when the router aborted its request (then throws, and the router drops
    // the aborted request). Seen once in a `.ci/run` of 2026-11-29, on /foljesedel.
    if (m.type() === "error" && m.text().startsWith("AbortError: ")) return;
    if (m.type() === "error" && !m.text().startsWith("Failed to load resource:")) pageProblems.push(`${page.url()}: console.error: ${m.text()}`);
  });
  const keyboard = page.keyboard as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  for (const method of ["press", "type", "insertText", "down"]) {
    const original = keyboard[method].bind(page.keyboard);
    keyboard[method] = async (...args: unknown[]) => {
      await untilHydrated(page);
      return original(...args);
    };
  }
}

type Patchable = Record<string, (...args: unknown[]) => Promise<unknown>>;
const PAGE_LOADS = ["goto", "reload", "goBack", "goForward"];
const ACTIONS = ["click", "dblclick", "tap", "fill", "clear", "press", "pressSequentially", "type", "check", "uncheck", "setChecked", "selectOption", "setInputFiles", "focus"];
let patched = false;
function waitForHydration(page: Page) {
  if (patched) return;
  patched = true;
  const pageClass = Object.getPrototypeOf(page) as Patchable;
  for (const method of PAGE_LOADS) {
    const original = pageClass[method];
    pageClass[method] = async function (this: Page, ...args: unknown[]) {
      // Every page a test drives is heard from its first load on.
      listen(this);
      const response = await original.apply(this, args);
      await untilHydrated(this);
      return response;
    };
  }
  const locatorClass = Object.getPrototypeOf(page.locator("html")) as Patchable;
  for (const method of ACTIONS) {
    const original = locatorClass[method];
    locatorClass[method] = async function (this: Locator, ...args: unknown[]) {
      await untilHydrated(this.page());
      return original.apply(this, args);
    };
  }
}

export const test = base.extend<{ retailer: Retailer; globalLock: (name: string) => Promise<void>; pageProblemsFail: void; serverErrorsFail: void }>({
  // An error the shared server logged while the test ran fails it (with the two workers,
  // the other one's test too: both are then looked at). A refusal no route answered is a
  // warning, not an error.
  serverErrorsFail: [
    async ({}, use) => {
      const from = logSize();
      await use();
      expect(serverErrorsSince(from), "the server's error lines while this test ran").toEqual([]);
    },
    { auto: true },
  ],
  // A test whose pages threw or logged an error fails, whatever it asserted (Epic Stack's habit).
  pageProblemsFail: [
    async ({}, use) => {
      pageProblems.length = 0;
      await use();
      const problems = pageProblems.splice(0);
      expect(problems, "the pages' uncaught errors and console.error lines").toEqual([]);
    },
    { auto: true },
  ],
  // Every page of a worker comes from its browser, a test's own contexts' pages too.
  browser: [
    async ({ browser }, use) => {
      const context = await browser.newContext();
      waitForHydration(await context.newPage());
      await context.close();
      await use(browser);
    },
    { scope: "worker" },
  ],
  retailer: async ({}, use, testInfo) => {
    await use(await makeRetailer(testInfo.workerIndex));
  },
  /**
   * `await globalLock(name)`: holds the lock `name` (see withGlobalLock) until the test
   * ends, pass or fail. For a test that works on state every retailer or every staff
   * user shares, which the same test in the other project would otherwise touch at once.
   */
  globalLock: async ({}, use) => {
    const held: string[] = [];
    await use(async (name) => {
      await acquire(name);
      held.push(name);
    });
    for (const name of held) release(name);
  },
});

export { expect };

/**
 * Runs `fn` while holding a lock shared by all workers (both projects run each test
 * in parallel). For the few tests that work on state that is global by design, such
 * as the set of payouts staff have prepared.
 */
export async function withGlobalLock<T>(name: string, fn: () => Promise<T>): Promise<T> {
  await acquire(name);
  try {
    return await fn();
  } finally {
    release(name);
  }
}

const lockDir = (name: string) => `tests/.tmp/lock-${process.env.E2E_PORT || 3100}-${name}`;

async function acquire(name: string) {
  for (;;) {
    try {
      mkdirSync(lockDir(name));
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

function release(name: string) {
  rmSync(lockDir(name), { recursive: true, force: true });
}

/**
 * A screen the user's role may not open: 302 to the user's own start (`home`) with the
 * message for the next page (back-office spec §6).
 */
export async function expectSentHome(request: APIRequestContext, path: string, home: string) {
  const res = await request.get(path, { maxRedirects: 0 });
  expect(res.status(), path).toBe(302);
  expect(res.headers()["location"], path).toBe(home);
}

/**
 * A day offset from today, at least `from` days ahead, such that no stored holiday falls in
 * [offset, offset + span]: one holiday per day, and every test that makes holidays shares
 * the e2e database (a random day alone met another test's now and then).
 */
export async function freeHolidayOffset(from: number, span = 40): Promise<number> {
  const taken = new Set((await e2eDb().select({ day: schema.holidays.day }).from(schema.holidays)).map((h) => h.day));
  const t = today();
  for (;;) {
    const offset = from + Math.floor(Math.random() * 5000);
    let free = true;
    for (let d = 0; d <= span && free; d++) free = !taken.has(addDays(t, offset + d));
    if (free) return offset;
  }
}
