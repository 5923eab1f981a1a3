import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { requireRetailer } from "~/auth/guards.server";
import { redirectWithToast } from "~/auth/session.server";
import { handleForm } from "~/http/form.server";
import { OPENING_HOURS_MESSAGES as M, VERSION_FIELD, WEEKDAYS, closedField, closesField, dayField, formatHours, opensField } from "~/features/opening-hours";
import { getOpeningHours, openingHoursSchema, saveOpeningHours } from "~/features/opening-hours/index.server";
import { CsrfInput } from "~/ui/csrf";
import { replyError, replyFieldErrors, replyValue } from "~/ui/form-reply";

export const meta: MetaFunction = () => [{ title: "Öppettider – Returportalen" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireRetailer(request, context);
  return { hours: await getOpeningHours(user.customerId) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireRetailer(request, context);
  return handleForm(request, openingHoursSchema, async ({ days, version }) => {
    // The customer comes from the session only.
    const saved = await saveOpeningHours(user.customerId, days, version);
    return redirectWithToast(request, "/oppettider", saved.changed ? M.saved : M.confirmed);
  });
}

// After a refusal because another tab saved (409), the page shows what is stored now
// and carries its version, so saving again stores what was typed.
export { revalidateOnConflict as shouldRevalidate } from "~/ui/stored-now";

/**
 * Öppettider, the OPPETTIDER alert's screen (docs/decisions/015-opening-hours-and-placard-alerts.md):
 * seven days, each with Öppnar and Stänger or Stängt. Plain inputs checked by the server's
 * schema (no form library in the page); what was typed stays after a refusal.
 */
export default function OpeningHoursPage() {
  const { hours } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const errors = replyFieldErrors(reply);
  const formError = Object.keys(errors).length === 0 ? replyError(reply) : null;
  const conflict = formError === M.changedByOther;
  const busy = useNavigation().state === "submitting";
  const typed = (name: string, stored: string | null) => (reply ? (replyValue(reply, name) ?? "") : (stored ?? ""));
  const neverReported = hours.reportedDay === null;
  return (
    <>
      <h1>Öppettider</h1>
      <p>
        Ange när butiken har öppet varje veckodag, så att tidningarna levereras när någon kan ta emot dem. Spara även om inget har ändrats: det
        räknas som att ni har bekräftat öppettiderna.
      </p>
      <p>{neverReported ? "Ni har inte rapporterat öppettider ännu." : `Senast rapporterat: ${hours.reportedDay}.`}</p>
      {formError ? (
        <p className="field-error" role="alert">
          {formError}
        </p>
      ) : null}
      <Form method="post" noValidate className="opening-hours">
        <CsrfInput />
        <input type="hidden" name={VERSION_FIELD} value={hours.version} />
        {hours.days.map((d) => {
          const name = WEEKDAYS[d.weekday - 1];
          const error = errors[dayField(d.weekday)];
          const errorId = `${dayField(d.weekday)}-error`;
          const closed = reply ? replyValue(reply, closedField(d.weekday)) !== undefined : !neverReported && d.opens === null;
          const opens = typed(opensField(d.weekday), d.opens);
          const closes = typed(closesField(d.weekday), d.closes);
          return (
            <fieldset
              key={`${d.weekday}-${hours.version}-${reply ? "r" : ""}`}
              id={dayField(d.weekday)}
              className="card opening-day"
              aria-describedby={error ? errorId : undefined}
            >
              <legend>{name}</legend>
              <div className="opening-times">
                <div className="field">
                  <label htmlFor={opensField(d.weekday)}>Öppnar</label>
                  <input
                    id={opensField(d.weekday)}
                    name={opensField(d.weekday)}
                    type="time"
                    defaultValue={opens}
                    aria-invalid={error && !closed ? true : undefined}
                    aria-describedby={error ? errorId : undefined}
                  />
                </div>
                <div className="field">
                  <label htmlFor={closesField(d.weekday)}>Stänger</label>
                  <input
                    id={closesField(d.weekday)}
                    name={closesField(d.weekday)}
                    type="time"
                    defaultValue={closes}
                    aria-invalid={error && !closed ? true : undefined}
                    aria-describedby={error ? errorId : undefined}
                  />
                </div>
                <div className="field checkbox">
                  <input id={closedField(d.weekday)} name={closedField(d.weekday)} type="checkbox" value="1" defaultChecked={closed} />
                  <label htmlFor={closedField(d.weekday)}>Stängt</label>
                </div>
              </div>
              {error ? (
                <p id={errorId} className="field-error" role="alert">
                  {error}
                </p>
              ) : null}
            </fieldset>
          );
        })}
        <div className="actions">
          <button type="submit" className="primary" disabled={busy}>
            Spara
          </button>
        </div>
      </Form>
      {conflict ? (
        <section className="card" aria-labelledby="stored-now">
          <h2 id="stored-now">Sparat nu</h2>
          <ul>
            {hours.days.map((d) => (
              <li key={d.weekday}>
                {WEEKDAYS[d.weekday - 1]}: {formatHours(d.opens, d.closes)}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
