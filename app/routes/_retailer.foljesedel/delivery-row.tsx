// One row of the delivery note: what was delivered, what was reported received, and
// the 'Mottagit' field of that delivery with its Spara. The note is one form (route.tsx),
// so saving one row sends, and gets back, what was typed in every other row.
import { Link, useNavigation } from "@remix-run/react";
import type { DeliveryNoteRow } from "~/features/deliveries/index.server";
import { paperName } from "~/catalog";
import { CLAIM_TEXTS, claimStatusText } from "~/features/deliveries";
import { useBackToRow } from "~/ui/back-to-row";

/** A refused row, or (`ask`) one asked about: more than delivered, saved by the next Spara. */
export type RowFailure = { value: string; error: string; ask?: boolean };

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
  typed,
  shown,
  failed,
  justSaved,
  onlyDeviations,
}: {
  onlyDeviations: string;
  row: DeliveryNoteRow;
  /** What was typed in the field when another row was saved (undefined: show what is stored). */
  typed?: string;
  /** What the page first showed for an unsaved row (undefined: what is stored). */
  shown?: string;
  failed: RowFailure | null;
  justSaved: boolean;
}) {
  const navigation = useNavigation();
  const backToRow = useBackToRow();
  const busy =
    navigation.state === "submitting" &&
    navigation.formData?.get("deliveryId") === String(row.id);
  const inputId = `mottagit-${row.id}`;
  const errorId = `${inputId}-fel`;
  const warn = justSaved && !failed && row.received === row.delivered;
  return (
    <li id={`leverans-${row.id}`} className="delivery-row">
      <div className="delivery-what">
        <strong>{row.title}</strong>
        {row.type === 1 || row.description !== row.title ? (
          <span> – {row.description}</span>
        ) : null}
        <div className="muted">
          Levererat: {row.delivered} <ReceivedChip row={row} />
        </div>
        {row.claim ? (
          <div className="claim-status">
            {CLAIM_TEXTS.label(row.claim, claimStatusText(row.claim))}
          </div>
        ) : null}
      </div>
      {row.locked ? (
        <p className="muted delivery-locked">
          {row.claim &&
          row.claim.status !== "open" &&
          row.claim.status !== "withdrawn"
            ? CLAIM_TEXTS.locked(row.claim.id)
            : `Reklamationstiden gick ut ${row.claimUntil}.`}
        </p>
      ) : (
        <>
          {/* Small screens: Mottagit in a dialog (spec 2.6); the inline field is for wide ones. */}
          <Link
            to={`?mottagit=${row.id}`}
            preventScrollReset
            className="button narrow-only"
            aria-label={`Ändra mottaget för ${paperName(
              row.title,
              row.description
            )}`}
          >
            Ändra mottaget
          </Link>
          <div className="delivery-form wide-only">
            {/* What the page showed for the row: Enter saves the rows whose value differs from it. */}
            <input
              type="hidden"
              name={`fore.${row.id}`}
              value={shown ?? String(row.received ?? "")}
            />
            <div className="field">
              <label htmlFor={inputId}>Mottagit</label>
              <input
                id={inputId}
                name={`rad.${row.id}`}
                type="text"
                inputMode="numeric"
                autoComplete="off"
                size={4}
                defaultValue={
                  failed ? failed.value : typed ?? String(row.received ?? "")
                }
                aria-invalid={failed && !failed.ask ? true : undefined}
                aria-describedby={failed || warn ? errorId : undefined}
              />
              {failed?.ask ? (
                <input
                  type="hidden"
                  name={`ja.${row.id}`}
                  value={failed.value}
                />
              ) : null}
            </div>
            <button
              type="submit"
              name="deliveryId"
              value={row.id}
              disabled={busy}
              {...backToRow(`leverans-${row.id}`)}
            >
              Spara
            </button>
            {failed ? (
              <div
                id={errorId}
                className={failed.ask ? "warning" : "field-error"}
                role="alert"
              >
                {failed.error}
              </div>
            ) : warn ? (
              <div id={errorId} className="warning" role="status">
                {onlyDeviations}
              </div>
            ) : null}
            <div className="muted claim-until">
              {CLAIM_TEXTS.open(row.claimUntil)}
            </div>
          </div>
        </>
      )}
    </li>
  );
}
