// The client half of the form contract: useContractForm binds conform to the same zod
// schema the action parses with, so with JavaScript the browser shows the schema's
// Swedish messages as the user leaves a field, and knows whether the whole form is
// valid (SubmitButton is disabled while it is not, back-office spec §5). Without
// JavaScript nothing here runs: the server validates and answers with the same messages.
import { useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { useEffect, useState, type ReactNode } from "react";
import type { z } from "zod";
import "~/lib/zod";

type Options = {
  id?: string;
  lastResult?: SubmissionResult<string[]> | null;
  defaultValue?: Record<string, unknown> | null;
};

export function useContractForm<S extends z.ZodType<Record<string, unknown>, Record<string, unknown>>>(schema: S, options: Options = {}) {
  const [form, fields] = useForm<z.input<S>, z.output<S>>({
    id: options.id,
    lastResult: options.lastResult ?? undefined,
    defaultValue: (options.defaultValue ?? undefined) as never,
    constraint: getZodConstraint(schema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  const valid = useWholeFormValid(form.id, schema);
  return [form, fields, { valid }] as const;
}

/** Whether the form's current values pass the schema; true until hydrated. */
function useWholeFormValid(formId: string, schema: z.ZodTypeAny): boolean {
  const [valid, setValid] = useState(true);
  useEffect(() => {
    const el = document.getElementById(formId);
    if (!(el instanceof HTMLFormElement)) return;
    const check = () => setValid(parseWithZod(formDataAsSent(el), { schema }).status === "success");
    check();
    el.addEventListener("input", check);
    el.addEventListener("change", check);
    el.addEventListener("reset", () => setTimeout(check));
    return () => {
      el.removeEventListener("input", check);
      el.removeEventListener("change", check);
    };
  }, [formId, schema]);
  return valid;
}

/**
 * The form's data as its (first) submit button would send it: a button that carries the
 * `intent` adds it, so a schema that tells forms apart by intent sees one.
 */
function formDataAsSent(form: HTMLFormElement): FormData {
  const data = new FormData(form);
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"][name]');
  if (button && !data.has(button.name)) data.append(button.name, button.value);
  return data;
}

/**
 * A form's submit button. `valid` comes from useContractForm: false disables it (with
 * JavaScript only; the server checks anyway). `intent` names the action on forms that
 * do several things.
 */
export function SubmitButton({ valid = true, intent, primary = true, children }: { valid?: boolean; intent?: string; primary?: boolean; children: ReactNode }) {
  return (
    <button type="submit" name={intent ? "intent" : undefined} value={intent} className={primary ? "primary" : undefined} disabled={!valid}>
      {children}
    </button>
  );
}
