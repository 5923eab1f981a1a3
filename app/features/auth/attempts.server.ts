// Weighing a secret (a login's password or PIN, a second-factor code, the current password
// on Byt lösenord) against the login throttle's budgets and in a hashing slot
// (docs/decisions/012-login-policy.md): the one path every guess goes through.
import { audit, type Actor } from "~/features/audit/audit.server";
import { isRefusal, refuse as refusal, type Refusal } from "~/lib/refusal";
import { hashSlotsFull, isHashBusy, withHashSlot } from "./passwords.server";
import { attemptNotWeighed, attemptSucceeded, LOCKED_RETRY_AFTER_S, reserveAttempt, type AttemptKeys, ATTEMPT_REFUSED, type Reservation } from "./throttle.server";

export const BUSY_LOGINS = "Många loggar in just nu. Försök igen om en stund.";
export const LOCKED_STAFF = "Kontot är spärrat efter för många misslyckade inloggningar. Be en administratör om ett nytt lösenord.";

/** A refused login: "login" (400) for wrong credentials, "limit" (429), "busy" (503). */
export function loginRefused(code: "login" | "limit" | "busy", message: string, retryAfterSeconds?: number): Refusal {
  if (code === "login") return refusal.login(message);
  return code === "limit" ? refusal.limit(message, { retryAfterSeconds }) : refusal.busy(message, { retryAfterSeconds });
}

/** A refused attempt, audited (never with the secret), told in the words of its screen. */
async function refused(refusal: Refusal, target: string, locked: string, actor: Actor): Promise<never> {
  const why = ATTEMPT_REFUSED.of(refusal);
  if (!why) throw refusal;
  await audit({ actor: { ...actor, id: "anonymous" }, action: why.kind === "locked" ? "login.locked" : "login.throttled", target });
  if (why.kind === "locked") throw loginRefused("limit", locked, LOCKED_RETRY_AFTER_S);
  throw refusal;
}

/**
 * Reserves the attempt, then checks the secret in a hashing slot. The reservation is the
 * failure unless the check succeeds; a check that never ran (server busy) is taken back.
 */
export async function weighAttempt<T>(
  keys: AttemptKeys,
  texts: { locked: string },
  check: () => Promise<T | null>,
  actor: Actor,
): Promise<{ value: T | null; reservation: Reservation }> {
  // A flood is refused before it costs a database write (writes run on the main thread).
  if (hashSlotsFull()) throw loginRefused("busy", BUSY_LOGINS, 5);
  const reservation = await reserveAttempt(keys).catch((e: unknown) => (isRefusal(e, "limit") ? refused(e, keys.account, texts.locked, actor) : Promise.reject(e)));
  try {
    const value = await withHashSlot(check);
    if (value !== null) await attemptSucceeded(reservation);
    return { value, reservation };
  } catch (error) {
    if (isHashBusy(error)) {
      await attemptNotWeighed(reservation);
      throw loginRefused("busy", BUSY_LOGINS, 5);
    }
    throw error;
  }
}
