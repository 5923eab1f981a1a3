import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { requireRetailer } from "~/auth/guards.server";
import { handleForm } from "~/http/form.server";
import { redirectWithToast } from "~/auth/session.server";
import { formatLongDate } from "~/lib/dates";
import { parseId } from "~/lib/ids";
import { HOLIDAY_INTENT as INTENT, NO_ANSWER_SHOWN, holidayAnswerSchema, shownAnswer } from "~/features/holidays";
import { answerHoliday, listComingHolidays, listHolidayAnswers } from "~/features/holidays/index.server";
import { replyError, replyValue } from "~/ui/form-reply";
import { TableOrEmpty } from "~/ui/table";
import { useBackToRow } from "~/ui/back-to-row";
import { CsrfInput } from "~/ui/csrf";

export const meta: MetaFunction = () => [{ title: "Helgspärr – Returportalen" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireRetailer(request, context);
  const [coming, answers] = await Promise.all([listComingHolidays(user.customerId), listHolidayAnswers(user.customerId)]);
  return { coming, answers };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireRetailer(request, context);
  return handleForm(request, holidayAnswerSchema, async ({ intent, holidayId, fore }) => {
    // The customer comes from the session only; the form names just the holiday.
    await answerHoliday(user.customerId, holidayId, intent === INTENT.open, undefined, shownAnswer(fore));
    return redirectWithToast(request, "/helgsparr", "Sparat!");
  });
}

export default function HolidaysPage() {
  const { coming, answers } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const message = replyError(reply);
  const failed = message ? { holidayId: parseId(replyValue(reply, "holidayId")), error: message } : null;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const backToRow = useBackToRow();
  const orphanError = failed && !coming.some((h) => h.id === failed.holidayId) ? failed.error : null;
  return (
    <>
      <h1>Helgspärr</h1>
      <p>Tala om för oss om butiken har öppet eller stängt de kommande helgdagarna, så att rätt tidningar levereras.</p>
      {orphanError ? (
        <p className="field-error" role="alert">
          {orphanError}
        </p>
      ) : null}
      {coming.length === 0 ? (
        <p>Inga kommande helgdagar att rapportera.</p>
      ) : (
        <ul className="holiday-cards">
          {coming.map((h) => {
            const error = failed?.holidayId === h.id ? failed.error : null;
            return (
              <li key={h.id} id={`helgdag-${h.id}`} className="card holiday-card">
                <h2 id={`holiday-${h.id}`}>{h.description}</h2>
                <p>
                  <time dateTime={h.day}>{formatLongDate(h.day)}</time> ({h.day})
                </p>
                <p>
                  Ditt svar: <strong>{h.open === null ? "Inte rapporterat" : h.open ? "Öppet" : "Stängt"}</strong>
                </p>
                <Form method="post" className="actions" aria-labelledby={`holiday-${h.id}`}>
                  <CsrfInput />
                  <input type="hidden" name="holidayId" value={h.id} />
                  <input type="hidden" name="fore" value={h.open === null ? NO_ANSWER_SHOWN : h.open ? INTENT.open : INTENT.closed} />
                  <button type="submit" name="intent" value={INTENT.open} {...backToRow(`helgdag-${h.id}`)} aria-pressed={h.open === true} className={h.open === true ? "primary" : undefined} disabled={busy}>
                    Öppet
                  </button>
                  <button type="submit" name="intent" value={INTENT.closed} {...backToRow(`helgdag-${h.id}`)} aria-pressed={h.open === false} className={h.open === false ? "primary" : undefined} disabled={busy}>
                    Stängt
                  </button>
                </Form>
                {error ? (
                  <p className="field-error" role="alert">
                    {error}
                  </p>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
      <h2>Tidigare rapporterat</h2>
      <TableOrEmpty empty={answers.length === 0} emptyText="Inget rapporterat ännu.">
        <thead>
          <tr>
            <th scope="col">Datum</th>
            <th scope="col">Beskrivning</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {answers.map((a) => (
            <tr key={a.holidayId}>
              <td className="date-cell">{a.day}</td>
              <td>{a.description}</td>
              <td>{a.open ? "Öppet" : "Stängt"}</td>
            </tr>
          ))}
        </tbody>
      </TableOrEmpty>
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
