import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, data, redirect, useActionData, useLoaderData } from "@remix-run/react";
import { requireRetailer } from "~/auth/guards.server";
import { BUSY_MESSAGE, busyReply, isDatabaseBusy } from "~/http/busy.server";
import { today } from "~/lib/dates";
import { EMERGENCY_MAX, EMERGENCY_MIN, LabelLimitError, checkEmergencyCount, newFormToken, orderEmergencyLabels } from "~/features/labels/index.server";
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
  const form = await request.formData();
  const antal = String(form.get("antal") ?? "");
  const check = checkEmergencyCount(antal);
  if (!check.ok) return data({ antal, error: check.error }, { status: 400 });
  const token = String(form.get("token") ?? "") || undefined;
  try {
    const block = await orderEmergencyLabels(user.customerId, check.value, today(), token);
    return redirect(`/nodetiketter/${block.id}.pdf`);
  } catch (error) {
    if (error instanceof LabelLimitError) return data({ antal, error: error.message }, { status: 429 });
    if (isDatabaseBusy(error)) return busyReply({ antal, error: BUSY_MESSAGE });
    throw error;
  }
}

export default function EmergencyLabels() {
  const { token, min, max } = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  const choices = Array.from({ length: max - min + 1 }, (_, i) => String(min + i));
  return (
    <>
      <h1>Skriv ut nödetiketter</h1>
      <p className="intro">
        Har returetiketterna tagit slut? Välj hur många etiketter du behöver och tryck Hämta etiketter. Du får en PDF att skriva
        ut på A4, med en etikett per sida och ett nytt buntnummer på varje etikett.
      </p>
      {/* reloadDocument: the answer is a file download, not a page. */}
      <Form method="post" reloadDocument className="card form-card">
        <CsrfInput />
        <input type="hidden" name="token" value={token} />
        <div className="field">
          <label htmlFor="antal">Antal etiketter</label>
          <select
            id="antal"
            name="antal"
            defaultValue={failed?.antal && choices.includes(failed.antal) ? failed.antal : "1"}
            aria-invalid={failed ? true : undefined}
            aria-describedby={failed ? "antal-fel" : undefined}
          >
            {choices.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
          {failed ? (
            <div id="antal-fel" className="field-error" role="alert">
              {failed.error}
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
