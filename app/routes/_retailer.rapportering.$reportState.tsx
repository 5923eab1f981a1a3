import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Outlet, data, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { randomUUID } from "node:crypto";
import { useEffect, useRef, useState } from "react";
import { requireRetailer } from "~/auth/guards.server";
import { redirectWithToast } from "~/auth/session.server";
import { BUSY_MESSAGE, busyReply, isDatabaseBusy } from "~/http/busy.server";
import { listOpenBundles } from "~/features/bundles/index.server";
import { applyIntent, addSplit, initialLines, linesFromForm, type FormLine } from "~/features/returns";
import { defaultBundlesOf, listPapers, saveReturns, type Paper, type ReportState } from "~/features/returns/index.server";
import { BundleChips } from "~/ui/bundle-progress";
import { useHydrated } from "~/ui/use-hydrated";
import { CsrfInput } from "~/ui/csrf";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.state === 2 ? "Ändra/tillägg" : "Returrapportera"} – Returportalen` },
];

function parseState(params: LoaderFunctionArgs["params"]): ReportState {
  if (params.reportState === "1") return 1;
  if (params.reportState === "2") return 2;
  throw new Response("Sidan finns inte.", { status: 404 });
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireRetailer(request, context);
  const state = parseState(params);
  const [papers, openBundles] = await Promise.all([listPapers(user.customerId, state), listOpenBundles(user.customerId)]);
  const defaults = defaultBundlesOf(openBundles);
  // One-time token of this rendering of the form: a resubmission is recognised and not applied twice.
  return { state, papers, openBundles, defaults, token: randomUUID() };
}

type ActionData = { lines: FormLine[]; errors: Record<string, string>; formError?: string; token: string; nonce: string };

export async function action({ request, params, context }: ActionFunctionArgs) {
  const user = await requireRetailer(request, context);
  const state = parseState(params);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "save");
  const token = String(form.get("token") ?? "").slice(0, 64);
  const lines = linesFromForm(form);
  const nonce = randomUUID();
  if (intent !== "save") {
    // Without JavaScript the row buttons come here: re-render what was typed, changed, nothing saved.
    const papers = await listPapers(user.customerId, state);
    const changed = applyIntent(lines, intent, new Set(papers.map((p) => p.deliveryId)));
    if (!changed) throw new Response("Okänd åtgärd.", { status: 400 });
    return data<ActionData>({ lines: changed, errors: {}, token, nonce });
  }
  let result;
  try {
    result = await saveReturns(
      user.customerId,
      state,
      token,
      lines.map((l) => ({ key: l.key, deliveryId: l.deliveryId, returnId: l.returnId, bundle: l.bundle, amount: l.amount, defaultBundle: l.dflt })),
    );
  } catch (error) {
    // Same token: a later try of this form is still applied once at most.
    if (isDatabaseBusy(error)) return busyReply<ActionData>({ lines, errors: {}, formError: BUSY_MESSAGE, token, nonce });
    throw error;
  }
  if (!result.ok) {
    return data<ActionData>({ lines, errors: result.errors, formError: result.formError, token, nonce }, { status: 400 });
  }
  return redirectWithToast(request, `/rapportering/${state}/bekrafta`, "Returerna är sparade.");
}

const TYPE_NAMES = ["Huvudtidningar", "Bilagor"] as const;

export default function ReturnsPage() {
  const loaderData = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as ActionData | undefined;
  const { state } = loaderData;
  return (
    <>
      <h1>{state === 1 ? "Returrapportera" : "Ändra/tillägg"}</h1>
      <Outlet />
      <details className="info">
        <summary>Så här rapporterar du</summary>
        {state === 1 ? (
          <p>
            Ange buntnumret och antalet returer för varje tidning. Slutsålda tidningar rapporteras med 0 (knappen
            Slutsåld). Ska en tidning läggas i flera buntar, tryck Ny bunt. Tryck sedan Spara och fortsätt och ange vilka
            buntar som ska stängas.
          </p>
        ) : (
          <p>
            Här ser du det du redan har rapporterat. Tryck Tilläggsrapportera för att lägga till returer i en öppen bunt.
            Rader i stängda buntar (markerade med lås) kan inte ändras; lägg extra returer i ett annat buntnummer.
          </p>
        )}
      </details>
      <p className="actions">
        <a className="button" href={`/rapportering/${state}/returer.pdf`} download="Returer.pdf">
          Skriv ut
        </a>
      </p>
      <ReturnsForm key={actionData?.nonce ?? loaderData.token} loaderData={loaderData} actionData={actionData} />
    </>
  );
}

type LoaderData = ReturnType<typeof useLoaderData<typeof loader>>;

function ReturnsForm({ loaderData, actionData }: { loaderData: LoaderData; actionData?: ActionData }) {
  const { state, papers, openBundles, defaults } = loaderData;
  // Without JavaScript the server's pre-filled bundle (the default) is all there is; with it, see onBundleChosen.
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const saving = navigation.state === "submitting" && navigation.formData?.get("intent") === "save";
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
    setLines((ls) => ls.map((l) => ({ ...l, bundle: read(`${l.key}.bundle`) ?? l.bundle, amount: read(`${l.key}.amount`) ?? l.amount })));
  }, []);
  const errors = actionData?.errors ?? {};
  const token = actionData?.token || loaderData.token;

  const update = (key: string, field: "bundle" | "amount", value: string) =>
    setLines((ls) => ls.map((l) => (l.key === key ? { ...l, [field]: value } : l)));
  const onButton = (e: React.MouseEvent, change: (ls: FormLine[]) => FormLine[]) => {
    if (!hydrated) return;
    e.preventDefault();
    setLines(change);
  };

  return (
    <Form method="post" className="returns-form" noValidate ref={formRef}>
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
          Inget sparades. Rätta raderna som är markerade nedan.
        </p>
      ) : null}
      {([0, 1] as const).map((type) => {
        const typePapers = papers.filter((p) => p.type === type);
        const headingId = `type-${type}`;
        return (
          <section key={type} aria-labelledby={headingId} className="paper-type">
            <h2 id={headingId}>{TYPE_NAMES[type]}</h2>
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
                        onBundleChosen={(line, value) => {
                          // Spec 4 "remembered per type": a bundle chosen on a paper's first line becomes the
                          // pre-filled bundle of the untouched lines of that type (no amount, bundle not edited).
                          if (line.split || !/^\d{1,5}$/.test(value)) return;
                          const ofType = new Set(typePapers.map((p) => p.deliveryId));
                          setLines((ls) =>
                            ls.map((l) =>
                              l.key !== line.key && !l.split && !l.returnId && ofType.has(l.deliveryId) && l.amount.trim() === "" && (l.bundle === "" || l.bundle === l.dflt)
                                ? { ...l, bundle: value, dflt: value }
                                : l,
                            ),
                          );
                        }}
                        onSplit={(e) => onButton(e, (ls) => addSplit(ls, paper.deliveryId))}
                        onUndo={(e, key) => onButton(e, (ls) => ls.filter((l) => l.key !== key))}
                        onSoldOut={(e, key) => onButton(e, (ls) => ls.map((l) => (l.key === key ? { ...l, amount: "0" } : l)))}
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

function PaperRows(props: {
  paper: Paper;
  state: ReportState;
  lines: FormLine[];
  errors: Record<string, string>;
  onChange: (key: string, field: "bundle" | "amount", value: string) => void;
  onBundleChosen: (line: FormLine, value: string) => void;
  onSplit: (e: React.MouseEvent) => void;
  onUndo: (e: React.MouseEvent, key: string) => void;
  onSoldOut: (e: React.MouseEvent, key: string) => void;
}) {
  const { paper, state, lines, errors } = props;
  const name = paper.type === 1 ? `${paper.title} ${paper.edition}` : paper.title;
  const labelSuffix = ` för ${name} ${paper.deliveryDate}`;
  const returnOpen = new Map(paper.returns.map((r) => [r.id, r.open]));
  let entered = 0;
  const rows = lines.map((line, index) => {
    // Spec 4: a split line's hint is the delivered amount less what the lines above already hold.
    const left = Math.max(paper.delivered - entered, 0);
    const typed = Number(line.amount);
    if (line.amount.trim() !== "" && Number.isFinite(typed)) entered += typed;
    const locked = line.returnId !== undefined && returnOpen.get(line.returnId) === false;
    const error = errors[line.key];
    const id = `l-${line.key}`;
    const hintId = `${id}-hint`;
    const errorId = `${id}-error`;
    const bundleEditable = line.returnId === undefined;
    return (
      <tr key={line.key} className={line.split ? "split-row" : undefined}>
        <td data-label="Titel">{index === 0 ? paper.title : <span className="muted">↳ {paper.title}</span>}</td>
        {paper.type === 1 ? <td data-label="Utgåva">{paper.edition}</td> : null}
        <td data-label="Utgivningsdag">{paper.deliveryDate}</td>
        <td>
          <input type="hidden" name="line" value={line.key} />
          <input type="hidden" name={`${line.key}.delivery`} value={paper.deliveryId} />
          <input type="hidden" name={`${line.key}.dflt`} value={line.dflt} />
          {bundleEditable ? (
            <div className="field compact">
              <label htmlFor={`${id}-bundle`}>
                Bunt<span className="visually-hidden">{labelSuffix}</span>
              </label>
              <input
                id={`${id}-bundle`}
                name={`${line.key}.bundle`}
                type="text"
                inputMode="numeric"
                autoComplete="off"
                size={6}
                value={line.bundle}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? errorId : undefined}
                onChange={(e) => props.onChange(line.key, "bundle", e.target.value)}
                onBlur={(e) => props.onBundleChosen(line, e.target.value.trim())}
              />
            </div>
          ) : (
            <span className="bundle-fixed">
              <input type="hidden" name={`${line.key}.bundle`} value={line.bundle} />
              <span className="label-inline">Bunt</span> {line.bundle}
              {locked ? (
                <span className="lock" role="img" aria-label="Stängd bunt" title="Stängd bunt">
                  🔒
                </span>
              ) : null}
            </span>
          )}
        </td>
        <td>
          {locked ? (
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
                id={`${id}-amount`}
                name={`${line.key}.amount`}
                type="text"
                inputMode="numeric"
                autoComplete="off"
                size={4}
                value={line.amount}
                aria-invalid={error ? true : undefined}
                aria-describedby={[hintId, error ? errorId : ""].filter(Boolean).join(" ")}
                onChange={(e) => props.onChange(line.key, "amount", e.target.value)}
              />
              <small id={hintId} className="hint">
                {`Levererat antal: ${line.split ? left : paper.delivered}`}
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
          {line.split ? (
            <button type="submit" name="intent" value={`undo:${line.key}`} onClick={(e) => props.onUndo(e, line.key)}>
              Ångra<span className="visually-hidden">{labelSuffix}</span>
            </button>
          ) : index === 0 ? (
            <>
              <button type="submit" name="intent" value={`split:${paper.deliveryId}`} onClick={props.onSplit}>
                {state === 1 ? "Ny bunt" : "Tilläggsrapportera"}
                <span className="visually-hidden">{labelSuffix}</span>
              </button>
              {state === 1 ? (
                <button type="submit" name="intent" value={`soldout:${line.key}`} onClick={(e) => props.onSoldOut(e, line.key)}>
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
      <tr key="empty">
        <td>{paper.title}</td>
        {paper.type === 1 ? <td>{paper.edition}</td> : null}
        <td>{paper.deliveryDate}</td>
        <td colSpan={2} className="muted">
          Inga returer
        </td>
        <td className="row-actions">
          <button type="submit" name="intent" value={`split:${paper.deliveryId}`} onClick={props.onSplit}>
            Tilläggsrapportera<span className="visually-hidden">{labelSuffix}</span>
          </button>
        </td>
      </tr>,
    );
  }
  return <>{rows}</>;
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
