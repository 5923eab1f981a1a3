// The PIN letter: made from the ticket "Ny pinkod" sealed into this admin's session for
// this customer (app/features/customers/pin-letter-ticket.server.ts), once, while that PIN
// is still the customer's. Anything the browser posts besides the form token is ignored,
// so the route answers no question about a PIN; a refused try is audited.
import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { getUserAndSession, requireStaff } from "~/auth/guards.server";
import { commitSession, redirectWithToast } from "~/auth/session.server";
import { config, PORTAL_URL_MISSING } from "~/config.server";
import { parseShortNumber } from "~/catalog";
import { audit } from "~/features/audit/index.server";
import { customerOverview, isCurrentPin, openPinLetterTicket, renderPinLetterPdf } from "~/features/customers/index.server";
import { CONTENT_TYPES, fileResponse } from "~/http/file-response.server";
import { ButtonOnlySchema, handleForm } from "~/http/form.server";
import { routeParam } from "~/http/params";
import { today } from "~/lib/dates";

export const loader = ({ params }: { params: Record<string, string | undefined> }) => {
  const id = parseShortNumber(params.kund);
  return redirect(id === null ? "/admin/kunder" : `/admin/kunder/${id}`);
};

export async function action({ request, context, params }: ActionFunctionArgs) {
  const user = await requireStaff(request, context, ["admin"]);
  const id = routeParam(params, "kund", parseShortNumber, "Kunden finns inte.");
  const overview = await customerOverview(id, { distributorIds: null });
  if (!overview) throw new Response("Kunden finns inte.", { status: 404 });
  if (config.portalUrl === null) throw new Response(PORTAL_URL_MISSING, { status: 503 });
  return handleForm(request, ButtonOnlySchema, async () => {
    // The ticket is spent whatever happens next: one letter per new PIN.
    const { session } = await getUserAndSession(request);
    const pin = openPinLetterTicket(session.get("pinLetter"), user.staffId, id);
    if (session.has("pinLetter")) {
      session.unset("pinLetter");
      await commitSession(request, session);
    }
    if (pin === null || !(await isCurrentPin(id, pin))) {
      await audit({ actor: user.actor, action: "customer.pin-letter.refused", target: `customer:${id}` });
      return redirectWithToast(request, `/admin/kunder/${id}`, "Pinkodsbrevet kan bara skrivas ut en gång, direkt efter att en ny pinkod gavs. Ge en ny pinkod för att få ett nytt brev.");
    }
    const c = overview.customer;
    // The link comes from the configured public address, never from the request's headers.
    const pdf = await renderPinLetterPdf({ customerId: c.id, name: c.name, address: c.address, coAddress: c.coAddress, zip: c.zip, city: c.city, pin, date: today(), loginUrl: `${config.portalUrl}/login` });
    await audit({ actor: user.actor, action: "customer.pin-letter", target: `customer:${id}` });
    return fileResponse(pdf, `pinkodsbrev-${id}.pdf`, CONTENT_TYPES.pdf);
  });
}
