// One row of the delivery note: what was delivered, what was reported received, and
// the 'Mottagit' form of that delivery (a form per row, so it works without JavaScript).
import { Form, useNavigation } from "@remix-run/react";
import { RECEIVED_INTENT } from "~/features/deliveries";
import type { DeliveryNoteRow } from "~/features/deliveries/index.server";
import { CsrfInput } from "~/ui/csrf";

export type RowFailure = { value: string; error: string };

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

export function DeliveryRowForm({
  row,
  failed,
  justSaved,
  onlyDeviations,
}: {
  onlyDeviations: string;
  row: DeliveryNoteRow;
  failed: RowFailure | null;
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
        <input type="hidden" name="intent" value={RECEIVED_INTENT} />
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
