import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, data, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { redirectWithToast } from "~/auth/session.server";
import { handleForm } from "~/http/form.server";
import { CsrfInput } from "~/ui/csrf";
import { replyError } from "~/ui/form-reply";
import { requireStaff } from "~/auth/guards.server";
import {
  COMPLAINT_DEFAULT_SORT,
  COMPLAINT_TOTAL_DEFAULT_SORT,
  COMPLAINT_TOTAL_SORT_PARAMS,
  APPROVE_CHOSEN,
  CLAIM_TEXTS,
  ClaimsAtOnceSchema,
  REJECT_CHOSEN,
  UNDECIDED,
  claimStatusText,
  type ComplaintColumn,
  type ComplaintTotalColumn,
} from "~/features/deliveries";
import { COMPLAINT_PAGE_SIZE, complaintRows, complaintTotals, decideClaims, readComplaintView } from "~/features/deliveries/index.server";
import { today } from "~/lib/dates";
import { scopeFor } from "~/features/distribution/index.server";
import { formatKr } from "~/lib/money";
import { type PresetId } from "~/lib/period";
import { PlainField } from "~/ui/field";
import { PeriodPresets, withParams } from "~/ui/period-presets";
import staffStyles from "~/ui/staff-monitoring.css?url";
import { Pager, pageCount } from "~/ui/pager";
import { SortHeader } from "~/ui/sort";
import { TableOrEmpty } from "~/ui/table";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: staffStyles }];

export const meta: MetaFunction = () => [{ title: "Leveransreklamation per utb – Returportalen" }];

const PRESETS: PresetId[] = ["senaste7", "dennamanad", "forramanaden"];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireStaff(request, context, ["admin", "sales", "utb"]);
  const scope = scopeFor(user);
  const t = today();
  const view = readComplaintView(request, scope, t);
  if (view.errors) return data({ today: t, raw: view.raw, errors: view.errors, period: null, totals: [], detail: null, sort: view.sort, totalsSort: view.totalsSort, undecided: view.undecided, canDecide: false }, { status: 400 });
  const period = view.period;
  if (view.forbidden) throw new Response("Du har inte behörighet till den distributören.", { status: 403 });

  const totals = await complaintTotals(period, scope, view.totalsSort);
  // A utb user always sees its own distributor's rows; others choose one (?utb=).
  const detailId = view.distributorId;
  if (view.unknown || (detailId !== null && !totals.some((d) => d.id === detailId))) throw new Response("Distributören finns inte.", { status: 404 });
  const page = view.page;
  const complaints = totals.find((d) => d.id === detailId)?.complaints ?? 0;
  const found = detailId === null ? null : await complaintRows(detailId, period, page, view.sort, view.undecided);
  // Filtered to undecided claims the count is the page's own (a next page only while rows follow).
  const pages = view.undecided ? page + (found?.hasMore ? 1 : 0) : pageCount(complaints, COMPLAINT_PAGE_SIZE);
  const detail = detailId === null || !found ? null : { distributorId: detailId, page, pages, ...found };
  // Admin decides every claim, a utb user their distributor's; sales look.
  const canDecide = user.roles.includes("admin") || user.roles.includes("utb");
  return { today: t, raw: { from: period.from, to: period.to }, errors: null, period, totals, detail, sort: view.sort, totalsSort: view.totalsSort, undecided: view.undecided, canDecide };
}

/** Several claims at once (the boxes of the list): approved, or rejected with one reason. */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireStaff(request, context, ["admin", "utb"]);
  return handleForm(request, ClaimsAtOnceSchema, async (v) => {
    const ids = await decideClaims(v.arende, v.intent === APPROVE_CHOSEN ? { decision: "approve" } : { decision: "reject", reason: v.motivering }, scopeFor(user), user.actor);
    const n = ids.length;
    const what = v.intent === APPROVE_CHOSEN ? (n === 1 ? "godkänd" : "godkända") : n === 1 ? "avslagen" : "avslagna";
    const url = new URL(request.url);
    return redirectWithToast(request, `${url.pathname}${url.search}`, `${n === 1 ? `Reklamation ${ids[0]}` : `${n} reklamationer`} ${what}.`);
  });
}

export default function ComplaintsPage() {
  const { today: t, raw, errors, period, totals, detail, sort, totalsSort, undecided, canDecide } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const bulkError = replyError(reply) ?? replyError(reply, "arende") ?? replyError(reply, "motivering");
  const totalsHeader = (column: ComplaintTotalColumn, label: string, numeric = true) => (
    // The totals' own order: it keeps the detail's page and order as they are.
    <SortHeader column={column} sort={totalsSort} names={COMPLAINT_TOTAL_SORT_PARAMS} pageParam={[]} className={numeric ? "num" : undefined}>
      {label}
    </SortHeader>
  );
  const header = (column: ComplaintColumn, label: string, numeric = false) => (
    <SortHeader column={column} sort={sort} className={numeric ? "num" : undefined}>
      {label}
    </SortHeader>
  );
  const exportHref = (utb: number | null) => `/admin/leveransreklamation/export.xlsx${withParams(location.search, { sida: null, utb: utb === null ? null : String(utb) })}`;
  const location = useLocation();
  const sum = totals.reduce((acc, d) => ({ complaints: acc.complaints + d.complaints, difference: acc.difference + d.difference, priceOre: acc.priceOre + d.priceOre }), {
    complaints: 0,
    difference: 0,
    priceOre: 0,
  });
  const detailName = detail ? totals.find((d) => d.id === detail.distributorId)?.name : null;
  return (
    <>
      <h1>Leveransreklamation per utb</h1>
      <PeriodPresets ids={PRESETS} today={t} reset={["sida"]} />
      <Form method="get" className="card filter-form">
        <div className="field-row">
          <PlainField key={`f-${raw.from}`} id="rek-from" name="fran" label="Från" type="date" defaultValue={raw.from} error={errors?.from} />
          <PlainField key={`t-${raw.to}`} id="rek-to" name="till" label="Till" type="date" defaultValue={raw.to} error={errors?.to} />
        </div>
        {sort.column !== COMPLAINT_DEFAULT_SORT.column || sort.descending !== COMPLAINT_DEFAULT_SORT.descending ? (
          <>
            <input type="hidden" name="sortera" value={sort.column} />
            <input type="hidden" name="ordning" value={sort.descending ? "fallande" : "stigande"} />
          </>
        ) : null}
        {totalsSort.column !== COMPLAINT_TOTAL_DEFAULT_SORT.column || totalsSort.descending !== COMPLAINT_TOTAL_DEFAULT_SORT.descending ? (
          <>
            <input type="hidden" name={COMPLAINT_TOTAL_SORT_PARAMS.column} value={totalsSort.column} />
            <input type="hidden" name={COMPLAINT_TOTAL_SORT_PARAMS.order} value={totalsSort.descending ? "fallande" : "stigande"} />
          </>
        ) : null}
        {detail && totals.length > 1 ? <input type="hidden" name="utb" value={detail.distributorId} /> : null}
        <div className="field checkbox">
          <input id="rek-undecided" type="checkbox" name="visa" value={UNDECIDED} defaultChecked={undecided} />
          <label htmlFor="rek-undecided">Endast ej beslutade</label>
        </div>
        <div className="actions">
          <button type="submit" className="primary">
            Visa
          </button>
          {period ? (
            <a className="button" href={exportHref(null)} download>
              Exportera alla reklamationer till Excel
            </a>
          ) : null}
        </div>
      </Form>

      {period ? (
        <>
          <p>Period {period.from === period.to ? period.from : `${period.from} – ${period.to}`}: leveranser där mottaget antal skiljer sig från följesedeln.</p>
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  {totalsHeader("utb", "Utb", false)}
                  {totalsHeader("reklamationer", "Reklamationer")}
                  {totalsHeader("kunder", "Kunder")}
                  {totalsHeader("differens", "Differens (ex)")}
                  {totalsHeader("summa", "Summa")}
                </tr>
              </thead>
              <tbody>
                {totals.map((d) => (
                  <tr key={d.id} className={detail?.distributorId === d.id ? "selected" : undefined}>
                    <td>
                      <Link to={withParams(location.search, { utb: String(d.id), sida: null })}>{d.name}</Link>
                    </td>
                    <td className="num">{d.complaints}</td>
                    <td className="num">{d.customers}</td>
                    <td className="num">{d.difference}</td>
                    <td className="num">{formatKr(d.priceOre)}</td>
                  </tr>
                ))}
              </tbody>
              {totals.length > 1 ? (
                <tfoot>
                  <tr>
                    <th scope="row">Totalt</th>
                    <td className="num">{sum.complaints}</td>
                    <td />
                    <td className="num">{sum.difference}</td>
                    <td className="num">{formatKr(sum.priceOre)}</td>
                  </tr>
                </tfoot>
              ) : null}
            </table>
          </div>

          {detail ? (
            <section aria-labelledby="rek-detail">
              <h2 id="rek-detail">Reklamationer – {detailName}</h2>
              <p>
                <a href={exportHref(detail.distributorId)} download>
                  Exportera reklamationerna för {detailName} till Excel
                </a>
              </p>
              {/* The boxes of the open claims and the buttons below decide several at once. */}
              <Form method="post" className="claims-at-once">
                <CsrfInput />
                <TableOrEmpty empty={detail.rows.length === 0} emptyText={undecided ? "Inga ej beslutade reklamationer under perioden." : "Inga reklamationer under perioden."}>
                  <thead>
                    <tr>
                      {canDecide ? <th scope="col">Välj</th> : null}
                      {header("datum", "Datum")}
                      {header("kund", "Kund")}
                      {header("tidning", "Tidning")}
                      {header("foljesedel", "Följesedel", true)}
                      {header("mottagit", "Mottagit", true)}
                      {header("differens", "Differens", true)}
                      {header("summa", "Summa", true)}
                      <th scope="col">Reklamation</th>
                    </tr>
                  </thead>
                  <tbody>
                    {detail.rows.map((r) => (
                      <tr key={r.id} className={r.received === 0 ? "zero-received" : undefined}>
                        {canDecide ? (
                          <td>
                            {r.claim?.status === "open" ? (
                              <>
                                <input type="checkbox" name="arende" value={r.claim.id} id={`arende-${r.claim.id}`} />
                                <label htmlFor={`arende-${r.claim.id}`} className="visually-hidden">
                                  Välj reklamation {r.claim.id}
                                </label>
                              </>
                            ) : null}
                          </td>
                        ) : null}
                        <td className="date">{r.deliveryDate}</td>
                        <td>
                          {r.customerId} {r.customerName}
                        </td>
                        <td>{r.paperName}</td>
                        <td className="num">{r.delivered}</td>
                        <td className="num">{r.received}</td>
                        <td className="num">{r.difference}</td>
                        <td className="num">{formatKr(r.priceOre)}</td>
                        <td>
                          {r.claim ? (
                            <>
                              <Link to={`/admin/leveransreklamation/${r.claim.id}`}>{CLAIM_TEXTS.label(r.claim, claimStatusText(r.claim))}</Link>
                              {r.claim.overdueFrom !== null && r.claim.overdueFrom <= t ? <span className="late-note">{CLAIM_TEXTS.overdue}</span> : null}
                            </>
                          ) : (
                            "–"
                          )}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </TableOrEmpty>
                {canDecide && detail.rows.some((r) => r.claim?.status === "open") ? (
                  <div className="card">
                    {bulkError ? (
                      <p className="field-error" role="alert">
                        {bulkError}
                      </p>
                    ) : null}
                    <div className="field">
                      <label htmlFor="rek-motivering">Motivering (krävs för Avslå markerade)</label>
                      <input id="rek-motivering" name="motivering" type="text" maxLength={500} />
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
              <Pager page={detail.page} pages={detail.pages} />
            </section>
          ) : null}
        </>
      ) : null}
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
