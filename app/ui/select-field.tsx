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

type Title = { id: number; name: string };
type Edition = { titleId: number; editionId: number; description: string; code?: string };

/**
 * The Titel and Utgåva pair of the product forms: an edition's value is
 * `titleId:editionId`, its label "Titel: Utgåva" (with the code when `withCode`).
 */
export function TitleEditionFields({
  titles,
  editions,
  titleField,
  editionField,
  withCode = false,
}: {
  titles: Title[];
  editions: Edition[];
  titleField: FieldMetadata<string | number | undefined | null>;
  editionField: FieldMetadata<string | number | undefined | null>;
  withCode?: boolean;
}) {
  const titleName = new Map(titles.map((t) => [t.id, t.name]));
  return (
    <>
      <SelectField label="Titel" field={titleField} placeholder="Välj titel" options={titles.map((t) => ({ value: t.id, label: t.name }))} />
      <SelectField
        label="Utgåva"
        field={editionField}
        placeholder="Välj utgåva"
        options={editions.map((e) => ({
          value: `${e.titleId}:${e.editionId}`,
          label: `${titleName.get(e.titleId)}: ${e.description}${withCode ? ` (${e.code})` : ""}`,
        }))}
      />
    </>
  );
}
