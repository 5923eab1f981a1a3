// Payout file downloads (POST, since every file produced is audited). The answer
// is the file, or a redirect back to Garantibelopp with the spec's toast.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireStaff } from "~/auth/guards.server";
import { redirectWithToast } from "~/auth/session.server";
import { PayoutFileSchema } from "~/features/guarantees";
import { keptPayoutFile, payoutCsvFiles, underlagFiles, type PayoutFile } from "~/features/guarantees/index.server";
import { fileResponse } from "~/http/file-response.server";
import { handleForm } from "~/http/form.server";
import { isRefusal } from "~/lib/refusal";

// Guarded like every loader, so a visitor learns nothing about the route before logging in.
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, ["admin"]);
  throw new Response("Använd knapparna på sidan Garantibelopp.", { status: 405 });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireStaff(request, context, ["admin"]);
  // A file route, no form to show errors on: a body that is not one of the buttons is a plain 400.
  const unknownButton = () => new Response("Okänd åtgärd.", { status: 400 });
  return handleForm(
    request,
    PayoutFileSchema,
    async (v) => {
      let files: PayoutFile[];
      try {
        if (v.intent === "kept") {
          const kept = await keptPayoutFile(user.actor, v.fil);
          if (!kept) return redirectWithToast(request, "/admin/guarantees", "Filen finns inte.");
          return fileResponse(kept.content, kept.filename, kept.contentType);
        }
        if (v.intent === "underlag-customer") files = await underlagFiles(user.actor, { customerId: v.kund });
        else if (v.intent === "csv" || v.intent === "pain001") files = await payoutCsvFiles(user.actor, { ledger: v.ledger, week: v.week }, undefined, v.intent);
        else files = await underlagFiles(user.actor, { ledger: v.ledger, week: v.week });
      } catch (e) {
        // A payout missing a detail: the spec's toast ('Vänligen fyll i alla obligatoriska fält!').
        if (isRefusal(e)) return redirectWithToast(request, "/admin/guarantees", e.message);
        console.error(e);
        return redirectWithToast(request, "/admin/guarantees", v.intent === "csv" || v.intent === "pain001" ? "Misslyckades med att hämta utbetalningsfiler." : "Misslyckades med att hämta underlag.");
      }
      const file = files[0];
      if (!file) return redirectWithToast(request, "/admin/guarantees", "Det finns inga utbetalningar för den tidningen.");
      return fileResponse(file.content, file.filename, file.contentType);
    },
    { whenInvalid: unknownButton },
  );
}
