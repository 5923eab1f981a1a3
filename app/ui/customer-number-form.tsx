import { getFormProps } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { CustomerNumberSchema } from "~/features/auth";
import type { FormReply } from "~/http/form.server";
import { CsrfInput } from "~/ui/csrf";
import { Field } from "~/ui/field";
import { useContractForm } from "~/ui/form";

/**
 * The one-field "Kundnummer" forms of the admin start page (open a retailer's portal,
 * end a retailer's sessions). The start page shows them empty; their own pages show
 * them again with the typed value and the error when the input was wrong. The button
 * stays enabled: a wrong number is answered beside the field, in the browser or by the server.
 */
export function CustomerNumberForm(props: { action: string; inputId: string; submitLabel: string; lastResult?: FormReply | null }) {
  const [form, fields] = useContractForm(CustomerNumberSchema, { id: props.inputId, lastResult: props.lastResult });
  return (
    <Form method="post" action={props.action} {...getFormProps(form)}>
      <CsrfInput />
      <Field label="Kundnummer" field={fields.kundnummer} inputProps={{ inputMode: "numeric", autoComplete: "off" }} />
      <button type="submit">{props.submitLabel}</button>
    </Form>
  );
}
