// Svar per helgdag as Excel: the screen's filters, search and order, every row; Swedish headings.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireStaff } from "~/auth/guards.server";
import { customerScope } from "~/features/customers/index.server";
import { getHolidayForReport, holidayAnswerList, readHolidayAnswerView, type HolidayReportRow } from "~/features/holidays/index.server";
import { CONTENT_TYPES, fileResponse } from "~/http/file-response.server";
import { routeParam } from "~/http/params";
import { parseId } from "~/lib/ids";
import { xlsxStream, type XlsxColumn } from "~/lib/xlsx.server";

const COLUMNS: XlsxColumn<HolidayReportRow>[] = [
  { header: "Kundnummer", type: "count", value: (r) => r.customerId },
  { header: "Namn", width: 32, value: (r) => r.name },
  { header: "Ort", width: 18, value: (r) => r.city },
  { header: "Distributör", width: 28, value: (r) => r.distributor },
  { header: "Svar", width: 12, value: (r) => r.answer },
  { header: "Svarat", type: "datetime", width: 18, value: (r) => r.answeredAt },
];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const user = await requireStaff(request, context, ["admin", "sales", "utb"]);
  const id = routeParam(params, "id", (raw) => parseId(raw ?? null), "Helgdagen finns inte.");
  const holiday = await getHolidayForReport(id);
  if (!holiday) throw new Response("Helgdagen finns inte.", { status: 404 });
  const rows = await holidayAnswerList(id, customerScope(user), readHolidayAnswerView(request));
  return fileResponse(xlsxStream("Svar", COLUMNS, rows), `helgsvar-${holiday.day}.xlsx`, CONTENT_TYPES.xlsx);
}
