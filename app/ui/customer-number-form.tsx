import { getFormProps, useForm } from "@conform-to/react";
import { Form } from "@remix-run/react";
import type { FormReply } from "~/http/form.server";
import { CsrfInput } from "~/ui/csrf";
import { Field } from "~/ui/field";

/**
 * The one-field "Kundnummer" forms of the admin start page (open a retailer's portal,
 * end a retailer's sessions). The start page shows them empty; their own pages show
 * them again with the typed value and the error when the input was wrong. They are
 * checked by the server only (CustomerNumberSchema, app/features/auth): the answer is
 * the form's own page, where it stands alone, not the start page with both forms.
 */
export function CustomerNumberForm(props: { action: string; inputId: string; submitLabel: string; lastResult?: FormReply | null }) {
  const [form, fields] = useForm<{ kundnummer: string }>({ id: props.inputId, lastResult: props.lastResult ?? undefined });
  return (
    <Form method="post" action={props.action} {...getFormProps(form)}>
      <CsrfInput />
      <Field label="Kundnummer" field={fields.kundnummer} inputProps={{ inputMode: "numeric", autoComplete: "off" }} />
      <button type="submit">{props.submitLabel}</button>
    </Form>
  );
}
