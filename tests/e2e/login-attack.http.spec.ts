// Issue 8, item 2: online PIN guessing against a server of its own, set up as behind a
// proxy (TRUST_PROXY=1, so X-Forwarded-For names the client) with short delays
// (THROTTLE_BASE_DELAY_MS) and a low per-address allowance (THROTTLE_IP_FREE).
import { expect, test, type APIRequestContext } from "@playwright/test";
import { and, eq, inArray } from "drizzle-orm";
import { schema } from "../../db/client";
import { createCustomer, createDistributor } from "../../db/factories";
import { client, startOwnServer, type OwnServer } from "./own-server";

test.describe.configure({ mode: "serial" });

const BASE_DELAY = 300;
const IP_FREE = 20;
let server: OwnServer;
let http: APIRequestContext;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startOwnServer("login-attack", { TRUST_PROXY: "1", THROTTLE_BASE_DELAY_MS: String(BASE_DELAY), THROTTLE_IP_FREE: String(IP_FREE) });
  await createDistributor(server.db, 1);
  http = await client(server.baseURL);
});

test.afterAll(async () => {
  await http?.dispose();
  await server?.stop();
});

let nextId = 40000;
async function customer() {
  const id = nextId++;
  await createCustomer(server.db, { id, distributorId: 1, pin: "2468" });
  return id;
}

async function attempt(id: number | string, pin: string, ip: string) {
  const res = await http.post("/login", { form: { kundnummer: String(id), pinkod: pin }, headers: { "X-Forwarded-For": ip } });
  return { status: res.status(), text: await res.text() };
}

/** The right PIN, from a client of its own (the shared one must stay logged out). */
async function rightPin(id: number, ip: string) {
  const own = await client(server.baseURL);
  const res = await own.post("/login", { form: { kundnummer: String(id), pinkod: "2468" }, headers: { "X-Forwarded-For": ip } });
  await own.dispose();
  return res.status();
}

async function auditRows(target: string) {
  return server.db.select().from(schema.auditLog).where(eq(schema.auditLog.target, target));
}

async function waitForUnblock(key: string) {
  const [row] = await server.db.select().from(schema.loginThrottle).where(eq(schema.loginThrottle.key, key));
  const wait = row ? row.blockedUntil - Date.now() : 0;
  if (wait > 0) await new Promise((r) => setTimeout(r, wait + 50));
}

/** 200 wrong PINs for one customer number; the right PIN slipped in while blocked. */
async function attack(id: number, ipFor: (i: number) => string) {
  const statuses: number[] = [];
  let rightPinWhileBlocked: number | null = null;
  let checked = 0;
  for (let i = 0; i < 200; i++) {
    const r = await attempt(id, "1357", ipFor(i));
    statuses.push(r.status);
    if (r.status === 400) {
      expect(r.text).toContain("Felaktigt kundnummer eller pinkod.");
      checked++;
      // The 5th checked failure has just set a delay of 2×base: the right PIN now is refused unchecked.
      if (checked === 5 && rightPinWhileBlocked === null) {
        const right = await attempt(id, "2468", ipFor(i));
        rightPinWhileBlocked = right.status;
        expect(right.text).toMatch(/För många misslyckade inloggningar\. Vänta \d+ sekunder och försök igen\./);
      }
    } else {
      expect(r.status).toBe(429);
    }
  }
  return { statuses, rightPinWhileBlocked, checked, throttled: statuses.filter((s) => s === 429).length };
}

test("200 wrong PINs from one address: the throttle holds, every attempt is audited, the right PIN works after the delay", async () => {
  test.setTimeout(90_000);
  const id = await customer();
  const started = Date.now();
  const result = await attack(id, () => "198.51.100.7");
  const elapsed = Date.now() - started;
  expect(result.rightPinWhileBlocked).toBe(429);
  // 3 free failures, then one check per delay window; windows double from BASE_DELAY.
  const windows = Math.ceil(Math.log2(elapsed / BASE_DELAY + 1)) + 1;
  expect(result.checked).toBeGreaterThanOrEqual(5);
  expect(result.checked).toBeLessThanOrEqual(3 + windows);
  expect(result.checked + result.throttled).toBe(200);

  const rows = await auditRows(`customer:${id}`);
  expect(rows.filter((r) => r.action === "login.failure")).toHaveLength(result.checked);
  // The 200 throttled-or-checked answers plus the right PIN refused while blocked.
  expect(rows.filter((r) => r.action === "login.throttled")).toHaveLength(result.throttled + 1);
  expect(new Set(rows.map((r) => r.ip))).toEqual(new Set(["198.51.100.7"]));
  expect(rows.every((r) => !String(r.detail ?? "").includes("1357") && !String(r.detail ?? "").includes("2468"))).toBe(true);

  await waitForUnblock(`customer:${id}`);
  expect(await rightPin(id, "198.51.100.7")).toBe(302);
  const success = await server.db.select().from(schema.auditLog).where(and(eq(schema.auditLog.actor, `customer:${id}`), eq(schema.auditLog.action, "login.success")));
  expect(success).toHaveLength(1);
  test.info().annotations.push({ type: "figures", description: `one address: 200 tried, ${result.checked} checked (400), ${result.throttled} refused (429), ${elapsed} ms` });
  console.log(`login attack, one address: ${result.checked} × 400, ${result.throttled} × 429 in ${elapsed} ms`);
});

test("200 wrong PINs from 200 X-Forwarded-For addresses: the per-account throttle holds all the same", async () => {
  test.setTimeout(90_000);
  const id = await customer();
  const started = Date.now();
  const result = await attack(id, (i) => `203.0.113.${i}`);
  const elapsed = Date.now() - started;
  expect(result.rightPinWhileBlocked).toBe(429);
  const windows = Math.ceil(Math.log2(elapsed / BASE_DELAY + 1)) + 1;
  expect(result.checked).toBeLessThanOrEqual(3 + windows);
  expect(result.checked + result.throttled).toBe(200);
  const rows = await auditRows(`customer:${id}`);
  expect(rows.filter((r) => r.action === "login.failure")).toHaveLength(result.checked);
  expect(rows.filter((r) => r.action === "login.throttled")).toHaveLength(result.throttled + 1);
  // With TRUST_PROXY the audit names the forwarded address of each attempt.
  expect(new Set(rows.map((r) => r.ip)).size).toBe(200);

  await waitForUnblock(`customer:${id}`);
  expect(await rightPin(id, "203.0.113.250")).toBe(302);
  console.log(`login attack, 200 addresses: ${result.checked} × 400, ${result.throttled} × 429 in ${elapsed} ms`);
});

test("one address guessing across many customer numbers meets the per-address limit", async () => {
  const ip = "192.0.2.99";
  const statuses: number[] = [];
  for (let i = 0; i < IP_FREE + 10; i++) statuses.push((await attempt(50000 + i, "0000", ip)).status);
  // IP_FREE free failures and the one that sets the delay are checked; the next is refused.
  expect(statuses.slice(0, IP_FREE + 1)).toEqual(Array(IP_FREE + 1).fill(400));
  expect(statuses[IP_FREE + 1]).toBe(429);
  const throttled = await server.db.select().from(schema.auditLog).where(and(eq(schema.auditLog.ip, ip), eq(schema.auditLog.action, "login.throttled")));
  expect(throttled.length).toBe(statuses.filter((s) => s === 429).length);
  // Another address is not affected.
  expect((await attempt(50000, "0000", "192.0.2.100")).status).toBe(400);
});

test("the answer time does not tell whether a customer number exists", async () => {
  test.setTimeout(90_000);
  const known: number[] = [];
  for (let i = 0; i < 25; i++) known.push(await customer());
  const unknown = known.map((_, i) => 60000 + i);
  const exists = await server.db.select().from(schema.customers).where(inArray(schema.customers.id, unknown));
  expect(exists).toHaveLength(0);
  const times = { known: [] as number[], unknown: [] as number[] };
  for (let i = 0; i < known.length; i++) {
    // Alternate, each from an address of its own, so neither meets a delay.
    for (const [kind, id] of [["known", known[i]], ["unknown", unknown[i]]] as const) {
      const t0 = performance.now();
      const r = await attempt(id, "9999", `100.64.${i}.${kind === "known" ? 1 : 2}`);
      times[kind].push(performance.now() - t0);
      expect(r.status).toBe(400);
      expect(r.text).toContain("Felaktigt kundnummer eller pinkod.");
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const ratio = median(times.unknown) / median(times.known);
  console.log(`login timing: known median ${median(times.known).toFixed(1)} ms, unknown ${median(times.unknown).toFixed(1)} ms, ratio ${ratio.toFixed(2)}`);
  expect(ratio).toBeGreaterThan(0.5);
  expect(ratio).toBeLessThan(2);
});
