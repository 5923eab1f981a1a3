import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireRetailer } from "~/auth/guards.server";
import { CONTENT_TYPES, fileResponse } from "~/http/file-response.server";
import { renderJournalPdf, journalMonth, parseMonth } from "~/features/deliveries/index.server";
import { today } from "~/lib/dates";
import { param, readSearch } from "~/lib/search-params";

// GET /journal.pdf?manad=YYYY-MM (default: this month): the newspaper journal.
const JOURNAL_SEARCH = { manad: param.typed(20) };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireRetailer(request, context);
  const { manad } = readSearch(request, JOURNAL_SEARCH);
  const month = manad === null || manad === "" ? today().slice(0, 7) : parseMonth(manad);
  if (!month) throw new Response("Ogiltig månad.", { status: 400 });
  const editions = await journalMonth(user.customerId, month);
  const pdf = await renderJournalPdf({ month, customerId: user.customerId, customerName: user.name, editions });
  return fileResponse(pdf, `tidningsjournal-${month}.pdf`, CONTENT_TYPES.pdf);
}
