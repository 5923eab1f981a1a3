import { getSelectProps, type FieldMetadata } from "@conform-to/react";
import type { ReactNode } from "react";
import { FieldErrors } from "./field";

/** A labelled native <select> bound to a conform field (works the same without JavaScript). */
export function SelectField({
  label,
  field,
  options,
  placeholder,
}: {
  label: ReactNode;
  field: FieldMetadata<string | number | undefined | null>;
  options: { value: string | number; label: string }[];
  placeholder?: string;
}) {
  const { key, ...props } = getSelectProps(field, { ariaDescribedBy: field.errors ? field.errorId : undefined });
  return (
    <div className="field">
      <label htmlFor={field.id}>{label}</label>
      <select key={key} {...props}>
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <FieldErrors id={field.errorId} errors={field.errors} />
    </div>
  );
}
