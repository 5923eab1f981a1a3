// Reading a form contract's reply (handleForm: `submission.reply()`) in a screen that
// renders its own markup: the message for a field or for the form, and what was typed.
import type { SubmissionResult } from "@conform-to/react";

export type FormReply = SubmissionResult<string[]>;

/** Whether an action's answer is a form reply (rather than the screen's own data). */
export function isFormReply(answer: unknown): answer is FormReply {
  return typeof answer === "object" && answer !== null && ("error" in answer || "initialValue" in answer) && "status" in answer;
}

/** The first message of `field`, or with no field the form's own message (else any field's). */
export function replyError(reply: FormReply | null | undefined, field?: string): string | null {
  const errors = reply?.error;
  if (!errors) return null;
  if (field !== undefined) return errors[field]?.[0] ?? null;
  return errors[""]?.[0] ?? Object.values(errors).find((e) => e && e.length > 0)?.[0] ?? null;
}

/** All field errors of the reply, first message each. */
export function replyFieldErrors(reply: FormReply | null | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, messages] of Object.entries(reply?.error ?? {})) if (name !== "" && messages?.[0]) out[name] = messages[0];
  return out;
}

/** What the user sent in `name` (a dotted path: `b.101`), as a string; undefined if not sent. */
export function replyValue(reply: FormReply | null | undefined, name: string): string | undefined {
  let value: unknown = reply?.initialValue;
  for (const part of name.split(".")) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  if (Array.isArray(value)) value = value[0];
  return typeof value === "string" ? value : undefined;
}
