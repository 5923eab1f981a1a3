// 'Skriv ut' on the returns page: the current list as an A4 PDF named Returer.pdf.
// A resource route outside the retailer layout, so it guards itself.
import { routeParam } from "~/http/params";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireRetailer } from "~/auth/guards.server";
import { CONTENT_TYPES, fileResponse } from "~/http/file-response.server";
import { parseReportState } from "~/features/returns";
import { returnsPdf, listPapers } from "~/features/returns/index.server";
import { today } from "~/lib/dates";

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireRetailer(request, context);
  const state = routeParam(params, "reportState", parseReportState);
  const papers = await listPapers(user.customerId, state);
  const pdf = await returnsPdf({ customer: { id: user.customerId, name: user.name }, state, date: today(), papers });
  return fileResponse(pdf, "Returer.pdf", CONTENT_TYPES.pdf);
}
