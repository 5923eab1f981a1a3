// Test fixtures: every test makes its own customers and staff in the e2e database
// (the server's file, opened here too), so tests never share mutable data.
import { test as base, expect, type APIRequestContext, type Page } from "@playwright/test";
import { mkdirSync, rmSync } from "node:fs";
import { openDb, type Db } from "../../db/client";
import { createCustomer, createStaff } from "../../db/factories";

let db: Db | undefined;
export function e2eDb(): Db {
  db ??= openDb(`file:tests/.tmp/e2e-${process.env.E2E_PORT || 3100}.db`);
  return db;
}

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
export async function makeStaff(roles: string, distributorId: number | null = null) {
  const email = `e2e-${Date.now()}-${process.pid}-${staffCounter++}@test.example`;
  const password = "e2e-password-123";
  await createStaff(e2eDb(), { email, name: `Test ${roles}`, password, roles, distributorId });
  return { email, password };
}

/** Logs in through the real form, the way a person does. */
export async function loginViaForm(page: Page, name: string, secret: string) {
  await page.goto("/login");
  await page.getByLabel("Kundnummer").fill(name);
  await page.getByLabel("Pinkod").fill(secret);
  await page.getByRole("button", { name: "Logga in" }).click();
}

/** A quick login for tests about other screens: posts the login form directly. */
export async function loginAs(page: Page, name: string | number, secret: string) {
  const res = await page.request.post("/login", { form: { kundnummer: String(name), pinkod: secret }, maxRedirects: 0 });
  expect(res.status(), "login should redirect").toBe(302);
}

/**
 * The session's form token (issue 13 point 9), read from the csrf-token meta tag of a
 * page fetched with this context's cookies; "" when not logged in. For tests that post
 * straight to an action instead of through the page's form.
 */
export async function formToken(request: APIRequestContext, headers: Record<string, string> = {}): Promise<string> {
  const html = await (await request.get("/logout", { headers })).text();
  return /<meta name="csrf-token" content="([^"]+)"/.exec(html)?.[1] ?? "";
}


export const test = base.extend<{ retailer: Retailer }>({
  retailer: async ({}, use, testInfo) => {
    await use(await makeRetailer(testInfo.workerIndex));
  },
});

export { expect };

/**
 * Runs `fn` while holding a lock shared by all workers (both projects run each test
 * in parallel). For the few tests that work on state that is global by design, such
 * as the set of payouts staff have prepared.
 */
export async function withGlobalLock<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const dir = `tests/.tmp/lock-${process.env.E2E_PORT || 3100}-${name}`;
  for (;;) {
    try {
      mkdirSync(dir);
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
