// The run's one clock (docs/decisions/040-one-clock.md): the test workers, the shared server
// and the servers the tests start all run PORTAL_CLOCK_OFFSET_MS ahead of the machine, so the
// run lives at its fixed morning (tests/playwright.config.ts) and never crosses midnight.
// What a server stores by the clock, the database's column defaults included, carries the
// portal's time, not the machine's.
import { and, desc, eq } from "drizzle-orm";
import { schema } from "../../db/client";
import { portalNow } from "../../db/clock";
import { stockholmTime, today } from "../../app/lib/dates";
import { E2E_CLOCK_START } from "../playwright.config";
import { e2eDb, expect, makeRetailer, test } from "./fixtures";
import { startOwnServer } from "./own-server";
import { createCustomer, createDistributor } from "../../cli/seed/factories";

const DAY = E2E_CLOCK_START.slice(0, 10);

/** The latest refused login's audit line of `customerId` on a server's database, in the portal's time. */
async function refusedLoginAt(db: ReturnType<typeof e2eDb>, customerId: number): Promise<number | undefined> {
  const [row] = await db
    .select({ at: schema.auditLog.at })
    .from(schema.auditLog)
    .where(and(eq(schema.auditLog.action, "login.failure"), eq(schema.auditLog.target, `customer:${customerId}`)))
    .orderBy(desc(schema.auditLog.id))
    .limit(1);
  return row?.at;
}

test("the workers' clock starts at the run's fixed morning in Stockholm", () => {
  expect(today()).toBe(DAY);
  // Hours into the run at most, never the next day.
  expect(stockholmTime(portalNow()).slice(0, 10)).toBe(DAY);
  expect(Math.abs(portalNow() - Date.now())).toBeGreaterThan(60_000);
});

test("the shared server stamps what it stores with the same clock, the database's defaults too", async ({ request }, info) => {
  const r = await makeRetailer(info.workerIndex, { name: "Şahin Livs" });
  const before = portalNow();
  const res = await request.post("/login", { form: { kundnummer: String(r.id), pinkod: "0000" }, maxRedirects: 0 });
  expect(res.status()).toBe(400);
  const at = await refusedLoginAt(e2eDb(), r.id);
  expect(at, "the refused login's audit line").toBeDefined();
  expect(at!).toBeGreaterThanOrEqual(before - 1_000);
  expect(at!).toBeLessThanOrEqual(portalNow() + 1_000);
});

test("a server a test starts runs on the same clock", async () => {
  const server = await startOwnServer("one-clock");
  try {
    await createDistributor(server.db, 1);
    await createCustomer(server.db, { id: 4711, distributorId: 1, pin: "4711", name: "Kvällsposten-kiosken Şahin" });
    const before = portalNow();
    const res = await fetch(`${server.baseURL}/login`, { method: "POST", body: new URLSearchParams({ kundnummer: "4711", pinkod: "0000" }), redirect: "manual" });
    expect(res.status).toBe(400);
    const at = await refusedLoginAt(server.db, 4711);
    expect(at).toBeDefined();
    expect(at!).toBeGreaterThanOrEqual(before - 1_000);
    expect(at!).toBeLessThanOrEqual(portalNow() + 1_000);
  } finally {
    await server.stop();
  }
});
