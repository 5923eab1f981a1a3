// The portal's one clock (db/clock.ts, docs/decisions/040-one-clock.md). With the clock
// shifted, as the e2e run shifts it, everything the portal stores and decides by follows
// it: today's date, the rows' default timestamps (SQL column defaults, which would
// otherwise be the database's own clock), the next version of an edited row. The offset is
// read once per process, so it is set here before anything reads the clock.
import { afterAll, describe, expect, it, vi } from "vitest";
import { eq, sql } from "drizzle-orm";
import { ESLint } from "eslint";
import { join } from "node:path";

const OFFSET = -(400 * 86_400_000) + 3 * 3_600_000 + 12_345;
const before = process.env.PORTAL_CLOCK_OFFSET_MS;
process.env.PORTAL_CLOCK_OFFSET_MS = String(OFFSET);
afterAll(() => {
  if (before === undefined) delete process.env.PORTAL_CLOCK_OFFSET_MS;
  else process.env.PORTAL_CLOCK_OFFSET_MS = before;
});

const { clockOffset, clockOffsetProblem, portalNow } = await import("../../db/clock");
const { getDb, schema } = await import("../../db/client");
const { sqlNow } = await import("../../db/schema");
const { stockholmDate, today } = await import("../../app/lib/dates");
const { nextVersion } = await import("../../app/lib/row-version.server");
const { baseData, newCustomer } = await import("./helpers");
const { stockholmMoment, stockholmTime } = await import("../../app/lib/dates");
const { scheduleDaily } = await import("../../cli/schedule");

/** Whether `ms` is the portal's time now (within a few seconds), not the machine's. */
function portalTimeNow(ms: number) {
  expect(Math.abs(ms - portalNow())).toBeLessThan(5_000);
}

describe("the portal's one clock, shifted", () => {
  it("runs the offset ahead of the machine, and today is the shifted day", () => {
    expect(clockOffset()).toBe(OFFSET);
    expect(Math.abs(portalNow() - Date.now() - OFFSET)).toBeLessThan(50);
    expect(today()).toBe(stockholmDate(Date.now() + OFFSET));
    expect(today()).not.toBe(stockholmDate(Date.now()));
  });

  it("stamps a row's default timestamps with the portal's time, not the database's", async () => {
    await baseData();
    const id = await newCustomer({ name: "Şahin Livs" });
    const [c] = await getDb().select().from(schema.customers).where(eq(schema.customers.id, id));
    portalTimeNow(c.createdAt);
    portalTimeNow(c.updatedAt);
    const [line] = await getDb().insert(schema.auditLog).values({ actor: "cli", action: "clock.test" }).returning();
    portalTimeNow(line.at);
    const [{ t }] = await getDb().all<{ t: number }>(sql`select ${sqlNow} as t`);
    portalTimeNow(t);
  });

  it("moves an edited row's version by the portal's time", async () => {
    const id = await newCustomer();
    const [c] = await getDb()
      .update(schema.customers)
      .set({ name: "Kvällsposten-kiosken", updatedAt: nextVersion(schema.customers.updatedAt) })
      .where(eq(schema.customers.id, id))
      .returning();
    portalTimeNow(c.updatedAt);
  });

  it("runs a daily job at the portal's 07:00, not the machine's", async () => {
    // The machine at 06:50 on 2026-03-04 in Stockholm; the portal at 09:50, 400 days earlier.
    vi.useFakeTimers({ now: stockholmMoment("2026-03-04", "06:50"), toFake: ["setTimeout", "clearTimeout", "Date"] });
    try {
      const runs: string[] = [];
      const stop = scheduleDaily("test", "07:00", async () => {
        runs.push(stockholmTime(portalNow()));
        return { summary: "ok" };
      }, () => undefined);
      // The machine's 07:00 passes: nothing runs. The portal's 07:00 comes some hours later.
      await vi.advanceTimersByTimeAsync(60 * 60_000);
      expect(runs).toEqual([]);
      await vi.advanceTimersByTimeAsync(48 * 60 * 60_000);
      stop();
      expect(runs).toHaveLength(2);
      for (const run of runs) expect(run.slice(11, 16)).toBe("07:00");
    } finally {
      vi.useRealTimers();
    }
  });

  it("takes a whole number of milliseconds, negative too, up to a hundred years", () => {
    for (const ok of [undefined, "", " 0 ", "-23357623409", "3600000"]) expect(clockOffsetProblem(ok), String(ok)).toBeUndefined();
    for (const bad of ["abc", "1.5", "-3h", "1e9", "9999999999999"]) expect(clockOffsetProblem(bad), bad).toMatch(/^PORTAL_CLOCK_OFFSET_MS ska vara ett heltal/);
  });
});

describe("the machine's clock is read in one place", () => {
  const eslint = new ESLint({ cwd: join(import.meta.dirname, "../..") });
  const clockLines = async (file: string, code: string) => {
    const [result] = await eslint.lintText(code, { filePath: join(import.meta.dirname, "../..", file) });
    return result.messages.filter((m) => m.message.includes("portalNow()")).length;
  };

  it.each([
    ["app/features/x/x.server.ts", "export const t = Date.now();"],
    ["app/routes/x.tsx", "export const d = new Date();"],
    ["app/lib/dates.ts", "export const t = Date.now();"],
    ["cli/x.ts", "export const now = Date.now;"],
    ["db/x.ts", "export const t = [0].map(() => Date.now());"],
  ])("%s: %s is refused", async (file, code) => {
    expect(await clockLines(file, code)).toBeGreaterThan(0);
  });

  it("leaves a date made of a moment alone, and the clock's own file", async () => {
    expect(await clockLines("app/features/x/x.server.ts", "export const d = new Date(0);\nexport const p = Date.parse('2026-03-04');")).toBe(0);
    expect(await clockLines("db/clock.ts", "export const t = Date.now();")).toBe(0);
  });
});
