// 'Logga ut kund': an admin ends every session of a retailer on the server (a lost
// phone, a PIN that leaked). The form sits on the admin start page; this page shows it
// again with the error next to the field when the input is wrong.
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { requireStaff } from "~/auth/guards.server";
import { redirectWithToast } from "~/auth/session.server";
import { revokeCustomerSessions } from "~/features/auth/index.server";
import { CustomerNumberForm } from "~/ui/customer-number-form";
import { unknownCustomer } from "~/ui/customer-number-form.server";
import { CustomerNumberSchema } from "~/features/auth";
import { handleForm, type FormReply } from "~/http/form.server";
import staffStyles from "~/ui/staff-monitoring.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: staffStyles }];

export const meta: MetaFunction = () => [{ title: "Logga ut kund – Returportalen" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, ["admin"]);
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireStaff(request, context, ["admin"]);
  return handleForm(request, CustomerNumberSchema, async ({ kundnummer }) => {
    const ended = await revokeCustomerSessions(user.staffId, Number(kundnummer), user.actor);
    if (ended === null) throw unknownCustomer(kundnummer);
    return redirectWithToast(request, "/admin", `Kund ${kundnummer} är utloggad (${ended} ${ended === 1 ? "session" : "sessioner"} avslutade).`);
  });
}

export default function EndCustomerSessions() {
  const result = useActionData<FormReply>();
  return (
    <>
      <h1>Logga ut kund</h1>
      <p>Avslutar alla kundens inloggningar direkt, även de som personal öppnat.</p>
      <CustomerNumberForm action="/admin/kund/logga-ut" inputId="logout-customer" submitLabel="Logga ut kund" lastResult={result} />
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
