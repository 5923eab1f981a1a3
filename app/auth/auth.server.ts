import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { getDb, schema } from "~/db.server";
import { eq } from "drizzle-orm";
import { audit } from "~/domain/audit.server";
import { HashBusyError, hashSlotsFull, verifySecret, withHashSlot } from "~/domain/passwords.server";
import { getStaffByEmail } from "~/domain/staff.server";
import {
  attemptNotWeighed,
  attemptSucceeded,
  normaliseCustomerNumber,
  normaliseStaffEmail,
  reserveAttempt,
  type AttemptKeys,
  type Refusal,
  type Reservation,
} from "~/domain/throttle.server";
import { requestInfo } from "~/request-context.server";
import { knownDeviceKey } from "./device.server";

export type LoginResult = ({ kind: "retailer"; customerId: number } | { kind: "staff"; staffId: number }) & {
  /** The throttle key of the account, for the device cookie. */
  accountKey: string;
};

export class LoginError extends Error {
  constructor(
    message: string,
    readonly status: 400 | 429 | 503,
    /** Seconds, sent as Retry-After. */
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

export const LOGIN_TEXTS = {
  wrongRetailer: "Felaktigt kundnummer eller pinkod.",
  wrongStaff: "Felaktig e-postadress eller lösenord.",
  throttled: (seconds: number) =>
    seconds <= 120
      ? `För många misslyckade inloggningar. Vänta ${seconds} sekunder och försök igen.`
      : `För många misslyckade inloggningar. Vänta ${Math.ceil(seconds / 60)} minuter och försök igen.`,
  lockedRetailer:
    "Kontot är spärrat efter för många misslyckade inloggningar. Kontakta kundtjänst för att få en ny pinkod.",
  lockedStaff:
    "Kontot är spärrat efter för många misslyckade inloggningar. Be en administratör om ett nytt lösenord.",
  busy: "Många loggar in just nu. Försök igen om en stund.",
  wrongCode: "Fel kod. Försök igen.",
  lockedCode:
    "Tvåstegsverifieringen är spärrad efter för många felaktiga koder. Be en administratör att återställa den.",
};

export const looksLikeEmail = (name: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(name.trim());

/** A Retry-After for a hard lock: time does not end it, but clients should not hammer. */
const LOCKED_RETRY_AFTER_S = 15 * 60;

/** Throws the 429 for a refused attempt, audited (never with the secret). */
async function refuse(refusal: Refusal, target: string, locked: string): Promise<never> {
  const { ip, requestId } = requestInfo();
  await audit({ actor: "anonymous", action: refusal.kind === "locked" ? "login.locked" : "login.throttled", target, ip, requestId });
  if (refusal.kind === "locked") throw new LoginError(locked, 429, LOCKED_RETRY_AFTER_S);
  const seconds = Math.max(1, Math.ceil(refusal.retryAfterMs / 1000));
  throw new LoginError(LOGIN_TEXTS.throttled(seconds), 429, seconds);
}

/**
 * Reserves the attempt, then checks the secret in a hashing slot. The reservation is the
 * failure unless the check succeeds; a check that never ran (server busy) is taken back.
 */
export async function weighAttempt<T>(
  keys: AttemptKeys,
  texts: { locked: string },
  check: () => Promise<T | null>,
): Promise<{ value: T | null; reservation: Reservation }> {
  // A flood is refused before it costs a database write (writes run on the main thread).
  if (hashSlotsFull()) throw new LoginError(LOGIN_TEXTS.busy, 503, 5);
  const reserved = await reserveAttempt(keys);
  if (!reserved.ok) return refuse(reserved.refusal, keys.account, texts.locked);
  try {
    const value = await withHashSlot(check);
    if (value !== null) await attemptSucceeded(reserved.reservation);
    return { value, reservation: reserved.reservation };
  } catch (error) {
    if (error instanceof HashBusyError) {
      await attemptNotWeighed(reserved.reservation);
      throw new LoginError(LOGIN_TEXTS.busy, 503, 5);
    }
    throw error;
  }
}

async function checkLogin(request: Request, kind: "retailer" | "staff", name: string, secret: string): Promise<LoginResult> {
  const { ip, requestId } = requestInfo();
  const customer = kind === "retailer" ? normaliseCustomerNumber(name) : null;
  const accountKey = customer ? customer.key : `staff:${normaliseStaffEmail(name)}`;
  const wrong = kind === "retailer" ? LOGIN_TEXTS.wrongRetailer : LOGIN_TEXTS.wrongStaff;
  // Not a customer number at all: nothing to guess, nothing to weigh.
  if (customer && customer.id === null) throw new LoginError(wrong, 400);

  const keys: AttemptKeys = { account: accountKey, ip: ip ? `ip:${ip}` : null, device: await knownDeviceKey(request, accountKey) };
  const locked = kind === "retailer" ? LOGIN_TEXTS.lockedRetailer : LOGIN_TEXTS.lockedStaff;
  const { value: result } = await weighAttempt<LoginResult>(keys, { locked }, async () => {
    if (customer) {
      const [row] = await getDb()
        .select({ id: schema.customers.id, pinHash: schema.customers.pinHash })
        .from(schema.customers)
        .where(eq(schema.customers.id, customer.id!));
      // Always run the hash, so the time taken does not tell whether the customer exists.
      const ok = await verifySecret(secret, row?.pinHash);
      return ok && row ? { kind: "retailer", customerId: row.id, accountKey } : null;
    }
    const row = await getStaffByEmail(normaliseStaffEmail(name));
    const ok = await verifySecret(secret, row?.passwordHash);
    return ok && row ? { kind: "staff", staffId: row.id, accountKey } : null;
  });

  if (!result) {
    await audit({ actor: "anonymous", action: "login.failure", target: accountKey, ip, requestId, detail: keys.device ? { device: "known" } : undefined });
    throw new LoginError(wrong, 400);
  }
  const actor = result.kind === "retailer" ? `customer:${result.customerId}` : `staff:${result.staffId}`;
  await audit({ actor, action: "login.success", ip, requestId });
  return result;
}

/**
 * Weighs a second-factor code the way passwords are weighed, against the user's own
 * budget (`totp:staff:<id>`) and the address's; `check` says whether the code is right
 * (and uses it up). Throws LoginError: 400 for a wrong code, 429 when throttled.
 */
export async function checkSecondFactor<T>(staffId: number, check: () => Promise<T | null>): Promise<T> {
  const { ip, requestId } = requestInfo();
  const keys: AttemptKeys = { account: `totp:staff:${staffId}`, ip: ip ? `ip:${ip}` : null, device: null };
  const { value } = await weighAttempt(keys, { locked: LOGIN_TEXTS.lockedCode }, check);
  if (value === null) {
    await audit({ actor: `staff:${staffId}`, action: "totp.failure", ip, requestId });
    throw new LoginError(LOGIN_TEXTS.wrongCode, 400);
  }
  return value;
}

export const authenticator = new Authenticator<LoginResult>()
  .use(
    new FormStrategy(async ({ form, request }) =>
      checkLogin(request, "retailer", String(form.get("kundnummer") ?? ""), String(form.get("pinkod") ?? "")),
    ),
    "retailer",
  )
  .use(
    new FormStrategy(async ({ form, request }) =>
      checkLogin(request, "staff", String(form.get("kundnummer") ?? ""), String(form.get("pinkod") ?? "")),
    ),
    "staff",
  );
