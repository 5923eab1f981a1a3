import { redirect } from "@remix-run/node";
import { listAlerts, lockRedirect } from "~/domain/alerts.server";
import { audit } from "~/domain/audit.server";
import { getCustomer } from "~/domain/customers.server";
import { auditImpersonatedRequest } from "~/domain/impersonation.server";
import { deleteSessionRow } from "~/domain/sessions.server";
import { getStaff, type Role } from "~/domain/staff.server";
import { requestInfo } from "~/request-context.server";
import { requireFormToken } from "./csrf.server";
import { getSession, type PortalSession } from "./session.server";

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
};

export type StaffUser = {
  kind: "staff";
  staffId: number;
  name: string;
  email: string;
  roles: Role[];
  distributorId: number | null;
};

export type PortalUser = RetailerUser | StaffUser;

// Remix runs the loaders of one request in parallel; they share the lookup.
const cache = new WeakMap<Request, Promise<{ session: PortalSession; user: PortalUser | null }>>();

async function load(request: Request) {
  const session = await getSession(request);
  const customerId = session.get("customerId");
  const staffId = session.get("staffId");
  if (typeof customerId === "number") {
    const c = await getCustomer(customerId);
    if (!c) return { session, user: null };
    const impersonatorId = session.get("impersonatorId");
    // Only an admin may be in a retailer's portal: one who has lost the role (or the
    // account) loses the impersonation at once, not when the session expires.
    if (typeof impersonatorId === "number") {
      const staff = await getStaff(impersonatorId);
      if (!staff || !staff.roles.split(",").includes("admin")) {
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
    };
    return { session, user };
  }
  if (typeof staffId === "number") {
    const s = await getStaff(staffId);
    if (!s) return { session, user: null };
    const user: StaffUser = {
      kind: "staff",
      staffId: s.id,
      name: s.name,
      email: s.email,
      roles: s.roles.split(",") as Role[],
      distributorId: s.distributorId,
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

export function loginRedirect(request: Request): never {
  const url = new URL(request.url);
  const back = url.pathname + url.search;
  throw redirect(back === "/" ? "/login" : `/login?redirectTo=${encodeURIComponent(back)}`);
}

async function refuse(user: PortalUser, request: Request): Promise<never> {
  const { ip, requestId } = requestInfo();
  const actor = user.kind === "retailer" ? `customer:${user.customerId}` : `staff:${user.staffId}`;
  await audit({ actor, action: "access.refused", target: new URL(request.url).pathname, ip, requestId });
  throw new Response("Du har inte behörighet till den här sidan.", { status: 403 });
}

export async function requireRetailer(request: Request): Promise<RetailerUser> {
  const user = await getUser(request);
  if (!user) loginRedirect(request);
  if (user.kind !== "retailer") return refuse(user, request);
  await requireFormToken(request, (await getUserAndSession(request)).session);
  if (user.impersonatorId !== null) await auditImpersonated(user, request);
  else if (request.method !== "GET" && request.method !== "HEAD") await refuseWhileLocked(user, request);
  return user;
}

// Pages are locked by the layout loader; a form posted straight to a locked page
// (without JavaScript or by hand) is refused here the same way.
async function refuseWhileLocked(user: RetailerUser, request: Request) {
  const to = lockRedirect(await listAlerts(user.customerId), new URL(request.url).pathname);
  if (to !== null) throw redirect(to);
}

// Every request that can change something in an impersonated session is audited under
// the staff user's id, once per request however many guards run.
const auditedRequests = new WeakSet<Request>();
async function auditImpersonated(user: RetailerUser, request: Request) {
  if (request.method === "GET" || request.method === "HEAD" || auditedRequests.has(request)) return;
  auditedRequests.add(request);
  const { ip, requestId } = requestInfo();
  const path = new URL(request.url).pathname;
  await auditImpersonatedRequest(user.impersonatorId!, user.customerId, { method: request.method, path }, { ip, requestId });
}

/** `roles`: any of them grants access; omitted means any staff role. */
export async function requireStaff(request: Request, roles?: Role[]): Promise<StaffUser> {
  const user = await getUser(request);
  if (!user) loginRedirect(request);
  if (user.kind !== "staff") return refuse(user, request);
  if (roles && !roles.some((r) => user.roles.includes(r))) return refuse(user, request);
  await requireFormToken(request, (await getUserAndSession(request)).session);
  return user;
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
