// Trust, second round: a staff login that has passed the password step but not the code
// step dies with the password, the roles or the account, whoever changes them (the web's
// staff screen or the CLI); every request re-checks that the account is still active; the
// audit log tells the password step from a whole login. Attacked the way the insider did:
// browser X holds the password, waits at /login/kod while an admin acts, then sends a
// valid code (docs/reliability.md, "Trust, second round").
import { expect, test, type APIRequestContext } from "@playwright/test";
import { spawnSync } from "node:child_process";
import { and, eq } from "drizzle-orm";
import { HOTP, Secret, TOTP } from "otpauth";
import { schema } from "../../db/client";
import { createCustomer, createDistributor, createStaff, TEST_TOTP_SECRET } from "../../cli/seed/factories";
import { client, formToken, logIn, startOwnServer, type OwnServer } from "./own-server";
import { portalNow } from "../../db/clock";

test.describe.configure({ mode: "serial" });

let server: OwnServer;
const contexts: APIRequestContext[] = [];
let adminCtx: APIRequestContext;
let adminId: number;

const PASSWORD = "insider-password-1";
let n = 0;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startOwnServer("trust-pending", { TRUST_PROXY: "loopback" });
  await createDistributor(server.db, 1, "Tidningsbud Norr AB");
  const admin = await createStaff(server.db, { email: "chef@trust.example", name: "Chefen", password: PASSWORD, roles: "admin" });
  adminId = admin.id;
  adminCtx = await client(server.baseURL);
  contexts.push(adminCtx);
  await logIn(adminCtx, admin.email, PASSWORD);
});

test.afterAll(async () => {
  // A context the runner has closed already (its worker winding down) needs no second close.
  await Promise.allSettled(contexts.map((c) => c.dispose()));
  await server?.stop();
});

async function victim(opts: { enrolled?: boolean; roles?: string } = {}) {
  return createStaff(server.db, {
    email: `offer-${n++}@trust.example`,
    name: "Offret",
    password: PASSWORD,
    roles: opts.roles ?? "admin",
    totpSecret: opts.enrolled === false ? null : TEST_TOTP_SECRET,
  });
}

/** Browser X: has given the password and waits at the code step. */
async function pendingAttacker(email: string) {
  const c = await client(server.baseURL);
  contexts.push(c);
  const res = await c.post("/personal/logga-in", { form: { epost: email, losenord: PASSWORD } });
  expect(res.status()).toBe(302);
  expect(res.headers()["location"]).toBe("/login/kod");
  return c;
}

const validCode = () => HOTP.generate({ secret: Secret.fromBase32(TEST_TOTP_SECRET), digits: 6, counter: TOTP.counter({ period: 30 }) });

async function staffScreen(form: Record<string, string>) {
  const res = await adminCtx.post("/admin/personal", { form: { ...form, csrf: await formToken(adminCtx) } });
  expect(res.status(), await res.text()).toBeLessThan(400);
  return res;
}

/** X's valid code after the change: the login is over, X never reaches the back office. */
async function expectLoginDead(attacker: APIRequestContext, staffId: number) {
  const code = await attacker.post("/login/kod", { form: { kod: validCode() } });
  expect(code.status()).toBe(302);
  expect(code.headers()["location"]).toBe("/personal/logga-in");
  const admin = await attacker.get("/admin");
  expect(admin.status()).toBe(302);
  expect(admin.headers()["location"]).toMatch(/^\/personal\/logga-in\?redirectTo=/);
  const rows = await server.db.select().from(schema.sessions).where(eq(schema.sessions.staffId, staffId));
  expect(rows).toHaveLength(0);
  const success = await server.db
    .select()
    .from(schema.auditLog)
    .where(and(eq(schema.auditLog.actor, `staff:${staffId}`), eq(schema.auditLog.action, "login.success")));
  expect(success).toHaveLength(0);
}

function cli(args: string[], input?: string) {
  const r = spawnSync(process.execPath, ["--import", "tsx", "cli/portal.ts", ...args], {
    env: { ...process.env, DATABASE_URL: `file:tests/.tmp/trust-pending-${server.port}.db` },
    input,
    encoding: "utf8",
  });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

test("a login waiting for its code ends when an admin deactivates the account (the web's Stäng av)", async () => {
  const x = await victim();
  const attacker = await pendingAttacker(x.email);
  // The password step is audited as its own step, not as a login.
  const steps = await server.db.select().from(schema.auditLog).where(eq(schema.auditLog.actor, `staff:${x.id}`));
  expect(steps.map((a) => a.action)).toEqual(["login.password"]);
  await staffScreen({ intent: "stang-av", staffId: String(x.id) });
  await expectLoginDead(attacker, x.id);
  // X never got to reactivate itself or to touch the admin who removed it.
  const [admin] = await server.db.select().from(schema.staffUsers).where(eq(schema.staffUsers.id, adminId));
  expect(admin.deactivatedAt).toBeNull();
});

test("…and when the password is changed: the web's Nytt lösenord, and portal staff set-password", async () => {
  const x = await victim();
  const attacker = await pendingAttacker(x.email);
  await staffScreen({ intent: "nytt-losenord", staffId: String(x.id) });
  await expectLoginDead(attacker, x.id);

  const y = await victim();
  const other = await pendingAttacker(y.email);
  cli(["staff", "set-password", y.email, "--password-stdin"], "ett-helt-nytt-losenord\n");
  await expectLoginDead(other, y.id);
});

test("…and when the roles change, from the web or the CLI", async () => {
  const x = await victim();
  const attacker = await pendingAttacker(x.email);
  await staffScreen({ intent: "roller", staffId: String(x.id), roles: "sales" });
  await expectLoginDead(attacker, x.id);

  const y = await victim();
  const other = await pendingAttacker(y.email);
  cli(["staff", "set-roles", y.email, "--roles", "sales"]);
  await expectLoginDead(other, y.id);
});

test("an enrolment under way dies with a reset and deactivation: X's app is never the account's", async () => {
  // A new admin whose one-time password leaked: X gives it and is shown the enrolment secret.
  const x = await victim({ enrolled: false });
  const attacker = await pendingAttacker(x.email);
  const page = await (await attacker.get("/login/kod")).text();
  const secret = /data-testid="totp-secret"[^>]*>([^<]+)</.exec(page)![1].replace(/\s+/g, "");
  await staffScreen({ intent: "nytt-losenord", staffId: String(x.id) });
  await staffScreen({ intent: "stang-av", staffId: String(x.id) });
  const kod = HOTP.generate({ secret: Secret.fromBase32(secret), digits: 6, counter: TOTP.counter({ period: 30 }) });
  const res = await attacker.post("/login/kod", { form: { kod } });
  expect(res.status()).toBe(302);
  expect(res.headers()["location"]).toBe("/personal/logga-in");
  const [row] = await server.db.select().from(schema.staffUsers).where(eq(schema.staffUsers.id, x.id));
  expect(row.totpSecret).toBeNull();
});

test("a login whose password step used a password that is no longer current is refused at the code step, session row or not", async () => {
  const x = await victim();
  const attacker = await pendingAttacker(x.email);
  // The password changed behind the sessions' back (a restore, a direct fix): the row stays.
  await server.db.update(schema.staffUsers).set({ passwordHash: "scrypt$AAAA$BBBB" }).where(eq(schema.staffUsers.id, x.id));
  const code = await attacker.post("/login/kod", { form: { kod: validCode() } });
  expect(code.headers()["location"]).toBe("/personal/logga-in");
  expect((await attacker.get("/admin")).headers()["location"]).toMatch(/^\/personal\/logga-in\?redirectTo=/);
});

test("every request re-checks that the account is active, and Stäng av on a deactivated account still ends its sessions", async () => {
  const x = await victim({ roles: "sales" });
  const browser = await client(server.baseURL);
  contexts.push(browser);
  await logIn(browser, x.email, PASSWORD);
  expect((await browser.get("/admin/distribution")).status()).toBe(200);
  const success = await server.db
    .select()
    .from(schema.auditLog)
    .where(and(eq(schema.auditLog.actor, `staff:${x.id}`), eq(schema.auditLog.action, "login.success")));
  expect(success).toHaveLength(1);
  // Deactivated without its sessions being ended (a direct fix in the database): the next request is logged out.
  await server.db.update(schema.staffUsers).set({ deactivatedAt: portalNow() }).where(eq(schema.staffUsers.id, x.id));
  const after = await browser.get("/admin/distribution");
  expect(after.status()).toBe(302);
  expect(after.headers()["location"]).toMatch(/^\/personal\/logga-in\?redirectTo=/);
  expect(await server.db.select().from(schema.sessions).where(eq(schema.sessions.staffId, x.id))).toHaveLength(1);
  await staffScreen({ intent: "stang-av", staffId: String(x.id) });
  expect(await server.db.select().from(schema.sessions).where(eq(schema.sessions.staffId, x.id))).toHaveLength(0);

  // A retailer too.
  await createCustomer(server.db, { id: 4711, distributorId: 1, pin: "482913", name: "Şahin Livs" });
  const shop = await client(server.baseURL);
  contexts.push(shop);
  await logIn(shop, 4711, "482913");
  expect((await shop.get("/")).status()).toBe(200);
  await server.db.update(schema.customers).set({ deactivatedAt: portalNow() }).where(eq(schema.customers.id, 4711));
  const gone = await shop.get("/");
  expect(gone.status()).toBe(302);
  expect(gone.headers()["location"]).toMatch(/^\/login/);
});
