// A lapsed session keeps what was typed. When the returns form is posted
// after the session ran out (idle timeout), the guard keeps the posted values server
// side (app/features/auth/carried-forms.server.ts), bound to the customer number of the
// lapsed session, and sends the browser to the login with a cookie holding only the
// row's random id. The login page then says why; logging in as the same customer leads
// back to the form, filled in, to save with one press. Another customer gets nothing
// and the values are discarded.
import { createCookie, redirect } from "@remix-run/node";
import { createHmac, timingSafeEqual } from "node:crypto";
import { carryForm, discardCarriedForm, peekCarriedForm, takeCarriedForm, takeLapsedRetailer } from "~/features/auth/index.server";
import { readForm } from "~/http/form.server";
import { cookieSecret, getSession, isHttps, redirectWithToast } from "./session.server";

export const LAPSED_NOTICE = "Du har loggats ut eftersom du varit inaktiv. Logga in igen så sparas dina returer.";
export const RESTORED_NOTICE = "Det du fyllde i innan du loggades ut står kvar men är inte sparat. Tryck Spara för att spara det.";

/** The forms carried over a login: the returns form, states 1 and 2. */
const CARRIED_PATHS = /^\/rapportering\/[12]$/;
/** The returns form's owner: the customer it was rendered for, signed (formOwner). */
export const OWNER_FIELD = "kund";
// Never carried: the dead session's form token (it cannot be checked any more, see below), and the owner.
const SKIPPED_FIELDS = new Set(["csrf", OWNER_FIELD]);

/** Told to a tab whose shop was logged out by a login to another shop in the same browser. */
export const otherShopNotice = (now: { customerId: number; name: string }, owner: number) =>
  `Inget sparades: i den här webbläsaren är nu ${now.customerId} ${now.name} inloggad. Det du skrev för kund ${owner} finns kvar – logga in som kund ${owner} igen så står det i formuläret.`;

const ownerMac = (customerId: number) => createHmac("sha256", cookieSecret).update(`returns-form-owner:${customerId}`).digest("base64url").slice(0, 22);

/** The returns form's owner field: `<customer>.<mac>`, so a form says whose it is and cannot be made to say another's. */
export function formOwner(customerId: number): string {
  return `${customerId}.${ownerMac(customerId)}`;
}

function ownerOf(value: FormDataEntryValue | null): number | null {
  const m = typeof value === "string" ? /^(\d{1,9})\.([\w-]{22})$/.exec(value) : null;
  if (!m) return null;
  const id = Number(m[1]);
  const [a, b] = [Buffer.from(m[2]), Buffer.from(ownerMac(id))];
  return a.length === b.length && timingSafeEqual(a, b) ? id : null;
}

/**
 * Two shops in one browser (decision 026): the returns form of one shop, posted after
 * another shop logged in in another tab, is never saved to the shop logged in now. It is
 * kept for its own shop, as a lapsed session's form is, and the browser goes to the start
 * page with a message naming the shop logged in now; logging in as the form's shop again
 * brings it back filled in. Called by the retailer guard before the form token is checked
 * (the other session's token is gone with its session).
 */
export async function carryOtherShopPost(request: Request, now: { customerId: number; name: string }): Promise<void> {
  if (request.method !== "POST") return;
  const url = new URL(request.url);
  if (!CARRIED_PATHS.test(url.pathname)) return;
  let form: FormData;
  try {
    form = await readForm(request);
  } catch {
    return;
  }
  const owner = ownerOf(form.get(OWNER_FIELD));
  if (owner === null || owner === now.customerId) return;
  const entries: [string, string][] = [];
  for (const [name, value] of form) if (typeof value === "string" && !SKIPPED_FIELDS.has(name)) entries.push([name, value]);
  const id = await carryForm({ customerId: owner, path: url.pathname, entries });
  const headers = new Headers();
  if (id) headers.append("Set-Cookie", await cookie(request).serialize(id));
  throw await redirectWithToast(request, "/", otherShopNotice(now, owner), { headers });
}

function isPrefetch(request: Request): boolean {
  return /prefetch/i.test(request.headers.get("Sec-Purpose") ?? request.headers.get("Purpose") ?? "");
}

function cookie(request: Request) {
  const secure = isHttps(request);
  return createCookie(secure ? "__Host-rp_carried" : "rp_carried", {
    httpOnly: true,
    sameSite: "lax",
    secure,
    path: "/",
    maxAge: 60 * 60,
    secrets: [cookieSecret],
  });
}

async function carriedId(request: Request): Promise<string | null> {
  const value: unknown = await cookie(request).parse(request.headers.get("Cookie"));
  return typeof value === "string" && value ? value : null;
}

function clearCookie(request: Request): Promise<string> {
  return cookie(request).serialize("", { maxAge: 0 });
}

/**
 * Called by the retailer guard when a request has no valid session. A POST of the
 * returns form whose session really lapsed (the cookie names a retailer session that
 * just ran out) is kept and answered with the login; anything else returns and the
 * guard sends it to the login as before.
 *
 * The form token of the dead session cannot be checked: its session row is gone. That
 * is safe here because the carried values are only ever shown again, to the same
 * customer after a fresh login, and saved only by that user's own press of Spara,
 * which posts with the new session's token. A forged cross-site POST can at most
 * pre-fill a form its victim then sees and may discard; and only a browser that
 * carried a session of that customer gets this far.
 */
export async function carryLapsedPost(request: Request): Promise<void> {
  if (request.method !== "POST") return;
  const url = new URL(request.url);
  if (!CARRIED_PATHS.test(url.pathname)) return;
  const session = await getSession(request);
  if (!session.id) return;
  const customerId = takeLapsedRetailer(session.id);
  if (customerId === null) return;
  let form: FormData;
  try {
    form = await readForm(request);
  } catch {
    return;
  }
  const entries: [string, string][] = [];
  for (const [name, value] of form) if (typeof value === "string" && !SKIPPED_FIELDS.has(name)) entries.push([name, value]);
  const id = await carryForm({ customerId, path: url.pathname, entries });
  if (!id) return;
  throw redirect(`/login?redirectTo=${encodeURIComponent(url.pathname)}`, { headers: { "Set-Cookie": await cookie(request).serialize(id) } });
}

/** For the login page: whether this browser has a form waiting from a lapsed session. */
export async function hasCarriedForm(request: Request): Promise<boolean> {
  const id = await carriedId(request);
  return id !== null && (await peekCarriedForm(id)) !== null;
}

/**
 * After a successful login: the carried form's page when it was carried for this
 * customer (the cookie stays for that page to read), else null; a form carried for
 * someone else is discarded and its cookie cleared (`setCookie`).
 */
export async function carriedAfterLogin(request: Request, customerId: number | null): Promise<{ to: string | null; setCookie: string | null }> {
  const id = await carriedId(request);
  if (!id) return { to: null, setCookie: null };
  const form = await peekCarriedForm(id);
  if (form && customerId !== null && form.customerId === customerId) return { to: form.path, setCookie: null };
  await discardCarriedForm(id);
  return { to: null, setCookie: await clearCookie(request) };
}

/**
 * For the carried form's page: the values carried for this customer and this path,
 * read once (the row is deleted and the cookie cleared either way); null when none, and
 * null, the form kept, when it was carried for another customer.
 */
export async function restoreCarriedForm(request: Request, customerId: number): Promise<{ form: FormData | null; setCookie: string } | null> {
  // A prefetch must not use up the one read: the start page's link to the form is
  // prefetched (<link rel="prefetch">, "Sec-Purpose: prefetch"), and a browser may send it
  // late, after the shop logged in again; the page itself then came up empty.
  if (isPrefetch(request)) return null;
  const id = await carriedId(request);
  if (!id) return null;
  // A form kept for another shop of this browser (two shops, one browser) waits for that shop's login.
  const waiting = await peekCarriedForm(id);
  if (waiting && waiting.customerId !== customerId) return null;
  const carried = await takeCarriedForm(id, customerId);
  const setCookie = await clearCookie(request);
  if (!carried || carried.path !== new URL(request.url).pathname) return { form: null, setCookie };
  const form = new FormData();
  for (const [name, value] of carried.entries) form.append(name, value);
  return { form, setCookie };
}
