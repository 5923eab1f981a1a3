import { routeParam } from "~/http/params";
import { PAPER_TYPE_HEADING } from "~/catalog";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, data, useActionData, useFetcher, useLoaderData, useNavigate } from "@remix-run/react";
import { useEffect } from "react";
import { requireRetailer } from "~/auth/guards.server";
import { redirectWithToast } from "~/auth/session.server";
import { bundleDecisionsSchema, decisionField, shownBundles, typeField } from "~/features/bundles";
import { parseReportState } from "~/features/returns";
import { decideBundles, listOpenBundles } from "~/features/bundles/index.server";
import { handleForm } from "~/http/form.server";
import { today } from "~/lib/dates";
import { isFormReply, replyError, replyValue } from "~/ui/form-reply";
import { BundleProgress } from "~/ui/bundle-progress";
import { UrlDialog } from "~/ui/url-dialog";
import { useHydrated } from "~/ui/use-hydrated";
import { CsrfInput } from "~/ui/csrf";

/** Spec 4/9: save and close dialogs close 1.5 s after success. */
const CLOSE_DELAY_MS = 1500;

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireRetailer(request, context);
  const state = routeParam(params, "reportState", parseReportState);
  return { state, bundles: await listOpenBundles(user.customerId) };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const user = await requireRetailer(request, context);
  const state = routeParam(params, "reportState", parseReportState);
  return handleForm(request, bundleDecisionsSchema, async ({ b: decisions, shown, js }) => {
    // `shown`: the open bundles the page showed; if they changed since, the rule refuses
    // the whole step naming them, and the page comes back with the bundles open now. An
    // undecided bundle or a second Öppen of a type is refused on its field.
    await decideBundles(user.customerId, decisions, today(), { shown });
    // With JavaScript the dialog shows the result and closes itself after the delay.
    if (js) return data({ done: true as const });
    return redirectWithToast(request, `/rapportering/${state}`, "Buntarna är sparade.");
  });
}


export default function ConfirmStep() {
  const { state, bundles } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const fetcher = useFetcher<typeof action>();
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const back = `/rapportering/${state}`;
  const result = (hydrated ? fetcher.data : undefined) ?? actionData;
  const done = result !== undefined && "done" in result;
  useEffect(() => {
    if (!done) return;
    const timer = setTimeout(() => navigate(back, { preventScrollReset: true }), CLOSE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [done, back, navigate]);

  const failed = isFormReply(result) ? result : undefined;
  const FormComponent = hydrated ? fetcher.Form : Form;
  return (
    <UrlDialog title="Returerna är sparade" closeTo={back}>
      {done ? (
        <p role="status" className="ok">
          Sparat!
        </p>
      ) : (
        <FormComponent method="post" key={failed ? JSON.stringify([failed.initialValue, failed.error]) : "first"} className="confirm-form">
          <CsrfInput />
          {hydrated ? <input type="hidden" name="js" value="1" /> : null}
          <input type="hidden" name="shown" value={shownBundles(bundles.map((b) => b.number))} />
          <p>Ange för varje öppen bunt om den ska fortsätta vara öppen eller stängas. Du kan bara ha en öppen bunt per returtyp.</p>
          {replyError(failed, "") ? (
            <p className="field-error" role="alert">
              {replyError(failed, "")}
            </p>
          ) : null}
          {([0, 1] as const).map((type) => {
            const ofType = bundles.filter((b) => b.type === type);
            return (
              <section key={type} aria-labelledby={`confirm-type-${type}`}>
                <h3 id={`confirm-type-${type}`}>{PAPER_TYPE_HEADING[type]}</h3>
                {ofType.length === 0 ? <p className="muted">- Ingen öppen bunt</p> : null}
                {ofType.length > 1 ? (
                  <p id={`confirm-type-${type}-why`}>
                    Du har {ofType.length} öppna buntar här, men bara en kan vara öppen. Välj Öppen för den du fortsätter med och Stängd för de andra.
                  </p>
                ) : null}
                {replyError(failed, typeField(type)) ? (
                  <p className="field-error" role="alert">
                    {replyError(failed, typeField(type))}
                  </p>
                ) : null}
                {ofType.map((b) => {
                  const error = replyError(failed, decisionField(b.number));
                  // The one open bundle of its type stays open unless the user says otherwise: one
                  // press answers the step. Two or more of a type need a choice (the text above says why).
                  const chosen = failed ? replyValue(failed, decisionField(b.number)) : ofType.length === 1 ? "open" : undefined;
                  return (
                    <fieldset
                      key={b.number}
                      className="decision"
                      aria-describedby={[ofType.length > 1 ? `confirm-type-${type}-why` : "", error ? `decision-${b.number}-error` : ""].filter(Boolean).join(" ") || undefined}
                    >
                      <legend>
                        Bunt #{b.number} <BundleProgress total={b.total} />
                      </legend>
                      <label className="radio">
                        <input type="radio" name={`b.${b.number}`} value="open" defaultChecked={chosen === "open"} /> Öppen
                      </label>
                      <label className="radio">
                        <input type="radio" name={`b.${b.number}`} value="closed" defaultChecked={chosen === "closed"} /> Stängd
                      </label>
                      {error ? (
                        <div id={`decision-${b.number}-error`} className="field-error" role="alert">
                          {error}
                        </div>
                      ) : null}
                    </fieldset>
                  );
                })}
              </section>
            );
          })}
          <div className="actions">
            <button type="submit" className="primary" disabled={fetcher.state !== "idle"}>
              Spara
            </button>
          </div>
        </FormComponent>
      )}
    </UrlDialog>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
