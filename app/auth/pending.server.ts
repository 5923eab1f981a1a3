// A staff login between the password and the code: a session of its own that holds
// who is logging in but no `staffId`, so every guard still treats it as logged out.
import type { PortalSession } from "./session.server";

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
};

export function pendingSessionData(login: PendingLogin, now = Date.now()) {
  return {
    pendingStaffId: login.staffId,
    pendingUntil: now + PENDING_MS,
    redirectTo: login.redirectTo,
    accountKey: login.accountKey,
    pendingSecret: login.secret,
  };
}

export function readPending(session: PortalSession, now = Date.now()): PendingLogin | null {
  const staffId = session.get("pendingStaffId");
  const until = session.get("pendingUntil");
  const redirectTo = session.get("redirectTo");
  const accountKey = session.get("accountKey");
  const secret = session.get("pendingSecret");
  if (typeof staffId !== "number" || typeof until !== "number" || until <= now) return null;
  if (typeof redirectTo !== "string" || typeof accountKey !== "string") return null;
  return { staffId, redirectTo, accountKey, secret: typeof secret === "string" ? secret : null };
}
