// The PIN letter (issue 16): the PIN the admin was just shown, posted back and checked
// against the stored hash (so no other PIN can be printed for the customer), as a PDF.
import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { requireStaff } from "~/auth/guards.server";
import { redirectWithToast } from "~/auth/session.server";
import { parseShortNumber } from "~/catalog";
import { audit } from "~/features/audit/index.server";
import { customerOverview, isCurrentPin, renderPinLetterPdf } from "~/features/customers/index.server";
import { PinLetterSchema } from "~/features/customers";
import { CONTENT_TYPES, fileResponse } from "~/http/file-response.server";
import { parseForm } from "~/http/form.server";
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
  const submission = await parseForm(request, PinLetterSchema);
  if (submission.status !== "success" || !(await isCurrentPin(id, submission.value.pin))) {
    return redirectWithToast(request, `/admin/kunder/${id}`, "Pinkodsbrevet kan bara skrivas ut för den pinkod som just gavs. Ge en ny pinkod för att få ett nytt brev.");
  }
  const c = overview.customer;
  const pdf = await renderPinLetterPdf({ customerId: c.id, name: c.name, address: c.address, coAddress: c.coAddress, zip: c.zip, city: c.city, pin: submission.value.pin, date: today(), loginUrl: new URL("/login", request.url).href });
  await audit({ actor: user.actor, action: "customer.pin-letter", target: `customer:${id}` });
  return fileResponse(pdf, `pinkodsbrev-${id}.pdf`, CONTENT_TYPES.pdf);
}
