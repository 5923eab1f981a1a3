// Avstämning (decision 033): the period's copies and kronor from delivery to invoice per
// title and paper type, and the identity delivered − returned − approved claims = billed −
// credited − to be credited, with its difference, which must be 0. Admin only; the period
// in the URL (fran, till) as on every staff screen; an Excel export of the same.
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, data, useLoaderData, useLocation } from "@remix-run/react";
import { requireStaff } from "~/auth/guards.server";
import { withVat, type Figure, type ReconcileRow } from "~/features/invoices";
import { reconcileElsewhere } from "~/features/invoices/index.server";
import { today } from "~/lib/dates";
import { formatKr } from "~/lib/money";
import { checkedPeriod, preset, type PresetId } from "~/lib/period";
import { param, readSearch } from "~/lib/search-params";
import { PlainField } from "~/ui/field";
import { PeriodPresets, withParams } from "~/ui/period-presets";
import staffStyles from "~/ui/staff-monitoring.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: staffStyles }];
export const meta: MetaFunction = () => [{ title: "Avstämning – Returportalen" }];

const PRESETS: PresetId[] = ["forramanaden", "dennamanad"];
const SEARCH = { period: param.period() };

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, ["admin"]);
  const t = today();
  const view = checkedPeriod(readSearch(request, SEARCH).period, preset("forramanaden", t));
  if (view.errors) return data({ today: t, raw: view.raw, errors: view.errors, result: null }, { status: 400 });
  return { today: t, raw: view.raw, errors: null, result: await reconcileElsewhere(view.period, context.portal) };
}

const COLUMNS: { key: keyof Pick<ReconcileRow, "delivered" | "returnedInTime" | "returnedLate" | "claims" | "billed" | "credited" | "pending" | "difference" | "creditNotes">; label: string }[] = [
  { key: "delivered", label: "Levererat" },
  { key: "returnedInTime", label: "Returer i tid" },
  { key: "returnedLate", label: "Sena returer" },
  { key: "claims", label: "Godkända reklamationer" },
  { key: "billed", label: "Fakturerat" },
  { key: "credited", label: "Krediterat" },
  { key: "pending", label: "Krediteras på nästa faktura" },
  { key: "difference", label: "Differens" },
  { key: "creditNotes", label: "Kreditfakturor" },
];

function Cell({ figure, vat }: { figure: Figure; vat: boolean }) {
  return (
    <td className="num nowrap">
      {figure.copies} ex
      <br />
      {formatKr(figure.ore)}
      {vat ? (
        <>
          <br />
          <span className="muted">{formatKr(withVat(figure.ore))} inkl. moms</span>
        </>
      ) : null}
    </td>
  );
}

export default function Reconciliation() {
  const { today: t, raw, errors, result } = useLoaderData<typeof loader>();
  const location = useLocation();
  const balanced = result ? result.rows.every((r) => r.difference.copies === 0 && r.difference.ore === 0) : false;
  return (
    <>
      <h1>Avstämning</h1>
      <p className="intro">
        Varje exemplar och krona från leverans till faktura: levererat − returnerat − godkända reklamationer = fakturerat − krediterat − det som krediteras på nästa faktura.
        Differensen ska vara 0.
      </p>
      <PeriodPresets ids={PRESETS} today={t} reset={[]} />
      <Form method="get" className="card filter-form">
        <div className="field-row">
          <PlainField key={`f-${raw.from}`} id="avst-from" name="fran" label="Från" type="date" defaultValue={raw.from} error={errors?.from} />
          <PlainField key={`t-${raw.to}`} id="avst-to" name="till" label="Till" type="date" defaultValue={raw.to} error={errors?.to} />
        </div>
        <div className="actions">
          <button type="submit" className="primary">
            Visa
          </button>
          {result ? (
            <a className="button" href={`/admin/avstamning/export.xlsx${withParams(location.search, {})}`} download>
              Exportera till Excel
            </a>
          ) : null}
        </div>
      </Form>
      {result ? (
        <section aria-labelledby="avst-resultat">
          <h2 id="avst-resultat">
            {result.from}–{result.to}
          </h2>
          <p role="status" className={balanced ? undefined : "warning"}>
            {result.rows.length === 0
              ? "Inga leveranser under perioden."
              : balanced
                ? "Perioden stämmer: differensen är 0 för varje titel."
                : `Perioden stämmer inte: differens ${result.total.difference.copies} ex, ${formatKr(result.total.difference.ore)}.`}
          </p>
          {result.straddling.length > 0 ? (
            <p className="warning">
              Fakturerade perioder som sträcker sig utanför: {result.straddling.map((p) => `${p.from}–${p.to}`).join(", ")}. Välj hela fakturaperioder för att stämma av dem.
            </p>
          ) : null}
          <div className="table-wrap">
            <table aria-label="Avstämning per titel">
              <thead>
                <tr>
                  <th scope="col">Titel</th>
                  {COLUMNS.map((c) => (
                    <th key={c.key} scope="col" className="num">
                      {c.label}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {result.rows.map((r) => (
                  <tr key={r.key}>
                    <th scope="row">{r.label}</th>
                    {COLUMNS.map((c) => (
                      <Cell key={c.key} figure={r[c.key]} vat={c.key === "billed" || c.key === "credited" || c.key === "creditNotes"} />
                    ))}
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <th scope="row">Totalt</th>
                  {COLUMNS.map((c) => (
                    <Cell key={c.key} figure={result.total[c.key]} vat={c.key === "billed" || c.key === "credited" || c.key === "creditNotes"} />
                  ))}
                </tr>
              </tfoot>
            </table>
          </div>
          {result.otherLinesOre !== 0 ? <p>Därtill extra fakturarader och beställningar på periodens fakturor: {formatKr(result.otherLinesOre)} exkl. moms (utanför avstämningen).</p> : null}
        </section>
      ) : null}
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
