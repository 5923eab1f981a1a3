import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireRetailer } from "~/auth/guards.server";
import { contentDisposition } from "~/content-disposition.server";
import { renderJournalPdf } from "~/documents/journal-pdf.server";
import { today } from "~/domain/dates";
import { journalMonth, parseMonth } from "~/domain/deliveries.server";

// GET /journal.pdf?manad=YYYY-MM (default: this month): the newspaper journal.
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRetailer(request);
  const asked = new URL(request.url).searchParams.get("manad");
  const month = asked === null || asked === "" ? today().slice(0, 7) : parseMonth(asked);
  if (!month) throw new Response("Ogiltig månad.", { status: 400 });
  const editions = await journalMonth(user.customerId, month);
  const pdf = await renderJournalPdf({ month, customerId: user.customerId, customerName: user.name, editions });
  return new Response(Buffer.from(pdf), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": contentDisposition(`tidningsjournal-${month}.pdf`),
      "Cache-Control": "private, no-store",
    },
  });
}
