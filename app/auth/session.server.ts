import { createCookie, createSession, createSessionStorage, redirect, type Session, type SessionStorage } from "@remix-run/node";
import { config } from "~/config.server";
import { createSessionRow, deleteSessionRow, readSessionRow, updateSessionRow, type SessionData } from "~/features/auth/index.server";

/** Signs the session and device cookies (SESSION_SECRET, checked at start: app/config.server.ts). */
export const cookieSecret = config.sessionSecret;

// Over HTTPS the cookie is `__Host-` prefixed and Secure; plain HTTP (localhost)
// gets the same cookie without them, since browsers refuse Secure cookies there.
/**
 * A one-time message and the page it belongs to: the page the request that made it was
 * sent to (decision 035). Another tab loading another page meanwhile neither shows nor
 * uses it up; unread after TOAST_KEPT_MS it is dropped.
 */
export type Toast = { text: string; path: string; at: number };
export const TOAST_KEPT_MS = 2 * 60_000;

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

function storage(secure: boolean): SessionStorage<SessionData, { toast: Toast }> {
  const cookie = createCookie(secure ? "__Host-rp_session" : "rp_session", {
    httpOnly: true,
    sameSite: "lax",
    secure,
    path: "/",
    secrets: [cookieSecret],
  });
  return createSessionStorage<SessionData, { toast: Toast }>({
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

export type PortalSession = Session<SessionData, { toast: Toast }>;

/**
 * The session's message for this request's page, taken (the session must then be
 * committed), or null: a message for another page stays for it, an old one is dropped.
 */
export function takeToast(session: PortalSession, request: Request, now = Date.now()): { text: string | null; changed: boolean } {
  const waiting = session.data["__flash_toast__" as keyof SessionData] as Toast | string | undefined;
  if (waiting === undefined) return { text: null, changed: false };
  const toast: Toast = typeof waiting === "string" ? { text: waiting, path: requestPage(request), at: now } : waiting;
  if (toast.path === requestPage(request)) {
    session.get("toast");
    return { text: toast.text, changed: true };
  }
  if (now - toast.at > TOAST_KEPT_MS) {
    session.get("toast");
    return { text: null, changed: true };
  }
  return { text: null, changed: false };
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

/**
 * Starts a fresh session (a new id) holding `data`, ending the one the request had;
 * `toast` is shown once by the page `to` (where the caller redirects).
 */
export async function startSession(request: Request, data: SessionData, toast?: { text: string; to: string }): Promise<string> {
  const old = await getSession(request);
  if (old.id) await deleteSessionRow(old.id);
  const fresh = await storageFor(request).getSession(null);
  for (const [k, v] of Object.entries(data)) fresh.set(k, v);
  if (toast) fresh.flash("toast", { text: toast.text, path: pagePath(toast.to), at: Date.now() });
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

/** Redirects after a successful POST with a message the page `to` shows (role="status"), in this tab only. */
export async function redirectWithToast(request: Request, to: string, toast: string, init?: ResponseInit) {
  const session = await getSession(request);
  if (!session.id) return redirect(to, init);
  session.flash("toast", { text: toast, path: pagePath(to), at: Date.now() });
  const headers = new Headers(init?.headers);
  headers.append("Set-Cookie", await commitSession(request, session));
  return redirect(to, { ...init, headers });
}
