// Sessions end when trust ends. A new PIN, a new password or new roles
// end the user's other sessions; the way back from a retailer's portal resumes the staff
// session that opened it; an admin who loses the role loses the impersonation at once.
import { expect, test, type APIRequestContext } from "@playwright/test";
import { execFileSync } from "node:child_process";
import { loginPost } from "./login-post";
import { eq } from "drizzle-orm";
import { schema } from "../../db/client";
import { createCustomer, createDistributor, createStaff } from "../../cli/seed/factories";
import { client, formToken, formTokenOf, startOwnServer, type OwnServer } from "./own-server";
import { portalNow } from "../../db/clock";

test.describe.configure({ mode: "serial" });

let server: OwnServer;
const open: APIRequestContext[] = [];

test.beforeAll(async () => {
  test.setTimeout(120_000);
  // The second factor has tests of its own; here staff log in with the password alone.
  // With the request log on: the last test reads it (after making traffic of its own).
  server = await startOwnServer("session-trust", { STAFF_TOTP_ROLES: "none", PORTAL_QUIET_LOG: "" });
  await createDistributor(server.db, 1);
});

test.afterAll(async () => {
  for (const c of open) await c.dispose();
  await server?.stop();
});

async function ctx() {
  const c = await client(server.baseURL);
  open.push(c);
  return c;
}

const seenCookies: string[] = [];

function cookiePair(res: { headersArray(): { name: string; value: string }[] }) {
  const header = res.headersArray().find((h) => h.name.toLowerCase() === "set-cookie" && h.value.startsWith("rp_session="));
  const pair = header?.value.split(";")[0];
  if (pair) seenCookies.push(pair);
  return pair;
}

async function login(name: string | number, secret: string) {
  const c = await ctx();
  const { path, form } = loginPost(name, secret);
  const res = await c.post(path, { form });
  expect(res.status()).toBe(302);
  return { c, pair: cookiePair(res)! };
}

/** "in" when the cookie still opens `path`, "login" when it is sent to the login page. */
async function state(pair: string, path: string) {
  const c = await ctx();
  const res = await c.get(path, { headers: { Cookie: pair } });
  if (res.status() === 200) return "in";
  return res.status() === 302 && /^\/(login|personal\/logga-in)(\?|$)/.test(res.headers()["location"]) ? "login" : String(res.status());
}

function portal(args: string[], input: string) {
  return execFileSync("npx", ["tsx", "cli/portal.ts", ...args], {
    input,
    env: { ...process.env, DATABASE_URL: `file:tests/.tmp/session-trust-${server.port}.db` },
    encoding: "utf8",
  });
}

let nextId = 43000;
let staffNo = 0;
async function admin() {
  const email = `admin${staffNo++}@trust.example`;
  await createStaff(server.db, { email, name: "Admin", password: "trust-pass-123", roles: "admin", totpSecret: null });
  return email;
}

test("the way back from a retailer's portal resumes the staff session that opened it, with its own expiry", async () => {
  const id = nextId++;
  await createCustomer(server.db, { id, distributorId: 1, pin: "1122" });
  const email = await admin();
  const staff = await login(email, "trust-pass-123");
  const [user] = await server.db.select().from(schema.staffUsers).where(eq(schema.staffUsers.email, email));
  const staffRows = await server.db.select().from(schema.sessions).where(eq(schema.sessions.staffId, user.id));
  expect(staffRows).toHaveLength(1);
  const [staffRow] = staffRows;

  const opened = await staff.c.post("/admin/kund/oppna", { form: { kundnummer: String(id), csrf: await formToken(staff.c) } });
  expect(opened.status()).toBe(302);
  const retailerPair = cookiePair(opened)!;
  expect(retailerPair).not.toBe(staff.pair);
  // The staff session is kept while the portal is open, and the portal ends no later.
  const [kept] = await server.db.select().from(schema.sessions).where(eq(schema.sessions.id, staffRow!.id));
  expect(kept.expiresAt).toBe(staffRow!.expiresAt);
  const [imp] = await server.db.select().from(schema.sessions).where(eq(schema.sessions.customerId, id));
  expect(imp.expiresAt).toBeLessThanOrEqual(staffRow!.expiresAt);

  const back = await (await ctx()).post("/tillbaka-till-personal", { headers: { Cookie: retailerPair }, form: { csrf: await formTokenOf(server.baseURL, retailerPair) } });
  expect(back.status()).toBe(302);
  expect(back.headers()["location"]).toBe("/admin");
  // The very same session: same cookie, same row, same expiry; the portal's session is gone.
  expect(cookiePair(back)).toBe(staff.pair);
  const [after] = await server.db.select().from(schema.sessions).where(eq(schema.sessions.id, staffRow!.id));
  expect(after.expiresAt).toBe(staffRow!.expiresAt);
  expect(after.createdAt).toBe(staffRow!.createdAt);
  expect(await server.db.select().from(schema.sessions).where(eq(schema.sessions.customerId, id))).toHaveLength(0);
  expect(await state(staff.pair, "/admin")).toBe("in");
  expect(await state(retailerPair, "/")).toBe("login");
});

test("an admin who loses the admin role loses the retailer's portal at once", async () => {
  const id = nextId++;
  await createCustomer(server.db, { id, distributorId: 1, pin: "1122" });
  const email = await admin();
  const staff = await login(email, "trust-pass-123");
  const opened = await staff.c.post("/admin/kund/oppna", { form: { kundnummer: String(id), csrf: await formToken(staff.c) } });
  const retailerPair = cookiePair(opened)!;
  expect(await state(retailerPair, "/kontakt")).toBe("in");
  await server.db.update(schema.staffUsers).set({ roles: "sales" }).where(eq(schema.staffUsers.email, email));
  expect(await state(retailerPair, "/kontakt")).toBe("login");
  expect(await server.db.select().from(schema.sessions).where(eq(schema.sessions.customerId, id))).toHaveLength(0);
});

test("`portal customer set-pin` ends the retailer's sessions and lock; `staff set-roles` and `set-password` end the staff user's", async () => {
  test.setTimeout(90_000);
  const id = nextId++;
  await createCustomer(server.db, { id, distributorId: 1, pin: "1122" });
  const a = await login(id, "1122");
  const b = await login(id, "1122");
  const lock = { key: `customer:${id}`, failures: 100, lastFailureAt: portalNow(), recent: "[]" };
  await server.db.insert(schema.loginThrottle).values(lock).onConflictDoUpdate({ target: schema.loginThrottle.key, set: lock });
  expect(await state(a.pair, "/kontakt")).toBe("in");
  portal(["customer", "set-pin", String(id), "--pin-stdin"], "556677\n");
  expect(await state(a.pair, "/kontakt")).toBe("login");
  expect(await state(b.pair, "/kontakt")).toBe("login");
  expect(await server.db.select().from(schema.loginThrottle).where(eq(schema.loginThrottle.key, `customer:${id}`))).toHaveLength(0);
  await login(id, "556677");

  const email = await admin();
  const s1 = await login(email, "trust-pass-123");
  const other = nextId++;
  await createCustomer(server.db, { id: other, distributorId: 1, pin: "1122" });
  const portalPair = cookiePair(await s1.c.post("/admin/kund/oppna", { form: { kundnummer: String(other), csrf: await formToken(s1.c) } }))!;
  const s2 = await login(email, "trust-pass-123");
  const out = portal(["staff", "set-roles", email, "--roles", "sales"], "");
  expect(out).toContain("sessioner avslutade");
  expect(await state(s2.pair, "/admin/distribution")).toBe("login");
  expect(await state(portalPair, "/kontakt")).toBe("login");

  const s3 = await login(email, "trust-pass-123");
  expect(await state(s3.pair, "/admin/distribution")).toBe("in");
  portal(["staff", "set-password", email, "--password-stdin"], "a-new-password-456\n");
  expect(await state(s3.pair, "/admin/distribution")).toBe("login");
  await login(email, "a-new-password-456");
});

test("no session id or cookie ever reaches the server's log", async () => {
  // Traffic of its own (so the test holds alone and in any order): retailer logins, staff
  // logins, portals opened and left, each cookie sent back. Cookies the other tests of
  // this file saw are checked as well.
  const mine = seenCookies.length;
  for (let round = 0; round < 3; round++) {
    const id = nextId++;
    await createCustomer(server.db, { id, distributorId: 1, pin: "1122" });
    const retailer = await login(id, "1122");
    expect(await state(retailer.pair, "/kontakt")).toBe("in");
    const staff = await login(await admin(), "trust-pass-123");
    const portalPair = cookiePair(await staff.c.post("/admin/kund/oppna", { form: { kundnummer: String(id), csrf: await formToken(staff.c) } }))!;
    expect(await state(portalPair, "/kontakt")).toBe("in");
    const back = await (await ctx()).post("/tillbaka-till-personal", { headers: { Cookie: portalPair }, form: { csrf: await formTokenOf(server.baseURL, portalPair) } });
    expect(back.status()).toBe(302);
    cookiePair(back);
  }
  expect(seenCookies.length - mine).toBeGreaterThan(8);
  const ids = (await server.db.select({ id: schema.sessions.id }).from(schema.sessions)).map((r) => r.id);
  const log = server.log();
  // The log was on: every request left a line.
  expect(log).toContain('"path":"/tillbaka-till-personal"');
  for (const pair of seenCookies) {
    const value = decodeURIComponent(pair.slice(pair.indexOf("=") + 1));
    const id = JSON.parse(Buffer.from(value.slice(0, value.lastIndexOf(".")), "base64").toString("utf8")) as string;
    ids.push(id);
    expect(log).not.toContain(value);
  }
  for (const id of ids) expect(log).not.toContain(id);
});
