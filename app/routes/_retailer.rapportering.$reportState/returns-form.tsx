// The returns form: a table per paper type, a row per paper (more with Ny bunt /
// Tilläggsrapportera). With JavaScript the row buttons change the rows in place; without
// it they post (intent split/undo/soldout) and the action answers with the changed rows.
import { BUNDLE_NUMBER, PAPER_TYPE_HEADING } from "~/catalog";
import { Form } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { RETURN_MESSAGES, addSplit, initialLines, isSoldOut, soldOut, typedInto, type FormLine } from "~/features/returns";
import type { OpenBundle } from "~/features/bundles/index.server";
import type { Paper, ReportState } from "~/features/returns/index.server";
import { BundleChips } from "~/ui/bundle-progress";
import { CsrfInput } from "~/ui/csrf";
import { useHydrated } from "~/ui/use-hydrated";
import { PaperRows } from "./paper-rows";


/** The action's answer to a row button without JavaScript, or to a refused save: the lines as typed. */
export type ReturnsAnswer = {
  lines: FormLine[];
  errors: Record<string, string>;
  formError?: string;
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
  latePolicy: "reject" | "accept";
};

export function ReturnsForm({ loaderData, actionData }: { loaderData: ReturnsFormData; actionData?: ReturnsAnswer }) {
  const { state, openBundles, defaults } = loaderData;
  const listed = new Set(loaderData.papers.map((p) => p.deliveryId));
  const papers = [...loaderData.papers, ...(actionData?.keptPapers ?? []).filter((p) => !listed.has(p.deliveryId))];
  // Without JavaScript the server's pre-filled bundle (the default) is all there is; with it, see onBundleChosen.
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
  const token = actionData?.token || loaderData.token;

  const update = (key: string, field: "bundle" | "amount", value: string) =>
    setLines((ls) => ls.map((l) => (l.key === key ? typedInto(l, field, value) : l)));
  const onButton = (e: React.MouseEvent, change: (ls: FormLine[]) => FormLine[]) => {
    if (!hydrated) return;
    e.preventDefault();
    setLines(change);
  };

  // Enter in a half-typed row moves on to the row's missing field instead of saving
  // (issue 17 §4); Enter in a complete row saves, as before. The server refuses half rows anyway.
  const onKeyDown = (e: React.KeyboardEvent<HTMLFormElement>) => {
    if (e.key !== "Enter" || !(e.target instanceof HTMLInputElement)) return;
    const match = /^(.+)\.(bundle|amount)$/.exec(e.target.name);
    const line = match ? lines.find((l) => l.key === match[1]) : undefined;
    if (!match || !line) return;
    const missing = match[2] === "bundle" ? (line.amount.trim() === "" ? "amount" : null) : line.bundle.trim() === "" && !isSoldOut(line) ? "bundle" : null;
    const next = missing ? formRef.current?.elements.namedItem(`${line.key}.${missing}`) : null;
    if (next instanceof HTMLInputElement && next.type !== "hidden") {
      e.preventDefault();
      next.focus();
      next.select();
    }
  };

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
        if (!e.defaultPrevented && submitter instanceof HTMLButtonElement && submitter.value === "save") setSaving(true);
      }}
    >
      <CsrfInput />
      {/* Enter in a field saves: the first submit button of a form is its default. */}
      <button type="submit" name="intent" value="save" className="visually-hidden" tabIndex={-1} aria-hidden="true">
        Spara
      </button>
      <input type="hidden" name="token" value={token} />
      {actionData?.formError ? (
        <p className="field-error" role="alert">
          {actionData.formError}
        </p>
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
            {typePapers.length === 0 ? (
              <p>Inget att rapportera</p>
            ) : (
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
                    {typePapers.map((paper) => (
                      <PaperRows
                        key={paper.deliveryId}
                        paper={paper}
                        state={state}
                        lines={lines.filter((l) => l.deliveryId === paper.deliveryId)}
                        errors={errors}
                        onChange={update}
                        customerId={loaderData.customerId}
                        latePolicy={loaderData.latePolicy}
                        onBundleChosen={(line, value) => {
                          // Spec 4 "remembered per type": a bundle chosen on a paper's first line becomes the
                          // pre-filled bundle of the untouched lines of that type (no amount, bundle not edited).
                          if (line.split || !BUNDLE_NUMBER.test(value)) return;
                          const ofType = new Set(typePapers.map((p) => p.deliveryId));
                          setLines((ls) =>
                            ls.map((l) =>
                              l.key !== line.key && !l.split && !l.returnId && ofType.has(l.deliveryId) && !l.touched && l.amount.trim() === "" && (l.bundle === "" || l.bundle === l.dflt)
                                ? { ...l, bundle: value, dflt: value }
                                : l,
                            ),
                          );
                        }}
                        onSplit={(e) => onButton(e, (ls) => addSplit(ls, paper.deliveryId))}
                        onUndo={(e, key) => onButton(e, (ls) => ls.filter((l) => l.key !== key))}
                        onSoldOut={(e, key) => onButton(e, (ls) => ls.map((l) => (l.key === key ? soldOut(l) : l)))}
                      />
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>
        );
      })}
      {papers.length > 0 ? (
        <div className="save-bar">
          <button type="submit" name="intent" value="save" className="primary" disabled={saving}>
            {saving ? "Sparar…" : "Spara och fortsätt"}
          </button>
        </div>
      ) : null}
    </Form>
  );
}
