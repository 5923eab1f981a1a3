// A staff login between the password and the code: a session of its own that holds
// who is logging in but no `staffId`, so every guard still treats it as logged out. Its
// row carries the user in the staff_id column, so it ends with the user's other sessions
// (a new password, new roles, deactivation, reset-2fa); the code step also checks that
// the account is active and the password the step was passed with is still the current one.
import { createHash } from "node:crypto";
import type { PortalSession } from "./session.server";
import { portalNow } from "../../db/clock";

/** How long the code step may take after the password. */
export const PENDING_MS = 10 * 60_000;

export type PendingLogin = {
  staffId: number;
  /** Where the login goes afterwards (already checked by safeRedirect). */
  redirectTo: string;
  /** The throttle key of the account, for the device cookie. */
  accountKey: string;
  /** The secret being enrolled; null when the user is enrolled already. */
  secret: string | null;
  /** passwordStamp() of the password hash the password step was checked against. */
  passwordStamp: string;
};

/** A fingerprint of a stored password hash: changes with every new password, reveals nothing. */
export function passwordStamp(passwordHash: string): string {
  return createHash("sha256").update(`pending-login:${passwordHash}`).digest("base64url").slice(0, 22);
}

export function pendingSessionData(login: PendingLogin, now = portalNow()) {
  return {
    pendingStaffId: login.staffId,
    pendingUntil: now + PENDING_MS,
    redirectTo: login.redirectTo,
    accountKey: login.accountKey,
    pendingSecret: login.secret,
    pendingPassword: login.passwordStamp,
  };
}

export function readPending(session: PortalSession, now = portalNow()): PendingLogin | null {
  const staffId = session.get("pendingStaffId");
  const until = session.get("pendingUntil");
  const redirectTo = session.get("redirectTo");
  const accountKey = session.get("accountKey");
  const secret = session.get("pendingSecret");
  const stamp = session.get("pendingPassword");
  if (typeof staffId !== "number" || typeof until !== "number" || until <= now) return null;
  if (typeof redirectTo !== "string" || typeof accountKey !== "string" || typeof stamp !== "string") return null;
  return { staffId, redirectTo, accountKey, secret: typeof secret === "string" ? secret : null, passwordStamp: stamp };
}

/** Whether the pending login still stands for `staff`: the account active, its password unchanged. */
export function pendingStillValid(pending: PendingLogin, staff: { passwordHash: string; deactivatedAt: number | null }): boolean {
  return staff.deactivatedAt === null && passwordStamp(staff.passwordHash) === pending.passwordStamp;
}
