// Ny kund: an admin adds a customer; the number must be new. The PIN is
// issued on the customer's page afterwards (shown once, with a PIN letter).
import { getFormProps } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { requireStaff } from "~/auth/guards.server";
import { redirectWithToast } from "~/auth/session.server";
import { CustomerAddSchema } from "~/features/customers";
import { addCustomer, listDistributors } from "~/features/customers/index.server";
import { handleForm } from "~/http/form.server";
import { CsrfInput } from "~/ui/csrf";
import { Field, FieldErrors } from "~/ui/field";
import { SubmitButton, useContractForm } from "~/ui/form";
import { SelectField } from "~/ui/select-field";

export const meta: MetaFunction = () => [{ title: "Ny kund – Returportalen" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, ["admin"]);
  return { distributors: await listDistributors() };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireStaff(request, context, ["admin"]);
  return handleForm(request, CustomerAddSchema, async (v) => {
    const { kundnummer: id, ...rest } = v;
    await addCustomer({ id, ...rest }, user.actor);
    return redirectWithToast(request, `/admin/kunder/${id}`, `Kund ${id} ${v.name} är tillagd. Ge kunden en pinkod för att kunna logga in.`);
  });
}

export default function NewCustomer() {
  const { distributors } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields, { valid }] = useContractForm(CustomerAddSchema, { id: "new-customer", lastResult });
  return (
    <>
      <p>
        <Link to="/admin/kunder">Kunder</Link>
      </p>
      <h1>Ny kund</h1>
      <Form method="post" className="card" {...getFormProps(form)}>
        <CsrfInput />
        <FieldErrors id={form.errorId} errors={form.errors} />
        <div className="form-row">
          <Field label="Kundnummer" field={fields.kundnummer} inputProps={{ inputMode: "numeric", autoComplete: "off" }} />
          <Field label="Namn" field={fields.name} />
          <SelectField label="Distributör" field={fields.distributorId} placeholder="Välj distributör" options={distributors.map((d) => ({ value: d.id, label: d.name }))} />
        </div>
        <div className="form-row">
          <Field label="Adress" field={fields.address} />
          <Field label="Postnummer" field={fields.zip} />
          <Field label="Ort" field={fields.city} />
        </div>
        <div className="form-row">
          <Field label="Telefon" field={fields.phone} inputProps={{ inputMode: "tel", autoComplete: "off" }} />
          <Field label="E-post" field={fields.email} type="email" />
        </div>
        <div className="actions">
          <SubmitButton valid={valid}>Lägg till kund</SubmitButton>
          <Link to="/admin/kunder">Avbryt</Link>
        </div>
      </Form>
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
