import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, data, useActionData, useFetcher, useLoaderData, useNavigate } from "@remix-run/react";
import { randomUUID } from "node:crypto";
import { useEffect } from "react";
import { requireRetailer } from "~/auth/guards.server";
import { redirectWithToast } from "~/auth/session.server";
import { decideBundles, listOpenBundles, type BundleDecision } from "~/features/bundles/index.server";
import { BundleProgress } from "~/ui/bundle-progress";
import { UrlDialog } from "~/ui/url-dialog";
import { useHydrated } from "~/ui/use-hydrated";
import { CsrfInput } from "~/ui/csrf";

/** Spec 4/9: save and close dialogs close 1.5 s after success. */
const CLOSE_DELAY_MS = 1500;

function parseState(params: LoaderFunctionArgs["params"]): 1 | 2 {
  if (params.reportState === "1" || params.reportState === "2") return Number(params.reportState) as 1 | 2;
  throw new Response("Sidan finns inte.", { status: 404 });
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireRetailer(request, context);
  const state = parseState(params);
  return { state, bundles: await listOpenBundles(user.customerId) };
}

type ConfirmData =
  | { done: true }
  | { done: false; values: Record<string, string>; bundleErrors: Record<number, string>; typeErrors: Partial<Record<0 | 1, string>>; nonce: string };

export async function action({ request, params, context }: ActionFunctionArgs) {
  const user = await requireRetailer(request, context);
  const state = parseState(params);
  const form = await request.formData();
  const decisions: Record<number, BundleDecision | undefined> = {};
  const values: Record<string, string> = {};
  for (const [name, value] of form) {
    const m = name.match(/^b\.(\d{1,5})$/);
    if (m && (value === "open" || value === "closed")) {
      decisions[Number(m[1])] = value;
      values[m[1]] = value;
    }
  }
  const result = await decideBundles(user.customerId, decisions);
  if (!result.ok) {
    return data<ConfirmData>({ done: false, values, bundleErrors: result.bundleErrors, typeErrors: result.typeErrors, nonce: randomUUID() }, { status: 400 });
  }
  // With JavaScript the dialog shows the result and closes itself after the delay.
  if (form.get("js") === "1") return data<ConfirmData>({ done: true });
  return redirectWithToast(request, `/rapportering/${state}`, "Buntarna är sparade.");
}

const TYPE_NAMES = ["Huvudtidningar", "Bilagor"] as const;

export default function ConfirmStep() {
  const { state, bundles } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as ConfirmData | undefined;
  const fetcher = useFetcher<typeof action>();
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const back = `/rapportering/${state}`;
  const result = (hydrated ? (fetcher.data as ConfirmData | undefined) : undefined) ?? actionData;
  const done = result?.done === true;
  useEffect(() => {
    if (!done) return;
    const timer = setTimeout(() => navigate(back, { preventScrollReset: true }), CLOSE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [done, back, navigate]);

  const failed = result && !result.done ? result : undefined;
  const FormComponent = hydrated ? fetcher.Form : Form;
  return (
    <UrlDialog title="Returerna är sparade" closeTo={back}>
      {done ? (
        <p role="status" className="ok">
          Sparat!
        </p>
      ) : (
        <FormComponent method="post" key={failed?.nonce ?? "first"} className="confirm-form">
          <CsrfInput />
          {hydrated ? <input type="hidden" name="js" value="1" /> : null}
          <p>Ange för varje öppen bunt om den ska fortsätta vara öppen eller stängas. Du kan bara ha en öppen bunt per returtyp.</p>
          {([0, 1] as const).map((type) => {
            const ofType = bundles.filter((b) => b.type === type);
            return (
              <section key={type} aria-labelledby={`confirm-type-${type}`}>
                <h3 id={`confirm-type-${type}`}>{TYPE_NAMES[type]}</h3>
                {ofType.length === 0 ? <p className="muted">- Ingen öppen bunt</p> : null}
                {failed?.typeErrors[type] ? (
                  <p className="field-error" role="alert">
                    {failed.typeErrors[type]}
                  </p>
                ) : null}
                {ofType.map((b) => {
                  const error = failed?.bundleErrors[b.number];
                  const chosen = failed?.values[String(b.number)];
                  return (
                    <fieldset key={b.number} className="decision" aria-describedby={error ? `decision-${b.number}-error` : undefined}>
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
