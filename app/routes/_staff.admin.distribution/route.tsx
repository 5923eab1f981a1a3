// Distribution (back-office 9): per distributor the reporting customers and their
// returns for a period, refreshed every five minutes; a customer's papers open in place.
import { CUSTOMER_NUMBER } from "~/catalog";
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, data, useLoaderData, useLocation, useNavigation, useRevalidator } from "@remix-run/react";
import { useEffect } from "react";
import { requireStaff } from "~/auth/guards.server";
import { listAdminHolidays, listEndedHolidays } from "~/features/holidays/index.server";
import { RecallName } from "~/ui/recall-heading";
import { listRecalls } from "~/features/recalls/index.server";
import { today } from "~/lib/dates";
import { getCustomerPapers, getDeadlineFigures, getDistributionOverview, listDistributors, listEditions, outsideScope, parseDistributionParams, scopeFor } from "~/features/distribution/index.server";
import { formatKr } from "~/lib/money";
import { PRESET_LABELS, type PresetId } from "~/lib/period";
import { PeriodPresets, withParams } from "~/ui/period-presets";
import { ShareChart } from "~/ui/share-chart";
import staffStyles from "~/ui/staff-monitoring.css?url";
import { customerTable, readCustomerTableView, type CustomerColumn } from "~/features/distribution/index.server";
import { Pager } from "~/ui/pager";
import { SortHeader } from "~/ui/sort";
import { CustomerRows } from "./customer-rows";
import { DistributionFilters } from "./filters";
import { DistributorSummary, FigureNotes, lateText, shareText } from "./summary";
import { param, readSearch } from "~/lib/search-params";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: staffStyles }];

export const meta: MetaFunction = () => [{ title: "Distribution – Returportalen" }];

// The data refreshes every 300 000 ms (back-office 9): by <meta refresh> without
// JavaScript, by revalidating the loader with it.
const REFRESH_MS = 300_000;

/** The customer whose papers are open (`kund`) and the distributor whose card is (`visa`). */
const OPEN_SEARCH = { kund: param.ref(CUSTOMER_NUMBER), visa: param.id() };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireStaff(request, context, ["admin", "sales", "utb"]);
  const scope = scopeFor(user);
  const t = today();
  const parsed = parseDistributionParams(request, { from: t, to: t });
  const [distributors, editions, holidays, ended, recalls] = await Promise.all([listDistributors(scope), listEditions(), listAdminHolidays(), listEndedHolidays(10), listRecalls(scope)]);
  // An open recall with shops still to acknowledge (decision 036), among this user's shops.
  const openRecalls = recalls.filter((r) => r.endedAt === null && r.acknowledged < r.affected).map((r) => ({ id: r.id, titleId: r.titleId, editions: r.editions, dateFrom: r.dateFrom, dateTo: r.dateTo, waiting: r.affected - r.acknowledged }));
  const { view, pages } = readCustomerTableView(request);
  const { kund, visa } = readSearch(request, OPEN_SEARCH);
  // The holidays' answers, for every role that may read them (Helgspärr is the admin's):
  // the coming ones, and folded the ten latest that have passed, been completed or deleted.
  const pick = ({ id, description, day }: { id: number; description: string; day: string }) => ({ id, description, day });
  const holidayAnswers = holidays.filter((h) => h.day >= t).map(pick);
  const earlierHolidays = [...holidays.filter((h) => h.day < t), ...ended]
    .sort((a, b) => b.day.localeCompare(a.day) || b.id - a.id)
    .slice(0, 10)
    .map(pick);
  const base = { today: t, raw: parsed.raw, distributors, editions, canOpenPortal: user.roles.includes("admin"), view, holidayAnswers, earlierHolidays, openRecalls };
  if (parsed.errors) {
    return data({ ...base, errors: parsed.errors, query: null, summary: [], openId: null, entries: [], daily: [], selected: null }, { status: 400 });
  }
  const query = parsed.query;
  if (outsideScope(query.distributorIds, scope)) throw new Response("Du har inte behörighet till den distributören.", { status: 403 });

  let selected = null;
  if (kund !== undefined) {
    const customerId = kund ?? 0;
    const papers = customerId ? await getCustomerPapers(customerId, query, scope) : null;
    if (!papers) throw new Response("Kunden finns inte.", { status: 404 });
    selected = { customerId, papers };
  }
  const [overview, deadlines] = await Promise.all([getDistributionOverview(query, scope, t), getDeadlineFigures(query, scope, t)]);
  const deadlineOf = new Map(deadlines.map((d) => [d.id, d]));
  const summary = overview.entries.map(({ customers: _c, ...dist }) => ({
    ...dist,
    missing: deadlineOf.get(dist.id)?.missing ?? 0,
    lateRows: deadlineOf.get(dist.id)?.lateRows ?? 0,
    lateCopies: deadlineOf.get(dist.id)?.lateCopies ?? 0,
  }));
  // One distributor is its card. Of several, the summary table lists them all and a card
  // opens from its row (?visa=), for the open customer, for its page, or for a search
  // that finds customers there.
  const openId = overview.entries.some((d) => d.id === visa) ? visa : null;
  const cards = overview.entries.flatMap(({ customers, ...dist }, i) => {
    const table = customerTable(customers, dist.id, pages, view, selected?.customerId ?? null);
    const shown =
      overview.entries.length === 1 ||
      dist.id === openId ||
      customers.some((c) => c.id === selected?.customerId) ||
      pages.has(dist.id) ||
      (view.search !== "" && table.matching > 0);
    // Each shown distributor's table sends one page of its customers, searched and sorted.
    return shown ? [{ ...summary[i], table }] : [];
  });
  return { ...base, errors: null, query, summary: summary.length > 1 ? summary : [], openId, entries: cards, daily: overview.daily, selected };
}

export default function DistributionPage() {
  const { today: t, raw, errors, query, summary, openId, entries, daily, selected, distributors, editions, canOpenPortal, view, holidayAnswers, earlierHolidays, openRecalls } = useLoaderData<typeof loader>();
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
  const pageKeys = entries.map((d) => d.table.pageKey);
  // Every distributor's page in the URL, the closed cards' too.
  const noPages = Object.fromEntries([...new URLSearchParams(location.search).keys()].filter((k) => k.startsWith("sida-")).map((k) => [k, null]));
  // The export holds every row of the filters (not the table's search or page).
  const exportSearch = (utb: number | null) =>
    withParams(location.search, { kund: null, visa: null, sok: null, sortera: null, ordning: null, ...noPages, ...(utb === null ? {} : { utb: String(utb) }) });
  const header = (column: CustomerColumn, label: string, numeric = false) => (
    <SortHeader column={column} sort={view.sort} pageParam={pageKeys} className={numeric ? "num" : undefined}>
      {label}
    </SortHeader>
  );

  return (
    <>
      <noscript>
        <meta httpEquiv="refresh" content={String(REFRESH_MS / 1000)} />
      </noscript>
      <h1>Distribution</h1>
      {openRecalls.length > 0 ? (
        <div className="notice" role="note" aria-label="Pågående återkallelser">
          <ul className="plain-list">
            {openRecalls.map((r) => (
              <li key={r.id}>
                <Link to={`/admin/aterkallelser/${r.id}`}>
                  <RecallName recall={r} />
                </Link>: {r.waiting} {r.waiting === 1 ? "kund har" : "kunder har"} inte bekräftat.
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {loading ? (
        <div className="loading-overlay" role="status">
          Hämtar data...
        </div>
      ) : null}

      <PeriodPresets ids={Object.keys(PRESET_LABELS) as PresetId[]} today={t} reset={["utom", "kund", "visa", ...pageKeys]} />

      <DistributionFilters
        raw={raw}
        errors={errors}
        query={query}
        distributors={distributors}
        editions={editions}
        view={view}
        exportHref={query ? `/admin/distribution/export.xlsx${exportSearch(null)}` : null}
      />

      {holidayAnswers.length + earlierHolidays.length > 0 ? (
        <section aria-labelledby="holiday-answers" className="holiday-answers">
          <h2 id="holiday-answers">Butikernas svar om helgdagar</h2>
          {holidayAnswers.length > 0 ? <HolidayLinks holidays={holidayAnswers} /> : null}
          {earlierHolidays.length > 0 ? (
            <details>
              <summary>Tidigare helgdagar ({earlierHolidays.length})</summary>
              <HolidayLinks holidays={earlierHolidays} />
            </details>
          ) : null}
        </section>
      ) : null}

      {query ? (
        <>
          <p>
            Period {query.from === query.to ? query.from : `${query.from} – ${query.to}`}. Uppdateras var 5:e minut.
          </p>
          <ShareChart days={daily} />
          {summary.length > 0 ? (
            <DistributorSummary
              rows={summary}
              openId={openId}
              hrefOf={(id) => withParams(location.search, { visa: id === null ? null : String(id), kund: null, ...noPages })}
              exportHrefOf={(id) => `/admin/distribution/export.xlsx${exportSearch(id)}`}
            />
          ) : (
            <FigureNotes />
          )}
          {entries.map((dist) => {
            const open = selected !== null && dist.table.rows.some((c) => c.id === selected.customerId);
            return (
              <section key={dist.id} className="card distributor" aria-labelledby={`dist-${dist.id}`}>
                <h2 id={`dist-${dist.id}`}>{dist.name}</h2>
                <dl className="facts">
                  <dt>Rapporterande kunder</dt>
                  <dd>{shareText(dist.reporting, dist.customerCount)}</dd>
                  <dt>Antal</dt>
                  <dd>{dist.amount}</dd>
                  <dt>Summa</dt>
                  <dd>{formatKr(dist.priceOre)}</dd>
                  {/* Papers of the period unreported after their last return day, and late returns. */}
                  <dt>Ej rapporterade efter sista returdag</dt>
                  <dd>{dist.missing}</dd>
                  <dt>Sena returer</dt>
                  <dd>{lateText(dist.lateRows, dist.lateCopies)}</dd>
                </dl>
                <p>
                  <a href={`/admin/distribution/export.xlsx${exportSearch(dist.id)}`} download>
                    Exportera {dist.name} till Excel
                  </a>
                  {" · "}
                  <Link to={`/admin/distribution/forsaljning?utb=${dist.id}`}>Försäljning för {dist.name}</Link>
                </p>
                {dist.reporting ? (
                  <details open={open || dist.table.asked}>
                    <summary>
                      Visa kunder ({dist.table.matching === dist.reporting ? dist.reporting : `${dist.table.matching} av ${dist.reporting}`})
                    </summary>
                    {dist.table.matching === 0 ? (
                      <p>Inga kunder matchar sökningen.</p>
                    ) : (
                      <div className="table-wrap">
                        <table aria-label={`Kunder hos ${dist.name}`}>
                          <thead>
                            <tr>
                              {header("kundnr", "Kundnr")}
                              {header("namn", "Namn")}
                              {header("postnr", "Postnr")}
                              {header("ort", "Ort")}
                              {header("antal", "Antal", true)}
                              {header("summa", "Summa", true)}
                            </tr>
                          </thead>
                          <tbody>
                            {dist.table.rows.map((c) => (
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
                    )}
                    <Pager page={dist.table.page} pages={dist.table.pages} param={dist.table.pageKey} />
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

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";

function HolidayLinks({ holidays }: { holidays: { id: number; description: string; day: string }[] }) {
  return (
    <ul>
      {holidays.map((h) => (
        <li key={h.id}>
          <Link to={`/admin/holidays/${h.id}/svar`} aria-label={`Svar för ${h.description}`}>
            {h.description}
          </Link>{" "}
          <span className="nowrap">{h.day}</span>
        </li>
      ))}
    </ul>
  );
}
