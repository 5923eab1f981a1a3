// Ändra uppgifter: an admin edits a customer's name, address, postcode, city, contact,
// phone, e-mail, distributor, organisationsnummer, bankgiro and bank account (checked by
// the banks' rules, as on Garantibelopp). Audited field by field; a save over someone
// else's change is refused (409) with what is stored now shown and the typed values kept.
import { getFormProps } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { requireStaff } from "~/auth/guards.server";
import { redirectWithToast } from "~/auth/session.server";
import { parseShortNumber } from "~/catalog";
import { CUSTOMER_DETAIL_LABELS, CustomerEditSchema } from "~/features/customers";
import { getCustomerDetails, listDistributors, updateCustomerDetails, type CustomerDetails } from "~/features/customers/index.server";
import { handleForm } from "~/http/form.server";
import { routeParam } from "~/http/params";
import { CsrfInput } from "~/ui/csrf";
import { Field, FieldErrors } from "~/ui/field";
import { SubmitButton, useContractForm } from "~/ui/form";
import { SelectField } from "~/ui/select-field";
import { StoredNow, VersionInput } from "~/ui/stored-now";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `Ändra ${data ? `${data.id} ${data.details.name}` : "kund"} – Returportalen` }];

const NOT_FOUND = "Kunden finns inte.";

const LABELS: Record<keyof CustomerDetails, string> = CUSTOMER_DETAIL_LABELS;

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireStaff(request, context, ["admin"]);
  const id = routeParam(params, "kund", parseShortNumber, NOT_FOUND);
  const [details, distributors] = await Promise.all([getCustomerDetails(id), listDistributors()]);
  if (!details) throw new Response(NOT_FOUND, { status: 404 });
  return { id, details, distributors };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const user = await requireStaff(request, context, ["admin"]);
  const id = routeParam(params, "kund", parseShortNumber, NOT_FOUND);
  return handleForm(request, CustomerEditSchema, async ({ version, ...details }) => {
    const changed = await updateCustomerDetails(id, details, version, user.actor);
    // The status names only what was stored.
    const message = changed.length ? `Sparat för ${id} ${details.name}: ${changed.map((k) => LABELS[k]).join(", ")}.` : "Inget ändrades.";
    return redirectWithToast(request, `/admin/kunder/${id}`, message);
  });
}

export default function EditCustomer() {
  const { id, details: d, distributors } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const { version: _v, ...values } = d;
  const [form, fields, { valid }] = useContractForm(CustomerEditSchema, {
    id: `customer-${id}`,
    lastResult,
    defaultValue: { ...values, distributorId: String(d.distributorId) },
  });
  const distributorName = distributors.find((x) => x.id === d.distributorId)?.name ?? String(d.distributorId);
  return (
    <>
      <p>
        <Link to={`/admin/kunder/${id}`}>
          {id} {d.name}
        </Link>
      </p>
      <h1>Ändra uppgifter</h1>
      <Form method="post" className="card" {...getFormProps(form)}>
        <CsrfInput />
        <FieldErrors id={form.errorId} errors={form.errors} />
        <VersionInput version={d.version} />
        <StoredNow
          conflict={fields.version.errors}
          rows={[
            [LABELS.name, d.name],
            [LABELS.distributorId, distributorName],
            [LABELS.address, d.address],
            [LABELS.coAddress, d.coAddress],
            [LABELS.zip, d.zip],
            [LABELS.city, d.city],
            [LABELS.contact, d.contact],
            [LABELS.phone, d.phone],
            [LABELS.email, d.email],
            [LABELS.orgNumber, d.orgNumber],
            [LABELS.bankgiro, d.bankgiro],
            [LABELS.bankAccount, d.bankAccount],
          ]}
        />
        <div className="form-row">
          <Field label={LABELS.name} field={fields.name} />
          <SelectField label={LABELS.distributorId} field={fields.distributorId} placeholder="Välj distributör" options={distributors.map((x) => ({ value: x.id, label: x.name }))} />
        </div>
        <div className="form-row">
          <Field label={LABELS.address} field={fields.address} inputProps={{ autoComplete: "off" }} />
          <Field label={LABELS.coAddress} field={fields.coAddress} inputProps={{ autoComplete: "off" }} />
        </div>
        <div className="form-row">
          <Field label={LABELS.zip} field={fields.zip} inputProps={{ inputMode: "numeric", autoComplete: "off" }} />
          <Field label={LABELS.city} field={fields.city} inputProps={{ autoComplete: "off" }} />
        </div>
        <div className="form-row">
          <Field label={LABELS.contact} field={fields.contact} inputProps={{ autoComplete: "off" }} />
          <Field label={LABELS.phone} field={fields.phone} inputProps={{ inputMode: "tel", autoComplete: "off" }} />
          <Field label={LABELS.email} field={fields.email} type="email" inputProps={{ autoComplete: "off" }} />
        </div>
        <h2>Utbetalning av garantibelopp</h2>
        <p>Numren kontrolleras med kontrollsiffran. Bankgiro eller bankkonto behövs för en utbetalning.</p>
        <div className="form-row">
          <Field label={LABELS.orgNumber} field={fields.orgNumber} inputProps={{ inputMode: "numeric", autoComplete: "off" }} />
          <Field label={LABELS.bankgiro} field={fields.bankgiro} inputProps={{ inputMode: "numeric", autoComplete: "off" }} />
          <Field label={LABELS.bankAccount} field={fields.bankAccount} inputProps={{ inputMode: "numeric", autoComplete: "off" }} />
        </div>
        <div className="actions">
          <SubmitButton valid={valid}>Spara</SubmitButton>
          <Link to={`/admin/kunder/${id}`}>Avbryt</Link>
        </div>
      </Form>
    </>
  );
}

export { revalidateOnConflict as shouldRevalidate } from "~/ui/stored-now";
export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
