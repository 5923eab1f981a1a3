// Login throttling (docs/decisions/012-login-policy.md). An attempt is reserved in one
// write transaction *before* the secret is checked, so parallel guesses cannot all pass
// the "may I try?" check first; a success releases it. The counters live in the
// database, so they hold across every app server that shares it.
import { isIP } from "node:net";
import { eq, inArray, lt, and, sql } from "drizzle-orm";
import { config } from "~/config.server";
import { getDb, schema, writeTransaction, type Db, type Tx } from "~/db.server";
import { refusalDetail, refuse } from "~/lib/refusal";
import { portalNow } from "../../../db/clock";

/** The policy. Tests that start their own server shorten the window (THROTTLE_WINDOW_MS). */
export const THROTTLE = {
  windowMs: config.throttle.windowMs,
  /** Wrong guesses weighed per account (customer number, staff e-mail) in any window. */
  accountLimit: 10,
  /** Failures in a row after which an account takes no more guesses from unknown devices. */
  lockAfter: 100,
  /**
   * Wrong guesses weighed per client network in any window (many shops share a NAT): an
   * IPv4 address, or an IPv6 /64 (one subscriber's network hands out endless addresses).
   */
  ipLimit: config.throttle.ipLimit,
  /** Wrong guesses weighed per IPv6 /48 (one site's networks) in any window. */
  ip48Limit: config.throttle.ipLimit * 3,
  /**
   * Wrong guesses weighed across every account and address in any window: a breaker for a
   * spread-out attack. When it trips, only browsers known to their account log in.
   */
  globalLimit: config.throttle.globalLimit,
  /** Wrong guesses weighed per known device (device cookie) and account in any window. */
  deviceLimit: 5,
  /** Account rows with failures but no lock are forgotten this long after the last attempt. */
  forgetAfterMs: 30 * 24 * 60 * 60_000,
};

/**
 * What an attempt is counted against. `device` is set for a browser known to the account;
 * `ip` is the client's address (networkKeys turns it into the budgets' keys).
 */
export type AttemptKeys = { account: string; ip: string | null; device: string | null };

/** An IPv6 address as its eight 16-bit groups, or null. */
function ipv6Groups(address: string): number[] | null {
  if (isIP(address) !== 6) return null;
  let text = address.split("%")[0];
  // A dotted IPv4 tail (::ffff:192.0.2.1) as two groups.
  const tail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (tail) {
    const [a, b, c, d] = tail.slice(1).map(Number);
    text = `${text.slice(0, tail.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = text.split("::");
  const part = (s: string | undefined) => (s ? s.split(":").map((g) => parseInt(g, 16)) : []);
  const left = part(head);
  const right = part(rest);
  const groups = rest === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill(0), ...right];
  return groups.length === 8 ? groups : null;
}

const hex = (groups: number[]) => groups.map((g) => g.toString(16)).join(":");

/**
 * The budgets a client address counts against, each with its limit: an IPv4 address by
 * itself; an IPv6 address by its /64 and its /48 (an IPv4-mapped one as IPv4).
 */
export function networkKeys(ip: string | null): { key: string; limit: number }[] {
  if (!ip) return [];
  const groups = ipv6Groups(ip);
  if (!groups) return [{ key: `ip:${ip}`, limit: THROTTLE.ipLimit }];
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  if (mapped) return [{ key: `ip:${groups[6] >> 8}.${groups[6] & 255}.${groups[7] >> 8}.${groups[7] & 255}`, limit: THROTTLE.ipLimit }];
  return [
    { key: `ip6/64:${hex(groups.slice(0, 4))}`, limit: THROTTLE.ipLimit },
    { key: `ip6/48:${hex(groups.slice(0, 3))}`, limit: THROTTLE.ip48Limit },
  ];
}

/** The key of the breaker across every account and address. */
export const GLOBAL_KEY = "global:logins";

export type Reservation = { at: number; keys: string[]; resetOnSuccess: string[] };

/** Why an attempt was refused: what reserveAttempt's "limit" refusal carries (ATTEMPT_REFUSED). */
export type AttemptRefused = { kind: "throttled"; retryAfterMs: number } | { kind: "locked" };
export const ATTEMPT_REFUSED = refusalDetail<AttemptRefused>("attempt-refused");

/** What a refused attempt is told; the login screens say whose lock it is (app/auth). */
export const THROTTLED = (seconds: number) =>
  seconds <= 120
    ? `För många misslyckade inloggningar. Vänta ${seconds} sekunder och försök igen.`
    : `För många misslyckade inloggningar. Vänta ${Math.ceil(seconds / 60)} minuter och försök igen.`;
export const LOCKED = "Kontot är spärrat efter för många misslyckade inloggningar.";
/** A Retry-After for a hard lock: time does not end it, but clients should not hammer. */
export const LOCKED_RETRY_AFTER_S = 15 * 60;

type Budget = { key: string; limit: number; lock: boolean };

function budgets(keys: AttemptKeys): Budget[] {
  // A known device has its own small budget, and neither the account's lock nor the
  // address's budget applies to it (OWASP: device cookies).
  if (keys.device) return [{ key: keys.device, limit: THROTTLE.deviceLimit, lock: false }];
  const list: Budget[] = [{ key: keys.account, limit: THROTTLE.accountLimit, lock: true }];
  for (const n of networkKeys(keys.ip)) list.push({ ...n, lock: false });
  list.push({ key: GLOBAL_KEY, limit: THROTTLE.globalLimit, lock: false });
  return list;
}

function parseRecent(text: string | undefined, now: number): number[] {
  if (!text) return [];
  try {
    const list = JSON.parse(text) as unknown;
    return Array.isArray(list) ? list.filter((t): t is number => typeof t === "number" && t > now - THROTTLE.windowMs) : [];
  } catch {
    return [];
  }
}

/**
 * Reserves one attempt against every budget it counts for, or refuses without counting:
 * a "limit" refusal whose `detail` (AttemptRefused) says whether the account is locked or
 * for how long it is throttled. The reservation counts as a failure until
 * `attemptSucceeded` releases it.
 */
export async function reserveAttempt(
  keys: AttemptKeys,
  now = portalNow(),
  db: Db = getDb(),
): Promise<Reservation> {
  const list = budgets(keys);
  return writeTransaction(async (tx) => {
    const rows = await tx
      .select()
      .from(schema.loginThrottle)
      .where(inArray(schema.loginThrottle.key, list.map((b) => b.key)));
    const byKey = new Map(rows.map((r) => [r.key, r]));
    let retryAfterMs = 0;
    for (const b of list) {
      const row = byKey.get(b.key);
      if (b.lock && row && row.failures >= THROTTLE.lockAfter) {
        throw refuse.limit(LOCKED, { retryAfterSeconds: LOCKED_RETRY_AFTER_S, detail: ATTEMPT_REFUSED.carry({ kind: "locked" }) });
      }
      const recent = parseRecent(row?.recent, now);
      if (recent.length >= b.limit) {
        retryAfterMs = Math.max(retryAfterMs, recent[recent.length - b.limit] + THROTTLE.windowMs - now);
      }
    }
    if (retryAfterMs > 0) {
      const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
      throw refuse.limit(THROTTLED(seconds), { retryAfterSeconds: seconds, detail: ATTEMPT_REFUSED.carry({ kind: "throttled", retryAfterMs }) });
    }
    for (const b of list) {
      const row = byKey.get(b.key);
      const values = {
        key: b.key,
        failures: (row?.failures ?? 0) + 1,
        lastFailureAt: now,
        recent: JSON.stringify([...parseRecent(row?.recent, now), now]),
      };
      await tx.insert(schema.loginThrottle).values(values).onConflictDoUpdate({ target: schema.loginThrottle.key, set: values });
    }
    // Only the account's (or device's) run of failures ends with a success, not a network's.
    return { at: now, keys: list.map((b) => b.key), resetOnSuccess: list.filter((b) => b.lock || b.key === keys.device).map((b) => b.key) };
  }, db);
}

async function takeBack(tx: Tx, reservation: Reservation, reset: (key: string) => boolean) {
  const rows = await tx.select().from(schema.loginThrottle).where(inArray(schema.loginThrottle.key, reservation.keys));
  for (const row of rows) {
    const recent = parseRecent(row.recent, reservation.at - 1);
    const i = recent.indexOf(reservation.at);
    if (i >= 0) recent.splice(i, 1);
    const failures = reset(row.key) ? 0 : Math.max(0, row.failures - 1);
    // A row that limits nothing any more goes: a login leaves no trace in this table.
    if (failures === 0 && recent.length === 0) {
      await tx.delete(schema.loginThrottle).where(eq(schema.loginThrottle.key, row.key));
      continue;
    }
    await tx
      .update(schema.loginThrottle)
      .set({ recent: JSON.stringify(recent), failures })
      .where(eq(schema.loginThrottle.key, row.key));
  }
}

/** The secret was right: the attempt is not a failure, and the account's run of failures ends. */
export function attemptSucceeded(reservation: Reservation): Promise<void> {
  return writeTransaction((tx) => takeBack(tx, reservation, (key) => reservation.resetOnSuccess.includes(key)));
}

/** The secret was never checked (the server was too busy): the attempt is not counted. */
export function attemptNotWeighed(reservation: Reservation): Promise<void> {
  return writeTransaction((tx) => takeBack(tx, reservation, () => false));
}

/** A new PIN or password (CLI, staff) ends the account's lock. */
export async function clearThrottle(accountKey: string, tx?: Tx): Promise<void> {
  const run = (t: Tx) => t.delete(schema.loginThrottle).where(eq(schema.loginThrottle.key, accountKey));
  await (tx ? run(tx) : writeTransaction(run));
}

/**
 * Removes rows that no longer limit anything: no attempt in the window and no run of
 * failures, or a run of failures short of the lock and older than `forgetAfterMs`.
 * A lock stays until a new PIN or password ends it.
 */
export async function pruneThrottle(now = portalNow()): Promise<number> {
  const result = await writeTransaction((tx) =>
    tx
      .delete(schema.loginThrottle)
      .where(
        and(
          lt(schema.loginThrottle.lastFailureAt, now - THROTTLE.windowMs),
          sql`(${schema.loginThrottle.failures} = 0 or ${schema.loginThrottle.key} not like 'customer:%' and ${schema.loginThrottle.key} not like 'staff:%' and ${schema.loginThrottle.key} not like 'totp:%' or (${schema.loginThrottle.failures} < ${THROTTLE.lockAfter} and ${schema.loginThrottle.lastFailureAt} < ${now - THROTTLE.forgetAfterMs}))`,
        ),
      ),
  );
  return result.rowsAffected;
}

/** `808`, `0808` and ` 808 ` are one account: the key and the id are its canonical form. */
export function normaliseCustomerNumber(raw: string): { id: number | null; key: string } {
  const text = raw.normalize("NFKC").replace(/\s+/g, "");
  if (!/^\d{1,12}$/.test(text)) return { id: null, key: "customer:?" };
  const digits = text.replace(/^0+(?=\d)/, "");
  const id = digits.length <= 5 ? Number(digits) : null;
  return id !== null && id >= 1 ? { id, key: `customer:${id}` } : { id: null, key: "customer:?" };
}

export function normaliseStaffEmail(raw: string): string {
  return raw.normalize("NFKC").trim().toLowerCase();
}
