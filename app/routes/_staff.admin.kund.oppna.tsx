// Impersonation: an admin opens a retailer's portal as that retailer. The new session
// carries impersonatorId and the staff user's own session, which is resumed on the way
// back; the retailer layout shows a banner with the way back.
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect, useActionData } from "@remix-run/react";
import { requireStaff } from "~/auth/guards.server";
import { startImpersonationSession } from "~/auth/session.server";
import { startImpersonation } from "~/features/auth/index.server";
import { CustomerNumberForm } from "~/ui/customer-number-form";
import { unknownCustomer } from "~/ui/customer-number-form.server";
import { CustomerNumberSchema } from "~/features/auth";
import { handleForm, type FormReply } from "~/http/form.server";
import staffStyles from "~/ui/staff-monitoring.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: staffStyles }];

export const meta: MetaFunction = () => [{ title: "Öppna kundens portal – Returportalen" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, ["admin"]);
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireStaff(request, context, ["admin"]);
  return handleForm(request, CustomerNumberSchema, async ({ kundnummer }) => {
    const opened = await startImpersonation(user.staffId, Number(kundnummer), user.actor);
    if (!opened) throw unknownCustomer(kundnummer);
    const cookie = await startImpersonationSession(request, { customerId: opened.customerId, impersonatorId: user.staffId });
    return redirect("/", { headers: { "Set-Cookie": cookie } });
  });
}

export default function OpenRetailerPortal() {
  const result = useActionData<FormReply>();
  return (
    <>
      <h1>Öppna en kunds portal</h1>
      <p>Se och använd portalen som kunden gör. Allt du gör där loggas med ditt personalkonto.</p>
      <CustomerNumberForm action="/admin/kund/oppna" inputId="open-customer" submitLabel="Öppna kundens portal" lastResult={result} />
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
