import { getFormProps, getInputProps, getTextareaProps, type SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { DailyProductFormSchema } from "~/features/products";
import { CsrfInput } from "~/ui/csrf";
import { Field, FieldErrors } from "~/ui/field";
import { SubmitButton, useContractForm } from "~/ui/form";
import { TitleEditionFields } from "~/ui/select-field";

type Props = {
  day: string;
  titles: { id: number; name: string }[];
  editions: { titleId: number; editionId: number; description: string }[];
  selected: { id: number; titleId: number; editionId: number; startDate: string; extraDescription: string | null } | null;
  lastResult: SubmissionResult<string[]> | null | undefined;
};

/**
 * Title, edition and date, then either Spara beskrivning or Ladda upp omslag. The
 * browser checks what both need; the file is checked by the server (its type by its
 * bytes, its size).
 */
export function DailyProductForm({ day, titles, editions, selected, lastResult }: Props) {
  const [form, fields, { valid }] = useContractForm(DailyProductFormSchema, {
    // Another card chosen: another form.
    id: `daily-product-${selected?.id ?? "new"}`,
    lastResult,
    defaultValue: {
      titleId: selected ? String(selected.titleId) : "",
      edition: selected ? `${selected.titleId}:${selected.editionId}` : "",
      date: selected?.startDate ?? day,
      extraDescription: selected?.extraDescription ?? "",
    },
  });
  const { key: descriptionKey, ...descriptionProps } = getTextareaProps(fields.extraDescription, {
    ariaDescribedBy: fields.extraDescription.errors ? fields.extraDescription.errorId : undefined,
  });
  const { key: fileKey, ...fileProps } = getInputProps(fields.file, { type: "file", ariaDescribedBy: fields.file.errors ? fields.file.errorId : undefined });
  return (
    <Form method="post" encType="multipart/form-data" {...getFormProps(form)}>
      <CsrfInput />
      <FieldErrors id={form.errorId} errors={form.errors} />
      <div className="form-row">
        <TitleEditionFields titles={titles} editions={editions} titleField={fields.titleId} editionField={fields.edition} />
        <Field label="Datum" field={fields.date} type="date" />
      </div>
      <div className="field">
        <label htmlFor={fields.extraDescription.id}>Extra beskrivning</label>
        <textarea key={descriptionKey} {...descriptionProps} rows={3} />
        <FieldErrors id={fields.extraDescription.errorId} errors={fields.extraDescription.errors} />
      </div>
      <div className="field">
        <label htmlFor={fields.file.id}>Omslag (JPEG, PNG eller WebP, högst 2 MB)</label>
        <input key={fileKey} {...fileProps} accept="image/jpeg,image/png,image/webp" />
        <FieldErrors id={fields.file.errorId} errors={fields.file.errors} />
      </div>
      <div className="actions">
        <SubmitButton intent="describe" valid={valid}>
          Spara beskrivning
        </SubmitButton>
        <SubmitButton intent="upload" valid={valid} primary={false}>
          Ladda upp omslag
        </SubmitButton>
        {selected ? <Link to={`?datum=${day}`}>Avbryt</Link> : null}
      </div>
    </Form>
  );
}
