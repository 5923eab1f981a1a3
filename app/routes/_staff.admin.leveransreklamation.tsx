import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, data, useLoaderData, useLocation } from "@remix-run/react";
import { requireStaff } from "~/auth/guards.server";
import { COMPLAINT_PAGE_SIZE, complaintRows, complaintTotals } from "~/features/deliveries/index.server";
import { today } from "~/lib/dates";
import { scopeFor } from "~/features/distribution/index.server";
import { formatKr } from "~/lib/money";
import { parsePeriod, preset, type PresetId } from "~/lib/period";
import { PlainField } from "~/ui/field";
import { PeriodPresets, withParams } from "~/ui/period-presets";
import staffStyles from "~/ui/staff-monitoring.css?url";
import { Pager, pageCount } from "~/ui/pager";
import { TableOrEmpty } from "~/ui/table";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: staffStyles }];

export const meta: MetaFunction = () => [{ title: "Leveransreklamation per utb – Returportalen" }];

const PRESETS: PresetId[] = ["senaste7", "dennamanad", "forramanaden"];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireStaff(request, context, ["admin", "sales", "utb"]);
  const scope = scopeFor(user);
  const url = new URL(request.url);
  const t = today();
  const hasRange = url.searchParams.has("from") || url.searchParams.has("to");
  const raw = hasRange ? { from: url.searchParams.get("from") ?? "", to: url.searchParams.get("to") ?? "" } : preset("senaste7", t);
  const parsed = parsePeriod(raw.from, raw.to);
  if (parsed.errors) return data({ today: t, raw, errors: parsed.errors, period: null, totals: [], detail: null }, { status: 400 });
  const period = parsed.period;

  const totals = await complaintTotals(period, scope);
  // A utb user always sees its own distributor's rows; others choose one (?utb=).
  const utbText = url.searchParams.get("utb");
  let detailId: number | null = scope.distributorIds?.length === 1 ? scope.distributorIds[0] : null;
  if (utbText) {
    const id = /^\d{1,9}$/.test(utbText) ? Number(utbText) : NaN;
    if (scope.distributorIds !== null && !scope.distributorIds.includes(id)) throw new Response("Du har inte behörighet till den distributören.", { status: 403 });
    if (!totals.some((d) => d.id === id)) throw new Response("Distributören finns inte.", { status: 404 });
    detailId = id;
  }
  const pageText = url.searchParams.get("sida");
  const page = pageText && /^\d{1,6}$/.test(pageText) ? Math.max(1, Number(pageText)) : 1;
  const complaints = totals.find((d) => d.id === detailId)?.complaints ?? 0;
  const detail = detailId === null ? null : { distributorId: detailId, page, pages: pageCount(complaints, COMPLAINT_PAGE_SIZE), ...(await complaintRows(detailId, period, page)) };
  return { today: t, raw: { from: period.from, to: period.to }, errors: null, period, totals, detail };
}

export default function ComplaintsPage() {
  const { today: t, raw, errors, period, totals, detail } = useLoaderData<typeof loader>();
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
          <PlainField key={`f-${raw.from}`} id="rek-from" name="from" label="Från" type="date" defaultValue={raw.from} error={errors?.from} />
          <PlainField key={`t-${raw.to}`} id="rek-to" name="to" label="Till" type="date" defaultValue={raw.to} error={errors?.to} />
        </div>
        <button type="submit" className="primary">
          Visa
        </button>
      </Form>

      {period ? (
        <>
          <p>Period {period.from === period.to ? period.from : `${period.from} – ${period.to}`}: leveranser där mottaget antal skiljer sig från följesedeln.</p>
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">Utb</th>
                  <th scope="col" className="num">Reklamationer</th>
                  <th scope="col" className="num">Kunder</th>
                  <th scope="col" className="num">Differens (ex)</th>
                  <th scope="col" className="num">Summa</th>
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
              <TableOrEmpty empty={detail.rows.length === 0} emptyText="Inga reklamationer under perioden.">
                <thead>
                  <tr>
                    <th scope="col">Datum</th>
                    <th scope="col">Kund</th>
                    <th scope="col">Tidning</th>
                    <th scope="col" className="num">Följesedel</th>
                    <th scope="col" className="num">Mottagit</th>
                    <th scope="col" className="num">Differens</th>
                    <th scope="col" className="num">Summa</th>
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
