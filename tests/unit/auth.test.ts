import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { schema } from "../../db/client";
import { hashSecret, verifySecret } from "../../app/domain/passwords.server";
import { THROTTLE, delayAfter, recordFailure, recordSuccess, waitBeforeLogin } from "../../app/domain/throttle.server";
import {
  SESSION_LIMITS,
  createSessionRow,
  endCustomerSessions,
  readSessionRow,
} from "../../app/domain/sessions.server";
import { baseData, db, newCustomer } from "./helpers";

beforeAll(baseData);

describe("PIN and password hashes", () => {
  it("verifies the right secret only, and never stores it in clear", async () => {
    const hash = await hashSecret("1234");
    expect(hash).not.toContain("1234");
    expect(await verifySecret("1234", hash)).toBe(true);
    expect(await verifySecret("1235", hash)).toBe(false);
    expect(await verifySecret("1234", null)).toBe(false);
  });
  it("salts every hash", async () => {
    expect(await hashSecret("1234")).not.toBe(await hashSecret("1234"));
  });
});

describe("login throttling", () => {
  it("lets the first failures through, then grows the delay up to the cap", () => {
    expect(delayAfter(THROTTLE.accountFree, THROTTLE.accountFree)).toBe(0);
    expect(delayAfter(THROTTLE.accountFree + 1, THROTTLE.accountFree)).toBe(THROTTLE.baseDelayMs);
    expect(delayAfter(THROTTLE.accountFree + 2, THROTTLE.accountFree)).toBe(THROTTLE.baseDelayMs * 2);
    expect(delayAfter(100, THROTTLE.accountFree)).toBe(THROTTLE.maxDelayMs);
  });

  it("blocks an account after repeated failures until the delay has passed, and a success clears it", async () => {
    const t0 = 1_000_000_000_000;
    const key = "customer:4242";
    for (let i = 0; i < THROTTLE.accountFree; i++) await recordFailure(key, null, t0);
    expect(await waitBeforeLogin([key], t0)).toBe(0);
    await recordFailure(key, null, t0);
    expect(await waitBeforeLogin([key], t0)).toBe(THROTTLE.baseDelayMs);
    expect(await waitBeforeLogin([key], t0 + THROTTLE.baseDelayMs)).toBe(0);
    await recordSuccess(key);
    const rows = await db().select().from(schema.loginThrottle).where(eq(schema.loginThrottle.key, key));
    expect(rows).toHaveLength(0);
  });

  it("counts failures per address too, across accounts", async () => {
    const t0 = 1_100_000_000_000;
    for (let i = 0; i <= THROTTLE.ipFree; i++) await recordFailure(`customer:${i}`, "ip:10.9.8.7", t0);
    expect(await waitBeforeLogin(["customer:99999", "ip:10.9.8.7"], t0)).toBeGreaterThan(0);
    expect(await waitBeforeLogin(["customer:99999", "ip:10.9.8.8"], t0)).toBe(0);
  });
});

describe("server-side sessions", () => {
  it("expire when idle and at the absolute limit", async () => {
    const customerId = await newCustomer();
    const t0 = Date.now();
    const id = await createSessionRow({ customerId }, t0);
    expect(id.length).toBeGreaterThanOrEqual(43);
    expect(await readSessionRow(id, t0 + 1000)).toEqual({ customerId });
    expect(await readSessionRow(id, t0 + SESSION_LIMITS.idleMs + 1)).toBeNull();

    const id2 = await createSessionRow({ customerId }, t0);
    let t = t0;
    while (t + SESSION_LIMITS.idleMs / 2 < t0 + SESSION_LIMITS.absoluteMs) {
      t += SESSION_LIMITS.idleMs / 2;
      await readSessionRow(id2, t);
    }
    expect(await readSessionRow(id2, t0 + SESSION_LIMITS.absoluteMs)).toBeNull();
  });

  it("ends every session of a customer when staff revoke them", async () => {
    const customerId = await newCustomer();
    const a = await createSessionRow({ customerId });
    const b = await createSessionRow({ customerId });
    expect(await endCustomerSessions(customerId)).toBe(2);
    expect(await readSessionRow(a)).toBeNull();
    expect(await readSessionRow(b)).toBeNull();
  });
});
