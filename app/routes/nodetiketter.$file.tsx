import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireRetailer } from "~/auth/guards.server";
import { contentDisposition } from "~/http/content-disposition.server";
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
  return new Response(Buffer.from(pdf), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": contentDisposition("nodetiketter.pdf"),
      "Cache-Control": "private, no-store",
    },
  });
}
