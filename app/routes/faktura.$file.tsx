import { pdfNumber, routeParam } from "~/http/params";
import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { requireRetailer } from "~/auth/guards.server";
import { CONTENT_TYPES, fileResponse } from "~/http/file-response.server";
import { renderInvoicePdf } from "~/features/invoices/index.server";
import { isRefusal } from "~/lib/refusal";

// GET /faktura/{number}.pdf: one of the customer's invoices. Another customer's
// invoice is 404; an invoice whose file cannot be produced sends the retailer back
// to /faktura with 'Gick inte att ladda ner faktura {number}'.
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireRetailer(request, context);
  const number = routeParam(params, "file", pdfNumber, "Fakturan finns inte.");
  let pdf: Uint8Array | null;
  try {
    pdf = await renderInvoicePdf(number, user.customerId);
  } catch (error) {
    // An invoice that cannot be printed is refused ("conflict"); anything else is a bug worth a log line.
    if (!isRefusal(error, "conflict")) console.error(error);
    return redirect(`/faktura?fel=${number}`);
  }
  if (!pdf) throw new Response("Fakturan finns inte.", { status: 404 });
  return fileResponse(pdf, `faktura-${number}.pdf`, CONTENT_TYPES.pdf);
}
