// GET /kreditfaktura/{number}.pdf: one of the customer's credit notes (decision 032).
// Another customer's is 404.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireRetailer } from "~/auth/guards.server";
import { renderCreditNotePdf } from "~/features/invoices/index.server";
import { CONTENT_TYPES, fileResponse } from "~/http/file-response.server";
import { pdfNumber, routeParam } from "~/http/params";

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireRetailer(request, context);
  const number = routeParam(params, "file", pdfNumber, "Kreditfakturan finns inte.");
  const pdf = await renderCreditNotePdf(number, user.customerId);
  if (!pdf) throw new Response("Kreditfakturan finns inte.", { status: 404 });
  return fileResponse(pdf, `kreditfaktura-${number}.pdf`, CONTENT_TYPES.pdf);
}
