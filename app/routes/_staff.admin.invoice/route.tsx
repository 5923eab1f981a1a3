// Fakturering (back-office 9): extra invoice lines (Fakturaposter) and uploaded order
// files (Exponeringsutrustning), as two tabs in the URL (?flik=…). Every form of the
// screen posts here and is told apart by its intent (InvoiceActionSchema).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, Link, useLoaderData } from "@remix-run/react";
import type { Submission } from "@conform-to/react";
import { requireStaff } from "~/auth/guards.server";
import { redirectWithToast } from "~/auth/session.server";
import { PAGE_SIZES } from "~/catalog";
import type { Actor } from "~/features/audit/index.server";
import { InvoiceActionSchema } from "~/features/invoices";
import { isRefusal } from "~/lib/refusal";
import {
  applyOrders,
  checkOrdersFile,
  deleteDraft,
  deleteOrderFile,
  deleteOrderLine,
  deleteWaiting,
  getDraft,
  listDrafts,
  listOrderFiles,
  listWaiting,
  refusedOrderLines,
  saveDraft,
  sendDrafts,
  transferOrders,
} from "~/features/invoices/index.server";
import { handleForm } from "~/http/form.server";
import { MAX_CSV_BYTES } from "~/http/uploads.server";
import { TabStrip } from "~/ui/tabs";
import { InvoiceLinesTab } from "./lines-tab";
import { OrdersTab } from "./orders-tab";
import { param, readSearch } from "~/lib/search-params";

export const meta: MetaFunction = () => [{ title: "Fakturering – Returportalen" }];

const TABS = [
  { id: "poster", label: "Fakturaposter" },
  { id: "expo", label: "Exponeringsutrustning" },
] as const;

const INVOICE_SEARCH = {
  flik: param.oneOf(["poster", "expo"], "poster"),
  /** Rows per page of Poster som väntar på fakturering: one of PAGE_SIZES, or all. */
  per: param.oneOf(["alla", ...PAGE_SIZES.map(String)] as [string, ...string[]], "10"),
  sida: param.page(),
  redigera: param.id(),
  ny: param.maybeOneOf(["1"]),
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireStaff(request, context, ["admin"]);
  const { flik: tab, per: perParam, sida: page, redigera: editId, ny } = readSearch(request, INVOICE_SEARCH);
  if (tab === "expo") return { tab, files: await listOrderFiles(), drafts: [], editing: null, waiting: null, per: "10", page: 1, adding: false };
  const per = perParam === "alla" ? null : Number(perParam);
  const [drafts, waiting, editing] = await Promise.all([
    listDrafts(user.staffId),
    listWaiting(page, per),
    editId !== null ? getDraft(user.staffId, editId) : null,
  ]);
  return { tab, files: [], drafts, waiting, editing, per: per === null ? "alla" : String(per), page, adding: ny === "1" || !!editing };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireStaff(request, context, ["admin"]);
  const actor = user.actor;
  return handleForm(
    request,
    InvoiceActionSchema,
    async (value, submission) => {
    switch (value.intent) {
      case "save-line": {
        const { intent: _intent, id, ...line } = value;
        await saveDraft(user.staffId, line, actor, id ?? undefined);
        return redirectWithToast(request, "/admin/invoice", "Raden har lagts till i listan.");
      }
      case "delete-draft":
        if (value.id === null || !(await deleteDraft(user.staffId, value.id, actor))) return redirectWithToast(request, "/admin/invoice", "Raden var redan borttagen.");
        return redirectWithToast(request, "/admin/invoice", "Raden borttagen.");
      case "send": {
        const sent = await sendDrafts(user.staffId, actor);
        return redirectWithToast(request, "/admin/invoice", sent ? `${sent.count} rader skickade till fakturering.` : "Det finns inga rader att skicka.");
      }
      case "delete-waiting":
        if (value.id === null || !(await deleteWaiting(value.id, actor))) return redirectWithToast(request, "/admin/invoice", "Raden finns inte längre (borttagen eller fakturerad).");
        return redirectWithToast(request, "/admin/invoice", "Raden borttagen.");
      case "upload":
        return uploadOrders(request, value.file, submission, actor);
      case "transfer":
        try {
          await transferOrders(actor);
        } catch (e) {
          console.error(e);
          return redirectWithToast(request, "/admin/invoice?flik=expo", "Något gick fel vid Överföring till fakturering");
        }
        return redirectWithToast(request, "/admin/invoice?flik=expo", "Framgång! Överföring till fakturering lyckades.");
      case "delete-order":
        if (value.id === null || !(await deleteOrderLine(value.id, actor))) return redirectWithToast(request, "/admin/invoice?flik=expo", "Raden finns inte längre (borttagen eller fakturerad).");
        return redirectWithToast(request, "/admin/invoice?flik=expo", "Raden borttagen.");
      case "delete-order-file": {
        if (value.id === null) return redirectWithToast(request, "/admin/invoice?flik=expo", "Filen var redan borttagen.");
        const n = await deleteOrderFile(value.id, actor);
        return redirectWithToast(request, "/admin/invoice?flik=expo", n > 0 ? `Filens ${n} rader borttagna.` : "Filen var redan borttagen.");
      }
    }
    },
    // A file over the limit: said on the file field, everything else kept (400-class, 413).
    { uploadBytes: MAX_CSV_BYTES, tooLargeMessage: (m) => `Fel: ${m}` },
  );
}

const BAD_ROWS = "Fel: Filen har felaktiga rader. Inget har sparats.";

/** The file's error answer: the message first, then the refused lines, all on the file field. */
function uploadRefused(submission: Submission<unknown>, messages: string[], status = 400) {
  return data(submission.reply({ fieldErrors: { file: messages }, hideFields: ["file"] }), { status });
}

async function uploadOrders(request: Request, file: File, submission: Submission<unknown>, actor: Actor) {
  const problemText = (ps: { line: number; column: string; reason: string }[]) => ps.map((p) => `Rad ${p.line}: ${p.column}: ${p.reason}`);
  try {
    // The name and the content: UTF-8 or Windows-1252 text, `;` or `,`.
    const { rows } = await checkOrdersFile(new Uint8Array(await file.arrayBuffer()), file.name);
    const { count } = await applyOrders(rows, file.name.slice(0, 200), actor);
    return redirectWithToast(request, "/admin/invoice?flik=expo", `Framgång! ${count} beställningar har bearbetats`);
  } catch (e) {
    // Bad lines, found by the check or (another upload made a line invoiced or a customer
    // gone since) by the write: every line at once; a file that is no CSV: its own words.
    const lines = refusedOrderLines(e);
    if (lines) return uploadRefused(submission, [BAD_ROWS, ...problemText(lines)]);
    if (isRefusal(e, "invalid")) return uploadRefused(submission, [e.message]);
    // Anything else (a busy database, a bug) is handleForm's and the error page's to answer.
    throw e;
  }
}

export default function InvoiceAdmin() {
  const loaded = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Fakturering</h1>
      <p>
        <Link to="/admin/invoice/korning">Fakturakörning och historik</Link>
      </p>
      <TabStrip tabs={TABS} current={loaded.tab} label="Flikar" />
      {loaded.tab === "expo" ? <OrdersTab files={loaded.files} /> : <InvoiceLinesTab {...loaded} />}
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
