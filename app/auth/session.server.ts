import { createCookie, createSession, createSessionStorage, redirect, type Session, type SessionStorage } from "@remix-run/node";
import { config } from "~/config.server";
import { createSessionRow, deleteSessionRow, readSessionRow, updateSessionRow, type SessionData } from "~/features/auth/index.server";
import { portalNow } from "../../db/clock";

/** Signs the session and device cookies (SESSION_SECRET, checked at start: app/config.server.ts). */
export const cookieSecret = config.sessionSecret;

// Over HTTPS the cookies are `__Host-` prefixed and Secure; plain HTTP (localhost)
// gets the same cookies without them, since browsers refuse Secure cookies there.
/**
 * A one-time message and the page it belongs to: the page the request that made it was
 * sent to (decision 035). It travels in a cookie of its own, not in the session, so only
 * a request the browser sends after the answer that set it can show it: a page's request
 * sent earlier (a revalidation the router aborted, which the server still answers) neither
 * shows nor uses it up, and neither does another tab loading another page meanwhile.
 * Unread after TOAST_KEPT_MS it is dropped.
 */
export type Toast = { text: string; path: string; at: number };
export const TOAST_KEPT_MS = 2 * 60_000;

function toastCookie(secure: boolean) {
  return createCookie(secure ? "__Host-rp_toast" : "rp_toast", {
    httpOnly: true,
    sameSite: "lax",
    secure,
    path: "/",
    secrets: [cookieSecret],
    maxAge: TOAST_KEPT_MS / 1000,
  });
}

const secureToast = toastCookie(true);
const plainToast = toastCookie(false);

/** The page a URL or path names (`/admin/holidays?x=1#y` -> `/admin/holidays`). */
function pagePath(to: string): string {
  return new URL(to, "http://portal.invalid").pathname;
}

/** The page a request is for: a document request's path, or the page of a data request (`/x.data`, `/_root.data`). */
export function requestPage(request: Request): string {
  const path = new URL(request.url).pathname;
  if (!path.endsWith(".data")) return path;
  const page = path.slice(0, -".data".length);
  return page === "/_root" ? "/" : page;
}

function storage(secure: boolean): SessionStorage<SessionData> {
  const cookie = createCookie(secure ? "__Host-rp_session" : "rp_session", {
    httpOnly: true,
    sameSite: "lax",
    secure,
    path: "/",
    secrets: [cookieSecret],
  });
  return createSessionStorage<SessionData>({
    cookie,
    createData: (data) => createSessionRow(data as SessionData),
    readData: (id) => readSessionRow(id),
    updateData: (id, data) => updateSessionRow(id, data as SessionData),
    deleteData: (id) => deleteSessionRow(id),
  });
}

const secureStorage = storage(true);
const plainStorage = storage(false);

export function isHttps(request: Request): boolean {
  return new URL(request.url).protocol === "https:";
}

function storageFor(request: Request) {
  return isHttps(request) ? secureStorage : plainStorage;
}

export type PortalSession = Session<SessionData>;

function toastFor(request: Request) {
  return isHttps(request) ? secureToast : plainToast;
}

function isToast(value: unknown): value is Toast {
  if (typeof value !== "object" || value === null) return false;
  const t = value as Record<string, unknown>;
  return typeof t.text === "string" && typeof t.path === "string" && typeof t.at === "number";
}

// A cookie holds about 4 KB; a message longer than a person reads in a glance is cut (an
// error's text passed on by a job, say) rather than dropped by the browser unseen.
const TOAST_MAX_CHARS = 500;

/** The Set-Cookie value that gives the page `to` (where the caller redirects) the message `text`, once. */
export function toastCookieHeader(request: Request, text: string, to: string, now = portalNow()): Promise<string> {
  const shown = text.length > TOAST_MAX_CHARS ? `${text.slice(0, TOAST_MAX_CHARS - 1)}…` : text;
  const toast: Toast = { text: shown, path: pagePath(to), at: now };
  return toastFor(request).serialize(toast);
}

/** The Set-Cookie value that ends a waiting message (taken, old, or its user logged out). */
export function endToastCookie(request: Request): Promise<string> {
  return toastFor(request).serialize("", { maxAge: 0, expires: new Date(0) });
}

/**
 * The message the request's cookie holds for its page, taken, or null; `setCookie` is the
 * header that ends the cookie when it was taken or is old, null when it stays for its page.
 */
export async function takeToast(request: Request, now = portalNow()): Promise<{ text: string | null; setCookie: string | null }> {
  const cookie = toastFor(request);
  const waiting: unknown = await cookie.parse(request.headers.get("Cookie"));
  if (waiting === null || waiting === undefined) return { text: null, setCookie: null };
  if (!isToast(waiting)) return { text: null, setCookie: await endToastCookie(request) };
  if (waiting.path === requestPage(request)) return { text: waiting.text, setCookie: await endToastCookie(request) };
  if (now - waiting.at > TOAST_KEPT_MS) return { text: null, setCookie: await endToastCookie(request) };
  return { text: null, setCookie: null };
}

export function getSession(request: Request): Promise<PortalSession> {
  return storageFor(request).getSession(request.headers.get("Cookie"));
}

export function commitSession(request: Request, session: PortalSession): Promise<string> {
  return storageFor(request).commitSession(session);
}

export function destroySession(request: Request, session: PortalSession): Promise<string> {
  return storageFor(request).destroySession(session);
}

/** What a session holds, without its one-time messages: to carry over to a new id (startSession). */
export function sessionData(session: PortalSession): SessionData {
  return Object.fromEntries(Object.entries(session.data).filter(([k]) => !k.startsWith("__flash"))) as SessionData;
}

/** Starts a fresh session (a new id) holding `data`, ending the one the request had. */
export async function startSession(request: Request, data: SessionData): Promise<string> {
  const old = await getSession(request);
  if (old.id) await deleteSessionRow(old.id);
  const fresh = await storageFor(request).getSession(null);
  for (const [k, v] of Object.entries(data)) fresh.set(k, v);
  return commitSession(request, fresh);
}

/**
 * Opens a retailer's portal for a staff user: a new session that remembers the staff
 * session it came from, which stays as it is (not ended, not renewed).
 */
export async function startImpersonationSession(request: Request, data: SessionData): Promise<string> {
  const staff = await getSession(request);
  const fresh = await storageFor(request).getSession(null);
  for (const [k, v] of Object.entries({ ...data, staffSessionId: staff.id })) fresh.set(k, v);
  return commitSession(request, fresh);
}

/**
 * The way back: ends the impersonated session and resumes the staff session it came
 * from, with its own expiry. null when that session has ended meanwhile.
 */
export async function resumeStaffSession(request: Request, current: PortalSession, staffId: number): Promise<string | null> {
  const staffSessionId = current.get("staffSessionId");
  if (current.id) await deleteSessionRow(current.id);
  if (typeof staffSessionId !== "string") return null;
  const data = await readSessionRow(staffSessionId);
  if (!data || data.staffId !== staffId) return null;
  return commitSession(request, createSession(data, staffSessionId) as PortalSession);
}

/**
 * Redirects after a successful POST with a message the page `to` shows (role="status"):
 * the next load of that page in this browser, which is this tab's, following the redirect.
 */
export async function redirectWithToast(request: Request, to: string, toast: string, init?: ResponseInit) {
  const headers = new Headers(init?.headers);
  headers.append("Set-Cookie", await toastCookieHeader(request, toast, to));
  return redirect(to, { ...init, headers });
}
