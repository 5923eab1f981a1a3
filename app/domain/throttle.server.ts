// Login throttling (docs/decisions/001-pin-login.md). Failures are counted per
// account and per client address in the database, so every app server sees them.
import { and, eq, inArray, lt, lte } from "drizzle-orm";
import { getDb, schema, writeTransaction } from "~/db.server";

/** Failures allowed before delays start, and how the delay grows. */
export const THROTTLE = {
  accountFree: 3,
  ipFree: Number(process.env.THROTTLE_IP_FREE) || 50,
  // THROTTLE_BASE_DELAY_MS shortens the delays for tests that start their own server.
  baseDelayMs: Number(process.env.THROTTLE_BASE_DELAY_MS) || 2_000,
  maxDelayMs: 15 * 60_000,
  // A key with no failure for this long starts over.
  forgetAfterMs: 24 * 60 * 60_000,
};

export function delayAfter(failures: number, free: number): number {
  if (failures <= free) return 0;
  return Math.min(THROTTLE.baseDelayMs * 2 ** (failures - free - 1), THROTTLE.maxDelayMs);
}

/** Milliseconds the caller must still wait, 0 if a login may be tried now. */
export async function waitBeforeLogin(keys: string[], now = Date.now()): Promise<number> {
  const rows = await getDb().select().from(schema.loginThrottle).where(inArray(schema.loginThrottle.key, keys));
  return Math.max(0, ...rows.map((r) => r.blockedUntil - now));
}

export async function recordFailure(accountKey: string, ipKey: string | null, now = Date.now()): Promise<void> {
  await writeTransaction(async (tx) => {
    for (const [key, free] of [[accountKey, THROTTLE.accountFree], [ipKey, THROTTLE.ipFree]] as const) {
      if (!key) continue;
      const [row] = await tx.select().from(schema.loginThrottle).where(eq(schema.loginThrottle.key, key));
      const failures = row && now - row.lastFailureAt < THROTTLE.forgetAfterMs ? row.failures + 1 : 1;
      const values = { key, failures, lastFailureAt: now, blockedUntil: now + delayAfter(failures, free) };
      await tx
        .insert(schema.loginThrottle)
        .values(values)
        .onConflictDoUpdate({ target: schema.loginThrottle.key, set: values });
    }
  });
}

/** A successful login clears the account's count; the address keeps its own. */
export async function recordSuccess(accountKey: string): Promise<void> {
  await writeTransaction((tx) => tx.delete(schema.loginThrottle).where(eq(schema.loginThrottle.key, accountKey)));
}

export async function forgetOldFailures(now = Date.now()): Promise<void> {
  await writeTransaction((tx) =>
    tx.delete(schema.loginThrottle).where(lt(schema.loginThrottle.lastFailureAt, now - THROTTLE.forgetAfterMs)),
  );
}

/**
 * Daily maintenance (`portal maintenance prune`): removes rows that no longer weigh
 * anything, i.e. forgotten (no failure for forgetAfterMs) and not blocking any more.
 * A row that still blocks stays. Returns how many went.
 */
export async function pruneThrottle(now = Date.now()): Promise<number> {
  const t = schema.loginThrottle;
  const result = await writeTransaction((tx) =>
    tx.delete(t).where(and(lt(t.lastFailureAt, now - THROTTLE.forgetAfterMs), lte(t.blockedUntil, now))),
  );
  return result.rowsAffected;
}
