// Sessions at the HTTP level, on a server of its own set up as behind
// an HTTPS proxy (TRUST_PROXY=loopback; X-Forwarded-Proto says whether the client used HTTPS).
import { expect, test, type APIRequestContext } from "@playwright/test";
import { eq } from "drizzle-orm";
import { SESSION_LIMITS } from "../../app/features/auth/sessions.server";
import { schema } from "../../db/client";
import { createCustomer, createDistributor, createStaff } from "../../cli/seed/factories";
import { client, formToken, logIn, startOwnServer, type OwnServer } from "./own-server";
import { portalNow } from "../../db/clock";

test.describe.configure({ mode: "serial" });

let server: OwnServer;
const open: APIRequestContext[] = [];
const HTTPS = { "X-Forwarded-Proto": "https" };

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startOwnServer("sessions", { TRUST_PROXY: "loopback" });
  await createDistributor(server.db, 1);
  await createStaff(server.db, { email: "admin@sessions.example", name: "Admin", password: "sessions-pass-1", roles: "admin" });
  await createStaff(server.db, { email: "sales@sessions.example", name: "Sälj", password: "sessions-pass-1", roles: "sales" });
});

test.afterAll(async () => {
  for (const c of open) await c.dispose();
  await server?.stop();
});

let nextId = 41000;
async function retailer() {
  const id = nextId++;
  await createCustomer(server.db, { id, distributorId: 1, pin: "1122" });
  return id;
}

async function ctx(headers: Record<string, string> = {}) {
  const c = await client(server.baseURL, headers);
  open.push(c);
  return c;
}

async function sessionsOf(customerId: number) {
  return server.db.select().from(schema.sessions).where(eq(schema.sessions.customerId, customerId));
}

/** The Set-Cookie header of a login, and the cookie pair to send back. */
async function login(id: number | string, secret: string, headers: Record<string, string> = {}) {
  const c = await ctx();
  const res = await c.post("/login", { form: { kundnummer: String(id), pinkod: secret }, headers, maxRedirects: 0 });
  expect(res.status()).toBe(302);
  const setCookie = res.headersArray().find((h) => h.name.toLowerCase() === "set-cookie")!.value;
  return { setCookie, pair: setCookie.split(";")[0] };
}

async function get(path: string, cookie: string, headers: Record<string, string> = {}) {
  const c = await ctx();
  const res = await c.get(path, { headers: { Cookie: cookie, ...headers }, maxRedirects: 0 });
  return res.status() === 302 ? (/^\/login/.test(res.headers()["location"]) ? "login" : "redirect") : res.status();
}

test("over plain HTTP the cookie is rp_session, HttpOnly, SameSite=Lax, path /, and holds only a 256-bit random id", async () => {
  const id = await retailer();
  const { setCookie, pair } = await login(id, "1122");
  expect(pair).toMatch(/^rp_session=/);
  expect(setCookie).toMatch(/; HttpOnly/i);
  expect(setCookie).toMatch(/; SameSite=Lax/i);
  expect(setCookie).toMatch(/; Path=\//i);
  expect(setCookie).not.toMatch(/; Secure/i);
  expect(setCookie).not.toMatch(/Domain=/i);
  const [row] = await sessionsOf(id);
  expect(Buffer.from(row.id, "base64url")).toHaveLength(32);
  // The cookie carries the signed id, nothing of the session's data.
  expect(decodeURIComponent(pair)).not.toContain(String(id));
  expect(await get("/kontakt", pair)).toBe(200);
});

test("behind HTTPS the cookie is __Host-rp_session and Secure, and works only over HTTPS", async () => {
  const id = await retailer();
  const { setCookie, pair } = await login(id, "1122", HTTPS);
  expect(pair).toMatch(/^__Host-rp_session=/);
  expect(setCookie).toMatch(/; Secure/i);
  expect(setCookie).toMatch(/; HttpOnly/i);
  expect(setCookie).toMatch(/; SameSite=Lax/i);
  expect(setCookie).toMatch(/; Path=\//i);
  expect(setCookie).not.toMatch(/Domain=/i);
  expect(await get("/kontakt", pair, HTTPS)).toBe(200);
  expect(await get("/kontakt", pair)).toBe("login");
  // Logging out over HTTPS clears the __Host- cookie and the row.
  const c = await ctx();
  const out = await c.post("/logout", { form: { csrf: await formToken(c, { Cookie: pair, ...HTTPS }) }, headers: { Cookie: pair, ...HTTPS }, maxRedirects: 0 });
  expect(out.status()).toBe(302);
  expect(out.headers()["set-cookie"]).toMatch(/^__Host-rp_session=;.*Expires=Thu, 01 Jan 1970/i);
  expect(await sessionsOf(id)).toHaveLength(0);
  expect(await get("/kontakt", pair, HTTPS)).toBe("login");
});

test("logging in again gives a new id and the old one stops working on the server", async () => {
  const id = await retailer();
  const first = await login(id, "1122");
  const c = await ctx();
  // A login made while holding a session (fixation): the old row is deleted, a new id issued.
  const again = await c.post("/login", { form: { kundnummer: String(id), pinkod: "1122" }, headers: { Cookie: first.pair }, maxRedirects: 0 });
  expect(again.status()).toBe(302);
  const second = again.headers()["set-cookie"].split(";")[0];
  expect(second).not.toBe(first.pair);
  const rows = await sessionsOf(id);
  expect(rows).toHaveLength(1);
  expect(await get("/kontakt", first.pair)).toBe("login");
  expect(await get("/kontakt", second)).toBe(200);
});

test("logout deletes the session row: the cookie is dead even if a client keeps it", async () => {
  const id = await retailer();
  const { pair } = await login(id, "1122");
  expect(await sessionsOf(id)).toHaveLength(1);
  const c = await ctx();
  expect((await c.post("/logout", { form: { csrf: await formToken(c, { Cookie: pair }) }, headers: { Cookie: pair }, maxRedirects: 0 })).status()).toBe(302);
  expect(await sessionsOf(id)).toHaveLength(0);
  expect(await get("/kontakt", pair)).toBe("login");
});

test("an admin's 'Logga ut kund' ends every session of that retailer on the server, audited", async () => {
  const id = await retailer();
  const other = await retailer();
  const phone = await login(id, "1122");
  const terminal = await login(id, "1122");
  const bystander = await login(other, "1122");
  const admin = await ctx();
  await logIn(admin, "admin@sessions.example", "sessions-pass-1");
  const res = await admin.post("/admin/kund/logga-ut", { form: { csrf: await formToken(admin), kundnummer: String(id) }, headers: { Origin: server.baseURL } });
  expect(res.status()).toBe(302);
  expect(res.headers()["location"]).toBe("/admin");
  expect(await get("/kontakt", phone.pair)).toBe("login");
  expect(await get("/kontakt", terminal.pair)).toBe("login");
  expect(await get("/kontakt", bystander.pair)).toBe(200);
  expect(await sessionsOf(id)).toHaveLength(0);
  const audit = await server.db.select().from(schema.auditLog).where(eq(schema.auditLog.action, "customer.sessions.end"));
  expect(audit.filter((a) => a.target === `customer:${id}`)).toHaveLength(1);

  // Wrong input: 400 with the message; sales may not.
  const bad = await admin.post("/admin/kund/logga-ut", { form: { csrf: await formToken(admin), kundnummer: "12a" } });
  expect(bad.status()).toBe(400);
  expect(await bad.text()).toContain("Ange ett kundnummer (1–5 siffror).");
  const unknown = await admin.post("/admin/kund/logga-ut", { form: { csrf: await formToken(admin), kundnummer: "99999" } });
  expect(unknown.status()).toBe(400);
  expect(await unknown.text()).toContain("Kund 99999 finns inte.");
  const sales = await ctx();
  await logIn(sales, "sales@sessions.example", "sessions-pass-1");
  expect((await sales.post("/admin/kund/logga-ut", { form: { csrf: await formToken(sales), kundnummer: String(other) } })).status()).toBe(403);
  expect(await get("/kontakt", bystander.pair)).toBe(200);
});

test("idle expiry: a session unused for the idle limit is refused and deleted; one just inside it is kept", async () => {
  const id = await retailer();
  const { pair } = await login(id, "1122");
  const [row] = await sessionsOf(id);
  const now = portalNow();
  await server.db.update(schema.sessions).set({ lastSeenAt: now - SESSION_LIMITS.idleMs + 60_000 }).where(eq(schema.sessions.id, row.id));
  expect(await get("/kontakt", pair)).toBe(200);
  // Being used moved last_seen_at forward.
  const [touched] = await sessionsOf(id);
  expect(touched.lastSeenAt).toBeGreaterThanOrEqual(now);
  await server.db.update(schema.sessions).set({ lastSeenAt: portalNow() - SESSION_LIMITS.idleMs - 1_000 }).where(eq(schema.sessions.id, row.id));
  expect(await get("/kontakt", pair)).toBe("login");
  expect(await sessionsOf(id)).toHaveLength(0);
});

test("absolute expiry: a session past its absolute limit is refused even while in use", async () => {
  const id = await retailer();
  const { pair } = await login(id, "1122");
  const [row] = await sessionsOf(id);
  expect(row.expiresAt - row.createdAt).toBe(SESSION_LIMITS.absoluteMs);
  const created = portalNow() - SESSION_LIMITS.absoluteMs - 1_000;
  await server.db
    .update(schema.sessions)
    .set({ createdAt: created, expiresAt: created + SESSION_LIMITS.absoluteMs, lastSeenAt: portalNow() })
    .where(eq(schema.sessions.id, row.id));
  expect(await get("/kontakt", pair)).toBe("login");
  expect(await sessionsOf(id)).toHaveLength(0);
});
