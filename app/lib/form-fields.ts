// Field schemas that many forms share, written with the Swedish zod (app/lib/zod.ts).
import { z } from "./zod";

const ROW_ID = /^[1-9]\d{0,15}$/;

/**
 * A row id from a form: plain digits, 1 to 2^53 − 1 (the rule of parseId in ids.ts).
 * Anything else is refused with `message`.
 */
export function rowId(message = "Ogiltigt id.") {
  return z
    .string({ error: message })
    .regex(ROW_ID, message)
    .transform(Number)
    .refine((n) => Number.isSafeInteger(n), message);
}

/**
 * A schema's error for a missing value only: `z.string({ error: missing("Obligatorisk.") })`
 * says "Obligatorisk." when the field is empty and leaves the other checks (a length
 * limit, a pattern) their own messages.
 */
export function missing(message: string) {
  return (issue: { input?: unknown }) => (issue.input === undefined || issue.input === null || issue.input === "" ? message : undefined);
}

/**
 * A row's id as a row button posts it, read by the action with parseId: a forged or
 * missing id is answered like a row that is gone (404), not as a form error.
 */
export function rowRef() {
  return z.string().optional();
}

/**
 * The version of the row an edit form was opened on (its `updated_at`), sent back in a
 * hidden field so the save can refuse a row someone else changed since (optimistic
 * concurrency, docs/reliability.md "Nothing lost"). A forged value is simply stale.
 */
export function rowVersion() {
  return z
    .string()
    .regex(/^\d{1,16}$/, "Ladda om sidan och försök igen.")
    .transform(Number)
    .optional();
}

/**
 * Characters no name or text may hold: C0 controls other than tab, line feed and carriage
 * return (a text area's line breaks), DEL, C1 controls, and the bidirectional overrides
 * and isolates (U+202A–U+202E, U+2066–U+2069) that make a name read differently on screen,
 * in a PDF or an export than it is stored.
 */
export const UNSAFE_TEXT = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/;

/**
 * An uploaded file's name as it is stored and served: the client's path dropped, and every
 * control and bidirectional character (the marks U+200E, U+200F, U+061C too) removed, so
 * `evil\u202Egnp.html` is stored as `evilgnp.html`; `fallback` when nothing is left.
 */
export function cleanUploadName(name: string, fallback: string): string {
  const base = name.split(/[/\\]/).pop() ?? "";
  const clean = base
    .replace(/[\u0000-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g, "")
    .trim()
    .slice(0, 200);
  return clean === "" || /^\.+$/.test(clean) ? fallback : clean;
}

export const UNSAFE_TEXT_MESSAGE = "Texten innehåller osynliga styr- eller riktningstecken. Skriv in den utan dem.";
