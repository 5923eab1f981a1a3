import { paperName } from "~/catalog";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, data, redirect, useActionData, useLoaderData } from "@remix-run/react";
import { requireRetailer } from "~/auth/guards.server";
import { redirectWithToast } from "~/auth/session.server";
import { CLAIM_TEXTS, NOT_ON_NOTE, RECEIVED_INTENT, SAVE_CHANGED, receivedSchema, type DeliveryNoteAnswer } from "~/features/deliveries";
import { RECEIVED_MESSAGES, deliveryDayMessage, listDeliveryNote, saveReceived, storedAfterConflict } from "~/features/deliveries/index.server";
import { handleForm } from "~/http/form.server";
import { formatLongDate, today } from "~/lib/dates";
import { parseId } from "~/lib/ids";
import { isRefusal, refuse } from "~/lib/refusal";
import { CsrfInput } from "~/ui/csrf";
import { InfoIcon } from "~/ui/icons";
import { UrlDialog } from "~/ui/url-dialog";
import { replyError, replyValue } from "~/ui/form-reply";
import { useEffect } from "react";
import type { DeliveryNoteRow } from "~/features/deliveries/index.server";
import { DeliveryRowForm, type RowFailure } from "./delivery-row";
import { param, readSearch } from "~/lib/search-params";
import { portalNow } from "../../../db/clock";

export const meta: MetaFunction = () => [{ title: "Följesedel / leveransreklamation – Returportalen" }];

const NOTE_SEARCH = { info: param.date(), sparad: param.id(), mottagit: param.id() };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireRetailer(request, context);
  const q = readSearch(request, NOTE_SEARCH);
  const day = today();
  const days = await listDeliveryNote(user.customerId, day);
  const infoDate = q.info;
  const info = infoDate ? { date: infoDate, message: await deliveryDayMessage(user.customerId, infoDate) } : null;
  const saved = q.sparad;
  // Small screens enter Mottagit in a dialog (spec 2.6): `?mottagit=<id>` opens it for a row of the note.
  const editId = q.mottagit;
  const editing = editId === null ? null : (days.flatMap((d) => d.rows).find((r) => r.id === editId) ?? null);
  return { days, info, saved, editing, onlyDeviations: RECEIVED_MESSAGES.onlyDeviations };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireRetailer(request, context);
  return handleForm(request, receivedSchema, async ({ deliveryId, mottagit, rad, fore, ja }) => {
    const day = today();
    const onPage = Object.keys(rad).length > 0;
    if (!onPage) {
      // A form of one row: its refusal is the form's answer.
      if (deliveryId === SAVE_CHANGED) throw refuse.invalid(NOT_ON_NOTE);
      // Its refusals (Refusal on `mottagit`) are the form's answer.
      const result = await saveReceived(user.customerId, deliveryId, mottagit, day, portalNow(), undefined, ja[String(deliveryId)]);
      // More than delivered: the dialog asks, with what was typed; its next Spara saves it.
      if (result.status === "ask")
        return data<DeliveryNoteAnswer>({ rows: { [deliveryId]: mottagit ?? "" }, errors: { [deliveryId]: result.question }, asks: [deliveryId], saved: [] });
      return redirectWithToast(request, `/foljesedel?sparad=${deliveryId}#leverans-${deliveryId}`, "Mottaget antal sparat.");
    }
    // The whole note: the pressed row (or, on Enter, every row changed since the page was shown) is saved;
    // every other row's typed value comes back untouched.
    const changed = (id: string) => (rad[id] ?? "").trim() !== (fore[id] ?? "").trim();
    const targets = deliveryId === SAVE_CHANGED ? Object.keys(rad).filter(changed) : [String(deliveryId)];
    const saved: number[] = [];
    const errors: Record<string, string> = {};
    const asks: number[] = [];
    // A row refused because another tab changed it: what is stored now, which the row shows next
    // (so a second press saves the typed value on purpose), whether or not the loaders run again.
    const conflicts = new Map<string, string>();
    for (const id of targets) {
      // The page showed `fore.<id>` for the row (an empty one is not posted: nothing was stored).
      // A row's refusal is said at its row; the other rows are saved or come back as typed.
      try {
        const result = await saveReceived(user.customerId, Number(id), rad[id] ?? mottagit, day, portalNow(), fore[id] ?? "", ja[id]);
        if (result.status === "saved") saved.push(Number(id));
        else {
          errors[id] = result.question;
          asks.push(Number(id));
        }
      } catch (e) {
        if (!isRefusal(e) || e.code === "busy") throw e;
        errors[id] = e.message;
        const stored = storedAfterConflict(e);
        if (stored !== null) conflicts.set(id, stored);
      }
    }
    const pending = Object.keys(rad).some((id) => !saved.includes(Number(id)) && !(id in errors) && changed(id));
    if (Object.keys(errors).length === 0 && !pending) {
      // Equal to delivered is saved, and the row then shows 'Du ska bara rapportera avvikelser.'.
      if (saved.length === 1) return redirectWithToast(request, `/foljesedel?sparad=${saved[0]}#leverans-${saved[0]}`, "Mottaget antal sparat.");
      return saved.length > 0 ? redirectWithToast(request, "/foljesedel", "Mottaget antal sparat.") : redirect("/foljesedel");
    }
    // Unsaved values on the page: answer with the page as typed rather than a redirect that would drop them.
    // The rows not saved keep what their page showed (a later save still notices another tab's change);
    // a row refused for such a change now shows what is stored (the message named it).
    const shown = Object.fromEntries(
      Object.keys(rad)
        .filter((id) => !saved.includes(Number(id)))
        .map((id) => [id, conflicts.get(id) ?? fore[id] ?? ""]),
    );
    // A question (more than delivered) is not a refusal: only refused rows make the answer a 400.
    const refused = Object.keys(errors).some((id) => !asks.includes(Number(id)));
    return data<DeliveryNoteAnswer>({ rows: rad, errors, saved, shown, asks }, { status: refused ? 400 : 200 });
  });
}

export default function DeliveryNote() {
  const { days, info, saved, editing, onlyDeviations } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const note = answer && "rows" in answer ? (answer as DeliveryNoteAnswer) : null;
  const reply = note ? null : (answer as Exclude<typeof answer, DeliveryNoteAnswer>);
  // A refusal of the whole form (a one-row form, busy): its message, on its row if the row is on the page.
  const message = replyError(reply);
  const failedId = parseId(replyValue(reply, "deliveryId"));
  const failed: RowFailure | null = message
    ? { value: replyValue(reply, "mottagit") ?? replyValue(reply, `rad.${failedId}`) ?? "", error: message }
    : null;
  const onNote = (id: number | null) => days.some((d) => d.rows.some((r) => r.id === id));
  // A refusal for no row on the page (a delivery no longer on the note) is said over the list.
  const orphan = failed && !onNote(failedId) ? failed.error : (note ? Object.entries(note.errors).find(([id]) => !onNote(Number(id)))?.[1] : null) ?? null;
  /** What a row's field shows: what was typed in it when the answer is the page as typed, else what is stored. */
  const typed = (id: number): string | undefined => {
    if (note && !note.saved.includes(id)) return note.rows[String(id)];
    if (reply && !(failedId === id && failed)) return replyValue(reply, `rad.${id}`);
    return undefined;
  };
  const rowFailure = (id: number): RowFailure | null => {
    if (note?.errors[String(id)]) return { value: note.rows[String(id)] ?? "", error: note.errors[String(id)], ask: note.asks?.includes(id) };
    return failedId === id ? failed : null;
  };
  // A day's panel is open when it is the newest, or when one of its rows has something to show.
  const hasNews = (day: (typeof days)[number]) =>
    day.rows.some((r) => r.id === saved || r.id === editing?.id || rowFailure(r.id) !== null || typed(r.id) !== undefined || note?.saved.includes(r.id));
  return (
    <>
      <h1>Följesedel / leveransreklamation</h1>
      <p className="intro">
        Stämmer inte leveransen med följesedeln? Ange hur många du har fått under Mottagit och tryck Spara. Reklamera samma dag
        som leveransen kom eller så snart som möjligt. Följesedeln finns kvar här i en vecka.
      </p>
      {info ? (
        // 'Leveransinformation {date}' (spec 2.6): a dialog with JavaScript, a section without.
        <UrlDialog title={`Leveransinformation ${formatLongDate(info.date)}`} closeTo="/foljesedel">
          {info.message ? (
            <>
              <p>
                <strong>{info.message.header}</strong>
              </p>
              <div className="message-body" dangerouslySetInnerHTML={{ __html: info.message.html }} />
            </>
          ) : (
            <p>Det finns ingen leveransinformation för den dagen.</p>
          )}
        </UrlDialog>
      ) : null}
      {/* One dialog per row: another row's opens afresh, never with the last one's typing. */}
      {editing ? <ReceivedDialog key={editing.id} row={editing} failed={rowFailure(editing.id)} /> : null}
      {orphan ? (
        <p className="field-error" role="alert">
          {orphan}
        </p>
      ) : null}
      {note && note.saved.length > 0 ? (
        <p className="warning" role="status">
          Mottaget antal sparat.
        </p>
      ) : null}
      {days.length === 0 ? (
        <p>Inga leveranser</p>
      ) : (
        // One form for the whole note: each row's Spara saves its row, and every other row's typed value comes back.
        <Form method="post" className="delivery-note" preventScrollReset>
          <CsrfInput />
          <input type="hidden" name="intent" value={RECEIVED_INTENT} />
          {/* Enter in a field saves the rows changed: the first submit button of a form is its default. */}
          <button type="submit" name="deliveryId" value={SAVE_CHANGED} className="visually-hidden" tabIndex={-1} aria-hidden="true">
            Spara ändrade rader
          </button>
        {days.map((day, index) => (
          // Spec 2.6: the days as expansion panels (the newest open); on a small screen a
          // list, every day open (DeliveryDaysOpen). <details> works without JavaScript.
          <details key={day.date} className="delivery-day" open={index === 0 || hasNews(day)}>
            <summary>
              <h2 id={`dag-${day.date}`}>
                <span className="capitalize">{formatLongDate(day.date)}</span> <span className="muted">({day.date})</span>
              </h2>
              <span className="muted day-count">
                {day.rows.length === 1 ? "1 tidning" : `${day.rows.length} tidningar`}
                {day.rows.some((r) => r.received !== null && r.received !== r.delivered)
                  ? `, ${day.rows.filter((r) => r.received !== null && r.received !== r.delivered).length} reklamerade`
                  : ""}
              </span>
            </summary>
            {day.message ? (
              <p className="day-message">
                <Link to={`/foljesedel?info=${day.date}`} preventScrollReset>
                  <InfoIcon /> Leveransinformation: {day.message.header}
                </Link>
              </p>
            ) : null}
            <ul className="delivery-rows" aria-labelledby={`dag-${day.date}`}>
              {day.rows.map((row) => (
                <DeliveryRowForm
                  key={row.id}
                  row={row}
                  typed={typed(row.id)}
                  shown={note?.shown?.[String(row.id)]}
                  failed={rowFailure(row.id)}
                  justSaved={saved === row.id || Boolean(note?.saved.includes(row.id))}
                  onlyDeviations={onlyDeviations}
                />
              ))}
            </ul>
          </details>
        ))}
        <DeliveryDaysOpen />
        </Form>
      )}
    </>
  );
}

/**
 * Mottagit for one row in a dialog (spec 2.6, small screens: Avbryt/Spara). A form of
 * its own, posted with `?mottagit=` kept, so a refusal comes back in the dialog with
 * what was typed; a save closes it and shows the row.
 */
function ReceivedDialog({ row, failed }: { row: DeliveryNoteRow; failed: RowFailure | null }) {
  const closeTo = `/foljesedel#leverans-${row.id}`;
  const name = paperName(row.title, row.description);
  if (row.locked) {
    return (
      <UrlDialog title={`Mottagit: ${name}`} closeTo={closeTo}>
        <p>{row.claim && row.claim.status !== "open" && row.claim.status !== "withdrawn" ? CLAIM_TEXTS.locked(row.claim.id) : `Reklamationstiden gick ut ${row.claimUntil}.`}</p>
        <Link to={closeTo} preventScrollReset>
          Stäng
        </Link>
      </UrlDialog>
    );
  }
  return (
    <UrlDialog title={`Mottagit: ${name}`} closeTo={closeTo}>
      <Form method="post" action={`/foljesedel?mottagit=${row.id}`} preventScrollReset>
        <CsrfInput />
        <input type="hidden" name="intent" value={RECEIVED_INTENT} />
        <input type="hidden" name="deliveryId" value={row.id} />
        <p>
          {formatLongDate(row.deliveryDate)}. Levererat: {row.delivered}
        </p>
        <div className="field">
          <label htmlFor="mottagit-dialog">Mottagit</label>
          <input
            id="mottagit-dialog"
            name="mottagit"
            type="text"
            inputMode="numeric"
            autoComplete="off"
            size={4}
            defaultValue={failed ? failed.value : String(row.received ?? "")}
            aria-invalid={failed && !failed.ask ? true : undefined}
            aria-describedby={failed ? "mottagit-dialog-fel" : undefined}
          />
          {failed?.ask ? <input type="hidden" name={`ja.${row.id}`} value={failed.value} /> : null}
          {failed ? (
            <div id="mottagit-dialog-fel" className={failed.ask ? "warning" : "field-error"} role="alert">
              {failed.error}
            </div>
          ) : null}
        </div>
        <div className="actions">
          <button type="submit" className="primary">
            Spara
          </button>
          <Link to={closeTo} preventScrollReset>
            Avbryt
          </Link>
        </div>
      </Form>
    </UrlDialog>
  );
}

/** On a small screen the note is a list: with JavaScript every day's panel opens. */
function DeliveryDaysOpen() {
  useEffect(() => {
    if (!window.matchMedia("(max-width: 37.5em)").matches) return;
    for (const d of document.querySelectorAll<HTMLDetailsElement>("details.delivery-day")) d.open = true;
  }, []);
  return null;
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
