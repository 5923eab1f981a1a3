// A form post carries proof that it came from a page served to that
// session. Every session has its own token (csrf-token meta tag, hidden `csrf` field of
// every form); a token or whole form of one customer replayed in another's session, a
// post without one, or the token of a session that has ended is refused with 403 and
// stores nothing. Same-site requests throughout: cross-site ones are refused earlier.
import { request as pwRequest, type APIRequestContext } from "@playwright/test";
import { and, eq } from "drizzle-orm";
import { schema } from "../../db/client";
import { baseURL } from "../playwright.config";
import { e2eDb, expect, formToken, makeRetailer, makeStaff, test } from "./fixtures";
import { logIn } from "./own-server";

const REFUSED = "Formuläret hör inte till din inloggning. Ladda om sidan och försök igen.";
const open: APIRequestContext[] = [];
const figures = { requests: 0, refused: 0, stored: 0 };

test.afterEach(async () => {
  for (const c of open.splice(0)) await c.dispose();
});
test.afterAll(() => {
  console.log(`[form-token] ${figures.requests} forged posts, ${figures.refused} refused with 403, ${figures.stored} stored`);
});

async function loggedIn(name: string | number, secret: string) {
  const c = await pwRequest.newContext({ baseURL });
  open.push(c);
  // Through the real login, the code step included for staff with a second factor.
  await logIn(c, name, secret);
  return c;
}

async function placard(customerId: number) {
  const [row] = await e2eDb()
    .select()
    .from(schema.placards)
    .where(and(eq(schema.placards.customerId, customerId), eq(schema.placards.titleId, 1)));
  return row?.newAmount ?? null;
}

async function shortcuts(email: string) {
  const [staff] = await e2eDb().select().from(schema.staffUsers).where(eq(schema.staffUsers.email, email));
  return (await e2eDb().select().from(schema.shortcuts).where(eq(schema.shortcuts.staffId, staff.id))).map((s) => s.name);
}

/** A forged post: expects 403 with the Swedish page. */
async function refused(c: APIRequestContext, path: string, options: Parameters<APIRequestContext["post"]>[1], what: string) {
  const res = await c.post(path, { maxRedirects: 0, ...options });
  figures.requests++;
  expect(res.status(), what).toBe(403);
  expect(await res.text(), what).toContain(REFUSED);
  figures.refused++;
}

test("retailer: another retailer's token, no token, a made-up token, an ended session's token — 403, nothing stored", async ({}, info) => {
  const a = await makeRetailer(info.workerIndex);
  const b = await makeRetailer(info.workerIndex);
  const asA = await loggedIn(a.id, a.pin);
  const asB = await loggedIn(b.id, b.pin);
  const tokenA = await formToken(asA);
  const tokenB = await formToken(asB);
  expect(tokenA).toMatch(/^[\w-]{43}$/);
  expect(tokenB).toMatch(/^[\w-]{43}$/);
  expect(tokenA).not.toBe(tokenB);
  // The page's forms carry the same token as the meta tag.
  expect(await (await asA.get("/lopsedlar")).text()).toContain(`name="csrf" value="${tokenA}"`);

  const order = { titel: "1", "antal-1": "7" };
  // A's whole form, token included, replayed in B's session.
  await refused(asB, "/lopsedlar", { form: { csrf: tokenA, ...order } }, "A's token in B's session");
  await refused(asB, "/lopsedlar", { form: order }, "no token");
  await refused(asB, "/lopsedlar", { form: { csrf: "", ...order } }, "empty token");
  await refused(asB, "/lopsedlar", { form: { csrf: tokenB.slice(0, -1), ...order } }, "B's token cut short");
  await refused(asB, "/lopsedlar", { form: { csrf: `${tokenB}x`, ...order } }, "B's token made longer");
  await refused(asB, "/lopsedlar", { multipart: { csrf: tokenA, ...order } }, "A's token in B's session, multipart");
  // Two tokens: the first one counts, as a browser's form has only one.
  await refused(asB, "/lopsedlar", { data: `csrf=${tokenA}&csrf=${tokenB}&titel=1&antal-1=7`, headers: { "Content-Type": "application/x-www-form-urlencoded" } }, "A's token before B's");
  expect(await placard(b.id), "nothing stored for B").toBeNull();

  // A logs out and in again: the token of the ended session is worth nothing in the new one.
  const out = await asA.post("/logout", { form: { csrf: tokenA }, maxRedirects: 0 });
  expect(out.status()).toBe(302);
  expect(await asA.post("/login", { form: { kundnummer: String(a.id), pinkod: a.pin }, maxRedirects: 0 }).then((r) => r.status())).toBe(302);
  const newTokenA = await formToken(asA);
  expect(newTokenA).not.toBe(tokenA);
  await refused(asA, "/lopsedlar", { form: { csrf: tokenA, ...order } }, "A's old session's token");
  expect(await placard(a.id), "nothing stored for A").toBeNull();

  // A body that is not a form at all: 415 (refused before it is read), nothing stored.
  const text = await asA.post("/lopsedlar", { data: "csrf=x", headers: { "Content-Type": "text/plain" }, maxRedirects: 0 });
  expect(text.status()).toBe(415);

  // The control: with the session's own token the same post is saved.
  const ok = await asA.post("/lopsedlar", { form: { csrf: newTokenA, ...order }, maxRedirects: 0 });
  expect(ok.status()).toBe(302);
  expect(await placard(a.id)).toBe(7);
  const okB = await asB.post("/lopsedlar", { multipart: { csrf: tokenB, ...order }, maxRedirects: 0 });
  expect(okB.status()).toBe(302);
  expect(await placard(b.id)).toBe(7);
});

test("logout needs the session's form: another session's token does not end it", async ({}, info) => {
  const a = await makeRetailer(info.workerIndex);
  const b = await makeRetailer(info.workerIndex);
  const asA = await loggedIn(a.id, a.pin);
  const asB = await loggedIn(b.id, b.pin);
  await refused(asB, "/logout", { form: { csrf: await formToken(asA) } }, "A's token ends B's session");
  await refused(asB, "/logout", {}, "logout without a token");
  expect((await asB.get("/kontakt", { maxRedirects: 0 })).status(), "B still logged in").toBe(200);
  expect((await asB.post("/logout", { form: { csrf: await formToken(asB) }, maxRedirects: 0 })).status()).toBe(302);
  expect((await asB.get("/kontakt", { maxRedirects: 0 })).status(), "B logged out").toBe(302);
});

test("staff: another admin's token, no token, an ended session's token, multipart — 403, nothing stored; a wrong role still 403 as before", async () => {
  const one = await makeStaff("admin");
  const two = await makeStaff("admin");
  const asOne = await loggedIn(one.email, one.password);
  const asTwo = await loggedIn(two.email, two.password);
  const tokenOne = await formToken(asOne);
  const shortcut = { intent: "add-shortcut", name: "forged", url: "https://example.com/" };
  await refused(asTwo, "/admin", { form: { csrf: tokenOne, ...shortcut } }, "one's token in two's session");
  await refused(asTwo, "/admin", { form: shortcut }, "no token");
  await refused(asTwo, "/admin/dailyproducts", { multipart: { csrf: tokenOne, intent: "save" } }, "one's token in a multipart upload");
  await refused(asTwo, "/admin/kund/logga-ut", { form: { csrf: tokenOne, kundnummer: "99999" } }, "one's token, 'Logga ut kund'");
  expect(await shortcuts(two.email)).toEqual([]);

  expect((await asOne.post("/logout", { form: { csrf: tokenOne }, maxRedirects: 0 })).status()).toBe(302);
  await logIn(asOne, one.email, one.password);
  await refused(asOne, "/admin", { form: { csrf: tokenOne, ...shortcut } }, "one's old session's token");
  expect(await shortcuts(one.email)).toEqual([]);

  // A sales user with no admin role meets the role refusal first, token or not.
  const sales = await makeStaff("sales");
  const asSales = await loggedIn(sales.email, sales.password);
  const role = await asSales.post("/admin", { form: shortcut, maxRedirects: 0 });
  expect(role.status()).toBe(403);
  expect(await role.text()).toContain("Du har inte behörighet till den här sidan.");

  const ok = await asOne.post("/admin", { form: { csrf: await formToken(asOne), ...shortcut }, maxRedirects: 0 });
  expect(ok.status()).toBeLessThan(400);
  expect(await shortcuts(one.email)).toEqual(["forged"]);
});

test("a retailer's token does not work in a staff member's impersonation of that retailer, nor the reverse", async ({}, info) => {
  const r = await makeRetailer(info.workerIndex);
  const admin = await makeStaff("admin");
  const asR = await loggedIn(r.id, r.pin);
  const asAdmin = await loggedIn(admin.email, admin.password);
  const opened = await asAdmin.post("/admin/kund/oppna", { form: { csrf: await formToken(asAdmin), kundnummer: String(r.id) }, maxRedirects: 0 });
  expect(opened.status()).toBe(302);
  const order = { titel: "1", "antal-1": "4" };
  await refused(asAdmin, "/lopsedlar", { form: { csrf: await formToken(asR), ...order } }, "retailer's token in the impersonation");
  await refused(asR, "/lopsedlar", { form: { csrf: await formToken(asAdmin), ...order } }, "impersonation's token in the retailer's session");
  expect(await placard(r.id)).toBeNull();
});
