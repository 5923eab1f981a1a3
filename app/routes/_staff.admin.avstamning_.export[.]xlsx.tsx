// Avstämning as Excel (decision 033): the screen's rows and total, copies and kronor per column.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireStaff } from "~/auth/guards.server";
import { reconcileElsewhere, type ReconcileRow } from "~/features/invoices/index.server";
import { CONTENT_TYPES, fileResponse } from "~/http/file-response.server";
import { today } from "~/lib/dates";
import { checkedPeriod, preset } from "~/lib/period";
import { param, readSearch } from "~/lib/search-params";
import { xlsxStream, type XlsxColumn } from "~/lib/xlsx.server";

const FIGURES = [
  ["delivered", "Levererat"],
  ["returnedInTime", "Returer i tid"],
  ["returnedLate", "Sena returer"],
  ["claims", "Godkända reklamationer"],
  ["billed", "Fakturerat"],
  ["credited", "Krediterat"],
  ["pending", "Krediteras på nästa faktura"],
  ["difference", "Differens"],
  ["creditNotes", "Kreditfakturor"],
] as const;

const COLUMNS: XlsxColumn<ReconcileRow>[] = [
  { header: "Titel", width: 28, value: (r) => r.label },
  ...FIGURES.flatMap(([key, label]): XlsxColumn<ReconcileRow>[] => [
    { header: `${label} (ex)`, type: "count", value: (r) => r[key].copies },
    { header: `${label} (kr)`, type: "amount", value: (r) => r[key].ore / 100 },
  ]),
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, ["admin"]);
  const view = checkedPeriod(readSearch(request, { period: param.period() }).period, preset("forramanaden", today()));
  if (view.errors) throw new Response(Object.values(view.errors).join(" "), { status: 400 });
  const result = await reconcileElsewhere(view.period, context.portal);
  async function* rows() {
    yield* result.rows;
    yield result.total;
  }
  return fileResponse(xlsxStream("Avstämning", COLUMNS, rows()), `avstamning-${result.from}-${result.to}.xlsx`, CONTENT_TYPES.xlsx);
}
