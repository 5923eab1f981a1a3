// Every invoice of one invoice run as Excel (docs/decisions/023-month-end-preview.md): one row per invoice, as the
// invoices themselves say it (the buyer's name as recorded), with its OCR reference.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireStaff } from "~/auth/guards.server";
import { PAPER_TYPE_HEADING } from "~/catalog";
import { ocrReference } from "~/features/invoices";
import { getInvoiceRun, runInvoices, type RunInvoiceRow } from "~/features/invoices/index.server";
import { CONTENT_TYPES, fileResponse } from "~/http/file-response.server";
import { routeParam } from "~/http/params";
import { parseId } from "~/lib/ids";
import { xlsxStream, type XlsxColumn } from "~/lib/xlsx.server";

const COLUMNS: XlsxColumn<RunInvoiceRow>[] = [
  { header: "Fakturanummer", type: "count", width: 14, value: (r) => r.number },
  { header: "OCR-nummer", width: 14, value: (r) => ocrReference(r.number) },
  { header: "Kundnummer", type: "count", value: (r) => r.customerId },
  { header: "Kund", width: 32, value: (r) => r.name },
  { header: "Avser", width: 16, value: (r) => PAPER_TYPE_HEADING[r.paperType] ?? String(r.paperType) },
  { header: "Fakturadatum", type: "date", width: 13, value: (r) => r.date },
  { header: "Förfallodatum", type: "date", width: 13, value: (r) => r.dueDate },
  { header: "Netto (kr)", type: "amount", value: (r) => r.netOre / 100 },
  { header: "Moms (kr)", type: "amount", value: (r) => r.vatOre / 100 },
  { header: "Att betala (kr)", type: "amount", width: 16, value: (r) => r.amountOre / 100 },
];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireStaff(request, context, ["admin"]);
  const id = routeParam(params, "id", (raw) => parseId(raw ?? null), "Körningen finns inte.");
  const run = await getInvoiceRun(id);
  if (!run) throw new Response("Körningen finns inte.", { status: 404 });
  return fileResponse(xlsxStream("Fakturor", COLUMNS, await runInvoices(run)), `fakturor-${run.periodFrom}-${run.periodTo}-korning-${run.id}.xlsx`, CONTENT_TYPES.xlsx);
}
