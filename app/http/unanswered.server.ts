// A loader or action that threw a Refusal nobody answered (a busy database met while
// reading a page, say) is answered with the refusal's own status and Retry-After by
// entry.server, not with 500. Forms answer their refusals themselves (app/http/form.server.ts).
import { REFUSAL_STATUS, isRefusal, type Refusal } from "~/lib/refusal";
import { retryHeaders } from "./form.server";

const unanswered = new WeakMap<Request, Refusal>();

/** Notes a refusal that reached the error boundary; true when `error` was one. */
export function noteRefusal(request: Request, error: unknown): boolean {
  if (!isRefusal(error)) return false;
  unanswered.set(request, error);
  return true;
}

/** The status and headers of the refusal noted for this request, if one was. */
export function unansweredRefusal(request: Request): { status: number; headers: Record<string, string> } | undefined {
  const refusal = unanswered.get(request);
  if (!refusal) return undefined;
  return { status: REFUSAL_STATUS[refusal.code], headers: retryHeaders(refusal) };
}

/**
 * The Retry-After a page answering a form carries: the action's own, when its refusal said
 * how long to wait (a busy database, 503; a login limit, 429). Remix does not carry an
 * action's headers over to the document. Any other status, or a 503 that is no passing
 * state (a setting missing), carries none: a client must not come back for it.
 */
export function documentRetryAfter(status: number, actionHeaders: Readonly<Record<string, Headers>> | undefined): string | null {
  if (status !== 503 && status !== 429) return null;
  for (const headers of Object.values(actionHeaders ?? {})) {
    const value = headers.get("Retry-After");
    if (value) return value;
  }
  return null;
}
