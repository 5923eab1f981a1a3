// 'Skriv ut buntinnehåll' on Sök buntinnehåll: one bundle's content (decision 038), every
// paper in it with its copies and the total. Another customer's number answers as unknown.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { BUNDLE_NUMBER } from "~/catalog";
import { requireRetailer } from "~/auth/guards.server";
import { CONTENT_TYPES, fileResponse } from "~/http/file-response.server";
import { getBundle } from "~/features/bundles/index.server";
import { returnsSlipPdf } from "~/features/returns/index.server";
import { formatLongDate, today } from "~/lib/dates";
import { routeParam } from "~/http/params";

const NOT_FOUND = "Kan inte hitta bunten.";

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireRetailer(request, context);
  const number = routeParam(params, "bunt", (raw) => (raw && BUNDLE_NUMBER.test(raw) ? Number(raw) : null), NOT_FOUND);
  const bundle = await getBundle(user.customerId, number);
  if (!bundle) throw new Response(NOT_FOUND, { status: 404 });
  const subtitle = `${bundle.open ? "Öppen" : `Stängd ${bundle.closedDate ?? ""}`.trim()}, utskrivet ${formatLongDate(today())}`;
  const pdf = await returnsSlipPdf({ customer: { id: user.customerId, name: user.name }, title: `Buntinnehåll bunt ${bundle.number}`, subtitle, bundles: [bundle] });
  return fileResponse(pdf, `Bunt-${bundle.number}.pdf`, CONTENT_TYPES.pdf);
}
