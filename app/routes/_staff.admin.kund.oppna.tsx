// Impersonation: an admin opens a retailer's portal as that retailer. The new session
// carries impersonatorId and the staff user's own session, which is resumed on the way
// back; the retailer layout shows a banner with the way back.
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, Form, redirect, useActionData } from "@remix-run/react";
import { CsrfInput } from "~/ui/csrf";
import { requireStaff } from "~/auth/guards.server";
import { startImpersonationSession } from "~/auth/session.server";
import { startImpersonation } from "~/features/auth/index.server";
import { CustomerNumberForm } from "~/ui/customer-number-form";
import { unknownCustomer } from "~/ui/customer-number-form.server";
import { CustomerNumberSchema } from "~/features/auth";
import { handleForm, readForm, type FormReply } from "~/http/form.server";
import staffStyles from "~/ui/staff-monitoring.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: staffStyles }];

export const meta: MetaFunction = () => [{ title: "Öppna kundens portal – Returportalen" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, ["admin"]);
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireStaff(request, context, ["admin"]);
  const confirmed = (await readForm(request)).get("oppnaAvstangd") === "ja";
  return handleForm(request, CustomerNumberSchema, async ({ kundnummer }) => {
    const opened = await startImpersonation(user.staffId, Number(kundnummer), user.actor, { confirmed });
    if (!opened) throw unknownCustomer(kundnummer);
    // A deactivated customer: asked first (the answer is a page of its own, JS on or off).
    if (opened.needsConfirm) return data({ confirmDeactivated: { customerId: opened.customerId, name: opened.name } });
    const cookie = await startImpersonationSession(request, { customerId: opened.customerId, impersonatorId: user.staffId });
    return redirect("/", { headers: { "Set-Cookie": cookie } });
  });
}

export default function OpenRetailerPortal() {
  const answer = useActionData<typeof action>() as FormReply | { confirmDeactivated: { customerId: number; name: string } } | undefined;
  const confirm = answer && "confirmDeactivated" in answer ? answer.confirmDeactivated : null;
  const result = answer && !("confirmDeactivated" in answer) ? answer : undefined;
  return (
    <>
      <h1>Öppna en kunds portal</h1>
      <p>Se och använd portalen som kunden gör. Allt du gör där loggas med ditt personalkonto.</p>
      {confirm ? (
        <section className="card" role="alert" aria-labelledby="deactivated-heading">
          <h2 id="deactivated-heading">Kunden är avstängd</h2>
          <p>
            {confirm.customerId} {confirm.name} är avstängd och kan inte logga in själv. Öppnar du portalen loggas det
            med ditt personalkonto.
          </p>
          <Form method="post" action="/admin/kund/oppna">
            <CsrfInput />
            <input type="hidden" name="kundnummer" value={confirm.customerId} />
            <input type="hidden" name="oppnaAvstangd" value="ja" />
            <button type="submit" className="primary">
              Öppna den avstängda kundens portal
            </button>
          </Form>
        </section>
      ) : null}
      <CustomerNumberForm action="/admin/kund/oppna" inputId="open-customer" submitLabel="Öppna kundens portal" lastResult={result} />
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
