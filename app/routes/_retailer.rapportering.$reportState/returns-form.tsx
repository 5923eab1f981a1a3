// The returns form: a table per paper type, a row per paper (more with Ny bunt /
// Tilläggsrapportera). With JavaScript the row buttons change the rows in place; without
// it they post (intent split/undo/soldout) and the action answers with the changed rows.
import { PAPER_TYPE_HEADING } from "~/catalog";
import { Form, Link } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { paperName } from "~/catalog";
import { BUNDLE_NUMBER } from "~/catalog";
import { RETURN_MESSAGES, dayWord, addSplit, initialLines, isSoldOut, toggleSoldOut, typedInto, withTypeBundle, type FormLine, type RowProblems } from "~/features/returns";
import type { OpenBundle } from "~/features/bundles/index.server";
import type { Paper, ReportState } from "~/features/returns/index.server";
import { AskDialog } from "~/ui/ask-dialog";
import { BundleChips } from "~/ui/bundle-progress";
import { ErrorSummary, type SummaryItem } from "~/ui/error-summary";
import { CsrfInput } from "~/ui/csrf";
import { useHydrated } from "~/ui/use-hydrated";
import { editableFields, fieldId, isPastDeadline, PaperRows } from "./paper-rows";


/** The action's answer to a row button without JavaScript, or to a refused save: the lines as typed. */
export type ReturnsAnswer = {
  lines: FormLine[];
  errors: Record<string, string>;
  /** A refused save: each refused field's message, for the error summary's links. */
  problems?: Record<string, RowProblems>;
  formError?: string;
  /** After Ny bunt without JavaScript: the new line, whose bundle field gets the focus. */
  focus?: string;
  /** "Bunt för huvudtidningar/bilagor" as typed, and its refusal (a bundle number that is no number). */
  typeBundles?: Record<0 | 1, string>;
  typeErrors?: Partial<Record<0 | 1, string>>;
  token: string;
  nonce: string;
  /** Papers the refused form had rows for that the page no longer lists (another tab reported them). */
  keptPapers?: Paper[];
};

type ReturnsFormData = {
  state: ReportState;
  papers: Paper[];
  openBundles: OpenBundle[];
  defaults: Record<number, number | null>;
  token: string;
  customerId: number;
  /** The signed owner field: whose form this is (two shops, one browser). */
  owner: string;
  /** Stockholm's date: Ändra/tillägg names its days "i dag", "tis 24/11". */
  today: string;
  latePolicy: "reject" | "accept";
  /** The labels on hand, in words, when a paper type has no open bundle (state 1): its field names them. */
  labels: string | null;
};

export function ReturnsForm({ loaderData, actionData }: { loaderData: ReturnsFormData; actionData?: ReturnsAnswer }) {
  const { state, openBundles, defaults } = loaderData;
  const listed = new Set(loaderData.papers.map((p) => p.deliveryId));
  const papers = [...loaderData.papers, ...(actionData?.keptPapers ?? []).filter((p) => !listed.has(p.deliveryId))];
  // Both ways the server pre-fills the default bundle; "Bunt för huvudtidningar – Byt" changes it for the untouched rows.
  const hydrated = useHydrated();
  // The save is a document POST (reloadDocument below): no navigation state to read, so
  // the button remembers that it was pressed (the server ignores a second press anyway).
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    // Back to this page from the browser's cache: the save it started is over.
    const shown = (e: PageTransitionEvent) => e.persisted && setSaving(false);
    window.addEventListener("pageshow", shown);
    return () => window.removeEventListener("pageshow", shown);
  }, []);
  const [lines, setLines] = useState<FormLine[]>(() => actionData?.lines ?? initialLines(papers, state, defaults));
  const formRef = useRef<HTMLFormElement>(null);
  // What a slow phone let the user type before React took over stays: read it back once on hydration.
  useEffect(() => {
    const form = formRef.current;
    if (!form) return;
    const read = (name: string) => {
      const el = form.elements.namedItem(name);
      return el instanceof HTMLInputElement ? el.value : null;
    };
    setLines((ls) =>
      ls.map((l) => {
        const bundle = read(`${l.key}.bundle`);
        const typed = bundle !== null && bundle !== l.bundle ? typedInto(l, "bundle", bundle) : l;
        return { ...typed, amount: read(`${l.key}.amount`) ?? l.amount };
      }),
    );
  }, []);
  const errors = actionData?.errors ?? {};
  const problems = actionData?.problems ?? {};
  const token = actionData?.token || loaderData.token;
  const latePolicy = loaderData.latePolicy;
  const today = loaderData.today;
  // Ändra/tillägg shows the newest day first (the server lists the oldest first).
  const inPageOrder = (list: Paper[]) => (state === 2 ? [...list].sort((a, b) => b.deliveryDate.localeCompare(a.deliveryDate)) : list);
  const daysOf = (list: Paper[]): [string, Paper[]][] => {
    const days = new Map<string, Paper[]>();
    for (const p of inPageOrder(list)) days.set(p.deliveryDate, [...(days.get(p.deliveryDate) ?? []), p]);
    return [...days];
  };
  // The lines in the order the page shows them (main papers, then inserts), with their paper.
  const shown = ([0, 1] as const).flatMap((type) =>
    inPageOrder(papers.filter((p) => p.type === type)).flatMap((paper) => lines.filter((l) => l.deliveryId === paper.deliveryId).map((line) => ({ paper, line }))),
  );
  const amountFields = shown.filter(({ paper, line }) => editableFields(paper, line, latePolicy).amount).map(({ line }) => line.key);
  const lastAmountKey = amountFields.at(-1) ?? null;

  // The error summary: each refused field of each row, in the page's order, linked to its input.
  const summary: SummaryItem[] = shown.flatMap(({ paper, line }) => {
    const p = problems[line.key] ?? (errors[line.key] ? { amount: errors[line.key] } : undefined);
    if (!p) return [];
    const editable = editableFields(paper, line, latePolicy);
    const name = `${paperName(paper.title, paper.edition)} ${paper.deliveryDate}`;
    return (["bundle", "amount"] as const).flatMap((field) => {
      const message = p[field];
      if (!message) return [];
      const target = editable[field] ? fieldId(line.key, field) : editable.amount ? fieldId(line.key, "amount") : `rad-${line.key}`;
      return [{ href: `#${target}` as const, text: `${name}, ${field === "bundle" ? "Bunt" : "Retur"}: ${message}` }];
    });
  });

  // "Bunt för huvudtidningar/bilagor – Byt": the bundle the type's untouched rows are given.
  const [typeBundles, setTypeBundles] = useState<Record<0 | 1, string>>(
    () => actionData?.typeBundles ?? { 0: defaults[0] ? String(defaults[0]) : "", 1: defaults[1] ? String(defaults[1]) : "" },
  );
  const [typeErrors, setTypeErrors] = useState<Partial<Record<0 | 1, string>>>(actionData?.typeErrors ?? {});
  const applyTypeBundle = (type: 0 | 1) => {
    const bundle = typeBundles[type].trim();
    if (!BUNDLE_NUMBER.test(bundle) || Number(bundle) < 1) {
      setTypeErrors((t) => ({ ...t, [type]: RETURN_MESSAGES.unreasonableBundle }));
      return;
    }
    setTypeErrors((t) => ({ ...t, [type]: undefined }));
    const ofType = new Set(papers.filter((p) => p.type === type).map((p) => p.deliveryId));
    setLines((ls) => withTypeBundle(ls, ofType, bundle));
  };

  // After Ny bunt (JavaScript): the new row's bundle field gets the focus.
  const [focusKey, setFocusKey] = useState<string | null>(null);
  useEffect(() => {
    if (!focusKey) return;
    document.getElementById(fieldId(focusKey, "bundle"))?.focus();
    setFocusKey(null);
  }, [focusKey]);

  // Saving with papers left blank asks once (JavaScript only; without it the form is sent as it is).
  const [asking, setAsking] = useState<{ filled: number; total: number } | null>(null);
  // A form that came back refused was asked already (or was sent without JavaScript).
  const asked = useRef(Object.keys(errors).length > 0);
  const blankCount = () => {
    const open = papers.filter((p) => !isPastDeadline(p, latePolicy));
    const filled = open.filter((p) => lines.some((l) => l.deliveryId === p.deliveryId && (l.amount.trim() !== "" || (l.bundle.trim() !== "" && l.bundle !== l.dflt))));
    return { filled: filled.length, total: open.length };
  };
  const saveButton = useRef<HTMLButtonElement>(null);

  const update = (key: string, field: "bundle" | "amount", value: string) =>
    setLines((ls) => ls.map((l) => (l.key === key ? typedInto(l, field, value) : l)));
  const onButton = (e: React.MouseEvent, change: (ls: FormLine[]) => FormLine[]) => {
    if (!hydrated) return;
    e.preventDefault();
    setLines(change);
  };

  // Enter (a phone's "Nästa") moves on instead of saving: in a half-typed row to its missing
  // field, from a bundle to its Retur, from a Retur to the next paper's Retur. Enter in the
  // last Retur field saves, as the Spara button does. The server refuses half rows anyway.
  const onKeyDown = (e: React.KeyboardEvent<HTMLFormElement>) => {
    if (e.key !== "Enter" || !(e.target instanceof HTMLInputElement)) return;
    const match = /^(.+)\.(bundle|amount)$/.exec(e.target.name);
    const line = match ? lines.find((l) => l.key === match[1]) : undefined;
    if (!match || !line) return;
    const missing = match[2] === "bundle" ? "amount" : line.amount.trim() !== "" && line.bundle.trim() === "" && !isSoldOut(line) ? "bundle" : null;
    const nextKey = missing ? line.key : amountFields[amountFields.indexOf(line.key) + 1];
    const next = nextKey ? document.getElementById(fieldId(nextKey, missing ?? "amount")) : null;
    if (next instanceof HTMLInputElement) {
      e.preventDefault();
      next.focus();
      next.select();
    }
  };

  // One table of a paper type's rows (a day's, in Ändra/tillägg).
  const table = (type: 0 | 1, rowsPapers: Paper[]) => (
    <div className="table-wrap">
      <table className="returns-table">
        <thead>
          <tr>
            <th scope="col">Titel</th>
            {type === 1 ? <th scope="col">Utgåva</th> : null}
            <th scope="col">Utgivningsdag</th>
            <th scope="col">Sista returdag</th>
            <th scope="col">Bunt</th>
            <th scope="col">Retur</th>
            <th scope="col">
              <span className="visually-hidden">Åtgärder</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rowsPapers.map((paper) => (
            <PaperRows
              key={paper.deliveryId}
              paper={paper}
              state={state}
              lines={lines.filter((l) => l.deliveryId === paper.deliveryId)}
              errors={errors}
              problems={problems}
              lastAmountKey={lastAmountKey}
              focusKey={actionData?.focus}
              onChange={update}
              customerId={loaderData.customerId}
              latePolicy={loaderData.latePolicy}
              onSplit={(e) =>
                onButton(e, (ls) => {
                  const next = addSplit(ls, paper.deliveryId);
                  setFocusKey(next.find((l) => !ls.includes(l))?.key ?? null);
                  return next;
                })
              }
              onUndo={(e, key) => onButton(e, (ls) => ls.filter((l) => l.key !== key))}
              onSoldOut={(e, key) => onButton(e, (ls) => ls.map((l) => (l.key === key ? toggleSoldOut(l) : l)))}
            />
          ))}
        </tbody>
      </table>
    </div>
  );

  return (
    // reloadDocument: the save goes to the server as the browser's own POST, the way it does
    // without JavaScript, and the next page (the confirm step, or this one with the refusals)
    // comes as HTML, painted as soon as it arrives. On a slow phone that is faster than
    // fetching the data and rendering it in the browser (bench B9: 2.3 s against 1.5 s with
    // the CPU slowed ×6 and 400 kbps); the row buttons stay in the browser (onButton).
    <Form
      method="post"
      reloadDocument
      className="returns-form"
      noValidate
      ref={formRef}
      onKeyDown={onKeyDown}
      onSubmit={(e) => {
        const submitter = (e.nativeEvent as SubmitEvent).submitter;
        if (e.defaultPrevented || !(submitter instanceof HTMLButtonElement) || submitter.value !== "save") return;
        const count = state === 1 && !asked.current ? blankCount() : null;
        if (count && count.filled > 0 && count.filled < count.total) {
          e.preventDefault();
          asked.current = true;
          setAsking(count);
          return;
        }
        setSaving(true);
      }}
    >
      {asking ? (
        <AskDialog
          title={`Du har fyllt i ${asking.filled} av ${asking.total} tidningar – spara ändå?`}
          confirmLabel="Spara ändå"
          cancelLabel="Fyll i fler"
          onConfirm={() => {
            setAsking(null);
            formRef.current?.requestSubmit(saveButton.current ?? undefined);
          }}
          onCancel={() => setAsking(null)}
        >
          <p>Tidningar utan antal sparas inte nu. De finns kvar att rapportera.</p>
        </AskDialog>
      ) : null}
      <CsrfInput />
      {/* Enter in the last Retur field (or in any field without JavaScript) saves: the first submit button of a form is its default. */}
      <button type="submit" name="intent" value="save" className="visually-hidden" tabIndex={-1} aria-hidden="true">
        Spara
      </button>
      <input type="hidden" name="token" value={token} />
      <input type="hidden" name="kund" value={loaderData.owner} />
      {actionData?.formError ? (
        <p className="field-error" role="alert">
          {actionData.formError}
        </p>
      ) : summary.length > 0 ? (
        <ErrorSummary title={RETURN_MESSAGES.fixLines} items={summary} />
      ) : Object.keys(errors).length > 0 ? (
        <p className="field-error" role="alert">
          {RETURN_MESSAGES.fixLines}
        </p>
      ) : null}
      {([0, 1] as const).map((type) => {
        const typePapers = papers.filter((p) => p.type === type);
        const headingId = `type-${type}`;
        return (
          <section key={type} aria-labelledby={headingId} className="paper-type">
            <h2 id={headingId}>{PAPER_TYPE_HEADING[type]}</h2>
            <BundleChips bundles={openBundles.filter((b) => b.type === type)} />
            {state === 1 && typePapers.length > 0 ? (
              <div className="type-bundle">
                <div className="field compact">
                  <label htmlFor={`type-${type}-bundle`}>{type === 0 ? "Bunt för huvudtidningar" : "Bunt för bilagor"}</label>
                  <input
                    id={`type-${type}-bundle`}
                    name={`typeBundle${type}`}
                    type="text"
                    inputMode="numeric"
                    autoComplete="off"
                    size={6}
                    value={typeBundles[type]}
                    aria-invalid={typeErrors[type] ? true : undefined}
                    aria-describedby={`type-${type}-bundle-hint${typeErrors[type] ? ` type-${type}-bundle-error` : ""}`}
                    onChange={(e) => setTypeBundles((t) => ({ ...t, [type]: e.target.value }))}
                    onKeyDown={(e) => {
                      // Enter here changes the bundle (Byt); it never saves.
                      if (e.key !== "Enter") return;
                      e.preventDefault();
                      e.stopPropagation();
                      applyTypeBundle(type);
                    }}
                  />
                  <button
                    type="submit"
                    name="intent"
                    value={`bundle:${type}`}
                    onClick={(e) => {
                      if (!hydrated) return;
                      e.preventDefault();
                      applyTypeBundle(type);
                    }}
                  >
                    Byt<span className="visually-hidden">{type === 0 ? " bunt för huvudtidningar" : " bunt för bilagor"}</span>
                  </button>
                </div>
                <small id={`type-${type}-bundle-hint`} className="hint">
                  {loaderData.labels && !openBundles.some((b) => b.type === type) ? (
                    <>
                      Ingen öppen bunt: {loaderData.labels}. <Link to="/buntblock">Se dina buntblock</Link>
                    </>
                  ) : (
                    "Rader du inte har ändrat får detta buntnummer."
                  )}
                </small>
                {typeErrors[type] ? (
                  <div id={`type-${type}-bundle-error`} className="field-error" role="alert">
                    {typeErrors[type]}
                  </div>
                ) : null}
              </div>
            ) : null}
            {typePapers.length === 0 ? (
              <p>Inget att rapportera</p>
            ) : state === 2 ? (
              // Ändra/tillägg: the newest day first, a day per group; older days folded (open
              // when one of their rows was refused). Folded rows are still in the form.
              daysOf(typePapers).map(([date, dayPapers], i) => (
                <details key={date} className="day-group" open={i === 0 || dayPapers.some((p) => lines.some((l) => l.deliveryId === p.deliveryId && errors[l.key]))}>
                  <summary>
                    {dayWord(date, today)} ({date}) – {dayPapers.length === 1 ? "1 tidning" : `${dayPapers.length} tidningar`}
                  </summary>
                  {table(type, dayPapers)}
                </details>
              ))
            ) : (
              table(type, typePapers)
            )}
          </section>
        );
      })}
      {papers.length > 0 ? (
        <div className="save-bar">
          <button ref={saveButton} type="submit" name="intent" value="save" className="primary" disabled={saving}>
            {saving ? "Sparar…" : "Spara och fortsätt"}
          </button>
        </div>
      ) : null}
    </Form>
  );
}
