// Leveransändringar (decision 037): the queue of requests for fewer or more copies, filtered by
// status, distributor, title and start date; several decided at once from the boxes; the
// suggestions of one distributor's shops, proposed to them from the boxes; a proposal of
// staff's own; and the file for planning with the exports made. Admin and sales see every
// distributor, a utb user their own.
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { requireStaff } from "~/auth/guards.server";
import { redirectWithToast } from "~/auth/session.server";
import { EDITIONS, TITLES, paperName } from "~/catalog";
import { listDistributors, scopeFor } from "~/features/distribution/index.server";
import {
  APPROVE_CHOSEN,
  EXPORT,
  PROPOSE_CHOSEN,
  PROPOSE_OWN,
  REJECT_CHOSEN,
  SUPPLY_QUEUE_FILTERS,
  StaffSupplySchema,
  supplyStatusText,
  type SupplyQueueFilter,
  supplyWhen,
  weekdayName,
  weekdayTitle,
} from "~/features/supply";
import {
  SUPPLY_PAGE_SIZE,
  decideSupplyChanges,
  exportSupplyChanges,
  proposeSupplyChanges,
  proposeSuggestions,
  supplyExports,
  supplyQueue,
  supplySuggestions,
} from "~/features/supply/index.server";
import { handleForm } from "~/http/form.server";
import { stockholmTime } from "~/lib/dates";
import { param, readSearch } from "~/lib/search-params";
import { CsrfInput } from "~/ui/csrf";
import { DistributorSelect } from "~/ui/distributor-select";
import { PlainField } from "~/ui/field";
import { replyError, replyValue } from "~/ui/form-reply";
import { Pager, pageCount } from "~/ui/pager";
import { withParams } from "~/ui/period-presets";
import staffStyles from "~/ui/staff-monitoring.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: staffStyles }];

export const meta: MetaFunction = () => [{ title: "Leveransändringar – Returportalen" }];

const FILTER_LABELS: Record<SupplyQueueFilter, string> = {
  oppna: "Öppna (skickade och föreslagna)",
  "ej-beslutade": "Ej beslutade före brytpunkten",
  "att-skicka": "Beslutade, ej skickade till planeringen",
  "ej-genomforda": "Ej genomförda",
  alla: "Alla",
  sent: "Skickade",
  approved: "Godkända",
  adjusted: "Justerade",
  rejected: "Avslagna",
  withdrawn: "Återtagna",
  proposed: "Föreslagna",
  declined: "Avböjda",
  in_force: "I kraft",
};

const MAIN_PAPERS = EDITIONS.filter((e) => e.type === 0).map((e) => ({ value: `${e.titleId}:${e.editionId}`, label: paperName(TITLES.find((t) => t.id === e.titleId)!.name, e.description) }));

/** How many suggestions the page shows at once (the rest after those are proposed). */
const SUGGESTIONS_SHOWN = 100;

// The queue's own search: an unknown status, title or date is the default, never an error;
// a distributor that is not a number is answered as unknown.
const QUEUE_SEARCH = {
  visa: param.oneOf(SUPPLY_QUEUE_FILTERS, "oppna"),
  utb: param.ref(/^\d{1,6}$/),
  titel: param.maybeOneOf(["1", "2"]),
  fran: param.date(),
  till: param.date(),
  sida: param.page(),
};

function readQuery(request: Request) {
  const q = readSearch(request, QUEUE_SEARCH);
  return {
    raw: { visa: q.visa, utb: q.utb === undefined || q.utb === null ? "" : String(q.utb), titel: q.titel ?? "", fran: q.fran ?? "", till: q.till ?? "" },
    unknownDistributor: q.utb === null,
    query: { filter: q.visa, distributorId: q.utb ?? null, titleId: q.titel === null ? null : Number(q.titel), startFrom: q.fran, startTo: q.till, page: q.sida },
  };
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireStaff(request, context, ["admin", "sales", "utb"]);
  const scope = scopeFor(user);
  const { raw, unknownDistributor, query } = readQuery(request);
  const distributors = await listDistributors(scope);
  if (unknownDistributor || (query.distributorId !== null && !distributors.some((d) => d.id === query.distributorId))) throw new Response("Distributören finns inte.", { status: 404 });
  // A utb user's suggestions are their own distributor's; others choose one.
  const suggestFor = query.distributorId ?? (scope.distributorIds?.length === 1 ? scope.distributorIds[0] : null);
  const [queue, suggestions, exports] = await Promise.all([
    supplyQueue(query, scope),
    suggestFor === null ? null : supplySuggestions({ distributorId: suggestFor }, scope),
    supplyExports(scope),
  ]);
  return {
    raw,
    distributors,
    page: query.page,
    pages: pageCount(queue.total, SUPPLY_PAGE_SIZE),
    total: queue.total,
    rows: queue.rows,
    suggestions: suggestions === null ? null : { count: suggestions.length, shown: suggestions.slice(0, SUGGESTIONS_SHOWN) },
    exports: exports.map((e) => ({ ...e, at: stockholmTime(e.createdAt).slice(0, 16) })),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireStaff(request, context, ["admin", "sales", "utb"]);
  const scope = scopeFor(user);
  const staff = { actor: user.actor, email: user.email };
  const url = new URL(request.url);
  const back = `${url.pathname}${url.search}`;
  return handleForm(request, StaffSupplySchema, async (v) => {
    if (v.intent === APPROVE_CHOSEN || v.intent === REJECT_CHOSEN) {
      const ids = await decideSupplyChanges(v.andring, v.intent === APPROVE_CHOSEN ? { decision: "approve" } : { decision: "reject", reason: v.anledning }, scope, staff);
      const what = v.intent === APPROVE_CHOSEN ? (ids.length === 1 ? "godkänd" : "godkända") : ids.length === 1 ? "avslagen" : "avslagna";
      return redirectWithToast(request, back, `${ids.length === 1 ? `Ändring ${ids[0]}` : `${ids.length} ändringar`} ${what}.`);
    }
    if (v.intent === PROPOSE_CHOSEN) {
      const chosen = v.forslag.map((value) => {
        const [customerId, titleId, editionId, weekday, copies] = value.split(":").map(Number);
        return { customerId, titleId, editionId, weekday, copies };
      });
      const ids = await proposeSuggestions(chosen, scope, staff);
      return redirectWithToast(request, back, ids.length === 1 ? `Ändring ${ids[0]} är föreslagen för butiken.` : `${ids.length} ändringar är föreslagna för butikerna.`);
    }
    if (v.intent === PROPOSE_OWN) {
      const [id] = await proposeSupplyChanges(
        [{ customerId: v.kund, titleId: v.tidning.titleId, editionId: v.tidning.editionId, weekday: v.veckodag ?? null, date: v.datum ?? null, copies: v.antal, reason: v.anledning }],
        scope,
        staff,
      );
      return redirectWithToast(request, back, `Ändring ${id} är föreslagen för kund ${v.kund}.`);
    }
    const made = await exportSupplyChanges(scope, user.email, user.actor);
    if (!made) return redirectWithToast(request, back, "Inga beslutade ändringar att skicka till planeringen.");
    return redirectWithToast(request, `/admin/leveransandringar/planering/${made.id}.xlsx`, `Export ${made.id}: ${made.rowCount} ändringar till planeringen.`);
  });
}

export default function SupplyQueuePage() {
  const { raw, distributors, page, pages, total, rows, suggestions, exports } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const location = useLocation();
  const intent = replyValue(reply, "intent");
  const bulkError = intent === APPROVE_CHOSEN || intent === REJECT_CHOSEN ? replyError(reply) : null;
  const proposeError = intent === PROPOSE_CHOSEN ? replyError(reply) : null;
  const own = intent === PROPOSE_OWN ? reply : undefined;
  const ownError = (field: string) => replyError(own, field);
  const exportError = intent === EXPORT ? replyError(reply) : null;
  return (
    <>
      <h1>Leveransändringar</h1>
      <Form method="get" className="card filter-form">
        <div className="field-row">
          <div className="field">
            <label htmlFor="lev-visa">Visa</label>
            <select id="lev-visa" name="visa" defaultValue={raw.visa}>
              {SUPPLY_QUEUE_FILTERS.map((f) => (
                <option key={f} value={f}>
                  {FILTER_LABELS[f]}
                </option>
              ))}
            </select>
          </div>
          {distributors.length > 1 ? (
            <div className="field">
              <DistributorSelect id="lev-utb" label="Distributör" distributors={distributors} defaultValue={raw.utb} />
            </div>
          ) : null}
          <div className="field">
            <label htmlFor="lev-titel">Titel</label>
            <select id="lev-titel" name="titel" defaultValue={raw.titel}>
              <option value="">Alla</option>
              {TITLES.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="lev-fran">Startdatum från</label>
            <input id="lev-fran" name="fran" type="date" defaultValue={raw.fran} />
          </div>
          <div className="field">
            <label htmlFor="lev-till">Startdatum till</label>
            <input id="lev-till" name="till" type="date" defaultValue={raw.till} />
          </div>
        </div>
        <div className="actions">
          <button type="submit" className="primary">
            Visa
          </button>
        </div>
      </Form>

      <section aria-labelledby="lev-ko">
        <h2 id="lev-ko">
          {FILTER_LABELS[raw.visa as SupplyQueueFilter]}: {total} ändringar
        </h2>
        <Form method="post">
          <CsrfInput />
          {rows.length === 0 ? (
            <p>Inga ändringar.</p>
          ) : (
            <div className="table-wrap" tabIndex={0} role="region" aria-label="Ändringarna">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Välj</th>
                    <th scope="col">Ändring</th>
                    <th scope="col">Kund</th>
                    <th scope="col">Tidning</th>
                    <th scope="col">När</th>
                    <th scope="col" className="num">
                      Gammalt
                    </th>
                    <th scope="col" className="num">
                      Önskat
                    </th>
                    <th scope="col" className="text">
                      Status
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((r) => (
                    <tr key={r.id}>
                      <td>
                        {r.status === "sent" ? (
                          <>
                            <input type="checkbox" name="andring" value={r.id} id={`andring-${r.id}`} />
                            <label htmlFor={`andring-${r.id}`} className="visually-hidden">
                              Välj ändring {r.id}
                            </label>
                          </>
                        ) : null}
                      </td>
                      <td>
                        <Link to={`/admin/leveransandringar/${r.id}`}>Ändring {r.id}</Link>
                      </td>
                      <td>
                        {r.customerId} {r.customerName}
                      </td>
                      <td>{r.paper}</td>
                      <td>{supplyWhen(r)}</td>
                      <td className="num">{r.oldCopies}</td>
                      <td className="num">{r.requested}</td>
                      <td className="text">
                        {supplyStatusText(r)}
                        {r.late ? <span className="late-note"> Ej beslutad före brytpunkten</span> : null}
                        {r.notDone ? <span className="late-note"> Ej genomförd</span> : null}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {bulkError ? (
            <p className="field-error" role="alert">
              {bulkError}
            </p>
          ) : null}
          {rows.some((r) => r.status === "sent") ? (
            <div className="card">
              <div className="field">
                <label htmlFor="lev-anledning">Anledning (krävs för Avslå markerade)</label>
                <input id="lev-anledning" name="anledning" type="text" maxLength={500} defaultValue={replyValue(reply, "anledning") ?? ""} />
              </div>
              <div className="actions">
                <button type="submit" name="intent" value={APPROVE_CHOSEN}>
                  Godkänn markerade
                </button>
                <button type="submit" name="intent" value={REJECT_CHOSEN}>
                  Avslå markerade
                </button>
              </div>
            </div>
          ) : null}
        </Form>
        <Pager page={page} pages={pages} />
      </section>

      <section aria-labelledby="lev-forslag" className="card">
        <h2 id="lev-forslag">Förslag från försäljningen</h2>
        {suggestions === null ? (
          <p>Välj en distributör ovan för att se förslagen för dess butiker.</p>
        ) : suggestions.count === 0 ? (
          <p>Inga förslag: försäljningen stämmer med leveranserna.</p>
        ) : (
          <Form method="post">
            <CsrfInput />
            <p>
              {suggestions.count} förslag{suggestions.count > suggestions.shown.length ? `, de första ${suggestions.shown.length} visas` : ""}. Butiken ser ett förslag och tackar ja eller nej innan något ändras.
            </p>
            {proposeError ? (
              <p className="field-error" role="alert">
                {proposeError}
              </p>
            ) : null}
            <div className="table-wrap" tabIndex={0} role="region" aria-label="Förslagen">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Välj</th>
                    <th scope="col">Kund</th>
                    <th scope="col">Tidning</th>
                    <th scope="col">Dag</th>
                    <th scope="col" className="num">
                      Brukar få
                    </th>
                    <th scope="col" className="num">
                      Förslag
                    </th>
                    <th scope="col" className="text">
                      Varför
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {suggestions.shown.map((s) => {
                    const value = `${s.customerId}:${s.titleId}:${s.editionId}:${s.weekday}:${s.suggestion.copies}`;
                    return (
                      <tr key={value}>
                        <td>
                          <input type="checkbox" name="forslag" value={value} id={`forslag-${value}`} />
                          <label htmlFor={`forslag-${value}`} className="visually-hidden">
                            Välj förslaget för {s.customerId} {s.customerName}, {s.paper}, {weekdayName(s.weekday)}
                          </label>
                        </td>
                        <td>
                          {s.customerId} {s.customerName}
                        </td>
                        <td>{s.paper}</td>
                        <td>{weekdayTitle(s.weekday)}</td>
                        <td className="num">{s.usual}</td>
                        <td className="num">{s.suggestion.copies}</td>
                        <td className="text">{s.suggestion.reason}</td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
            <button type="submit" name="intent" value={PROPOSE_CHOSEN}>
              Föreslå markerade för butikerna
            </button>
          </Form>
        )}
      </section>

      <section aria-labelledby="lev-eget" className="card">
        <h2 id="lev-eget">Föreslå en ändring</h2>
        <Form method="post" noValidate>
          <CsrfInput />
          <input type="hidden" name="intent" value={PROPOSE_OWN} />
          {own && replyError(own, "") ? (
            <p className="field-error" role="alert">
              {replyError(own, "")}
            </p>
          ) : null}
          <div className="field-row">
            <PlainField id="eget-kund" name="kund" label="Kundnummer" defaultValue={replyValue(own, "kund") ?? ""} error={ownError("kund")} inputMode="numeric" autoComplete="off" />
            <div className="field">
              <label htmlFor="eget-tidning">Tidning</label>
              <select id="eget-tidning" name="tidning" defaultValue={replyValue(own, "tidning") ?? MAIN_PAPERS[0].value}>
                {MAIN_PAPERS.map((p) => (
                  <option key={p.value} value={p.value}>
                    {p.label}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor="eget-veckodag">Veckodag</label>
              <select id="eget-veckodag" name="veckodag" defaultValue={replyValue(own, "veckodag") ?? ""} aria-describedby={ownError("veckodag") ? "eget-veckodag-fel" : undefined}>
                <option value="">Ingen (en enstaka dag)</option>
                {[1, 2, 3, 4, 5, 6, 7].map((d) => (
                  <option key={d} value={d}>
                    {weekdayTitle(d)}
                  </option>
                ))}
              </select>
              {ownError("veckodag") ? (
                <p id="eget-veckodag-fel" className="field-error" role="alert">
                  {ownError("veckodag")}
                </p>
              ) : null}
            </div>
            <PlainField id="eget-datum" name="datum" label="eller datum" defaultValue={replyValue(own, "datum") ?? ""} error={ownError("datum")} type="date" />
            <PlainField id="eget-antal" name="antal" label="Nytt antal" defaultValue={replyValue(own, "antal") ?? ""} error={ownError("antal")} inputMode="numeric" autoComplete="off" />
            <PlainField id="eget-anledning" name="anledning" label="Anledning" defaultValue={replyValue(own, "anledning") ?? ""} error={ownError("anledning")} autoComplete="off" />
          </div>
          <button type="submit">Föreslå ändringen</button>
        </Form>
      </section>

      <section aria-labelledby="lev-planering" className="card">
        <h2 id="lev-planering">Till planeringen</h2>
        <p>Beslutade ändringar som planeringen inte har fått ännu, som Excel. Varje ändring skickas en gång.</p>
        {exportError ? (
          <p className="field-error" role="alert">
            {exportError}
          </p>
        ) : null}
        <Form method="post" reloadDocument action={`/admin/leveransandringar${withParams(location.search, {})}`}>
          <CsrfInput />
          <button type="submit" name="intent" value={EXPORT}>
            Exportera till planeringen
          </button>
        </Form>
        {exports.length > 0 ? (
          <ul>
            {exports.map((e) => (
              <li key={e.id}>
                <a href={`/admin/leveransandringar/planering/${e.id}.xlsx`} download>
                  Export {e.id}
                </a>{" "}
                {e.at}, {e.createdBy}, {e.rowCount} ändringar
              </li>
            ))}
          </ul>
        ) : null}
      </section>
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
