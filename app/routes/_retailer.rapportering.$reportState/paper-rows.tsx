// The rows of one paper in the returns form: its lines (bundle, amount, the delivered
// hint, the row's error) and the row buttons (Ny bunt/Tilläggsrapportera, Slutsåld, Ångra).
import { paperName } from "~/catalog";
import { deliveredHint, isSoldOut, nextSplitKey, RETURN_MESSAGES, type FormLine, type RowProblems } from "~/features/returns";
import { useBackToRow } from "~/ui/back-to-row";
import { LockIcon } from "~/ui/icons";
import { ScanButton } from "~/ui/scan/scan-button";
import type { Paper, ReportState } from "~/features/returns/index.server";

type PaperOfRows = Pick<Paper, "late" | "returns">;

/** Whether a paper is read-only: past its last return day under the 'reject' policy (decision 018). */
export const isPastDeadline = (paper: Pick<Paper, "late">, latePolicy: "reject" | "accept") => paper.late && latePolicy === "reject";

/**
 * The fields a line shows as inputs: the bundle while the line is new (not sold out, not
 * past its last return day), the amount unless its bundle is closed or the day has passed.
 * The error summary links only to these; Enter moves only between these.
 */
export function editableFields(paper: PaperOfRows, line: FormLine, latePolicy: "reject" | "accept"): { bundle: boolean; amount: boolean } {
  const pastDeadline = isPastDeadline(paper, latePolicy);
  const isNew = line.returnId === undefined;
  const closed = !isNew && (paper.returns.find((r) => r.id === line.returnId)?.open === false || pastDeadline);
  return { bundle: isNew && !pastDeadline && !isSoldOut(line), amount: !(isNew && pastDeadline) && !closed };
}

/** The ids of a line's inputs: the error summary's links and the form's Enter go to them. */
export const fieldId = (key: string, field: "bundle" | "amount") => `l-${key}-${field}`;

export function PaperRows(props: {
  paper: Paper;
  state: ReportState;
  lines: FormLine[];
  errors: Record<string, string>;
  /** Each refused field's message (a refused save): the field is marked invalid. */
  problems: Record<string, RowProblems>;
  /** The key of the form's last Retur field: its phone key says "Klar" (Enter saves), the others "Nästa". */
  lastAmountKey: string | null;
  /** A line whose bundle field gets the focus when the page loads (after Ny bunt without JavaScript). */
  focusKey?: string;
  onChange: (key: string, field: "bundle" | "amount", value: string) => void;
  /** The customer whose labels "Skanna" accepts. */
  customerId: number;
  /** After the last return day: 'reject' locks the paper's rows, 'accept' marks its returns late. */
  latePolicy: "reject" | "accept";
  onSplit: (e: React.MouseEvent) => void;
  onUndo: (e: React.MouseEvent, key: string) => void;
  onSoldOut: (e: React.MouseEvent, key: string) => void;
}) {
  const { paper, state, lines, errors } = props;
  const backToRow = useBackToRow();
  const name = paperName(paper.title, paper.edition);
  // A main paper's Titel cell names its edition where it has its own name; an insert has the Utgåva column.
  const titleCell = paper.type === 1 ? paper.title : name;
  const labelSuffix = ` för ${name} ${paper.deliveryDate}`;
  // Without JavaScript the answer to Ny bunt opens at the new row's bundle field (it has the focus too).
  const newRowField = fieldId(nextSplitKey(lines, paper.deliveryId), "bundle");
  const returnOpen = new Map(paper.returns.map((r) => [r.id, r.open]));
  // Past the last return day under 'reject', the paper is read-only, the way a
  // closed bundle's row is; the server refuses a change anyway.
  const pastDeadline = isPastDeadline(paper, props.latePolicy);
  const deadlineCell = (
    <td data-label="Sista returdag">
      {paper.recalledUntil ? (
        // Recalled (decision 036): returned until the recall's day, never marked late.
        <strong className="recalled-note">Återkallad – returnera senast {paper.recalledUntil}</strong>
      ) : (
        <>
          {paper.deadline}
          {paper.late ? <span className="late-note">{pastDeadline ? " Passerad" : " Passerad, returen märks sen"}</span> : null}
        </>
      )}
    </td>
  );
  let entered = 0;
  const rows = lines.map((line, index) => {
    // Spec 4's hint; a split line's names what the lines above already hold (the limit is the difference).
    const above = entered;
    const typed = Number(line.amount);
    if (line.amount.trim() !== "" && Number.isFinite(typed)) entered += typed;
    const locked = line.returnId !== undefined && (returnOpen.get(line.returnId) === false || pastDeadline);
    const error = errors[line.key];
    // Which field a message is about; a message of the whole row (an older answer) marks both.
    const problem = props.problems[line.key] ?? (error ? { bundle: error, amount: error } : {});
    const id = `l-${line.key}`;
    const hintId = `${id}-hint`;
    const errorId = `${id}-error`;
    const bundleEditable = line.returnId === undefined;
    return (
      <tr key={line.key} id={`rad-${line.key}`} className={line.split ? "split-row" : undefined}>
        <td data-label="Titel">{index === 0 ? titleCell : <span className="muted">↳ {titleCell}</span>}</td>
        {paper.type === 1 ? <td data-label="Utgåva">{paper.edition}</td> : null}
        <td data-label="Utgivningsdag">{paper.deliveryDate}</td>
        {deadlineCell}
        <td>
          <input type="hidden" name="line" value={line.key} />
          <input type="hidden" name={`${line.key}.delivery`} value={paper.deliveryId} />
          <input type="hidden" name={`${line.key}.dflt`} value={line.dflt} />
          {line.fore !== undefined ? <input type="hidden" name={`${line.key}.fore`} value={line.fore} /> : null}
          {bundleEditable && pastDeadline ? (
            <span className="bundle-fixed">
              <input type="hidden" name={`${line.key}.bundle`} value="" />
              <span className="label-inline">Bunt</span> –
            </span>
          ) : bundleEditable && isSoldOut(line) ? (
            <span className="bundle-fixed">
              <input type="hidden" name={`${line.key}.bundle`} value="" />
              Slutsåld<span className="visually-hidden">{labelSuffix}</span>, ingen bunt
            </span>
          ) : bundleEditable ? (
            <div className="field compact">
              <label htmlFor={`${id}-bundle`}>
                Bunt<span className="visually-hidden">{labelSuffix}</span>
              </label>
              <input
                id={fieldId(line.key, "bundle")}
                name={`${line.key}.bundle`}
                type="text"
                inputMode="numeric"
                enterKeyHint="next"
                autoComplete="off"
                autoFocus={props.focusKey === line.key}
                size={6}
                value={line.bundle}
                aria-invalid={problem.bundle ? true : undefined}
                aria-describedby={error ? errorId : undefined}
                onChange={(e) => props.onChange(line.key, "bundle", e.target.value)}
              />
              <ScanButton
                customerId={props.customerId}
                label={`Skanna bunt${labelSuffix}`}
                onScanned={(bundle) => {
                  // The bundle filled in, the same as typed, and on to the amount.
                  props.onChange(line.key, "bundle", String(bundle));
                  document.getElementById(`${id}-amount`)?.focus();
                }}
              />
            </div>
          ) : (
            <span className="bundle-fixed">
              <input type="hidden" name={`${line.key}.bundle`} value={line.bundle} />
              <span className="label-inline">Bunt</span> {line.bundle}
              {locked ? (
                <span className="lock" title={pastDeadline ? "Sista returdag har passerat" : "Stängd bunt"}>
                  <LockIcon label={pastDeadline ? "Sista returdag har passerat" : "Stängd bunt"} />
                </span>
              ) : null}
            </span>
          )}
        </td>
        <td>
          {bundleEditable && pastDeadline ? (
            <span className="muted">
              <input type="hidden" name={`${line.key}.amount`} value="" />
              {RETURN_MESSAGES.pastDeadline(paper.deadline)}
            </span>
          ) : locked ? (
            <span>
              <input type="hidden" name={`${line.key}.amount`} value={line.amount} />
              <span className="label-inline">Retur</span> {line.amount}
            </span>
          ) : (
            <div className="field compact">
              <label htmlFor={`${id}-amount`}>
                Retur<span className="visually-hidden">{labelSuffix}</span>
              </label>
              <input
                id={fieldId(line.key, "amount")}
                name={`${line.key}.amount`}
                type="text"
                inputMode="numeric"
                enterKeyHint={props.lastAmountKey === line.key ? "done" : "next"}
                autoComplete="off"
                size={4}
                value={line.amount}
                aria-invalid={problem.amount ? true : undefined}
                aria-describedby={[hintId, error ? errorId : ""].filter(Boolean).join(" ")}
                onChange={(e) => props.onChange(line.key, "amount", e.target.value)}
              />
              <small id={hintId} className="hint">
                {deliveredHint(paper.delivered, line.split ? above : 0)}
              </small>
            </div>
          )}
          {error ? (
            <div id={errorId} className="field-error" role="alert">
              {error}
            </div>
          ) : null}
        </td>
        <td className="row-actions">
          {pastDeadline ? null : line.split ? (
            <button type="submit" name="intent" value={`undo:${line.key}`} {...backToRow(`rad-${lines[0]?.key ?? line.key}`)} onClick={(e) => props.onUndo(e, line.key)}>
              Ångra<span className="visually-hidden">{labelSuffix}</span>
            </button>
          ) : index === 0 ? (
            <>
              <button type="submit" name="intent" value={`split:${paper.deliveryId}`} {...backToRow(newRowField)} onClick={props.onSplit}>
                {state === 1 ? "Ny bunt" : "Tilläggsrapportera"}
                <span className="visually-hidden">{labelSuffix}</span>
              </button>
              {state === 1 ? (
                <button
                  type="submit"
                  name="intent"
                  value={`soldout:${line.key}`}
                  aria-pressed={isSoldOut(line)}
                  {...backToRow(`rad-${line.key}`)}
                  onClick={(e) => props.onSoldOut(e, line.key)}
                >
                  Slutsåld<span className="visually-hidden">{labelSuffix}</span>
                </button>
              ) : null}
            </>
          ) : null}
        </td>
      </tr>
    );
  });
  if (lines.length === 0) {
    // State 2 paper whose return lines all went: still offer an addition.
    rows.push(
      <tr key="empty" id={`rad-d${paper.deliveryId}`}>
        <td>{titleCell}</td>
        {paper.type === 1 ? <td>{paper.edition}</td> : null}
        <td>{paper.deliveryDate}</td>
        {deadlineCell}
        <td colSpan={2} className="muted">
          Inga returer
        </td>
        <td className="row-actions">
          {pastDeadline ? null : (
            <button type="submit" name="intent" value={`split:${paper.deliveryId}`} {...backToRow(newRowField)} onClick={props.onSplit}>
              Tilläggsrapportera<span className="visually-hidden">{labelSuffix}</span>
            </button>
          )}
        </td>
      </tr>,
    );
  }
  return <>{rows}</>;
}
