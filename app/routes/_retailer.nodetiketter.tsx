import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, redirect, useActionData, useLoaderData } from "@remix-run/react";
import { requireRetailer } from "~/auth/guards.server";
import { handleForm } from "~/http/form.server";
import { today } from "~/lib/dates";
import { emergencyLabelsSchema } from "~/features/labels";
import { EMERGENCY_MAX, EMERGENCY_MIN, LABEL_TYPE, getBlock, newFormToken, orderEmergencyLabels } from "~/features/labels/index.server";
import { replyError, replyValue } from "~/ui/form-reply";
import { CsrfInput } from "~/ui/csrf";
import { param, readSearch } from "~/lib/search-params";

export const meta: MetaFunction = () => [{ title: "Skriv ut nödetiketter – Returportalen" }];

const LABEL_SEARCH = { order: param.id() };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireRetailer(request, context);
  // The result of an order (?order={block}): its numbers and its PDF; only the customer's own emergency labels.
  const orderId = readSearch(request, LABEL_SEARCH).order;
  const found = orderId !== null ? await getBlock(user.customerId, orderId) : null;
  const order = found && found.type === LABEL_TYPE.emergency ? { id: found.id, fromNumber: found.fromNumber, toNumber: found.toNumber } : null;
  // A fresh token per page view: a resubmitted form allocates nothing new, the next order from the result page is new.
  return { token: newFormToken(), min: EMERGENCY_MIN, max: EMERGENCY_MAX, order };
}

/**
 * Allocates the numbers, then sends the browser to the result page (Post/Redirect/Get):
 * it names the numbers, links their PDF (fetched again without allocating anything) and
 * carries a fresh form, so a second order from it gets new numbers while the same form
 * sent twice (double click, retry) still gets the one order.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireRetailer(request, context);
  return handleForm(request, emergencyLabelsSchema, async ({ antal, token }) => {
    const block = await orderEmergencyLabels(user.customerId, antal, today(), token || undefined);
    return redirect(`/nodetiketter?order=${block.id}`);
  });
}

export default function EmergencyLabels() {
  const { token, min, max, order } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  // The count's message (the server's schema) or the rules' (a limit, busy). A select of the
  // allowed counts needs no checking in the browser, and no form library keeps the page
  // under 100 KB of JavaScript.
  const error = replyError(reply, "antal") ?? replyError(reply);
  const antal = replyValue(reply, "antal");
  const choices = Array.from({ length: max - min + 1 }, (_, i) => String(min + i));
  return (
    <>
      <h1>Skriv ut nödetiketter</h1>
      <p className="intro">
        Har returetiketterna tagit slut? Välj hur många etiketter du behöver och tryck Hämta etiketter. Du får en PDF att skriva
        ut på A4, med en etikett per sida och ett nytt buntnummer på varje etikett.
      </p>
      {order ? (
        <section className="card dialog-section" aria-labelledby="order-heading" role="status">
          <h2 id="order-heading">Dina nödetiketter är klara</h2>
          <p>
            Buntnummer:{" "}
            <strong className="series">
              {order.fromNumber} - {order.toNumber}
            </strong>
          </p>
          <p className="actions">
            <a className="button primary" href={`/nodetiketter/${order.id}.pdf`} download="nodetiketter.pdf">
              Ladda ner etiketterna (PDF)
            </a>
          </p>
          <p>Behöver du fler etiketter? Välj antal nedan och tryck Hämta etiketter igen; du får nya buntnummer.</p>
        </section>
      ) : null}
      <Form method="post" className="card form-card" noValidate>
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
