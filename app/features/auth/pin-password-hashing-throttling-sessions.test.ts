import { beforeAll, describe, expect, it } from "vitest";
import { eq, inArray } from "drizzle-orm";
import { databaseUrl, openDb, schema } from "../../../db/client";
import { HASH_LIMITS, hashSecret, isHashBusy, verifySecret, withHashSlot } from "./passwords.server";
import {
  THROTTLE,
  attemptNotWeighed,
  attemptSucceeded,
  clearThrottle,
  normaliseCustomerNumber,
  networkKeys,
  normaliseStaffEmail,
  pruneThrottle,
} from "./throttle.server";
import {
  SESSION_LIMITS,
  createSessionRow,
  endCustomerSessions,
  readSessionRow,
} from "./sessions.server";
import { baseData, db, newCustomer } from "../../../tests/unit/helpers";
import { tryAttempt } from "../../../tests/unit/helpers";

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

describe("login throttling (decision 012)", () => {
  const keys = (account: string, ip: string | null = null, device: string | null = null) => ({ account, ip, device });

  it("300 parallel guesses for one account, from two app servers on one database: exactly 10 are weighed", async () => {
    const other = openDb(databaseUrl());
    const t0 = Date.now();
    const results = await Promise.all(
      Array.from({ length: 300 }, (_, i) => tryAttempt(keys("customer:4242", `203.0.113.${i % 200}`), t0 + (i % 7), i % 2 ? other : db())),
    );
    other.$client.close();
    expect(results.filter((r) => r.ok)).toHaveLength(THROTTLE.accountLimit);
    const refused = results.filter((r) => !r.ok);
    expect(refused.every((r) => !r.ok && r.refusal.kind === "throttled" && r.refusal.retryAfterMs > 0)).toBe(true);
    const [row] = await db().select().from(schema.loginThrottle).where(eq(schema.loginThrottle.key, "customer:4242"));
    expect(JSON.parse(row.recent)).toHaveLength(THROTTLE.accountLimit);
  });

  it("the window slides: no more than 10 in any 15 minutes, and the budget comes back as old guesses age", async () => {
    const t0 = 1_000_000_000_000;
    const k = keys("customer:4243");
    for (let i = 0; i < 10; i++) expect((await tryAttempt(k, t0 + i * 60_000)).ok).toBe(true);
    const refused = await tryAttempt(k, t0 + 10 * 60_000);
    expect(refused).toEqual({ ok: false, refusal: { kind: "throttled", retryAfterMs: 5 * 60_000 } });
    // Just before the first guess ages out: still refused; just after: exactly one more.
    expect((await tryAttempt(k, t0 + THROTTLE.windowMs - 1)).ok).toBe(false);
    expect((await tryAttempt(k, t0 + THROTTLE.windowMs + 1)).ok).toBe(true);
    expect((await tryAttempt(k, t0 + THROTTLE.windowMs + 2)).ok).toBe(false);
  });

  it("a success releases its reservation and ends the run of failures; a check that never ran is not counted", async () => {
    const t0 = 1_100_000_000_000;
    const k = keys("customer:4244", "198.51.100.1");
    for (let i = 0; i < 3; i++) await tryAttempt(k, t0 + i);
    const ok = await tryAttempt(k, t0 + 10);
    expect(ok.ok).toBe(true);
    if (ok.ok) await attemptSucceeded(ok.reservation);
    const rows = await db().select().from(schema.loginThrottle).where(inArray(schema.loginThrottle.key, ["customer:4244", "ip:198.51.100.1"]));
    const account = rows.find((r) => r.key === "customer:4244")!;
    const ip = rows.find((r) => r.key === "ip:198.51.100.1")!;
    expect(account.failures).toBe(0);
    expect(JSON.parse(account.recent)).toHaveLength(3);
    // The address keeps its three failures; the success is not one of them.
    expect(JSON.parse(ip.recent)).toHaveLength(3);
    const busy = await tryAttempt(k, t0 + 20);
    if (busy.ok) await attemptNotWeighed(busy.reservation);
    const [after] = await db().select().from(schema.loginThrottle).where(eq(schema.loginThrottle.key, "customer:4244"));
    expect(JSON.parse(after.recent)).toHaveLength(3);
  });

  it("after 100 failures in a row the account is locked for unknown devices until a new PIN; a known device still gets its own small budget", async () => {
    const t0 = 1_200_000_000_000;
    const k = keys("customer:4245");
    let weighed = 0;
    for (let i = 0; weighed < THROTTLE.lockAfter; i++) {
      const r = await tryAttempt(k, t0 + i * 2 * 60_000);
      if (r.ok) weighed++;
    }
    expect(await tryAttempt(k, t0 + 10 ** 9)).toEqual({ ok: false, refusal: { kind: "locked" } });
    const device = keys("customer:4245", null, "device:abc|customer:4245");
    const fromDevice = [];
    for (let i = 0; i < THROTTLE.deviceLimit + 1; i++) fromDevice.push((await tryAttempt(device, t0 + 10 ** 9 + i)).ok);
    expect(fromDevice).toEqual([...Array(THROTTLE.deviceLimit).fill(true), false]);
    await clearThrottle("customer:4245");
    expect((await tryAttempt(k, t0 + 10 ** 9)).ok).toBe(true);
  });

  it("one address has a looser budget of its own, across accounts", async () => {
    const t0 = 1_300_000_000_000;
    const results = [];
    for (let i = 0; i <= THROTTLE.ipLimit; i++) results.push((await tryAttempt(keys(`customer:${30000 + i}`, "10.9.8.7"), t0 + i)).ok);
    expect(results.filter(Boolean)).toHaveLength(THROTTLE.ipLimit);
    expect((await tryAttempt(keys("customer:39999", "10.9.8.8"), t0)).ok).toBe(true);
  });

  it("weighs IPv6 by network: 135 wrong PINs over 15 accounts from 135 addresses in one /64 get at most the /64's budget", async () => {
    const t0 = 1_310_000_000_000;
    const results = [];
    for (let i = 0; i < 135; i++) {
      const ip = `2001:db8:17:42:${((i * 7919) & 0xffff).toString(16)}:${i.toString(16)}::1`;
      results.push((await tryAttempt(keys(`customer:${31000 + (i % 15)}`, ip), t0 + i)).ok);
    }
    expect(results.filter(Boolean)).toHaveLength(THROTTLE.ipLimit);
    // Another /64 of the same /48 has a budget of its own, up to the /48's.
    expect((await tryAttempt(keys("customer:31099", "2001:db8:17:43::1"), t0 + 200)).ok).toBe(true);
    const [row48] = await db().select().from(schema.loginThrottle).where(eq(schema.loginThrottle.key, "ip6/48:2001:db8:17"));
    expect(JSON.parse(row48.recent)).toHaveLength(THROTTLE.ipLimit + 1);
  });

  it("weighs a /48 as one site: its /64s together stop at the /48's wider budget", async () => {
    const t0 = 1_320_000_000_000;
    const results = [];
    for (let i = 0; i <= THROTTLE.ip48Limit; i++) results.push((await tryAttempt(keys(`customer:${32000 + i}`, `2001:db8:48:${i.toString(16)}::7`), t0 + i)).ok);
    expect(results.filter(Boolean)).toHaveLength(THROTTLE.ip48Limit);
  });

  it("reads IPv6 in every written form and an IPv4-mapped address as IPv4", () => {
    expect(networkKeys("2001:db8::1").map((k) => k.key)).toEqual(["ip6/64:2001:db8:0:0", "ip6/48:2001:db8:0"]);
    expect(networkKeys("2001:0DB8:0000:0001:aaaa::9").map((k) => k.key)).toEqual(["ip6/64:2001:db8:0:1", "ip6/48:2001:db8:0"]);
    expect(networkKeys("::ffff:192.0.2.1")).toEqual([{ key: "ip:192.0.2.1", limit: THROTTLE.ipLimit }]);
    expect(networkKeys("::ffff:c000:201")).toEqual([{ key: "ip:192.0.2.1", limit: THROTTLE.ipLimit }]);
    expect(networkKeys("fe80::1%eth0").map((k) => k.key)).toEqual(["ip6/64:fe80:0:0:0", "ip6/48:fe80:0:0"]);
    expect(networkKeys("192.0.2.9")).toEqual([{ key: "ip:192.0.2.9", limit: THROTTLE.ipLimit }]);
    expect(networkKeys(null)).toEqual([]);
  });

  it("trips a breaker across every account and address; then only known devices log in", async () => {
    // A day ahead: clear of the attempts other tests weighed at the real time.
    const t0 = Date.now() + 86_400_000;
    const saved = THROTTLE.globalLimit;
    THROTTLE.globalLimit = 40;
    try {
      const results = [];
      for (let i = 0; i <= 40; i++) results.push(await tryAttempt(keys(`customer:${33000 + i}`, `198.18.${i}.1`), t0 + i));
      expect(results.filter((r) => r.ok)).toHaveLength(40);
      expect(results[40]).toMatchObject({ ok: false, refusal: { kind: "throttled" } });
      // A browser known to its account is held only by its own budget.
      expect((await tryAttempt(keys("customer:33050", "198.18.99.1", "device:xyz|customer:33050"), t0 + 50)).ok).toBe(true);
    } finally {
      THROTTLE.globalLimit = saved;
    }
  });

  it("prunes rows that limit nothing any more, and keeps locks", async () => {
    const t0 = 1_400_000_000_000;
    await tryAttempt(keys("customer:4246", "192.0.2.55"), t0);
    await db().insert(schema.loginThrottle).values({ key: "customer:4247", failures: THROTTLE.lockAfter, lastFailureAt: t0, recent: "[]" });
    await pruneThrottle(t0 + THROTTLE.forgetAfterMs + 1);
    const left = await db().select({ key: schema.loginThrottle.key }).from(schema.loginThrottle).where(inArray(schema.loginThrottle.key, ["customer:4246", "ip:192.0.2.55", "customer:4247"]));
    expect(left.map((r) => r.key)).toEqual(["customer:4247"]);
  });

  it("808, 0808, ' 808 ' and full-width digits are one account", () => {
    for (const raw of ["808", "0808", " 808 ", "00808", "\uff10\uff18\uff10\uff18", "8 0 8"]) {
      expect(normaliseCustomerNumber(raw)).toEqual({ id: 808, key: "customer:808" });
    }
    for (const raw of ["", "abc", "0", "123456", "8O8", "-808", "808.0"]) expect(normaliseCustomerNumber(raw).id).toBeNull();
    expect(normaliseStaffEmail(" Admin@Example.SE ")).toBe("admin@example.se");
  });
});

describe("hashing slots", () => {
  it("run at most the configured number of hashes at once, queue a few and refuse the rest at once", async () => {
    let running = 0;
    let most = 0;
    const work = () =>
      withHashSlot(async () => {
        running++;
        most = Math.max(most, running);
        await new Promise((r) => setTimeout(r, 20));
        running--;
        return true;
      });
    const total = HASH_LIMITS.concurrent + HASH_LIMITS.queue + 10;
    const results = await Promise.allSettled(Array.from({ length: total }, work));
    expect(most).toBe(HASH_LIMITS.concurrent);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(HASH_LIMITS.concurrent + HASH_LIMITS.queue);
    expect(results.filter((r) => r.status === "rejected" && isHashBusy(r.reason))).toHaveLength(10);
    // Afterwards every slot is free again.
    expect(await Promise.all(Array.from({ length: HASH_LIMITS.concurrent }, work))).toEqual(Array(HASH_LIMITS.concurrent).fill(true));
  });
});

describe("server-side sessions", () => {
  it("expire when idle and at the absolute limit", async () => {
    const customerId = await newCustomer();
    const t0 = Date.now();
    const id = await createSessionRow({ customerId }, t0);
    expect(id.length).toBeGreaterThanOrEqual(43);
    expect(await readSessionRow(id, t0 + 1000)).toEqual({ customerId, csrf: expect.stringMatching(/^[\w-]{43}$/) });
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

  it("each get their own form token; one from before tokens gets one on its first read, the same for parallel reads", async () => {
    const customerId = await newCustomer();
    const a = await createSessionRow({ customerId, csrf: "copied from another session" });
    const b = await createSessionRow({ customerId });
    const [ta, tb] = [(await readSessionRow(a))!.csrf, (await readSessionRow(b))!.csrf];
    expect(ta).not.toBe("copied from another session");
    expect(ta).not.toBe(tb);
    expect((await readSessionRow(a))!.csrf).toBe(ta);

    const old = await createSessionRow({ customerId });
    await db().update(schema.sessions).set({ data: JSON.stringify({ customerId }) }).where(eq(schema.sessions.id, old));
    const reads = await Promise.all(Array.from({ length: 8 }, () => readSessionRow(old)));
    const tokens = new Set(reads.map((r) => r!.csrf));
    expect(tokens.size).toBe(1);
    expect([...tokens][0]).toMatch(/^[\w-]{43}$/);
    expect((await readSessionRow(old))!.csrf).toBe([...tokens][0]);
    expect((await readSessionRow(old))!.customerId).toBe(customerId);
  });
});
