// Payout file downloads (POST, since every file produced is audited). The answer
// is the file, or a redirect back to Garantibelopp with the spec's toast.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireStaff } from "~/auth/guards.server";
import { redirectWithToast } from "~/auth/session.server";
import { contentDisposition } from "~/http/content-disposition.server";
import { INCOMPLETE, PayoutIncompleteError, payoutCsvFiles, underlagFiles, type PayoutFile } from "~/features/guarantees/index.server";

// Guarded like every loader, so a visitor learns nothing about the route before logging in.
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, ["admin"]);
  throw new Response("Använd knapparna på sidan Garantibelopp.", { status: 405 });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireStaff(request, context, ["admin"]);
  const actor = user.actor;
  const form = await request.formData();
  const intent = form.get("intent");
  const ledger = Number(form.get("ledger"));
  let files: PayoutFile[];
  try {
    if (intent === "csv") files = await payoutCsvFiles(actor, { ledger });
    else if (intent === "underlag") files = await underlagFiles(actor, { ledger });
    else if (intent === "underlag-customer") files = await underlagFiles(actor, { customerId: Number(form.get("kund")) });
    else throw new Response("Okänd åtgärd.", { status: 400 });
  } catch (e) {
    if (e instanceof Response) throw e;
    if (e instanceof PayoutIncompleteError) return redirectWithToast(request, "/admin/guarantees", INCOMPLETE);
    console.error(e);
    return redirectWithToast(
      request,
      "/admin/guarantees",
      intent === "csv" ? "Misslyckades med att hämta utbetalningsfiler." : "Misslyckades med att hämta underlag.",
    );
  }
  const file = files[0];
  if (!file) return redirectWithToast(request, "/admin/guarantees", "Det finns inga utbetalningar för den tidningen.");
  return new Response(typeof file.content === "string" ? file.content : Buffer.from(file.content), {
    headers: {
      "Content-Type": file.contentType,
      "Content-Disposition": contentDisposition(file.filename),
      "Cache-Control": "no-store",
    },
  });
}
