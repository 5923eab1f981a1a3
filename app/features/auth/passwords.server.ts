import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { config } from "~/config.server";
import { refusalDetail, refuse } from "~/lib/refusal";

const KEYLEN = 32;
// N=2^14 keeps a login around 30–50 ms on this hardware.
const PARAMS = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

function derive(secret: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(secret.normalize("NFKC"), salt, KEYLEN, PARAMS, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** `scrypt$<salt b64>$<hash b64>` */
export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(secret, salt);
  return `scrypt$${salt.toString("base64")}$${key.toString("base64")}`;
}

// Verified against when the account does not exist, so the answer takes as long.
const DUMMY = "scrypt$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";

export async function verifySecret(secret: string, stored: string | null | undefined): Promise<boolean> {
  const [scheme, saltB64, hashB64] = (stored ?? DUMMY).split("$");
  if (scheme !== "scrypt" || !saltB64 || !hashB64) return false;
  const expected = Buffer.from(hashB64, "base64");
  const actual = await derive(secret, Buffer.from(saltB64, "base64"));
  return stored != null && expected.length === actual.length && timingSafeEqual(expected, actual);
}

/**
 * At most `concurrent` login hashes run at once and `queue` wait; beyond that a login is
 * refused at once (503), so a flood of logins costs the attacker, not the pages other
 * retailers are loading (scrypt runs on libuv's threads and competes for the cores).
 */
export const HASH_LIMITS = { ...config.hashLimits };

/** Marks withHashSlot's busy refusal: the check never ran. */
const HASH_SLOTS = refusalDetail<true>("hash-slots");

/** The refusal when every hashing slot and the queue are taken (503). */
function hashBusy() {
  return refuse.busy("Många loggar in just nu. Försök igen om en stund.", { retryAfterSeconds: 5, detail: HASH_SLOTS.carry(true) });
}

/** Whether `e` is withHashSlot's refusal (the check never ran). */
export function isHashBusy(e: unknown): boolean {
  return HASH_SLOTS.of(e) === true;
}

let active = 0;
const waiting: (() => void)[] = [];

/** True when a login now would be refused as busy: checked before any database write. */
export function hashSlotsFull(): boolean {
  return active >= HASH_LIMITS.concurrent && waiting.length >= HASH_LIMITS.queue;
}

/** Runs `fn` in one of the hashing slots; refuses (busy) when the queue is full. */
export async function withHashSlot<T>(fn: () => Promise<T>): Promise<T> {
  if (active >= HASH_LIMITS.concurrent) {
    if (waiting.length >= HASH_LIMITS.queue) throw hashBusy();
    // The finishing call hands its slot straight to the first waiter.
    await new Promise<void>((resolve) => waiting.push(resolve));
  } else {
    active++;
  }
  try {
    return await fn();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else active--;
  }
}
