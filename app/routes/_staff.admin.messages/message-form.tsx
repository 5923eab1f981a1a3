import { getFormProps, getInputProps, getTextareaProps, type FieldMetadata, type SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { MESSAGE_TYPES, MessageSaveSchema } from "~/features/messages";
import { AskFirst, questionOf } from "~/ui/ask-first";
import { CsrfInput } from "~/ui/csrf";
import { Field, FieldErrors } from "~/ui/field";
import { useContractForm } from "~/ui/form";
import { SaveActions } from "~/ui/save-actions";
import { SelectField } from "~/ui/select-field";
import { StoredNow, VersionInput } from "~/ui/stored-now";
import { FormatButtons } from "./format-buttons";

export type EditedMessage = { id: number; updatedAt: number; type: number; startDate: string; stopDate: string; header: string; content: string; customers: string };

/** The message form: new (Spara) or editing one (Uppdatera); Nollställ empties it. */
export function MessageForm({ editing, lastResult }: { editing: EditedMessage | null; lastResult: SubmissionResult<string[]> | null | undefined }) {
  const question = questionOf(lastResult);
  const [form, fields, { valid }] = useContractForm(MessageSaveSchema, {
    id: `message-${editing?.id ?? "new"}`,
    lastResult,
    defaultValue: editing
      ? { id: String(editing.id), type: String(editing.type), startDate: editing.startDate, stopDate: editing.stopDate, header: editing.header, content: editing.content, customers: editing.customers }
      : null,
  });
  return (
    <Form method="post" action={editing ? `/admin/messages?id=${editing.id}` : "/admin/messages"} {...getFormProps(form)}>
      <CsrfInput />
      {editing ? <input {...getInputProps(fields.id, { type: "hidden" })} key={fields.id.key} /> : null}
      {editing ? <VersionInput version={editing.updatedAt} /> : null}
      <FieldErrors id={form.errorId} errors={form.errors} />
      {editing ? (
        <StoredNow
          conflict={fields.version.errors}
          rows={[
            ["Typ", MESSAGE_TYPES.find((t) => t.id === editing.type)?.label ?? String(editing.type)],
            ["Från", editing.startDate],
            ["Till", editing.stopDate],
            ["Rubrik", editing.header],
            ["Innehåll", editing.content],
            ["Kundnummer", editing.customers],
          ]}
        />
      ) : null}
      <SelectField label="Typ" field={fields.type} placeholder="Välj typ" options={MESSAGE_TYPES.map((t) => ({ value: t.id, label: `${t.id} ${t.label}` }))} />
      <div className="field-row">
        <Field label="Från" field={fields.startDate} type="date" />
        <Field label="Till" field={fields.stopDate} type="date" hint="Tomt: bara ett datum." />
      </div>
      <Field label="Rubrik" field={fields.header} />
      <TextArea label="Innehåll" field={fields.content} rows={8} className="message-editor" toolbar>
        Text, eller HTML med &lt;p&gt;, &lt;strong&gt;, &lt;em&gt;, &lt;u&gt;, &lt;ul&gt;/&lt;ol&gt;/&lt;li&gt;, &lt;a href&gt;, &lt;br&gt;. Annat tas bort när det sparas.
      </TextArea>
      <TextArea label="Kundnummer" field={fields.customers} rows={3}>
        Bara för Kundmeddelande och Returrapportering: kundnummer åtskilda med komma, semikolon, mellanslag eller ny rad. Tomt: alla kunder.
      </TextArea>
      <FieldErrors id={fields.id.errorId} errors={fields.id.errors} />
      <SaveActions editing={!!editing} valid={valid}>
        <Link to="/admin/messages" className="button" reloadDocument>
          Nollställ
        </Link>
      </SaveActions>
      {question ? <AskFirst question={question} /> : null}
    </Form>
  );
}

function TextArea({
  label,
  field,
  rows,
  className,
  toolbar,
  children,
}: {
  label: string;
  field: FieldMetadata<string | undefined>;
  rows: number;
  className?: string;
  toolbar?: boolean;
  children: React.ReactNode;
}) {
  const hintId = `${field.id}-hint`;
  const { key, ...props } = getTextareaProps(field, { ariaDescribedBy: [hintId, field.errors ? field.errorId : ""].filter(Boolean).join(" ") });
  return (
    <div className="field">
      <label htmlFor={field.id}>{label}</label>
      {toolbar ? <FormatButtons textareaId={field.id} /> : null}
      <textarea key={key} {...props} className={className} rows={rows} />
      <small id={hintId} className="hint">
        {children}
      </small>
      <FieldErrors id={field.errorId} errors={field.errors} />
    </div>
  );
}
