// A save that found the database held by another process (a backup, an operator's
// import) for longer than the write wait (db/client.ts writeTransaction) is answered
// 503 with Retry-After: nothing was written, and the form comes back as typed.
import { data } from "@remix-run/node";
import { DATABASE_BUSY_MESSAGE, DATABASE_BUSY_RETRY_AFTER_SECONDS, isDatabaseBusy } from "~/db.server";
import { refuse } from "~/lib/refusal";

export { isDatabaseBusy };

export const BUSY_MESSAGE = DATABASE_BUSY_MESSAGE;
export const RETRY_AFTER_SECONDS = DATABASE_BUSY_RETRY_AFTER_SECONDS;

export function busyHeaders(): Record<string, string> {
  return { "Retry-After": String(RETRY_AFTER_SECONDS) };
}

/** The action's own failure answer (the form with its values) as a 503. */
export function busyReply<T>(payload: T) {
  return data(payload, { status: 503, headers: busyHeaders() });
}

// Requests whose loader or action threw a busy error nobody caught: entry.server answers
// them 503 with Retry-After instead of 500.
const busyRequests = new WeakSet<Request>();

export function noteBusy(request: Request, error: unknown): boolean {
  if (!isDatabaseBusy(error)) return false;
  busyRequests.add(request);
  return true;
}

export function wasBusy(request: Request): boolean {
  return busyRequests.has(request);
}

/**
 * Runs a save; a busy database becomes a "busy" Refusal (503, Retry-After, BUSY_MESSAGE),
 * which the form contract (handleForm) answers with the form and its typed values.
 */
export async function refuseWhenBusy<T>(save: () => Promise<T>): Promise<T> {
  try {
    return await save();
  } catch (error) {
    if (isDatabaseBusy(error)) throw refuse.busy(BUSY_MESSAGE, { retryAfterSeconds: RETRY_AFTER_SECONDS });
    throw error;
  }
}
