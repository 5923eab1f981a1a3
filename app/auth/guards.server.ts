import { redirect } from "@remix-run/node";
import { listAlerts, lockRedirect } from "~/features/alerts/index.server";
import { audit, customerActor, onBehalfActor, staffActor, type Actor } from "~/features/audit/index.server";
import { getCustomer } from "~/features/customers/index.server";
import { auditImpersonatedRequest, deleteSessionRow } from "~/features/auth/index.server";
import { getStaff, type Role } from "~/features/staff/index.server";
import type { AppLoadContext } from "@remix-run/node";
import { requestContext } from "~/http/request-context";
import { carryLapsedPost, carryOtherShopPost } from "./carried.server";
import { requireFormToken } from "./csrf.server";
import { getSession, redirectWithToast, type PortalSession } from "./session.server";

export type RetailerUser = {
  kind: "retailer";
  customerId: number;
  name: string;
  address: string;
  zip: string;
  city: string;
  distributorId: number;
  /** Set when a staff member has opened the portal as this retailer. */
  impersonatorId: number | null;
  /** Who this request is, for the audit log (with its address and request id). */
  actor: Actor;
};

export type StaffUser = {
  kind: "staff";
  staffId: number;
  name: string;
  email: string;
  roles: Role[];
  distributorId: number | null;
  /** Logged in with an admin's one-time password: a new one comes before anything else. */
  mustChangePassword: boolean;
  actor: Actor;
};

/** Where staff set their own password (and must, after a one-time password). */
export const OWN_PASSWORD_PATH = "/admin/losenord";

export type PortalUser = RetailerUser | StaffUser;

// Remix runs the loaders of one request in parallel; they share the lookup.
const cache = new WeakMap<Request, Promise<{ session: PortalSession; user: PortalUser | null }>>();

async function load(request: Request) {
  const session = await getSession(request);
  const customerId = session.get("customerId");
  const staffId = session.get("staffId");
  if (typeof customerId === "number") {
    const c = await getCustomer(customerId);
    const impersonatorId = session.get("impersonatorId");
    // Checked on every request: a deactivated retailer is logged out at once. (Staff may
    // open a deactivated customer's portal, having been asked first.)
    if (!c || (c.deactivatedAt !== null && typeof impersonatorId !== "number")) return { session, user: null };
    // Only an admin may be in a retailer's portal: one who has lost the role (or the
    // account) loses the impersonation at once, not when the session expires.
    if (typeof impersonatorId === "number") {
      const staff = await getStaff(impersonatorId);
      if (!staff || staff.deactivatedAt !== null || !staff.roles.split(",").includes("admin")) {
        if (session.id) await deleteSessionRow(session.id);
        return { session, user: null };
      }
    }
    const user: RetailerUser = {
      kind: "retailer",
      customerId: c.id,
      name: c.name,
      address: c.address,
      zip: c.zip,
      city: c.city,
      distributorId: c.distributorId,
      impersonatorId: typeof impersonatorId === "number" ? impersonatorId : null,
      actor: customerActor(c.id),
    };
    return { session, user };
  }
  if (typeof staffId === "number") {
    const s = await getStaff(staffId);
    // Checked on every request: a deactivated account is logged out at once.
    if (!s || s.deactivatedAt !== null) return { session, user: null };
    const user: StaffUser = {
      kind: "staff",
      staffId: s.id,
      name: s.name,
      email: s.email,
      roles: s.roles.split(",") as Role[],
      distributorId: s.distributorId,
      mustChangePassword: s.passwordOneTime,
      actor: staffActor(s.id),
    };
    return { session, user };
  }
  return { session, user: null };
}

export function getUserAndSession(request: Request) {
  let found = cache.get(request);
  if (!found) {
    found = load(request);
    cache.set(request, found);
  }
  return found;
}

export async function getUser(request: Request): Promise<PortalUser | null> {
  return (await getUserAndSession(request)).user;
}

/** The staff login page (decision 027), coming back to `back` (a path on the site) afterwards. */
export function staffLoginTo(back: string | null | undefined, address?: string): string {
  const to = safeRedirect(back, "");
  const query = new URLSearchParams();
  if (address) query.set("epost", address);
  if (to) query.set("redirectTo", to);
  const search = query.toString();
  return search ? `/personal/logga-in?${search}` : "/personal/logga-in";
}

export function loginRedirect(request: Request): never {
  const url = new URL(request.url);
  const back = url.pathname + url.search;
  // A staff page's visitor logs in on the staff page (decision 027).
  if (url.pathname === "/admin" || url.pathname.startsWith("/admin/")) throw redirect(staffLoginTo(back));
  throw redirect(back === "/" ? "/login" : `/login?redirectTo=${encodeURIComponent(back)}`);
}

const refusedRequests = new WeakSet<object>();

export const FORBIDDEN_MESSAGE = "Du har inte behörighet till den sidan.";

/** Where a staff user starts: the admin start page, or the distribution monitor (sales, utb). */
export function staffHome(roles: readonly Role[]): string {
  return roles.includes("admin") ? "/admin" : "/admin/distribution";
}

/** A user's own start page: `/` for a retailer, the staff start for staff. */
export function homeOf(user: PortalUser): string {
  return user.kind === "retailer" ? "/" : staffHome(user.roles);
}

/**
 * A screen the user's role may not open (back-office spec §6, "Admin screens redirect to /
 * on 401/403"): audited, then a redirect to the user's own start with a message. The
 * start is where `/` leads them (a staff user's `/` is the staff start); going there in one
 * step keeps the message, which a second redirect would spend. A write (POST) is refused
 * 403 and changes nothing, as before.
 */
async function refuse(user: PortalUser, request: Request, context: AppLoadContext): Promise<never> {
  const path = new URL(request.url).pathname;
  const read = request.method === "GET" || request.method === "HEAD";
  // A staff user's `/` is their start page: not a refusal, no message.
  if (read && path === "/" && user.kind === "staff") throw redirect(homeOf(user));
  // Once per request, however many loaders of it refuse (a layout and its screen).
  // (Keyed by the request's context: a loader asked with `_routes` or `?index` in its
  // address gets a copy of the request of its own.)
  if (!refusedRequests.has(context)) {
    refusedRequests.add(context);
    const actor = { ...user.actor, ...requestContext(context) };
    await audit({ actor, action: "access.refused", target: path });
  }
  // (Never to the page refused: a staff account without roles gets the 403 page.)
  if (read && homeOf(user) !== path) throw await redirectWithToast(request, homeOf(user), FORBIDDEN_MESSAGE);
  throw new Response("Du har inte behörighet till den här sidan.", { status: 403 });
}

/**
 * The retailer of this request, or a redirect to the login (403 for a staff user). A
 * write must carry the session's form token. Returns the retailer with `actor` for the
 * audit log; every loader and action calls it (Remix runs loaders in parallel).
 */
export async function requireRetailer(request: Request, context: AppLoadContext): Promise<RetailerUser> {
  const found = await getUser(request);
  if (!found) {
    // A returns form posted after the session lapsed is kept for the login.
    await carryLapsedPost(request);
    loginRedirect(request);
  }
  if (found.kind !== "retailer") return refuse(found, request, context);
  // A returns form of another shop of this browser is kept for that shop, never saved here.
  await carryOtherShopPost(request, found);
  await requireFormToken(request, (await getUserAndSession(request)).session);
  const { ip, requestId } = requestContext(context);
  // In a portal opened by staff, everything is recorded as the staff user, for the customer.
  const actor = found.impersonatorId !== null ? onBehalfActor(found.impersonatorId, found.customerId, { ip, requestId }) : customerActor(found.customerId, { ip, requestId });
  const user: RetailerUser = { ...found, actor };
  if (user.impersonatorId !== null) await auditImpersonated(user, request, context);
  else if (request.method !== "GET" && request.method !== "HEAD") await refuseWhileLocked(user, request);
  return user;
}

// Pages are locked by the layout loader; a form posted straight to a locked page
// (without JavaScript or by hand) is refused here the same way. A recall's lock is the
// exception (decision 036): a form the shop filled in before the recall came (the returns
// form, say) is saved, and the next page shows the recall.
async function refuseWhileLocked(user: RetailerUser, request: Request) {
  const alerts = (await listAlerts(user.customerId)).filter((a) => a.type !== "ATERKALLELSE");
  const to = lockRedirect(alerts, new URL(request.url).pathname);
  if (to !== null) throw redirect(to);
}

// Every request that can change something in an impersonated session, and every file it
// downloads (an invoice, the returns PDF), is audited under the staff user's id, once per
// request however many guards run (keyed by the request's context: a loader asked with
// `_routes` or `?index` in its address gets a copy of the request of its own).
const auditedRequests = new WeakSet<object>();
const DOWNLOAD = /\.(pdf|xlsx|csv)$/i;
async function auditImpersonated(user: RetailerUser, request: Request, context: AppLoadContext) {
  const path = new URL(request.url).pathname;
  const read = request.method === "GET" || request.method === "HEAD";
  if ((read && !DOWNLOAD.test(path)) || auditedRequests.has(context)) return;
  auditedRequests.add(context);
  const { ip, requestId } = user.actor;
  await auditImpersonatedRequest(user.impersonatorId!, user.customerId, { method: request.method, path, download: read }, { ip, requestId });
}

/** `roles`: any of them grants access; omitted means any staff role. */
export async function requireStaff(request: Request, context: AppLoadContext, roles?: Role[]): Promise<StaffUser> {
  const user = await getUser(request);
  if (!user) loginRedirect(request);
  if (user.kind !== "staff") return refuse(user, request, context);
  // A one-time password is for one thing only: choosing one's own.
  if (user.mustChangePassword && new URL(request.url).pathname !== OWN_PASSWORD_PATH) throw redirect(OWN_PASSWORD_PATH);
  if (roles && !roles.some((r) => user.roles.includes(r))) return refuse(user, request, context);
  await requireFormToken(request, (await getUserAndSession(request)).session);
  return { ...user, actor: staffActor(user.staffId, requestContext(context)) };
}

// Redirect targets are resolved against a stand-in for the site's own origin: a
// relative path resolves the same way against any origin, and `.invalid` can never be
// a real host, so "did it stay on this origin" needs no knowledge of the real one.
const SITE = "http://returportalen.invalid";
// C0 and C1 controls, DEL and the backslash: browsers drop tabs and newlines from a
// Location header and read `\` as `/`, which turns `/\t/evil.example` into `//evil.example`.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\\]/;

/**
 * A path on this site to redirect to, or `fallback`. Accepted: a text that starts
 * with a single `/`, has no control characters or backslashes (before or after
 * percent-decoding), and resolved with the WHATWG URL parser stays on the site's
 * origin. Returned as the resolved URL's pathname + search + hash (normalised, so a
 * `/.//host` cannot come back as `//host`).
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  if (!to || typeof to !== "string") return fallback;
  if (!to.startsWith("/") || to.startsWith("//") || UNSAFE.test(to)) return fallback;
  let decoded: string;
  try {
    decoded = decodeURIComponent(to);
  } catch {
    return fallback;
  }
  if (decoded.startsWith("//") || UNSAFE.test(decoded)) return fallback;
  let url: URL;
  try {
    url = new URL(to, SITE);
  } catch {
    return fallback;
  }
  if (url.origin !== SITE) return fallback;
  const path = url.pathname + url.search + url.hash;
  if (!path.startsWith("/") || path.startsWith("//") || UNSAFE.test(path)) return fallback;
  return path;
}
