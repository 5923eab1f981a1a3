// Form tokens: every session has its own random token (made with the
// session row, app/features/auth/sessions.server.ts), every POST form of the portal carries it
// (app/ui/csrf.tsx) and the guards refuse a write whose form does not carry this
// session's token. Cross-site posts are already refused in cli/serve.ts; this makes a
// form or token taken from one customer's session useless in another's.
import { timingSafeEqual } from "node:crypto";
import { readForm } from "~/http/form.server";
import type { PortalSession } from "./session.server";

export const FORM_TOKEN_FIELD = "csrf";
export const FORM_TOKEN_REFUSED = "Formuläret hör inte till din inloggning. Ladda om sidan och försök igen.";
export const BAD_REQUEST = "Felaktig förfrågan.";

/** How far into a multipart body the token is looked for; the forms send it first. */
const MULTIPART_SCAN_BYTES = 64 * 1024;

/** The token a page of this session puts in its forms, or null without one. */
export function formToken(session: PortalSession): string | null {
  const token = session.get("csrf");
  return typeof token === "string" && token ? token : null;
}

// The guards can run more than once for one request; the body is checked once.
const checked = new WeakMap<Request, Promise<void>>();

/**
 * Throws 403 unless a state-changing request's form carries the session's token,
 * 400 when its body is not a form that can be read. GET and HEAD pass.
 */
export function requireFormToken(request: Request, session: PortalSession): Promise<void> {
  if (request.method === "GET" || request.method === "HEAD") return Promise.resolve();
  let found = checked.get(request);
  if (!found) {
    found = check(request, session);
    checked.set(request, found);
  }
  return found;
}

async function check(request: Request, session: PortalSession) {
  const sent = await sentToken(request);
  const expected = formToken(session);
  if (!sent || !expected || !sameToken(sent, expected)) throw new Response(FORM_TOKEN_REFUSED, { status: 403 });
}

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

async function sentToken(request: Request): Promise<string | null> {
  const type = request.headers.get("Content-Type") ?? "";
  // A bare POST (no form at all): no token.
  if (!type) return null;
  let form: FormData;
  try {
    form = /^multipart\/form-data/i.test(type) ? await multipartHead(request, type) : await readForm(request);
  } catch {
    throw new Response(BAD_REQUEST, { status: 400 });
  }
  const value = form.get(FORM_TOKEN_FIELD);
  return typeof value === "string" ? value : null;
}

/**
 * The fields at the start of a multipart body (the whole body when it is small). An
 * upload is not read twice nor held in memory here: the token is the first field of every
 * form, so at most the first 64 KB are read from a copy of the body and the rest is left
 * to the action, which applies its own size limits.
 */
async function multipartHead(request: Request, type: string): Promise<FormData> {
  const boundary = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(type);
  const body = request.clone().body;
  if (!boundary || !body) throw new TypeError("no multipart boundary");
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let ended = false;
  try {
    while (size < MULTIPART_SCAN_BYTES) {
      const { done, value } = await reader.read();
      if (done) {
        ended = true;
        break;
      }
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    // Not awaited: cancelling one branch of a tee settles only once the other (the
    // action's body) is cancelled too; this branch just stops taking chunks.
    if (!ended) reader.cancel().catch(() => undefined);
  }
  let head = Buffer.concat(chunks);
  if (!ended) {
    // Cut after the last complete field and close the body there.
    const delimiter = Buffer.from(`\r\n--${boundary[1] ?? boundary[2]}`);
    const cut = head.lastIndexOf(delimiter);
    if (cut < 0) return new FormData();
    head = Buffer.concat([head.subarray(0, cut), delimiter, Buffer.from("--\r\n")]);
  }
  return new Response(head, { headers: { "Content-Type": type } }).formData();
}
