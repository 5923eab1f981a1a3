import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { requireRetailer } from "~/auth/guards.server";
import { handleForm } from "~/http/form.server";
import { redirectWithToast } from "~/auth/session.server";
import { NOTHING_SHOWN, PLACARD_CHANGED_BY_OTHER, PLACARD_MESSAGES, amountField, confirmedField, placardsSchema, placardsWanted, shownField } from "~/features/placards";
import { listPlacards, savePlacards } from "~/features/placards/index.server";
import { replyError, replyFieldErrors, replyValue } from "~/ui/form-reply";
import { CsrfInput } from "~/ui/csrf";

export const meta: MetaFunction = () => [{ title: "Löpsedlar – Returportalen" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireRetailer(request, context);
  return { placards: await listPlacards(user.customerId) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireRetailer(request, context);
  return handleForm(request, placardsSchema, async (form) => {
    const { wanted } = placardsWanted(form);
    // Rows are written for the session's customer only, whatever the form says. An unknown
    // title refuses the whole save; another tab's change, or ten times the current amount
    // (decision 026), is refused on its row.
    const saved = await savePlacards(user.customerId, wanted);
    // "Sparat!" only about what was stored.
    return redirectWithToast(request, "/lopsedlar", saved.saved > 0 ? "Sparat!" : "Inget ändrades.");
  });
}

export default function PlacardsPage() {
  const { placards } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  // The server's schema checks the amounts and answers in Swedish, with or without
  // JavaScript; no form library in the page keeps it under 100 KB of JavaScript. With JavaScript the focus then goes to the first refused field (app/ui/focus.ts).
  const fieldErrors = replyFieldErrors(reply);
  // A message over the form only when no field has one ('Något gick fel!', busy).
  const formError = Object.keys(replyFieldErrors(reply)).length === 0 ? replyError(reply) : null;
  const busy = useNavigation().state === "submitting";
  return (
    <>
      <h1>Löpsedlar</h1>
      <p>Ange hur många löpsedlar ni vill ha per tidning. Ändringen gäller från nästa leverans.</p>
      {formError ? (
        <p className="field-error" role="alert">
          {formError}
        </p>
      ) : null}
      <Form method="post" noValidate>
        <CsrfInput />
        <ul className="placard-list">
          {placards.map((p) => {
            const id = amountField(p.titleId);
            const error = fieldErrors[id];
            // The wish if there is one, else the amount in force: changing one title never means retyping the other.
            const value = reply ? (replyValue(reply, id) ?? "") : String(p.newAmount ?? p.amount);
            // The question about an unlikely amount (not a refusal): the next Spara sends the amount back confirmed.
            const asking = error !== undefined && /^\d+$/.test(value) && error === PLACARD_MESSAGES.unlikely(Number(value), p.amount);
            return (
              <li key={p.titleId} className="card">
                <h2>{p.title}</h2>
                <p>
                  Nuvarande antal: <strong>{p.amount}</strong>
                </p>
                <input type="hidden" name="titel" value={p.titleId} />
                {/* What this page showed: a title left as shown is not written; one changed elsewhere since is refused. */}
                <input
                  type="hidden"
                  name={shownField(p.titleId)}
                  value={
                    reply && !error?.startsWith(PLACARD_CHANGED_BY_OTHER)
                      ? (replyValue(reply, shownField(p.titleId)) ?? NOTHING_SHOWN)
                      : p.newAmount === null
                        ? NOTHING_SHOWN
                        : String(p.newAmount)
                  }
                />
                <div className="field">
                  <label htmlFor={id}>Önskat antal {p.title}</label>
                  <input
                    key={`${id}-${value ?? ""}`}
                    id={id}
                    name={id}
                    type="text"
                    inputMode="numeric"
                    required
                    defaultValue={value ?? ""}
                    aria-invalid={error && !asking ? true : undefined}
                    aria-describedby={error ? `${id}-error` : undefined}
                  />
                  {asking ? <input type="hidden" name={confirmedField(p.titleId)} value={value} /> : null}
                  {error ? (
                    <div id={`${id}-error`} className={asking ? "warning" : "field-error"} role="alert">
                      {error}
                    </div>
                  ) : null}
                </div>
              </li>
            );
          })}
        </ul>
        <div className="actions">
          <button type="submit" className="primary" disabled={busy}>
            Spara
          </button>
        </div>
      </Form>
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
