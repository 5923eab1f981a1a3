import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, data, useLoaderData, useLocation } from "@remix-run/react";
import { requireStaff } from "~/auth/guards.server";
import {
  COMPLAINT_DEFAULT_SORT,
  COMPLAINT_TOTAL_DEFAULT_SORT,
  COMPLAINT_TOTAL_SORT_PARAMS,
  type ComplaintColumn,
  type ComplaintTotalColumn,
} from "~/features/deliveries";
import { COMPLAINT_PAGE_SIZE, complaintRows, complaintTotals, readComplaintView } from "~/features/deliveries/index.server";
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
  if (view.errors) return data({ today: t, raw: view.raw, errors: view.errors, period: null, totals: [], detail: null, sort: view.sort, totalsSort: view.totalsSort }, { status: 400 });
  const period = view.period;
  if (view.forbidden) throw new Response("Du har inte behörighet till den distributören.", { status: 403 });

  const totals = await complaintTotals(period, scope, view.totalsSort);
  // A utb user always sees its own distributor's rows; others choose one (?utb=).
  const detailId = view.distributorId;
  if (view.unknown || (detailId !== null && !totals.some((d) => d.id === detailId))) throw new Response("Distributören finns inte.", { status: 404 });
  const page = view.page;
  const complaints = totals.find((d) => d.id === detailId)?.complaints ?? 0;
  const detail =
    detailId === null ? null : { distributorId: detailId, page, pages: pageCount(complaints, COMPLAINT_PAGE_SIZE), ...(await complaintRows(detailId, period, page, view.sort)) };
  return { today: t, raw: { from: period.from, to: period.to }, errors: null, period, totals, detail, sort: view.sort, totalsSort: view.totalsSort };
}

export default function ComplaintsPage() {
  const { today: t, raw, errors, period, totals, detail, sort, totalsSort } = useLoaderData<typeof loader>();
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
              <TableOrEmpty empty={detail.rows.length === 0} emptyText="Inga reklamationer under perioden.">
                <thead>
                  <tr>
                    {header("datum", "Datum")}
                    {header("kund", "Kund")}
                    {header("tidning", "Tidning")}
                    {header("foljesedel", "Följesedel", true)}
                    {header("mottagit", "Mottagit", true)}
                    {header("differens", "Differens", true)}
                    {header("summa", "Summa", true)}
                  </tr>
                </thead>
                <tbody>
                  {detail.rows.map((r) => (
                    <tr key={r.id} className={r.received === 0 ? "zero-received" : undefined}>
                      <td className="date">{r.deliveryDate}</td>
                      <td>
                        {r.customerId} {r.customerName}
                      </td>
                      <td>{r.paperName}</td>
                      <td className="num">{r.delivered}</td>
                      <td className="num">{r.received}</td>
                      <td className="num">{r.difference}</td>
                      <td className="num">{formatKr(r.priceOre)}</td>
                    </tr>
                  ))}
                </tbody>
              </TableOrEmpty>
              <Pager page={detail.page} pages={detail.pages} />
            </section>
          ) : null}
        </>
      ) : null}
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
