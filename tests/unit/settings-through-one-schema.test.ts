// Every setting is read through readConfig's one schema, and a bad value stops the start
// with the line that says what to set: never "ignored, running with the default"
// (THROTTLE_IP_LIMIT=abc ran with 100, PORTAL_WRITE_WAIT_MS=0 with 4000). ESLint keeps
// process.env out of the rest of the code (eslint.config.js, envRules).
import { describe, expect, it } from "vitest";
import { readConfig } from "../../app/config.server";
import { writeWaitMsOf } from "../../db/database-url";

const read = (env: Record<string, string>) => readConfig({ DATABASE_URL: "file:tests/.tmp/settings.db", ...env }, { lenient: true });

describe("settings read through one schema", () => {
  it("takes the documented defaults when unset", () => {
    const c = read({});
    expect(c.throttle).toEqual({ windowMs: 900_000, ipLimit: 100, globalLimit: 2000 });
    expect(c.hashLimits.queue).toBe(16);
    expect(c.hashLimits.concurrent).toBeGreaterThanOrEqual(1);
    expect(c.totpRoles).toEqual(["admin"]);
    expect(c.writeWaitMs).toBe(4000);
    expect(c.quietLog).toBe(false);
    expect(c.buildDir).toBe("build");
  });

  it("takes good values", () => {
    const c = read({
      THROTTLE_WINDOW_MS: "60000",
      THROTTLE_IP_LIMIT: "40",
      THROTTLE_GLOBAL_LIMIT: "500",
      HASH_CONCURRENCY: "3",
      HASH_QUEUE: "0",
      STAFF_TOTP_ROLES: "admin, sales",
      PORTAL_WRITE_WAIT_MS: "250",
      PORTAL_TODAY: "2028-02-29",
      PORTAL_QUIET_LOG: "1",
      PORTAL_CLOCK_OFFSET_MS: "-23357623409",
    });
    expect(c.throttle).toEqual({ windowMs: 60_000, ipLimit: 40, globalLimit: 500 });
    expect(c.hashLimits).toEqual({ concurrent: 3, queue: 0 });
    expect(c.totpRoles).toEqual(["admin", "sales"]);
    expect(c.writeWaitMs).toBe(250);
    expect(c.quietLog).toBe(true);
    expect(read({ STAFF_TOTP_ROLES: "none" }).totpRoles).toEqual([]);
    // A stray comma is no role.
    expect(read({ STAFF_TOTP_ROLES: "admin,,sales," }).totpRoles).toEqual(["admin", "sales"]);
    expect(read({ PORTAL_QUIET_LOG: "true" }).quietLog).toBe(true);
  });

  it.each([
    ["THROTTLE_IP_LIMIT", "abc", "THROTTLE_IP_LIMIT ska vara ett heltal från 1 till 1000000 (utan värde: 100)."],
    ["THROTTLE_IP_LIMIT", "0", "THROTTLE_IP_LIMIT ska vara ett heltal från 1 till 1000000 (utan värde: 100)."],
    ["THROTTLE_GLOBAL_LIMIT", "2e3", "THROTTLE_GLOBAL_LIMIT ska vara ett heltal från 1 till 10000000 (utan värde: 2000)."],
    ["THROTTLE_WINDOW_MS", "15min", "THROTTLE_WINDOW_MS ska vara ett heltal från 1000 till 86400000 (utan värde: 900000)."],
    ["HASH_CONCURRENCY", "-1", "HASH_CONCURRENCY ska vara ett heltal från 1 till 256"],
    ["HASH_QUEUE", "many", "HASH_QUEUE ska vara ett heltal från 0 till 10000 (utan värde: 16)."],
    ["PORTAL_WRITE_WAIT_MS", "0", "PORTAL_WRITE_WAIT_MS ska vara ett heltal millisekunder från 1 till 60000 (utan värde: 4000)."],
    ["PORTAL_WRITE_WAIT_MS", "4s", "PORTAL_WRITE_WAIT_MS ska vara ett heltal millisekunder från 1 till 60000 (utan värde: 4000)."],
    ["STAFF_TOTP_ROLES", "admin,boss", "STAFF_TOTP_ROLES ska vara roller åtskilda med komma (admin, sales, utb) eller none; okänd roll: boss."],
    ["STAFF_TOTP_ROLES", ",", "STAFF_TOTP_ROLES ska vara roller åtskilda med komma (admin, sales, utb) eller none."],
    ["PORTAL_TODAY", "2026-02-30", "PORTAL_TODAY ska vara ett datum ÅÅÅÅ-MM-DD, t.ex. 2026-03-02 (bara för demo och test)."],
    ["PORTAL_TODAY", "28/11/2026", "PORTAL_TODAY ska vara ett datum ÅÅÅÅ-MM-DD, t.ex. 2026-03-02 (bara för demo och test)."],
    ["PORTAL_CLOCK_OFFSET_MS", "-3h", "PORTAL_CLOCK_OFFSET_MS ska vara ett heltal millisekunder som portalens klocka går före (minus: efter) datorns, högst 100 år (bara för test och demo)."],
    ["PORTAL_CLOCK_OFFSET_MS", "1.5", "PORTAL_CLOCK_OFFSET_MS ska vara ett heltal millisekunder som portalens klocka går före (minus: efter) datorns, högst 100 år (bara för test och demo)."],
    ["PORTAL_CLOCK_OFFSET_MS", "9999999999999", "PORTAL_CLOCK_OFFSET_MS ska vara ett heltal millisekunder som portalens klocka går före (minus: efter) datorns, högst 100 år (bara för test och demo)."],
    ["PORTAL_QUIET_LOG", "kanske", "PORTAL_QUIET_LOG ska vara 1 (på) eller 0 (av)."],
  ])("%s=%s stops the start with what to set", (name, value, line) => {
    expect(() => read({ [name]: value })).toThrow(line);
  });

  it("db/ refuses a bad write wait with the same line instead of waiting the default", () => {
    expect(writeWaitMsOf(undefined)).toBe(4000);
    expect(writeWaitMsOf(" 120 ")).toBe(120);
    expect(() => writeWaitMsOf("0")).toThrow("PORTAL_WRITE_WAIT_MS ska vara ett heltal millisekunder");
  });
});
