import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { requireRetailer } from "~/auth/guards.server";
import { redirectWithToast } from "~/auth/session.server";
import { NOT_ON_NOTE, receivedSchema } from "~/features/deliveries";
import { RECEIVED_MESSAGES, deliveryDayMessage, listDeliveryNote, saveReceived } from "~/features/deliveries/index.server";
import { refuseWhenBusy } from "~/http/busy.server";
import { handleForm } from "~/http/form.server";
import { isValidDate, formatLongDate, today } from "~/lib/dates";
import { parseId } from "~/lib/ids";
import { refuse } from "~/lib/refusal";
import { replyError, replyValue } from "~/ui/form-reply";
import { DeliveryRowForm, type RowFailure } from "./delivery-row";

export const meta: MetaFunction = () => [{ title: "Följesedel / leveransreklamation – Returportalen" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireRetailer(request, context);
  const url = new URL(request.url);
  const day = today();
  const days = await listDeliveryNote(user.customerId, day);
  const infoDate = url.searchParams.get("info");
  const info = infoDate && isValidDate(infoDate) ? { date: infoDate, message: await deliveryDayMessage(user.customerId, infoDate) } : null;
  const saved = parseId(url.searchParams.get("sparad"));
  return { days, info, saved, onlyDeviations: RECEIVED_MESSAGES.onlyDeviations };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireRetailer(request, context);
  return handleForm(request, receivedSchema, async ({ deliveryId, mottagit }) => {
    const result = await refuseWhenBusy(() => saveReceived(user.customerId, deliveryId, mottagit, today()));
    if (result.status === "not-found") throw refuse.notFound(NOT_ON_NOTE);
    if (result.status === "invalid") throw refuse.invalid(result.error, { field: "mottagit" });
    // Equal to delivered is saved, and the row then shows 'Du ska bara rapportera avvikelser.'.
    return redirectWithToast(request, `/foljesedel?sparad=${deliveryId}#leverans-${deliveryId}`, "Mottaget antal sparat.");
  });
}

export default function DeliveryNote() {
  const { days, info, saved, onlyDeviations } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const message = replyError(reply);
  const failedId = parseId(replyValue(reply, "deliveryId"));
  const failed: RowFailure | null = message ? { value: replyValue(reply, "mottagit") ?? "", error: message } : null;
  // A refusal for no row on the page (a delivery no longer on the note) is said over the list.
  const orphan = failed && !days.some((d) => d.rows.some((r) => r.id === failedId)) ? failed.error : null;
  return (
    <>
      <h1>Följesedel / leveransreklamation</h1>
      <p className="intro">
        Stämmer inte leveransen med följesedeln? Ange hur många du har fått under Mottagit och tryck Spara. Reklamera samma dag
        som leveransen kom eller så snart som möjligt. Följesedeln finns kvar här i en vecka.
      </p>
      {info ? (
        <section className="card info-view" aria-labelledby="info-heading">
          <h2 id="info-heading">Leveransinformation {formatLongDate(info.date)}</h2>
          {info.message ? (
            <>
              <h3>{info.message.header}</h3>
              <div className="message-body" dangerouslySetInnerHTML={{ __html: info.message.html }} />
            </>
          ) : (
            <p>Det finns ingen leveransinformation för den dagen.</p>
          )}
          <p>
            <Link to="/foljesedel" className="button">
              Stäng
            </Link>
          </p>
        </section>
      ) : null}
      {orphan ? (
        <p className="field-error" role="alert">
          {orphan}
        </p>
      ) : null}
      {days.length === 0 ? (
        <p>Inga leveranser</p>
      ) : (
        days.map((day) => (
          <section key={day.date} className="delivery-day" aria-labelledby={`dag-${day.date}`}>
            <h2 id={`dag-${day.date}`}>
              <span className="capitalize">{formatLongDate(day.date)}</span> <span className="muted">({day.date})</span>
            </h2>
            {day.message ? (
              <p className="day-message">
                <Link to={`/foljesedel?info=${day.date}`}>
                  Leveransinformation: {day.message.header}
                </Link>
              </p>
            ) : null}
            <ul className="delivery-rows">
              {day.rows.map((row) => (
                <DeliveryRowForm
                  key={row.id}
                  row={row}
                  failed={failedId === row.id ? failed : null}
                  justSaved={saved === row.id}
                  onlyDeviations={onlyDeviations}
                />
              ))}
            </ul>
          </section>
        ))
      )}
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
