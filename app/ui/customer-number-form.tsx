import { Form } from "@remix-run/react";
import { PlainField } from "~/ui/field";
import { CsrfInput } from "~/ui/csrf";

/**
 * The one-field "Kundnummer" forms of the admin start page (open a retailer's portal,
 * end a retailer's sessions). The start page shows them empty; their own pages show
 * them again with the typed value and the error when the input was wrong.
 */
export function CustomerNumberForm(props: { action: string; inputId: string; submitLabel: string; kundnummer?: string; error?: string }) {
  return (
    <Form method="post" action={props.action}>
      <CsrfInput />
      <PlainField id={props.inputId} name="kundnummer" label="Kundnummer" inputMode="numeric" autoComplete="off" defaultValue={props.kundnummer} error={props.error} />
      <button type="submit">{props.submitLabel}</button>
    </Form>
  );
}
