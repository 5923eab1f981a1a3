import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, data, useLoaderData, useLocation, useNavigation, useRevalidator } from "@remix-run/react";
import { useEffect } from "react";
import { requireStaff } from "~/auth/guards.server";
import { today } from "~/lib/dates";
import { getCustomerPapers, getDistributionOverview, listDistributors, listEditions, outsideScope, parseDistributionParams, scopeFor } from "~/features/distribution/index.server";
import { formatKr } from "~/lib/money";
import { datesOf, PRESET_LABELS, type PresetId } from "~/lib/period";
import { PlainField } from "~/ui/field";
import { PeriodPresets, withParams } from "~/ui/period-presets";
import { ShareChart } from "~/ui/share-chart";
import staffStyles from "~/ui/staff-monitoring.css?url";
import { CsrfInput } from "~/ui/csrf";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: staffStyles }];

export const meta: MetaFunction = () => [{ title: "Distribution – Returportalen" }];

// The data refreshes every 300 000 ms (back-office 9): by <meta refresh> without
// JavaScript, by revalidating the loader with it.
const REFRESH_MS = 300_000;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireStaff(request, context, ["admin", "sales", "utb"]);
  const scope = scopeFor(user);
  const url = new URL(request.url);
  const t = today();
  const parsed = parseDistributionParams(url.searchParams, { from: t, to: t });
  const [distributors, editions] = await Promise.all([listDistributors(scope), listEditions()]);
  const base = { today: t, raw: parsed.raw, distributors, editions, canOpenPortal: user.roles.includes("admin") };
  if (parsed.errors) {
    return data({ ...base, errors: parsed.errors, query: null, entries: [], daily: [], selected: null }, { status: 400 });
  }
  const query = parsed.query;
  if (outsideScope(query.distributorIds, scope)) throw new Response("Du har inte behörighet till den distributören.", { status: 403 });

  const kundText = url.searchParams.get("kund");
  let selected = null;
  if (kundText) {
    const customerId = /^\d{1,5}$/.test(kundText) ? Number(kundText) : 0;
    const papers = customerId ? await getCustomerPapers(customerId, query, scope) : null;
    if (!papers) throw new Response("Kunden finns inte.", { status: 404 });
    selected = { customerId, papers };
  }
  const { entries, daily } = await getDistributionOverview(query, scope, t);
  return { ...base, errors: null, query, entries, daily, selected };
}

const pct = new Intl.NumberFormat("sv-SE", { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** The current search with some keys replaced (null removes). */
export default function DistributionPage() {
  const { today: t, raw, errors, query, entries, daily, selected, distributors, editions, canOpenPortal } = useLoaderData<typeof loader>();
  const location = useLocation();
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === "visible" && revalidator.state === "idle") revalidator.revalidate();
    }, REFRESH_MS);
    return () => clearInterval(timer);
  }, [revalidator]);
  const loading = revalidator.state === "loading" || (navigation.state === "loading" && navigation.location.pathname === location.pathname);
  const selectedDistributors = new Set(query?.distributorIds ?? []);
  const selectedEditions = new Set((query?.editions ?? []).map((e) => `${e.titleId}:${e.editionId}`));
  const excluded = new Set(query?.excludeDates ?? []);
  const rangeDates = query ? datesOf(query) : [];
  const exportSearch = (utb: number | null) => withParams(location.search, { kund: null, ...(utb === null ? {} : { utb: String(utb) }) });

  return (
    <>
      <noscript>
        <meta httpEquiv="refresh" content={String(REFRESH_MS / 1000)} />
      </noscript>
      <h1>Distribution</h1>
      {loading ? (
        <div className="loading-overlay" role="status">
          Hämtar data...
        </div>
      ) : null}

      <PeriodPresets ids={Object.keys(PRESET_LABELS) as PresetId[]} today={t} reset={["exclude", "kund"]} />

      <Form method="get" className="card filter-form">
        <div className="field-row">
          <PlainField key={`from-${raw.from}`} id="dist-from" name="from" label="Från" type="date" defaultValue={raw.from} error={errors?.from} />
          <PlainField key={`to-${raw.to}`} id="dist-to" name="to" label="Till" type="date" defaultValue={raw.to} error={errors?.to} />
        </div>
        {rangeDates.length > 1 ? (
          <details open={excluded.size > 0}>
            <summary>Exkludera datum</summary>
            <fieldset className="checks">
              <legend className="visually-hidden">Exkludera datum</legend>
              {rangeDates.map((d) => (
                <label key={d}>
                  <input type="checkbox" name="exclude" value={d} defaultChecked={excluded.has(d)} /> {d}
                </label>
              ))}
            </fieldset>
          </details>
        ) : null}
        {distributors.length > 1 ? (
          <details open={selectedDistributors.size > 0}>
            <summary>Utb:er</summary>
            <fieldset className="checks">
              <legend className="visually-hidden">Utb:er (inga valda: alla)</legend>
              {distributors.map((d) => (
                <label key={d.id}>
                  <input type="checkbox" name="utb" value={d.id} defaultChecked={selectedDistributors.has(d.id)} /> {d.name}
                </label>
              ))}
            </fieldset>
          </details>
        ) : null}
        <details open={selectedEditions.size > 0}>
          <summary>Utgåvor</summary>
          <fieldset className="checks">
            <legend className="visually-hidden">Utgåvor (inga valda: alla)</legend>
            {editions.map((e) => (
              <label key={`${e.titleId}:${e.editionId}`}>
                <input type="checkbox" name="utgava" value={`${e.titleId}:${e.editionId}`} defaultChecked={selectedEditions.has(`${e.titleId}:${e.editionId}`)} />{" "}
                {e.description}
              </label>
            ))}
          </fieldset>
        </details>
        <div className="actions">
          <button type="submit" className="primary">
            Visa
          </button>
          {query ? (
            <a className="button" href={`/admin/distribution/export.xlsx${exportSearch(null)}`} download>
              Exportera alla till Excel
            </a>
          ) : null}
        </div>
      </Form>

      {query ? (
        <>
          <p>
            Period {query.from === query.to ? query.from : `${query.from} – ${query.to}`}. Uppdateras var 5:e minut.
          </p>
          <ShareChart days={daily} />
          {entries.map((dist) => {
            const share = dist.customerCount ? (100 * dist.reporting) / dist.customerCount : 0;
            const open = selected !== null && dist.customers.some((c) => c.id === selected.customerId);
            return (
              <section key={dist.id} className="card distributor" aria-labelledby={`dist-${dist.id}`}>
                <h2 id={`dist-${dist.id}`}>{dist.name}</h2>
                <dl className="facts">
                  <dt>Rapporterande kunder</dt>
                  <dd>
                    {dist.reporting} av {dist.customerCount} ({pct.format(share)} %)
                  </dd>
                  <dt>Antal</dt>
                  <dd>{dist.amount}</dd>
                  <dt>Summa</dt>
                  <dd>{formatKr(dist.priceOre)}</dd>
                </dl>
                <p>
                  <a href={`/admin/distribution/export.xlsx${exportSearch(dist.id)}`} download>
                    Exportera {dist.name} till Excel
                  </a>
                </p>
                {dist.customers.length ? (
                  <details open={open}>
                    <summary>Visa kunder ({dist.customers.length})</summary>
                    <div className="table-wrap">
                      <table>
                        <thead>
                          <tr>
                            <th scope="col">Kundnr</th>
                            <th scope="col">Namn</th>
                            <th scope="col">Postnr</th>
                            <th scope="col">Ort</th>
                            <th scope="col" className="num">Antal</th>
                            <th scope="col" className="num">Summa</th>
                          </tr>
                        </thead>
                        <tbody>
                          {dist.customers.map((c) => (
                            <CustomerRows
                              key={c.id}
                              customer={c}
                              papers={selected?.customerId === c.id ? selected.papers : null}
                              href={withParams(location.search, { kund: selected?.customerId === c.id ? null : String(c.id) })}
                              canOpenPortal={canOpenPortal}
                            />
                          ))}
                        </tbody>
                      </table>
                    </div>
                  </details>
                ) : (
                  <p>Inga rapporterande kunder.</p>
                )}
              </section>
            );
          })}
        </>
      ) : null}
    </>
  );
}

type CustomerView = { id: number; name: string; zip: string; city: string; frequency: number; amount: number; priceOre: number; anyZero: boolean };
type PaperView = { id: number; name: string; deliveryDate: string; delivered: number; received: number };

// A customer's papers are URL state (?kund=): a month of the whole country has far
// too many paper rows to send with the page, so one customer's are fetched at a time.
function CustomerRows({ customer: c, papers, href, canOpenPortal }: { customer: CustomerView; papers: PaperView[] | null; href: string; canOpenPortal: boolean }) {
  return (
    <>
      <tr id={`kund-${c.id}`} className={c.anyZero ? "zero-received" : undefined}>
        <td>{c.id}</td>
        <td>
          <Link to={`${href}#kund-${c.id}`} preventScrollReset aria-expanded={papers !== null}>
            {c.name}
          </Link>{" "}
          <span className="badge" title="Dagar av de senaste 30 med rapport">
            {c.frequency}/30
          </span>
          {c.anyZero ? <span className="badge badge-warn">Mottagit 0</span> : null}
        </td>
        <td>{c.zip}</td>
        <td>{c.city}</td>
        <td className="num">{c.amount}</td>
        <td className="num">{formatKr(c.priceOre)}</td>
      </tr>
      {papers ? (
        <tr className="papers-row">
          <td colSpan={6}>
            <table aria-label={`Tidningar för ${c.name}`}>
              <thead>
                <tr>
                  <th scope="col">Tidning</th>
                  <th scope="col">Leveransdatum</th>
                  <th scope="col" className="num">Följesedel</th>
                  <th scope="col" className="num">Mottagit</th>
                </tr>
              </thead>
              <tbody>
                {papers.map((p) => (
                  <tr key={p.id} className={p.received === 0 ? "zero-received" : undefined}>
                    <td>{p.name}</td>
                    <td className="date">{p.deliveryDate}</td>
                    <td className="num">{p.delivered}</td>
                    <td className="num">{p.received}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {canOpenPortal ? (
              <Form method="post" action="/admin/kund/oppna" className="inline-form">
                <CsrfInput />
                <input type="hidden" name="kundnummer" value={c.id} />
                <button type="submit">Öppna kundens portal</button>
              </Form>
            ) : null}
          </td>
        </tr>
      ) : null}
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
