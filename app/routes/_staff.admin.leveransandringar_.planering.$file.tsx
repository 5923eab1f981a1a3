// GET /admin/leveransandringar/planering/{id}.xlsx: one export to planning (decision 037) as
// Excel, made again from the changes it holds, as often as it is fetched. A utb user gets
// their own distributor's rows of it; an export with none of them is answered as unknown.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireStaff } from "~/auth/guards.server";
import { scopeFor } from "~/features/distribution/index.server";
import { supplyExportRows, type PlanningRow } from "~/features/supply/index.server";
import { CONTENT_TYPES, fileResponse } from "~/http/file-response.server";
import { routeParam } from "~/http/params";
import { xlsxStream, type XlsxColumn } from "~/lib/xlsx.server";

const COLUMNS: XlsxColumn<PlanningRow>[] = [
  { header: "Kundnummer", type: "count", value: (r) => r.customerId },
  { header: "Kund", width: 32, value: (r) => r.customerName },
  { header: "Tidning", width: 24, value: (r) => r.paper },
  { header: "Veckodag eller datum", width: 18, value: (r) => r.when },
  { header: "Gammalt antal", type: "count", value: (r) => r.oldCopies },
  { header: "Nytt antal", type: "count", value: (r) => r.newCopies },
  { header: "Startdatum", type: "date", value: (r) => r.startDate },
  { header: "Beslutat av", width: 28, value: (r) => r.decidedBy },
  { header: "Anledning", width: 48, value: (r) => r.reason },
];

const xlsxNumber = (raw: string | undefined): number | null => {
  const m = /^(\d{1,9})\.xlsx$/.exec(raw ?? "");
  return m ? Number(m[1]) : null;
};

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const user = await requireStaff(request, context, ["admin", "sales", "utb"]);
  const id = routeParam(params, "file", xlsxNumber, "Exporten finns inte.");
  const found = await supplyExportRows(id, scopeFor(user));
  if (!found) throw new Response("Exporten finns inte.", { status: 404 });
  return fileResponse(xlsxStream("Leveransändringar", COLUMNS, found.rows), `leveransandringar-export-${id}.xlsx`, CONTENT_TYPES.xlsx);
}
