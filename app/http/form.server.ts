// The form contract (docs/architecture.md): every action reads its form once, parses it
// with conform + zod against the schema beside its feature, answers a form that breaks
// the schema with 400 and `submission.reply()`, and maps a rule's Refusal to its HTTP
// status and to form errors here, in one place. The typed values always go back with
// the reply, so nothing the user typed is lost.
import type { Question } from "~/lib/question";
import type { Submission, SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "@remix-run/node";
import { z } from "~/lib/zod";
import { UNSAFE_TEXT, UNSAFE_TEXT_MESSAGE } from "~/lib/form-fields";
import { REFUSAL_STATUS, Refusal, isRefusal } from "~/lib/refusal";
import { oversizedFields, readUpload, uploadTooLarge } from "./uploads.server";

export const BAD_REQUEST = "Felaktig förfrågan.";

/** A form that is only its button (and the form token): nothing to parse but the contract. */
export const ButtonOnlySchema = z.object({});
const UNREADABLE = "Formuläret kunde inte läsas. Ladda om sidan och försök igen.";

const forms = new WeakMap<Request, Promise<FormData>>();

/**
 * The request's form, read once however many times it is asked for: the guards' form
 * token check and the action share one parse. A body that is not a readable form is 400.
 * `uploadBytes` reads a multipart upload with that limit per file instead.
 */
export function readForm(request: Request, options: { uploadBytes?: number } = {}): Promise<FormData> {
  let form = forms.get(request);
  if (!form) {
    form = options.uploadBytes ? readUploadForm(request, options.uploadBytes) : readPlainForm(request);
    forms.set(request, form);
  }
  return form;
}

async function readPlainForm(request: Request): Promise<FormData> {
  try {
    // A copy, so remix-auth's strategies (which read the body themselves) still can.
    return await request.clone().formData();
  } catch {
    throw new Response(UNREADABLE, { status: 400 });
  }
}

/** An upload: a file over `maxBytes` is refused "too-large" (app/http/uploads.server.ts). */
function readUploadForm(request: Request, maxBytes: number): Promise<FormData> {
  return readUpload(request, maxBytes);
}

export type FormReply = SubmissionResult<string[]>;

/** Parses the request's form against `schema` (conform + zod). */
export async function parseForm<S extends z.ZodTypeAny>(request: Request, schema: S, options: { uploadBytes?: number } = {}) {
  return parseWithZod(await readForm(request, options), { schema });
}

/** 400 with the schema's errors and the typed values (but never the `hideFields`: PINs, codes). */
export function invalid(submission: Submission<unknown>, options: { hideFields?: string[] } = {}) {
  return data(submission.reply({ hideFields: options.hideFields }), { status: 400 });
}

/**
 * A rule's refusal as the form's answer: its status, its message on its field(s) or
 * over the form, the typed values kept. `resetForm` clears them (the input was used up).
 */
export function refused(submission: Submission<unknown> | null, refusal: Refusal, options: { resetForm?: boolean; hideFields?: string[] } = {}) {
  const fieldErrors = Object.fromEntries(Object.entries(refusal.fields).map(([k, v]) => [k, [v]]));
  const formErrors = Object.keys(fieldErrors).length === 0 ? [refusal.message] : undefined;
  const reply: FormReply = submission
    ? submission.reply({ fieldErrors, formErrors, resetForm: options.resetForm, hideFields: options.hideFields })
    : { status: "error", error: { ...fieldErrors, ...(formErrors ? { "": formErrors } : {}) } };
  return data(reply, { status: REFUSAL_STATUS[refusal.code], headers: retryHeaders(refusal) });
}

/**
 * A change that reaches many retailers, not saved yet (decision 029): the form comes back
 * as typed with the question of what it will change; the form's "Spara ändå" sends it
 * again with `confirmed`. Not a refusal: nothing was wrong with the form (200).
 */
export function askFirst(submission: Submission<unknown>, question: Question) {
  return data({ ...submission.reply(), ask: question });
}

/** A refusal's Retry-After header, when it says how long to wait. */
export function retryHeaders(refusal: Refusal): Record<string, string> {
  return refusal.retryAfterSeconds ? { "Retry-After": String(refusal.retryAfterSeconds) } : {};
}

/** A refusal outside a form (a loader, a download): a plain Response to throw. */
export function refusalResponse(refusal: Refusal): Response {
  return new Response(refusal.message, { status: REFUSAL_STATUS[refusal.code], headers: retryHeaders(refusal) });
}

/** Runs `fn`; a Refusal it throws becomes the thrown Response of refusalResponse. */
export async function orRefusalResponse<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (isRefusal(e)) throw refusalResponse(e);
    throw e;
  }
}

// Fields that are no name or text a person reads: a redirect target (safeRedirect refuses
// what it must and falls back) and the form token.
const NOT_TEXT = new Set(["redirectTo", "csrf"]);

/** The names of a form's text fields that hold a character UNSAFE_TEXT refuses. */
export function unsafeTextFields(form: FormData): string[] {
  const names = new Set<string>();
  for (const [name, value] of form.entries()) if (typeof value === "string" && !NOT_TEXT.has(name) && UNSAFE_TEXT.test(value)) names.add(name);
  return [...names];
}

/**
 * The whole contract for one form: parse, 400 on schema errors, run `handle` with the
 * parsed value, and a Refusal from the rules becomes the form's answer. `handle` returns
 * the success answer (usually a redirect with a toast).
 */
export async function handleForm<S extends z.ZodTypeAny, R>(
  request: Request,
  schema: S,
  handle: (value: z.output<S>, submission: Submission<z.input<S>, string[], z.output<S>>) => Promise<R>,
  options: {
    uploadBytes?: number;
    /** The message for a file over `uploadBytes` (default "Filen är större än N MB."). */
    tooLargeMessage?: (message: string) => string;
    resetOnRefusal?: boolean;
    hideFields?: string[];
    /**
     * The answer to a form that breaks the schema, for a route with no form to show it on
     * (a file download, a button that only starts something): usually a redirect with a
     * toast. Without it: 400 with the schema's errors.
     */
    whenInvalid?: (submission: Submission<z.input<S>, string[], z.output<S>>) => Response | Promise<Response>;
  } = {},
) {
  let submission;
  try {
    submission = await parseForm(request, schema, options);
  } catch (e) {
    if (isRefusal(e)) return refused(null, e);
    throw e;
  }
  if (options.uploadBytes) {
    // A file over the limit was left out: the answer says so on its field and keeps
    // everything else typed (the other fields arrived).
    const [field] = oversizedFields(await readForm(request, options));
    if (field) {
      const base = uploadTooLarge(options.uploadBytes);
      const message = options.tooLargeMessage ? options.tooLargeMessage(base.message) : base.message;
      // 400 like the form's other file errors (a wrong type): the form came, one file was too big.
      return refused(submission, new Refusal("invalid", message, { fields: { [field]: message } }), { hideFields: options.hideFields });
    }
  }
  if (submission.status !== "success") return options.whenInvalid ? options.whenInvalid(submission) : invalid(submission, options);
  // No text field of any form stores control characters or direction overrides.
  const unsafe = unsafeTextFields(await readForm(request, options));
  if (unsafe.length > 0) {
    const fields = Object.fromEntries(unsafe.map((name) => [name, UNSAFE_TEXT_MESSAGE]));
    return refused(submission, new Refusal("invalid", UNSAFE_TEXT_MESSAGE, { fields }), { hideFields: options.hideFields });
  }
  try {
    return await handle(submission.value, submission);
  } catch (e) {
    if (isRefusal(e)) return refused(submission, e, { resetForm: options.resetOnRefusal, hideFields: options.hideFields });
    throw e;
  }
}
