import { getInputProps, type FieldMetadata } from "@conform-to/react";
import type { InputHTMLAttributes, ReactNode } from "react";
import { FieldErrors } from "./field-errors";

export { FieldErrors };

type Props = {
  label: ReactNode;
  field: FieldMetadata<string | number | undefined | null>;
  type?: "text" | "password" | "email" | "date" | "url" | "number" | "search";
  hint?: ReactNode;
  inputProps?: InputHTMLAttributes<HTMLInputElement>;
};

/**
 * A labelled text input bound to a conform field: the label is visible, errors
 * sit under the input and are tied to it with aria-describedby, and the value
 * the server echoed back is the default so nothing typed is lost. Plain inputs
 * rather than React Aria fields, because they submit the same with or without
 * JavaScript (STYLE.md 8).
 */
export function Field({ label, field, type = "text", hint, inputProps }: Props) {
  const hintId = hint ? `${field.id}-hint` : undefined;
  const describedBy = [hintId, field.errors ? field.errorId : undefined].filter(Boolean).join(" ") || undefined;
  const { key, ...props } = getInputProps(field, { type, ariaDescribedBy: describedBy });
  return (
    <div className="field">
      <label htmlFor={field.id}>{label}</label>
      <input key={key} {...props} {...inputProps} />
      {hint ? (
        <small id={hintId} className="hint">
          {hint}
        </small>
      ) : null}
      <FieldErrors id={field.errorId} errors={field.errors} />
    </div>
  );
}


type PlainFieldProps = {
  id: string;
  name: string;
  label: ReactNode;
  type?: "text" | "date" | "search";
  inputMode?: InputHTMLAttributes<HTMLInputElement>["inputMode"];
  autoComplete?: string;
  defaultValue?: string;
  error?: string | null;
};

/**
 * The same labelled input for forms that are not conform forms (GET filters, the
 * one-field customer forms): one error string, shown under the input as `${id}-error`.
 */
export function PlainField({ id, name, label, type = "text", inputMode, autoComplete, defaultValue, error }: PlainFieldProps) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        type={type}
        inputMode={inputMode}
        autoComplete={autoComplete}
        defaultValue={defaultValue}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      <FieldErrors id={`${id}-error`} errors={error ? [error] : undefined} />
    </div>
  );
}
