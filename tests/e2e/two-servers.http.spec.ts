// The app servers keep no state of their own: two of them on one database file behind a real load balancer (HAProxy
// from Debian, round robin, no sticky sessions), driven through the balancer the way the
// country uses it: wrong PINs from many addresses at once (the account's budget holds
// across both servers), a retailer's returns saved and read back, the invoice run started
// on one server and its progress page answered by either, one server killed (SIGKILL) in
// a burst of saves and started again (no acknowledged save lost, none doubled), and the
// reminder job run twice at once (one mail per customer).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { and, eq, inArray } from "drizzle-orm";
import { openDb, prepareDb, schema, type Db } from "../../db/client";
import { createBundle, createCustomer, createDelivery, createDistributor, createLabelBlock, createStaff, ensureTitlesAndEditions } from "../../cli/seed/factories";
import { addDays, today } from "../../app/lib/dates";
import { SELLER_ENV } from "../production-env";
import { startSmtpCatcher } from "../smtp-catcher";
import { expect, test } from "./fixtures";
import { client, logIn } from "./own-server";
import { serverDatabase } from "./totp-codes";
import { burstWithKill, postForm, returnForms, type SaveForm } from "./return-burst";

test.describe.configure({ timeout: 300_000 });

const BASE = Number(process.env.E2E_PORT || 3100) + 60;
const PORTS = [BASE, BASE + 1];
const LB_PORT = BASE + 2;
const LB = `http://127.0.0.1:${LB_PORT}`;
const FILE = `tests/.tmp/two-servers-${BASE}.db`;
const CFG = `tests/.tmp/two-servers-${BASE}.haproxy.cfg`;
const CUSTOMERS = 60;

type Server = { port: number; child: ChildProcess; log: () => string };

async function untilUp(url: string, child: ChildProcess, what: string) {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`${what} exited`);
    try {
      if ((await fetch(url)).status === 200) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${what} did not start`);
}

/** One app server as production runs it (the compiled CLI), its request log kept. */
async function startServer(port: number): Promise<Server> {
  const child = spawn(process.execPath, ["build/cli/portal.js", "serve", "--host", "127.0.0.1", "--port", String(port)], {
    env: {
      ...process.env,
      DATABASE_URL: `file:${FILE}`,
      NODE_ENV: "production",
      PORTAL_QUIET_LOG: "",
      // The same secret on every server: a session made on one is read on the other.
      SESSION_SECRET: "two-servers-session-secret-not-for-production",
      PORTAL_URL: LB,
      ...SELLER_ENV,
      // X-Forwarded-For from the balancer names the client.
      TRUST_PROXY: "loopback",
      REMIND_AT: "off",
      MAINTENANCE_AT: "off",
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  child.stdout?.on("data", (d) => (out += String(d)));
  await untilUp(`http://127.0.0.1:${port}/healthz`, child, `server ${port}`);
  return { port, child, log: () => out };
}

function haproxyBinary(): string {
  for (const bin of ["/usr/sbin/haproxy", "/usr/bin/haproxy"]) if (existsSync(bin)) return bin;
  const which = spawnSync("sh", ["-c", "command -v haproxy"], { encoding: "utf8" }).stdout.trim();
  if (!which) throw new Error("haproxy is not installed (.ci/run installs it from Debian)");
  return which;
}

/** HAProxy in front of both servers: round robin per request, no stickiness, health checks on /readyz. */
async function startBalancer(): Promise<ChildProcess> {
  writeFileSync(
    CFG,
    [
      "global",
      "  maxconn 2000",
      "defaults",
      "  mode http",
      "  timeout connect 5s",
      "  timeout client 60s",
      "  timeout server 60s",
      "  option forwardfor",
      // A connection refused by a killed server is tried on the other one.
      "  retries 2",
      "  option redispatch 1",
      // A busy server answers its health check late, not never: down only after 3 missed seconds.
      "  timeout check 5s",
      "frontend portal",
      `  bind 127.0.0.1:${LB_PORT}`,
      "  default_backend servers",
      "backend servers",
      "  balance roundrobin",
      "  option httpchk GET /readyz",
      ...PORTS.map((p, i) => `  server app${i} 127.0.0.1:${p} check inter 1s fall 3 rise 1`),
      "",
    ].join("\n"),
  );
  const child = spawn(haproxyBinary(), ["-f", CFG, "-db", "-q"], { stdio: ["ignore", "ignore", "inherit"] });
  await untilUp(`${LB}/healthz`, child, "haproxy");
  return child;
}

/** How many requests for `path` each server's request log has. */
const served = (servers: Server[], path: RegExp) => servers.map((s) => s.log().split("\n").filter((l) => path.test(l)).length);

async function seed(db: Db) {
  await prepareDb(db);
  await ensureTitlesAndEditions(db);
  await createDistributor(db, 1, "Utb Mitt");
  const on = today();
  const plan: { customerId: number; lines: { deliveryId: number; amount: number }[] }[] = [];
  for (let i = 0; i < CUSTOMERS; i++) {
    const customerId = 2000 + i;
    await createCustomer(db, { id: customerId, distributorId: 1, pin: "135790", name: i % 2 ? `Şahin Livs ${i}` : `Kvällsposten-kiosken Ängby ${i}` });
    await createLabelBlock(db, { customerId, type: 0, status: "Levererad", fromDate: addDays(on, -30), toDate: addDays(on, 300), fromNumber: 1, toNumber: 50 });
    await createBundle(db, { customerId, number: 1, type: 0, open: true });
    const lines = [];
    for (let k = 0; k < 3; k++) {
      const d = await createDelivery(db, { customerId, titleId: 1 + (k % 2), editionId: 1, deliveryDate: addDays(on, -k - 1), delivered: 20, priceOre: 2200 });
      lines.push({ deliveryId: d.id, amount: 1 + ((i + k) % 7) });
    }
    plan.push({ customerId, lines });
  }
  return plan;
}

test("two app servers behind HAProxy: budgets, saves, the invoice run, a killed server and the reminders hold", async () => {
  for (const s of ["", "-wal", "-shm"]) rmSync(FILE + s, { force: true });
  const db = openDb(`file:${FILE}`);
  serverDatabase(LB, () => db);
  const plan = await seed(db);
  const admin = await createStaff(db, { email: "anna@two-servers.example", name: "Anna Andersson", password: "Korrekt-Häst-Batteri-9", roles: "admin" });
  const servers = [await startServer(PORTS[0]), await startServer(PORTS[1])];
  const balancer = await startBalancer();
  try {
    // --- 1. 40 wrong PINs at once for one account, from 40 addresses, spread over both
    // servers: the account's budget (10 weighed in its window) is one budget.
    const victim = plan[0].customerId;
    const http = await client(LB);
    const attempts = await Promise.all(
      Array.from({ length: 40 }, (_, n) =>
        http.post("/login", { form: { kundnummer: String(victim), pinkod: String(100000 + n) }, headers: { "X-Forwarded-For": `198.51.100.${n + 1}` } }),
      ),
    );
    const statuses = attempts.map((r) => r.status());
    expect(statuses.filter((s) => s === 400), JSON.stringify(statuses)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30);
    expect(served(servers, /"path":"\/login".*"status":(400|429)/).every((n) => n > 0), "both servers weighed logins").toBe(true);
    const failures = await db.select().from(schema.auditLog).where(and(eq(schema.auditLog.action, "login.failure"), eq(schema.auditLog.target, `customer:${victim}`)));
    expect(failures).toHaveLength(10);
    // The right PIN from an unknown device is refused on either server while the budget is spent.
    for (let i = 0; i < 2; i++) {
      const stranger = await client(LB);
      expect((await stranger.post("/login", { form: { kundnummer: String(victim), pinkod: "135790" }, headers: { "X-Forwarded-For": "203.0.113.9" } })).status()).toBe(429);
      await stranger.dispose();
    }
    await http.dispose();

    // --- 2. A retailer saves through the balancer; every page after it, on either server, shows it.
    const shop = plan[1];
    const retailer = await client(LB);
    await logIn(retailer, shop.customerId, "135790");
    const csrf = await (async () => {
      const html = await (await retailer.get("/logout")).text();
      return /<meta name="csrf-token" content="([^"]+)"/.exec(html)![1];
    })();
    const line = shop.lines[0];
    const saved = await retailer.post("/rapportering/1", {
      form: { csrf, intent: "save", token: randomUUID(), line: `d${line.deliveryId}`, [`d${line.deliveryId}.delivery`]: String(line.deliveryId), [`d${line.deliveryId}.bundle`]: "1", [`d${line.deliveryId}.amount`]: "4", [`d${line.deliveryId}.dflt`]: "" },
    });
    expect(saved.status()).toBe(302);
    expect(saved.headers()["location"]).toMatch(/\/rapportering\/1\/bekrafta$/);
    for (let i = 0; i < 4; i++) {
      const page = await retailer.get("/rapportering/2");
      expect(page.status()).toBe(200);
      // Ändra/tillägg lists the reported paper.
      expect(await page.text()).toContain(`value="${line.deliveryId}"`);
    }
    const stored = await db.select().from(schema.returns).where(eq(schema.returns.deliveryId, line.deliveryId));
    expect(stored.map((r) => r.amount)).toEqual([4]);
    expect(served(servers, /"path":"\/rapportering\/2"/).every((n) => n > 0), "both servers answered the saved retailer").toBe(true);
    await retailer.dispose();

    // --- 3. The invoice run, started on one server, followed on either.
    const staff = await client(LB);
    await logIn(staff, admin.email, "Korrekt-Häst-Batteri-9");
    const staffCsrf = /<meta name="csrf-token" content="([^"]+)"/.exec(await (await staff.get("/logout")).text())![1];
    const from = addDays(today(), -10);
    const started = await staff.post("/admin/invoice/korning", { form: { csrf: staffCsrf, fran: from, till: today() } });
    expect(started.status()).toBe(302);
    const progress = started.headers()["location"];
    expect(progress).toMatch(/^\/admin\/invoice\/korning\?korning=\d+$/);
    const runId = Number(/korning=(\d+)/.exec(progress)![1]);
    // The page shows the progress while the run works, then sends on to its result.
    // Either server must know the run on every poll (it was in one server's memory once: "Körningen finns inte").
    let result: string | undefined;
    const unknown: string[] = [];
    await expect
      .poll(
        async () => {
          const page = await staff.get(progress);
          if (page.status() === 302) return (result = page.headers()["location"]);
          const text = await page.text();
          if (page.status() !== 200 || !text.includes("Körningen pågår:")) unknown.push(`${page.status()} ${text.slice(0, 200)}`);
          return "running";
        },
        { timeout: 120_000, intervals: [200] },
      )
      .toBe(`/admin/invoice/korning?resultat=${runId}`);
    expect(unknown).toEqual([]);
    const [{ status }] = await db.select({ status: schema.invoiceRuns.status }).from(schema.invoiceRuns).where(eq(schema.invoiceRuns.id, runId));
    expect(status).toBe("done");
    expect((await staff.get(result!)).status()).toBe(200);
    expect(served(servers, /"method":"GET","path":"\/admin\/invoice\/korning"/).every((n) => n > 0), "both servers answered the progress page").toBe(true);
    const invoices = await db.select().from(schema.invoices).where(eq(schema.invoices.periodFrom, from));
    expect(invoices.length).toBeGreaterThan(0);
    await staff.dispose();

    // --- 4. One server killed in a burst of saves, then started again.
    const forms = await returnForms(LB, plan.slice(2), "135790");
    const post = (f: SaveForm) => postForm(LB, f);
    const victimServer = servers[0];
    const exited = new Promise((r) => victimServer.child.once("exit", r));
    const { acked, killed } = await burstWithKill(LB, forms, () => victimServer.child.kill("SIGKILL"));
    if (!killed) victimServer.child.kill("SIGKILL");
    await exited;
    servers[0] = await startServer(PORTS[0]);
    const check = async (f: SaveForm) => {
      const rows = await db
        .select({ deliveryId: schema.returns.deliveryId, amount: schema.returns.amount })
        .from(schema.returns)
        .where(and(eq(schema.returns.customerId, f.customerId), inArray(schema.returns.deliveryId, f.lines.map((l) => l.deliveryId))));
      return { rows: rows.length, complete: f.lines.every((l) => rows.some((r) => r.deliveryId === l.deliveryId && r.amount === l.amount)) && rows.length === f.lines.length };
    };
    for (const f of forms) {
      const got = await check(f);
      if (f.acked) expect(got.complete, `acknowledged save of ${f.customerId}`).toBe(true);
      expect(got.rows === 0 || got.complete, `form of ${f.customerId} stored in part or twice`).toBe(true);
    }
    // Sent again (the user presses Spara again), the unanswered forms are stored exactly once.
    for (const f of forms.filter((x) => !x.acked)) {
      const res = await post(f);
      expect([302, 303]).toContain(res.status);
    }
    for (const f of forms) expect((await check(f)).complete, `form of ${f.customerId} after the resend`).toBe(true);
    console.log(`two servers: ${acked} of ${forms.length} saves acknowledged before the kill, ${forms.filter((f) => !f.acked).length} sent again`);

    // --- 5. The reminder job on both at once: one mail per customer.
    const mails: string[] = [];
    const smtp = await startSmtpCatcher(mails);
    try {
      // Customers with an unreported paper due tomorrow, opted in.
      const opted = plan.slice(2, 22);
      for (const p of opted) {
        await createDelivery(db, { customerId: p.customerId, titleId: 1, editionId: 1, deliveryDate: addDays(today(), -6), delivered: 10, priceOre: 2200 });
        await db.insert(schema.emailReminders).values({ customerId: p.customerId, email: `kund-${p.customerId}@example.se`, enabled: true, key: randomUUID() });
      }
      const env = { ...process.env, DATABASE_URL: `file:${FILE}`, NODE_ENV: "production" as const, PORTAL_URL: LB, SMTP_URL: smtp.url, ...SELLER_ENV };
      const run = () =>
        new Promise<number | null>((resolve) => {
          const child = spawn(process.execPath, ["build/cli/portal.js", "remind"], { env, stdio: "ignore" });
          child.once("exit", resolve);
        });
      expect(await Promise.all([run(), run()])).toEqual([0, 0]);
      expect(mails.sort()).toEqual(opted.map((p) => `kund-${p.customerId}@example.se`).sort());
    } finally {
      await smtp.close();
    }
  } finally {
    balancer.kill("SIGTERM");
    for (const s of servers) if (s.child.exitCode === null) s.child.kill("SIGTERM");
    await Promise.all(servers.map((s) => (s.child.exitCode === null ? new Promise((r) => s.child.once("exit", r)) : undefined)));
    db.$client.close();
    for (const s of ["", "-wal", "-shm"]) rmSync(FILE + s, { force: true });
    rmSync(CFG, { force: true });
  }
});
