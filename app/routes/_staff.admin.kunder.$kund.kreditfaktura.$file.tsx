// GET /admin/kunder/{kund}/kreditfaktura/{number}.pdf: a customer's credit note as the
// customer gets it (decision 032). Staff within their scope only.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireStaff } from "~/auth/guards.server";
import { parseShortNumber } from "~/catalog";
import { customerInScope, customerScope } from "~/features/customers/index.server";
import { renderCreditNotePdf } from "~/features/invoices/index.server";
import { CONTENT_TYPES, fileResponse } from "~/http/file-response.server";
import { pdfNumber, routeParam } from "~/http/params";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const user = await requireStaff(request, context, ["admin", "sales", "utb"]);
  const customerId = routeParam(params, "kund", parseShortNumber, "Kunden finns inte.");
  const number = routeParam(params, "file", pdfNumber, "Kreditfakturan finns inte.");
  if (!(await customerInScope(customerId, customerScope(user)))) throw new Response("Kunden finns inte.", { status: 404 });
  const pdf = await renderCreditNotePdf(number, customerId);
  if (!pdf) throw new Response("Kreditfakturan finns inte.", { status: 404 });
  return fileResponse(pdf, `kreditfaktura-${number}.pdf`, CONTENT_TYPES.pdf);
}
