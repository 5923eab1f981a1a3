// Someone who has a staff password guesses
// the code, or replays a code seen over a shoulder, many requests at once and from many
// addresses (a server of its own behind a proxy: TRUST_PROXY=loopback, X-Forwarded-For).
import { expect, test, type APIRequestContext } from "@playwright/test";
import { eq } from "drizzle-orm";
import { schema } from "../../db/client";
import { createStaff, TEST_TOTP_SECRET } from "../../cli/seed/factories";
import { client, startOwnServer, type OwnServer } from "./own-server";
import { codeAt, timeStep } from "../../app/features/auth/totp.server";

test.describe.configure({ mode: "serial" });

let server: OwnServer;
const contexts: APIRequestContext[] = [];

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startOwnServer("staff-2fa", { TRUST_PROXY: "loopback" });
});

test.afterAll(async () => {
  for (const c of contexts) await c.dispose();
  await server?.stop();
});

const PASSWORD = "attack-password-1";
let n = 0;
async function admin() {
  return createStaff(server.db, { email: `admin-${n++}@attack.example`, name: "Admin", password: PASSWORD, roles: "admin" });
}

/** A client that has passed the password step (the attacker knows the password). */
async function pendingClient(email: string, ip: string) {
  const c = await client(server.baseURL);
  contexts.push(c);
  const res = await c.post("/personal/logga-in", { form: { epost: email, losenord: PASSWORD }, headers: { "X-Forwarded-For": ip } });
  expect(res.status()).toBe(302);
  expect(res.headers()["location"]).toBe("/login/kod");
  return c;
}

const nowStep = () => timeStep(Date.now());

test("30 wrong codes at once from 30 addresses: at most 10 are weighed, the rest get 429, and then the right code is refused too", async () => {
  const staff = await admin();
  const c = await pendingClient(staff.email, "198.51.100.1");
  const right = new Set([-1, 0, 1].map((d) => codeAt(TEST_TOTP_SECRET, nowStep() + d)));
  const wrong = Array.from({ length: 30 }, (_, i) => String(100000 + i * 29_311).slice(0, 6)).filter((code) => !right.has(code));
  const started = Date.now();
  const answers = await Promise.all(
    wrong.map((kod, i) => c.post("/login/kod", { form: { kod }, headers: { "X-Forwarded-For": `203.0.113.${i + 1}` } })),
  );
  const ms = Date.now() - started;
  const statuses = answers.map((r) => r.status());
  const weighed = statuses.filter((s) => s === 400).length;
  const throttled = answers.filter((r) => r.status() === 429);
  console.log(`[staff-2fa] ${wrong.length} parallel wrong codes in ${ms} ms: ${weighed} weighed (400), ${throttled.length} refused (429), 0 logged in`);
  expect(weighed).toBeLessThanOrEqual(10);
  expect(weighed + throttled.length).toBe(wrong.length);
  for (const r of throttled) {
    expect(Number(r.headers()["retry-after"])).toBeGreaterThan(0);
    expect(await r.text()).toMatch(/För många misslyckade inloggningar\. Vänta \d+ minuter/);
  }
  const [row] = await server.db.select().from(schema.loginThrottle).where(eq(schema.loginThrottle.key, `totp:staff:${staff.id}`));
  expect(JSON.parse(row.recent)).toHaveLength(weighed);
  const failures = await server.db.select().from(schema.auditLog).where(eq(schema.auditLog.actor, `staff:${staff.id}`));
  expect(failures.filter((a) => a.action === "totp.failure")).toHaveLength(weighed);

  // The budget is the account's: the right code, from yet another address, waits too.
  const rightNow = await c.post("/login/kod", { form: { kod: codeAt(TEST_TOTP_SECRET, nowStep()) }, headers: { "X-Forwarded-For": "192.0.2.77" } });
  expect(rightNow.status()).toBe(429);
  expect((await c.get("/admin")).status()).toBe(302);
  // Nothing got through, and the code step's failures do not touch the password's budget.
  const [password] = await server.db.select().from(schema.loginThrottle).where(eq(schema.loginThrottle.key, `staff:${staff.email}`));
  expect(JSON.parse(password?.recent ?? "[]")).toHaveLength(0);
});

test("one right code replayed by 10 password-holding clients at once logs in exactly one", async () => {
  const staff = await admin();
  const clients = [];
  for (let i = 0; i < 10; i++) clients.push(await pendingClient(staff.email, `198.51.100.${20 + i}`));
  const kod = codeAt(TEST_TOTP_SECRET, nowStep());
  const answers = await Promise.all(clients.map((c, i) => c.post("/login/kod", { form: { kod }, headers: { "X-Forwarded-For": `198.51.100.${20 + i}` } })));
  const statuses = answers.map((r) => r.status());
  console.log(`[staff-2fa] one code replayed by ${clients.length} clients at once: ${statuses.filter((s) => s === 302).length} logged in, statuses ${JSON.stringify(statuses)}`);
  expect(statuses.filter((s) => s === 302)).toHaveLength(1);
  expect(statuses.filter((s) => s !== 302).every((s) => s === 400)).toBe(true);
  // One whole session; the nine other clients still wait at the code step (their rows are the user's too).
  const sessions = await server.db.select().from(schema.sessions).where(eq(schema.sessions.staffId, staff.id));
  expect(sessions.filter((s) => JSON.parse(s.data).staffId === staff.id)).toHaveLength(1);
  expect(sessions.filter((s) => JSON.parse(s.data).pendingStaffId === staff.id)).toHaveLength(9);
});

test("bodies that are no form, or no code, answer 400 (a JSON body 415) at the code step and weigh nothing", async () => {
  const staff = await admin();
  const c = await pendingClient(staff.email, "198.51.100.40");
  const bodies = [
    { data: JSON.stringify({ kod: "123456" }), headers: { "Content-Type": "application/json" } },
    { data: "--x\r\nContent-Disposition: form-data; name=\"kod\"\r\n\r\n12", headers: { "Content-Type": "multipart/form-data; boundary=x" } },
    { data: "kod=%E0%A4%A", headers: { "Content-Type": "application/x-www-form-urlencoded" } },
    { form: { kod: "" } },
    { form: { kod: "1".repeat(65) } },
  ];
  for (const body of bodies) {
    const res = await c.post("/login/kod", body);
    // A body that is no form at all is refused by the server's body check (415).
    expect(res.status(), JSON.stringify(body)).toBe(body.headers?.["Content-Type"] === "application/json" ? 415 : 400);
  }
  const rows = await server.db.select().from(schema.loginThrottle).where(eq(schema.loginThrottle.key, `totp:staff:${staff.id}`));
  expect(rows).toHaveLength(0);
  // The waiting login is still there for the right code.
  expect((await c.post("/login/kod", { form: { kod: codeAt(TEST_TOTP_SECRET, nowStep()) } })).status()).toBe(302);
});
