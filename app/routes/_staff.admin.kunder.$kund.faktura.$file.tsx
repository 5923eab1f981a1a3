// GET /admin/kunder/{kund}/faktura/{number}.pdf: a customer's invoice as the customer gets
// it, for staff answering "what is on my invoice?" (the invoicing history's
// files). Staff within their scope only: a utb user sees their distributor's customers.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireStaff } from "~/auth/guards.server";
import { parseShortNumber } from "~/catalog";
import { customerInScope, customerScope } from "~/features/customers/index.server";
import { renderInvoicePdf } from "~/features/invoices/index.server";
import { CONTENT_TYPES, fileResponse } from "~/http/file-response.server";
import { pdfNumber, routeParam } from "~/http/params";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const user = await requireStaff(request, context, ["admin", "sales", "utb"]);
  const customerId = routeParam(params, "kund", parseShortNumber, "Kunden finns inte.");
  const number = routeParam(params, "file", pdfNumber, "Fakturan finns inte.");
  if (!(await customerInScope(customerId, customerScope(user)))) throw new Response("Kunden finns inte.", { status: 404 });
  const pdf = await renderInvoicePdf(number, customerId);
  if (!pdf) throw new Response("Fakturan finns inte.", { status: 404 });
  return fileResponse(pdf, `faktura-${number}.pdf`, CONTENT_TYPES.pdf);
}
