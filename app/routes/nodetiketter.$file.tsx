import { pdfNumber, routeParam } from "~/http/params";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireRetailer } from "~/auth/guards.server";
import { CONTENT_TYPES, fileResponse } from "~/http/file-response.server";
import { renderLabelsPdf, LABEL_TYPE, getBlock } from "~/features/labels/index.server";

// GET /nodetiketter/{blockId}.pdf: the labels of one of the customer's allocations.
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireRetailer(request, context);
  const number = routeParam(params, "file", pdfNumber, "Etiketterna finns inte.");
  const block = await getBlock(user.customerId, number);
  if (!block || block.type !== LABEL_TYPE.emergency) throw new Response("Etiketterna finns inte.", { status: 404 });
  const pdf = await renderLabelsPdf({
    customerId: user.customerId,
    customerName: user.name,
    fromNumber: block.fromNumber,
    toNumber: block.toNumber,
  });
  return fileResponse(pdf, "nodetiketter.pdf", CONTENT_TYPES.pdf);
}
