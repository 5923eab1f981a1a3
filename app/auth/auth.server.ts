import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { audit, customerActor, staffActor, type Actor } from "~/features/audit/index.server";
import { BUSY_LOGINS, LOCKED_STAFF, loginRefused, verifySecret, normaliseCustomerNumber, normaliseStaffEmail, THROTTLED, weighAttempt, type AttemptKeys } from "~/features/auth/index.server";
import { getStaffByEmail, takeOneTimePassword } from "~/features/staff/index.server";
import { customerLoginRow, DEACTIVATED_LOGIN } from "~/features/customers/index.server";
import type { AppLoadContext } from "@remix-run/node";
import { requestContext } from "~/http/request-context";
import { knownDeviceKey } from "./device.server";

export type LoginResult = ({ kind: "retailer"; customerId: number } | { kind: "staff"; staffId: number }) & {
  /** The throttle key of the account, for the device cookie. */
  accountKey: string;
};

/** The form's two fields: the retailer's box (kundnummer, pinkod) or the staff page's (epost, losenord). */
export type LoginFields = { name: string; secret: string };
export const RETAILER_BOX_FIELDS: LoginFields = { name: "kundnummer", secret: "pinkod" };
export const STAFF_PAGE_FIELDS: LoginFields = { name: "epost", secret: "losenord" };

/**
 * Logs in with remix-auth's FormStrategy ("retailer": a customer number and PIN, "staff":
 * an e-mail address and password, from either form's fields); throws a Refusal when
 * refused. The authenticator is made per request, so the strategy sees the request's
 * context (its address, for the throttle and the audit): remix-auth hands the strategy a
 * copy of the request, nothing else.
 */
export function logIn(kind: "retailer" | "staff", request: Request, context: AppLoadContext, fields: LoginFields = RETAILER_BOX_FIELDS): Promise<LoginResult> {
  const who: Actor = { id: "anonymous", ...requestContext(context) };
  return new Authenticator<LoginResult>()
    .use(new FormStrategy(async ({ form }) => checkLogin(request, who, kind, String(form.get(fields.name) ?? ""), String(form.get(fields.secret) ?? ""))), kind)
    .authenticate(kind, request);
}

export const LOGIN_TEXTS = {
  wrongRetailer: "Felaktigt kundnummer eller pinkod.",
  wrongStaff: "Felaktig e-postadress eller lösenord.",
  throttled: THROTTLED,
  lockedRetailer:
    "Kontot är spärrat efter för många misslyckade inloggningar. Kontakta kundtjänst för att få en ny pinkod.",
  lockedStaff: LOCKED_STAFF,
  busy: BUSY_LOGINS,
  wrongCode: "Fel kod. Försök igen.",
  lockedCode:
    "Tvåstegsverifieringen är spärrad efter för många felaktiga koder. Be en administratör att återställa den.",
};



async function checkLogin(request: Request, who: Actor, kind: "retailer" | "staff", name: string, secret: string): Promise<LoginResult> {
  const ip = who.ip;
  const customer = kind === "retailer" ? normaliseCustomerNumber(name) : null;
  const accountKey = customer ? customer.key : `staff:${normaliseStaffEmail(name)}`;
  const wrong = kind === "retailer" ? LOGIN_TEXTS.wrongRetailer : LOGIN_TEXTS.wrongStaff;
  // Not a customer number at all: nothing to guess, nothing to weigh.
  if (customer && customer.id === null) throw loginRefused("login", wrong);

  const keys: AttemptKeys = { account: accountKey, ip: ip ?? null, device: await knownDeviceKey(request, accountKey) };
  const locked = kind === "retailer" ? LOGIN_TEXTS.lockedRetailer : LOGIN_TEXTS.lockedStaff;
  const { value: result } = await weighAttempt<
    | LoginResult
    | { kind: "deactivated"; customerId: number; accountKey: string }
    | { kind: "deactivated-staff"; staffId: number; accountKey: string }
    | { kind: "one-time-spent"; staffId: number; accountKey: string; why: "used" | "expired" }
  >(keys, { locked }, async () => {
    if (customer) {
      const row = await customerLoginRow(customer.id!);
      // Always run the hash, so the time taken does not tell whether the customer exists.
      const ok = await verifySecret(secret, row?.pinHash);
      // A deactivated customer is told so — only with the right PIN, so the
      // message says nothing to someone guessing.
      if (ok && row && row.deactivatedAt !== null) return { kind: "deactivated" as const, customerId: row.id, accountKey };
      return ok && row ? { kind: "retailer", customerId: row.id, accountKey } : null;
    }
    const row = await getStaffByEmail(normaliseStaffEmail(name));
    const ok = await verifySecret(secret, row?.passwordHash);
    if (ok && row && row.deactivatedAt !== null) return { kind: "deactivated-staff" as const, staffId: row.id, accountKey };
    if (ok && row && row.passwordOneTime) {
      // One login per one-time password, within 72 hours; another is a wrong password (decision 035).
      const taken = await takeOneTimePassword(row);
      if (taken !== "taken") return { kind: "one-time-spent" as const, staffId: row.id, accountKey, why: taken };
    }
    return ok && row ? { kind: "staff", staffId: row.id, accountKey } : null;
  }, who);

  if (!result) {
    await audit({ actor: who, action: "login.failure", target: accountKey, detail: keys.device ? { device: "known" } : undefined });
    throw loginRefused("login", wrong);
  }
  if (result.kind === "deactivated") {
    await audit({ actor: customerActor(result.customerId, who), action: "login.deactivated" });
    throw loginRefused("login", DEACTIVATED_LOGIN);
  }
  if (result.kind === "one-time-spent") {
    await audit({ actor: staffActor(result.staffId, who), action: result.why === "used" ? "login.one-time-used" : "login.one-time-expired" });
    throw loginRefused("login", wrong);
  }
  if (result.kind === "deactivated-staff") {
    await audit({ actor: staffActor(result.staffId, who), action: "login.deactivated" });
    throw loginRefused("login", "Kontot är avstängt. Kontakta en administratör.");
  }
  // The caller audits what the right secret led to: "login.success" for a whole login,
  // "login.password" for a staff login that goes on to its code step.
  return result;
}

/** Audits a login that is complete (after the second factor, where one is asked). */
export function auditLoginSuccess(result: LoginResult | { kind: "staff"; staffId: number }, context: AppLoadContext): Promise<void> {
  const who = requestContext(context);
  const actor = result.kind === "retailer" ? customerActor(result.customerId, who) : staffActor(result.staffId, who);
  return audit({ actor, action: "login.success" });
}

/**
 * Weighs a second-factor code the way passwords are weighed, against the user's own
 * budget (`totp:staff:<id>`) and the address's; `check` says whether the code is right
 * (and uses it up). Throws a Refusal: "login" for a wrong code, "limit" when throttled.
 */
export async function checkSecondFactor<T>(staffId: number, context: AppLoadContext, check: () => Promise<T | null>): Promise<T> {
  const { ip, requestId } = requestContext(context);
  const keys: AttemptKeys = { account: `totp:staff:${staffId}`, ip: ip ?? null, device: null };
  const actor = staffActor(staffId, { ip, requestId });
  const { value } = await weighAttempt(keys, { locked: LOGIN_TEXTS.lockedCode }, check, actor);
  if (value === null) {
    await audit({ actor, action: "totp.failure" });
    throw loginRefused("login", LOGIN_TEXTS.wrongCode);
  }
  return value;
}
