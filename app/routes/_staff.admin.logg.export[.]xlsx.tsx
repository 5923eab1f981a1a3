// The audit log as Excel, with the screen's filters: Swedish headings, each event in
// the screen's words and the target by name, the time as a date-time, written while it is
// sent; the technical code and detail last, as the screen folds them.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireStaff } from "~/auth/guards.server";
import { actionGroupLabel, auditRows, readAuditQuery, type AuditRow } from "~/features/audit/index.server";
import { actorText, eventText, targetText } from "~/features/audit";
import { CONTENT_TYPES, fileResponse } from "~/http/file-response.server";
import { today } from "~/lib/dates";
import { xlsxStream, type XlsxColumn } from "~/lib/xlsx.server";

const COLUMNS: XlsxColumn<AuditRow>[] = [
  { header: "Tid", type: "datetime", width: 18, value: (r) => r.at },
  { header: "Vem", width: 28, value: (r) => actorText(r) },
  { header: "Händelse", width: 50, value: (r) => eventText(r) },
  { header: "Händelsetyp", width: 30, value: (r) => actionGroupLabel(r.action) },
  { header: "Gäller", width: 36, value: (r) => (r.target ? targetText(r) : "") },
  // What the screen folds under "tekniska detaljer": the event's code and its stored detail.
  { header: "Kod", width: 24, value: (r) => r.action },
  { header: "Tekniska detaljer", width: 50, value: (r) => r.detail },
  { header: "IP-adress", width: 16, value: (r) => r.ip },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, ["admin"]);
  const { query, periodError } = readAuditQuery(request);
  if (periodError) throw new Response(periodError, { status: 400 });
  return fileResponse(xlsxStream("Logg", COLUMNS, auditRows(query)), `logg-${today()}.xlsx`, CONTENT_TYPES.xlsx);
}
