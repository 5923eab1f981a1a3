// Leveransreklamation per utb as Excel: every complaint row of the screen's period and
// order, for the chosen distributor or (without one) every distributor the user may see.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireStaff } from "~/auth/guards.server";
import { claimStatusText } from "~/features/deliveries";
import { allComplaintRows, readComplaintView, type ComplaintRow } from "~/features/deliveries/index.server";
import { scopeFor } from "~/features/distribution/index.server";
import { CONTENT_TYPES, fileResponse } from "~/http/file-response.server";
import { today } from "~/lib/dates";
import { xlsxStream, type XlsxColumn } from "~/lib/xlsx.server";

const COLUMNS: XlsxColumn<ComplaintRow>[] = [
  { header: "Datum", type: "date", value: (r) => r.deliveryDate },
  { header: "Kundnummer", type: "count", value: (r) => r.customerId },
  { header: "Kund", width: 32, value: (r) => r.customerName },
  { header: "Distributör", width: 28, value: (r) => r.distributorName },
  { header: "Tidning", width: 20, value: (r) => r.paperName },
  { header: "Följesedel", type: "count", value: (r) => r.delivered },
  { header: "Mottagit", type: "count", value: (r) => r.received },
  { header: "Differens", type: "count", value: (r) => r.difference },
  { header: "Summa (kr)", type: "amount", value: (r) => r.priceOre / 100 },
  // The claim (decision 031): its number and where it stands.
  { header: "Reklamation", type: "count", value: (r) => r.claim?.id ?? null },
  { header: "Status", width: 30, value: (r) => (r.claim ? claimStatusText(r.claim) : null) },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireStaff(request, context, ["admin", "sales", "utb"]);
  const scope = scopeFor(user);
  const view = readComplaintView(request, scope, today());
  if (view.errors) throw new Response(Object.values(view.errors).join(" "), { status: 400 });
  if (view.forbidden) throw new Response("Du har inte behörighet till den distributören.", { status: 403 });
  if (view.unknown) throw new Response("Distributören finns inte.", { status: 404 });
  const distributorIds = view.distributorId !== null ? [view.distributorId] : scope.distributorIds;
  const suffix = view.distributorId !== null ? `-utb${view.distributorId}` : "";
  return fileResponse(
    xlsxStream("Leveransreklamation", COLUMNS, allComplaintRows(distributorIds, view.period, view.sort)),
    `leveransreklamation-${view.period.from}-${view.period.to}${suffix}.xlsx`,
    CONTENT_TYPES.xlsx,
  );
}
