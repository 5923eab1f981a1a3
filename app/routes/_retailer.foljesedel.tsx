import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, data, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { requireRetailer } from "~/auth/guards.server";
import { BUSY_MESSAGE, busyReply, isDatabaseBusy } from "~/http/busy.server";
import { redirectWithToast } from "~/auth/session.server";
import { isValidDate, formatLongDate, today } from "~/lib/dates";
import { RECEIVED_MESSAGES, deliveryDayMessage, listDeliveryNote, saveReceived, type DeliveryNoteRow } from "~/features/deliveries/index.server";
import { parseId } from "~/lib/ids";
import { CsrfInput } from "~/ui/csrf";

export const meta: MetaFunction = () => [{ title: "Följesedel / leveransreklamation – Returportalen" }];

const INTENT = { save: "spara-mottaget" } as const;

const SaveSchema = z.object({
  intent: z.literal(INTENT.save),
  deliveryId: z.coerce.number().int().positive(),
  mottagit: z.string().optional(),
});

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
  const form = await request.formData();
  const parsed = SaveSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) throw new Response("Ogiltig förfrågan.", { status: 400 });
  const { deliveryId, mottagit } = parsed.data;
  let result;
  try {
    result = await saveReceived(user.customerId, deliveryId, mottagit, today());
  } catch (error) {
    if (isDatabaseBusy(error)) return busyReply({ deliveryId, value: mottagit ?? "", error: BUSY_MESSAGE });
    throw error;
  }
  if (result.status === "not-found") throw new Response("Leveransen finns inte på din följesedel.", { status: 404 });
  if (result.status === "invalid") {
    return data({ deliveryId, value: mottagit ?? "", error: result.error }, { status: 400 });
  }
  // Equal to delivered is saved, and the row then shows 'Du ska bara rapportera avvikelser.'.
  return redirectWithToast(request, `/foljesedel?sparad=${deliveryId}#leverans-${deliveryId}`, "Mottaget antal sparat.");
}

export default function DeliveryNote() {
  const { days, info, saved, onlyDeviations } = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
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
                  failed={failed && failed.deliveryId === row.id ? failed : null}
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

function ReceivedChip({ row }: { row: DeliveryNoteRow }) {
  if (row.received === null) {
    return (
      <span className="recv-chip recv-none" title="Ej rapporterat">
        <span aria-hidden="true">•••</span>
        <span className="visually-hidden">Mottaget: ej rapporterat</span>
      </span>
    );
  }
  const ok = row.received === row.delivered;
  return (
    <span className={`recv-chip ${ok ? "recv-ok" : "recv-diff"}`}>
      <span className="visually-hidden">Mottaget: </span>
      {row.received}
    </span>
  );
}

function DeliveryRowForm({
  row,
  failed,
  justSaved,
  onlyDeviations,
}: {
  onlyDeviations: string;
  row: DeliveryNoteRow;
  failed: { value: string; error: string } | null;
  justSaved: boolean;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("deliveryId") === String(row.id);
  const inputId = `mottagit-${row.id}`;
  const errorId = `${inputId}-fel`;
  const warn = justSaved && !failed && row.received === row.delivered;
  return (
    <li id={`leverans-${row.id}`} className="delivery-row">
      <div className="delivery-what">
        <strong>{row.title}</strong>
        {row.type === 1 || row.description !== row.title ? <span> – {row.description}</span> : null}
        <div className="muted">
          Levererat: {row.delivered} <ReceivedChip row={row} />
        </div>
      </div>
      <Form method="post" className="delivery-form" preventScrollReset>
        <CsrfInput />
        <input type="hidden" name="intent" value={INTENT.save} />
        <input type="hidden" name="deliveryId" value={row.id} />
        <div className="field">
          <label htmlFor={inputId}>Mottagit</label>
          <input
            id={inputId}
            name="mottagit"
            type="text"
            inputMode="numeric"
            autoComplete="off"
            size={4}
            defaultValue={failed ? failed.value : (row.received ?? "")}
            aria-invalid={failed ? true : undefined}
            aria-describedby={failed || warn ? errorId : undefined}
          />
        </div>
        <button type="submit" disabled={busy}>
          Spara
        </button>
        {failed ? (
          <div id={errorId} className="field-error" role="alert">
            {failed.error}
          </div>
        ) : warn ? (
          <div id={errorId} className="warning" role="status">
            {onlyDeviations}
          </div>
        ) : null}
      </Form>
    </li>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
