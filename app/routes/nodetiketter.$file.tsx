import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireRetailer } from "~/auth/guards.server";
import { CONTENT_TYPES, fileResponse } from "~/http/file-response.server";
import { renderLabelsPdf, LABEL_TYPE, getBlock } from "~/features/labels/index.server";

// GET /nodetiketter/{blockId}.pdf: the labels of one of the customer's allocations.
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireRetailer(request, context);
  const match = /^(\d{1,9})\.pdf$/.exec(params.file ?? "");
  const block = match ? await getBlock(user.customerId, Number(match[1])) : null;
  if (!block || block.type !== LABEL_TYPE.emergency) throw new Response("Etiketterna finns inte.", { status: 404 });
  const pdf = await renderLabelsPdf({
    customerId: user.customerId,
    customerName: user.name,
    fromNumber: block.fromNumber,
    toNumber: block.toNumber,
  });
  return fileResponse(pdf, "nodetiketter.pdf", CONTENT_TYPES.pdf);
}
