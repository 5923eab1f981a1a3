import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, redirect, useActionData, useLoaderData } from "@remix-run/react";
import { requireRetailer } from "~/auth/guards.server";
import { refuseWhenBusy } from "~/http/busy.server";
import { handleForm } from "~/http/form.server";
import { today } from "~/lib/dates";
import { emergencyLabelsSchema } from "~/features/labels";
import { EMERGENCY_MAX, EMERGENCY_MIN, newFormToken, orderEmergencyLabels } from "~/features/labels/index.server";
import { useContractForm } from "~/ui/form";
import { replyError, replyValue } from "~/ui/form-reply";
import { CsrfInput } from "~/ui/csrf";

export const meta: MetaFunction = () => [{ title: "Skriv ut nödetiketter – Returportalen" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireRetailer(request, context);
  // A fresh token per page view: a resubmitted form allocates nothing new.
  return { token: newFormToken(), min: EMERGENCY_MIN, max: EMERGENCY_MAX };
}

/**
 * Allocates the numbers, then sends the browser to the PDF of that allocation.
 * The redirect (rather than the PDF as the POST's own answer) lets a Remix
 * document POST download the file, and a failed download can be fetched again
 * without allocating new numbers.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireRetailer(request, context);
  return handleForm(request, emergencyLabelsSchema, async ({ antal, token }) => {
    const block = await refuseWhenBusy(() => orderEmergencyLabels(user.customerId, antal, today(), token || undefined));
    return redirect(`/nodetiketter/${block.id}.pdf`);
  });
}

export default function EmergencyLabels() {
  const { token, min, max } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const [form, fields] = useContractForm(emergencyLabelsSchema, { id: "nodetiketter", lastResult: reply });
  // The count's message (the schema's, in the browser or from the server) or the rules' (a limit, busy).
  const error = fields.antal.errors?.[0] ?? replyError(reply);
  const antal = replyValue(reply, "antal");
  const choices = Array.from({ length: max - min + 1 }, (_, i) => String(min + i));
  return (
    <>
      <h1>Skriv ut nödetiketter</h1>
      <p className="intro">
        Har returetiketterna tagit slut? Välj hur många etiketter du behöver och tryck Hämta etiketter. Du får en PDF att skriva
        ut på A4, med en etikett per sida och ett nytt buntnummer på varje etikett.
      </p>
      {/* reloadDocument: the answer is a file download, not a page. */}
      <Form method="post" reloadDocument className="card form-card" id={form.id} onSubmit={form.onSubmit} noValidate>
        <CsrfInput />
        <input type="hidden" name="token" value={token} />
        <div className="field">
          <label htmlFor="antal">Antal etiketter</label>
          <select
            id="antal"
            name="antal"
            defaultValue={antal && choices.includes(antal) ? antal : "1"}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "antal-fel" : undefined}
          >
            {choices.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
          {error ? (
            <div id="antal-fel" className="field-error" role="alert">
              {error}
            </div>
          ) : null}
        </div>
        <button type="submit" className="primary">
          Hämta etiketter
        </button>
      </Form>
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
