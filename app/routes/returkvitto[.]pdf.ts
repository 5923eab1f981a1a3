// 'Skriv ut dagens returer': the returns slip of today (decision 038), every bundle the
// shop reported into today with its papers and copies. A resource route outside the
// retailer layout, so it guards itself.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireRetailer } from "~/auth/guards.server";
import { CONTENT_TYPES, fileResponse } from "~/http/file-response.server";
import { returnsOfDay } from "~/features/bundles/index.server";
import { returnsSlipPdf } from "~/features/returns/index.server";
import { formatLongDate, today } from "~/lib/dates";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireRetailer(request, context);
  const day = today();
  const bundles = await returnsOfDay(user.customerId, day);
  const pdf = await returnsSlipPdf({ customer: { id: user.customerId, name: user.name }, title: "Returer", subtitle: `Rapporterat ${formatLongDate(day)}`, bundles });
  return fileResponse(pdf, `Returer-${day}.pdf`, CONTENT_TYPES.pdf);
}
