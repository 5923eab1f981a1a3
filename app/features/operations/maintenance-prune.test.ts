// `portal maintenance prune` keeps the database small. Expired
// sessions, throttle rows that no longer block, audit rows and form tokens past their
// retention go; everything still in use stays. The server's daily timer is covered too.
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { schema } from "../../../db/client";
import { RETENTION, prune } from "./maintenance.server";
import { SESSION_LIMITS } from "../auth/sessions.server";
import { THROTTLE } from "../auth/throttle.server";
import { portal } from "../../../tests/unit/cli-run";
import { baseData, db, newCustomer } from "../../../tests/unit/helpers";

const DAY = 24 * 60 * 60_000;
let customer: number;

beforeAll(async () => {
  await baseData();
  customer = await newCustomer();
});

/** One row of each kind just past its limit ("old-…") and one just inside it ("keep-…"). */
async function fill(now: number) {
  const session = (id: string, createdAt: number, lastSeenAt: number) => ({
    id,
    customerId: customer,
    data: "{}",
    createdAt,
    lastSeenAt,
    expiresAt: createdAt + SESSION_LIMITS.absoluteMs,
  });
  await db()
    .insert(schema.sessions)
    .values([
      session("old-absolute", now - SESSION_LIMITS.absoluteMs - 1_000, now - 60_000),
      session("old-idle", now - 3 * 60 * 60_000, now - SESSION_LIMITS.idleMs - 1_000),
      session("keep-session", now - 60 * 60_000, now - 60_000),
    ]);
  const forget = THROTTLE.forgetAfterMs;
  await db()
    .insert(schema.loginThrottle)
    .values([
      { key: "customer:1", failures: 9, lastFailureAt: now - forget - 1_000, recent: "[]" },
      { key: "customer:2", failures: 2, lastFailureAt: now - forget + 10 * 60 * 60_000, recent: "[]" },
      // Forgotten by age, but locked: it stays until a new PIN ends the lock.
      { key: "customer:3", failures: THROTTLE.lockAfter, lastFailureAt: now - forget - 1_000, recent: "[]" },
      // An address's budget: kept while its attempts are in the window.
      { key: "ip:203.0.113.5", failures: 4, lastFailureAt: now - 1_000, recent: JSON.stringify([now - 1_000]) },
    ]);
  const auditCut = now - RETENTION.auditDays * DAY;
  // 12,001 old audit rows: more than two delete batches.
  await db().run(sql`
    with recursive n(i) as (select 1 union all select i + 1 from n where i < 12001)
    insert into audit_log (at, actor, action) select ${auditCut - 1_000} - i, 'test', 'old' from n`);
  await db().insert(schema.auditLog).values({ at: auditCut + 60_000, actor: "test", action: "keep" });
  const tokenCut = now - RETENTION.formTokenDays * DAY;
  await db()
    .insert(schema.appliedSubmissions)
    .values([
      { token: "old-token", customerId: customer, at: tokenCut - 1_000 },
      { token: "keep-token", customerId: customer, at: tokenCut + 60_000 },
    ]);
  const reminderCut = now - RETENTION.reminderLogDays * DAY;
  await db()
    .insert(schema.reminderLog)
    .values([
      { customerId: customer, day: "2025-01-01", email: "old@example.se", papers: 1, state: "sent", createdAt: reminderCut - 1_000 },
      { customerId: customer, day: "2026-11-25", email: "keep@example.se", papers: 1, state: "sent", createdAt: reminderCut + 60_000 },
    ]);
}

async function remaining() {
  const sessions = await db().select({ id: schema.sessions.id }).from(schema.sessions);
  const throttle = await db().select({ key: schema.loginThrottle.key }).from(schema.loginThrottle);
  const audit = await db().select({ action: schema.auditLog.action, n: sql<number>`count(*)` }).from(schema.auditLog).groupBy(schema.auditLog.action);
  const tokens = await db().select({ token: schema.appliedSubmissions.token }).from(schema.appliedSubmissions);
  const reminders = await db().select({ email: schema.reminderLog.email }).from(schema.reminderLog);
  return {
    reminders: reminders.map((r) => r.email),
    sessions: sessions.map((r) => r.id).sort(),
    throttle: throttle.map((r) => r.key).sort(),
    audit: Object.fromEntries(audit.map((r) => [r.action, Number(r.n)])),
    tokens: tokens.map((r) => r.token).sort(),
  };
}

async function clear() {
  await db().delete(schema.sessions);
  await db().delete(schema.loginThrottle);
  await db().delete(schema.auditLog);
  await db().delete(schema.appliedSubmissions);
  await db().delete(schema.reminderLog);
}

describe("maintenance prune", () => {
  it("removes what is past its limit, keeps what is inside it or still blocks, and says how many", async () => {
    await clear();
    const now = Date.now();
    await fill(now);
    expect(await prune(now)).toEqual({ sessions: 2, throttle: 1, audit: 12_001, formTokens: 1, reminderLog: 1 });
    expect(await remaining()).toEqual({
      reminders: ["keep@example.se"],
      sessions: ["keep-session"],
      throttle: ["customer:2", "customer:3", "ip:203.0.113.5"],
      audit: { keep: 1 },
      tokens: ["keep-token"],
    });
    // A second run finds nothing more.
    expect(await prune(now)).toEqual({ sessions: 0, throttle: 0, audit: 0, formTokens: 0, reminderLog: 0 });
    // The address's row goes once its window is over.
    expect(await prune(now + THROTTLE.windowMs)).toMatchObject({ throttle: 1 });
  });

  it("`portal maintenance prune` prints the counts", async () => {
    await clear();
    await fill(Date.now());
    const r = await portal(["maintenance", "prune"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^maintenance prune: 2 expired sessions, 1 throttle rows, 12001 audit rows older than 400 days, 1 form tokens older than 30 days, 1 reminder log rows older than 400 days removed \(\d+\.\d s\)\n$/,
    );
    expect((await remaining()).sessions).toEqual(["keep-session"]);
    const [{ n }] = await db().select({ n: sql<number>`count(*)` }).from(schema.auditLog).where(eq(schema.auditLog.action, "old"));
    expect(Number(n)).toBe(0);
  }, 60_000);
});
