// What follows a right secret, the same from the retailer's box (/login) and the staff
// page (/personal/logga-in): the staff code step, a form carried from a lapsed session,
// the session and device cookies, and where the user lands.
import type { AppLoadContext, HeadersFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { audit, staffActor } from "~/features/audit/index.server";
import { newTotpSecret, secondFactorRequired } from "~/features/auth/index.server";
import { getStaff, type Role } from "~/features/staff/index.server";
import { requestContext } from "~/http/request-context";
import { auditLoginSuccess, type LoginResult } from "./auth.server";
import { carriedAfterLogin } from "./carried.server";
import { rememberDevice } from "./device.server";
import { getUser, homeOf, safeRedirect, staffHome } from "./guards.server";
import { passwordStamp, pendingSessionData } from "./pending.server";
import { startSession } from "./session.server";
import { param, readSearch } from "~/lib/search-params";

/**
 * The `headers` of both login pages and Byt lösenord: a refused guess's Retry-After reaches the document response
 * (Remix takes a page's headers from here, not from the action's return).
 */
export const loginPageHeaders: HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get("Retry-After");
  return retryAfter ? { "Retry-After": retryAfter } : new Headers();
};

const LOGIN_PAGE_SEARCH = { redirectTo: param.text(2000) };

/** A login page's `redirectTo` (a path on the site, or ""); someone logged in is sent there, or home. */
export async function loginPageTarget(request: Request): Promise<string> {
  const user = await getUser(request);
  const { redirectTo } = readSearch(request, LOGIN_PAGE_SEARCH);
  if (user) throw redirect(safeRedirect(redirectTo, homeOf(user)));
  return safeRedirect(redirectTo, "");
}

/** Where a user who has just logged in starts: the retailer's start page or the staff start. */
async function homeFor(user: LoginResult): Promise<string> {
  if (user.kind === "retailer") return "/";
  const staff = await getStaff(user.staffId);
  return staffHome((staff?.roles.split(",") ?? []) as Role[]);
}

/** The answer to a right secret: the code step for staff who need one, else the session. */
export async function finishLogin(result: LoginResult, request: Request, context: AppLoadContext, redirectTo: string | undefined): Promise<Response> {
  const home = await homeFor(result);
  const to = safeRedirect(redirectTo, home);
  // A retailer sent back to a staff page (or the reverse) would only meet a 403.
  const fits = result.kind === "staff" ? to.startsWith("/admin") : !to.startsWith("/admin");
  // A form carried from a lapsed session: back to it for the same customer, else discarded.
  const carried = await carriedAfterLogin(request, result.kind === "retailer" ? result.customerId : null);
  if (result.kind === "staff") {
    // The password alone is not enough: the code step (/login/kod) starts the session.
    const staff = await getStaff(result.staffId);
    if (staff && secondFactorRequired(staff)) {
      const pending = pendingSessionData({
        staffId: staff.id,
        redirectTo: fits ? to : home,
        accountKey: result.accountKey,
        secret: staff.totpSecret ? null : newTotpSecret(),
        passwordStamp: passwordStamp(staff.passwordHash),
      });
      // Half a login: audited as its own step; login.success follows the code.
      await audit({ actor: staffActor(staff.id, requestContext(context)), action: "login.password", detail: { next: staff.totpSecret ? "code" : "enrol" } });
      const headers = new Headers({ "Set-Cookie": await startSession(request, pending) });
      if (carried.setCookie) headers.append("Set-Cookie", carried.setCookie);
      return redirect("/login/kod", { headers });
    }
  }
  await auditLoginSuccess(result, context);
  const cookie = await startSession(request, result.kind === "retailer" ? { customerId: result.customerId } : { staffId: result.staffId });
  const headers = new Headers();
  headers.append("Set-Cookie", cookie);
  headers.append("Set-Cookie", await rememberDevice(request, result.accountKey));
  if (carried.setCookie) headers.append("Set-Cookie", carried.setCookie);
  return redirect(carried.to ?? (fits ? to : home), { headers });
}
