// Trust, round three (decision 035), as the attacker of the round tried it: guessing the
// current password on Byt lösenord, a one-time password used twice and after 72 hours,
// Logga ut inside a customer's portal opened by staff, a stolen session id after a
// password change. On a server of its own, so the guesses spend only its budgets.
import { expect, test, type APIRequestContext } from "@playwright/test";
import { and, eq } from "drizzle-orm";
import { hashSecret } from "../../app/features/auth/passwords.server";
import { schema } from "../../db/client";
import { createCustomer, createDistributor, createStaff } from "../../cli/seed/factories";
import { client, formToken, logIn, startOwnServer, type OwnServer } from "./own-server";
import { loginPost } from "./login-post";
import { portalNow } from "../../db/clock";

test.describe.configure({ mode: "serial" });

let server: OwnServer;
const open: APIRequestContext[] = [];
const PASSWORD = "Rätt-lösenord-för-test";
const PNG_1PX = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startOwnServer("trust-three");
  await createDistributor(server.db, 1);
});

test.afterAll(async () => {
  for (const c of open) await c.dispose();
  await server?.stop();
});

let n = 0;
async function staff(roles = "sales", totpSecret?: null) {
  const email = `three-${n++}@trust.example`;
  const row = await createStaff(server.db, { email, name: "Tre Test", password: PASSWORD, roles, ...(totpSecret === null ? { totpSecret } : {}) });
  return { id: row.id, email };
}

async function loggedIn(email: string, secret = PASSWORD) {
  const c = await client(server.baseURL);
  open.push(c);
  await logIn(c, email, secret);
  return c;
}

/** The session cookie pair a context holds now. */
async function cookieOf(c: APIRequestContext): Promise<string> {
  const { cookies } = await c.storageState();
  const s = cookies.find((k) => k.name.endsWith("rp_session"))!;
  return `${s.name}=${s.value}`;
}

/** GET with only this cookie: 200, or where it is sent. */
async function getWith(path: string, cookie: string): Promise<number | string> {
  const res = await fetch(`${server.baseURL}${path}`, { headers: { cookie }, redirect: "manual" });
  return res.status === 302 ? res.headers.get("location")! : res.status;
}

async function actions(staffId: number, action: string) {
  return server.db.select().from(schema.auditLog).where(and(eq(schema.auditLog.action, action), eq(schema.auditLog.target, `staff:${staffId}`)));
}

test("wrong current passwords on Byt lösenord spend the account's login budget, 429 with Retry-After, each in Logg; then even the right one waits", async () => {
  const u = await staff();
  const c = await loggedIn(u.email);
  const csrf = await formToken(c);
  const hashOf = async () => (await server.db.select().from(schema.staffUsers).where(eq(schema.staffUsers.id, u.id)))[0].passwordHash;
  const before = await hashOf();
  const post = (nuvarande: string) => c.post("/admin/losenord", { form: { csrf, nuvarande, nytt: "Ett helt nytt lösenord", igen: "Ett helt nytt lösenord" }, maxRedirects: 0 });
  // 16 guesses at once, as the attacker's workers sent them.
  const answers = await Promise.all(Array.from({ length: 16 }, (_, i) => post(`gissning-nummer-${i}`)));
  const statuses = answers.map((a) => a.status()).sort();
  expect(statuses.filter((s) => s === 400)).toHaveLength(10);
  expect(statuses.filter((s) => s === 429)).toHaveLength(6);
  const limited = answers.find((a) => a.status() === 429)!;
  expect(Number(limited.headers()["retry-after"])).toBeGreaterThan(0);
  expect(await answers.find((a) => a.status() === 400)!.text()).toContain("Fel nuvarande lösenord.");
  // The right password now is refused too: guessing does not pay.
  const right = await post(PASSWORD);
  expect(right.status()).toBe(429);
  expect(await hashOf()).toBe(before);
  expect(await actions(u.id, "staff.change-own-password")).toHaveLength(0);
  expect(await actions(u.id, "staff.change-own-password.failure")).toHaveLength(10);
  // Logg says it in words.
  const admin = await staff("admin");
  const asAdmin = await loggedIn(admin.email);
  const logg = await (await asAdmin.get(`/admin/logg?sok=${encodeURIComponent(u.email)}`)).text();
  expect(logg).toContain("Fel nuvarande lösenord vid lösenordsbyte");
});

test("a one-time password logs in once: two browsers at once, one gets in; after 72 hours none", async () => {
  const u = await staff("sales", null);
  const set = async (setAt: number) =>
    server.db.update(schema.staffUsers).set({ passwordHash: await hashSecret("Engångs-lösen-4711"), passwordOneTime: true, passwordSetAt: setAt, passwordOneTimeUsedAt: null }).where(eq(schema.staffUsers.id, u.id));
  await set(portalNow());
  const { path, form } = loginPost(u.email, "Engångs-lösen-4711");
  const browsers = await Promise.all([client(server.baseURL), client(server.baseURL)]);
  open.push(...browsers);
  const answers = await Promise.all(browsers.map((b) => b.post(path, { form, maxRedirects: 0 })));
  expect(answers.map((a) => a.status()).sort()).toEqual([302, 400]);
  const refused = answers.find((a) => a.status() === 400)!;
  expect(await refused.text()).toContain("Felaktig e-postadress eller lösenord.");
  // The login that got in may set its own password and nothing else: not even a cover waiting for publication.
  const winner = browsers[answers.findIndex((a) => a.status() === 302)];
  expect((await winner.get("/admin/distribution", { maxRedirects: 0 })).headers()["location"]).toBe("/admin/losenord");
  const [pending] = await server.db.insert(schema.images).values({ filename: "v48.png", contentType: "image/png", data: Buffer.from(PNG_1PX, "base64"), sha256: "e".repeat(64), published: false }).returning();
  expect((await winner.get(`/bilder/${pending.id}`)).status()).toBe(404);
  const used = await server.db.select().from(schema.auditLog).where(and(eq(schema.auditLog.action, "login.one-time-used"), eq(schema.auditLog.actor, `staff:${u.id}`)));
  expect(used).toHaveLength(1);
  // A third try later: refused the same way.
  const later = await (await client(server.baseURL)).post(path, { form, maxRedirects: 0 });
  expect(later.status()).toBe(400);

  // A fresh one-time password, given 72 hours and a minute ago: refused, and said so in Logg.
  await set(portalNow() - (72 * 60 + 1) * 60_000);
  const late = await (await client(server.baseURL)).post(path, { form, maxRedirects: 0 });
  expect(late.status()).toBe(400);
  const expired = await server.db.select().from(schema.auditLog).where(and(eq(schema.auditLog.action, "login.one-time-expired"), eq(schema.auditLog.actor, `staff:${u.id}`)));
  expect(expired).toHaveLength(1);
});

test("Logga ut inside a customer's portal opened by staff ends the staff login too", async () => {
  const admin = await staff("admin");
  await createCustomer(server.db, { id: 47001, distributorId: 1, pin: "4711", name: "Şahin Livs" });
  const c = await loggedIn(admin.email);
  const staffCookie = await cookieOf(c);
  expect(await getWith("/admin/kunder", staffCookie)).toBe(200);
  const opened = await c.post("/admin/kund/oppna", { form: { csrf: await formToken(c), kundnummer: "47001" }, maxRedirects: 0 });
  expect(opened.status()).toBe(302);
  const portalCookie = await cookieOf(c);
  expect(portalCookie).not.toBe(staffCookie);
  const out = await c.post("/logout", { form: { csrf: await formToken(c) }, maxRedirects: 0 });
  expect(out.status()).toBe(302);
  expect(out.headers()["location"]).toBe("/personal/logga-in");
  expect(await getWith("/kontakt", portalCookie)).toBe("/login?redirectTo=%2Fkontakt");
  // The staff session it came from answers no more: a copy of its cookie is worth nothing.
  expect(String(await getWith("/admin/kunder", staffCookie))).toMatch(/^\/personal\/logga-in/);
  expect(await server.db.select().from(schema.sessions).where(eq(schema.sessions.staffId, admin.id))).toHaveLength(0);
});

test("a password change gives this login a new session id and ends every other: a stolen copy of the cookie dies", async () => {
  const u = await staff();
  const c = await loggedIn(u.email);
  const other = await loggedIn(u.email);
  const stolen = await cookieOf(c);
  const changed = await c.post("/admin/losenord", { form: { csrf: await formToken(c), nuvarande: PASSWORD, nytt: "Sju sjösjuka sjömän", igen: "Sju sjösjuka sjömän" }, maxRedirects: 0 });
  expect(changed.status()).toBe(302);
  const fresh = await cookieOf(c);
  expect(fresh).not.toBe(stolen);
  // The toast came along to the new session, once.
  expect(await (await c.get("/admin/distribution")).text()).toContain("Lösenordet är bytt. Din andra inloggning är avslutad.");
  expect(await (await c.get("/admin/distribution")).text()).not.toContain("Lösenordet är bytt.");
  expect(await getWith("/admin/distribution", fresh)).toBe(200);
  expect(String(await getWith("/admin/distribution", stolen))).toMatch(/^\/personal\/logga-in/);
  expect(String(await getWith("/admin/distribution", await cookieOf(other)))).toMatch(/^\/personal\/logga-in/);
});

test("a request the browser sent before a save's answer neither shows nor takes the save's message", async () => {
  // A page revalidating while its form is sent: the router aborts that GET, but the
  // server may still read it after the save stored its message. It carries only the
  // cookies the browser had when it was sent.
  const admin = await staff("admin");
  const c = await loggedIn(admin.email);
  const before = (await c.storageState()).cookies.map((k) => `${k.name}=${k.value}`).join("; ");
  const saved = await c.post("/admin", { form: { csrf: await formToken(c), intent: "add-shortcut", name: "Şahin Livs kundkort", url: "https://portal.example/admin/kunder/47001" }, maxRedirects: 0 });
  expect(saved.status()).toBe(302);
  expect(saved.headers()["location"]).toBe("/admin");
  const earlier = await fetch(`${server.baseURL}/admin.data`, { headers: { cookie: before } });
  expect(earlier.status).toBe(200);
  expect(await earlier.text()).not.toContain("Länken är sparad.");
  // The GET that follows the redirect shows it, once.
  expect(await (await c.get("/admin")).text()).toContain("Länken är sparad.");
  expect(await (await c.get("/admin")).text()).not.toContain("Länken är sparad.");
});

test("a message still waiting for its page is ended by Logga ut: the browser's next user does not see it", async () => {
  const admin = await staff("admin");
  const c = await loggedIn(admin.email);
  const saved = await c.post("/admin", { form: { csrf: await formToken(c), intent: "add-shortcut", name: "Kvällsposten", url: "https://portal.example/admin/kunder/47002" }, maxRedirects: 0 });
  expect(saved.status()).toBe(302);
  const out = await c.post("/logout", { form: { csrf: await formToken(c) }, maxRedirects: 0 });
  expect(out.status()).toBe(302);
  expect(out.headersArray().filter((h) => h.name.toLowerCase() === "set-cookie").map((h) => h.value)).toContainEqual(expect.stringMatching(/^rp_toast=; Max-Age=0;/));
  // The next user of this browser, on the page the message was for.
  await logIn(c, admin.email, PASSWORD);
  expect(await (await c.get("/admin")).text()).not.toContain("Länken är sparad.");
});

test("behind a configured proxy, a client reaching the app port directly cannot pick its own address for the login budget", async () => {
  // The proxy is 10.9.9.9; this client connects from 127.0.0.1 and forges X-Forwarded-For.
  const behind = await startOwnServer("trust-three-proxy", { TRUST_PROXY: "10.9.9.9", THROTTLE_IP_LIMIT: "3" });
  try {
    await createDistributor(behind.db, 1);
    for (const id of [47101, 47102, 47103, 47104]) await createCustomer(behind.db, { id, distributorId: 1, pin: "473901" });
    const c = await client(behind.baseURL);
    open.push(c);
    const statuses: number[] = [];
    for (const [i, id] of [47101, 47102, 47103, 47104].entries()) {
      const res = await c.post("/login", { form: { kundnummer: String(id), pinkod: "000000" }, headers: { "X-Forwarded-For": `198.51.100.${i + 1}` }, maxRedirects: 0 });
      statuses.push(res.status());
    }
    // Three wrong PINs weighed against the client's real address, the fourth refused unweighed.
    expect(statuses).toEqual([400, 400, 400, 429]);
  } finally {
    await behind.stop();
  }
});

test("a saved message belongs to the tab that saved: another tab loading another page at the same instant does not show it or use it up", async () => {
  const admin = await staff("admin");
  const tabA = await loggedIn(admin.email);
  const cookie = await cookieOf(tabA);
  const saved = await tabA.post("/admin", { form: { csrf: await formToken(tabA), intent: "add-shortcut", name: "Bankgirot", url: "https://www.bankgirot.se" }, maxRedirects: 0 });
  expect(saved.status()).toBe(302);
  expect(saved.headers()["location"]).toBe("/admin");
  // Tab B, the same browser (the same cookie), loads Kunder before tab A follows its redirect.
  const tabB = await fetch(`${server.baseURL}/admin/kunder`, { headers: { cookie } });
  expect(tabB.status).toBe(200);
  expect(await tabB.text()).not.toContain("Länken är sparad.");
  // With JavaScript, tab B's data request for another page does not take it either.
  expect(await (await fetch(`${server.baseURL}/admin/kunder.data`, { headers: { cookie } })).text()).not.toContain("Länken är sparad.");
  // Tab A lands where it was sent and shows it, once.
  expect(await (await tabA.get("/admin")).text()).toContain("Länken är sparad.");
  expect(await (await tabA.get("/admin")).text()).not.toContain("Länken är sparad.");
});
