// A recall's follow-up as Excel (decision 036): one row per shop it reaches, acknowledged
// or not, with phone number, copies delivered, taken off the shelf and returned; a utb
// user's file holds their distributor's shops only.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireStaff } from "~/auth/guards.server";
import { scopeFor } from "~/features/distribution/index.server";
import { RECALL_TEXTS } from "~/features/recalls";
import { recallFollowUp, type RecallCustomerRow } from "~/features/recalls/index.server";
import { CONTENT_TYPES, fileResponse } from "~/http/file-response.server";
import { routeParam } from "~/http/params";
import { parseId } from "~/lib/ids";
import { xlsxStream, type XlsxColumn } from "~/lib/xlsx.server";

const COLUMNS: XlsxColumn<RecallCustomerRow>[] = [
  { header: "Distributör", width: 24, value: (c) => c.distributorName ?? "Utan distributör" },
  { header: "Kundnr", type: "count", value: (c) => c.customerId },
  { header: "Namn", width: 28, value: (c) => c.name },
  { header: "Telefon", width: 16, value: (c) => c.phone },
  { header: "Levererat (ex)", type: "count", value: (c) => c.delivered },
  { header: "Bekräftad", type: "datetime", width: 18, value: (c) => c.acknowledgedAt },
  { header: "Borttagna (ex)", type: "count", value: (c) => c.removed },
  { header: "Returnerade (ex)", type: "count", value: (c) => c.returned },
];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const user = await requireStaff(request, context, ["admin", "sales", "utb"]);
  const id = routeParam(params, "id", parseId, "Återkallelsen finns inte.");
  const follow = await recallFollowUp(id, scopeFor(user));
  if (!follow) throw new Response(RECALL_TEXTS.notFound(id), { status: 404 });
  return fileResponse(xlsxStream("Återkallelse", COLUMNS, [...follow.waiting, ...follow.acknowledged]), `aterkallelse-${id}.xlsx`, CONTENT_TYPES.xlsx);
}
