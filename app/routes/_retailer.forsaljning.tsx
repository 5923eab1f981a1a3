import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireRetailer } from "~/auth/guards.server";
import { SALES_TEXTS, formatRate } from "~/features/sales";
import { listSales } from "~/features/sales/index.server";
import { SalesChart } from "~/ui/sales-chart";

export const meta: MetaFunction = () => [{ title: "Försäljning – Returportalen" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireRetailer(request, context);
  // The session's customer only (issue 18 §4: the retailer's own data).
  return { titles: await listSales(user.customerId) };
}

/** Försäljning (issue 18 §4): per title the last 13 weeks as a chart and a table, and a hint when the return rate says so. */
export default function SalesPage() {
  const { titles } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>{SALES_TEXTS.title}</h1>
      <p className="intro">{SALES_TEXTS.intro}</p>
      {titles.length === 0 ? <p>{SALES_TEXTS.empty}</p> : null}
      {titles.map((t) => (
        <section key={t.titleId} className="card sales-title" aria-labelledby={`forsaljning-${t.titleId}`}>
          <h2 id={`forsaljning-${t.titleId}`}>{t.title}</h2>
          <p>
            Returandel 13 veckor: <strong>{formatRate(t.returned, t.delivered)}</strong> ({t.returned} av {t.delivered})
          </p>
          {t.hint ? (
            <p className="notice sales-hint">{t.hint === "decrease" ? SALES_TEXTS.decrease(t.title) : SALES_TEXTS.increase(t.title)}</p>
          ) : null}
          <figure className="sales-figure">
            <SalesChart title={t.title} weeks={t.weeks} />
            <figcaption>
              <span className="key sold" aria-hidden="true" /> Sålt <span className="key returned" aria-hidden="true" /> Returnerat (stapelns höjd: levererat), per vecka
            </figcaption>
          </figure>
          <div className="table-wrap">
            <table className="sales-table">
              <caption className="visually-hidden">{t.title} per vecka</caption>
              <thead>
                <tr>
                  <th scope="col">Vecka</th>
                  <th scope="col">Levererat</th>
                  <th scope="col">Returnerat</th>
                  <th scope="col">Sålt</th>
                  <th scope="col">Returandel</th>
                </tr>
              </thead>
              <tbody>
                {t.weeks.map((w) => (
                  <tr key={w.monday}>
                    <th scope="row">
                      v. {w.week} <span className="muted">({w.monday})</span>
                    </th>
                    <td>{w.delivered}</td>
                    <td>{w.returned}</td>
                    <td>{w.sold}</td>
                    <td>{formatRate(w.returned, w.delivered)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      ))}
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
