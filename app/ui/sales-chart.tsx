// Försäljning's chart: per week a stacked bar, sold below and returned on
// top, so its height is what was delivered. Rendered on the server as SVG: no library,
// nothing to run in the browser, and it prints. The same figures are in the table beside
// it, for screen readers and for copying; the picture has a one-line summary as its name.
import { SALES_TEXTS, formatRate } from "~/features/sales";
import type { SalesWeek, TitleSales } from "~/features/sales/index.server";

export function SalesChart({ title, weeks }: { title: string; weeks: SalesWeek[] }) {
  const height = 140;
  const top = 12;
  const left = 36;
  const bar = 18;
  const gap = 8;
  const width = left + weeks.length * (bar + gap) + 4;
  const max = Math.max(1, ...weeks.map((w) => w.delivered));
  // A round top for the scale: 1, 2 or 5 times a power of ten.
  const step = [1, 2, 5].map((m) => m * 10 ** Math.floor(Math.log10(max))).find((s) => s * 2 >= max / 2) ?? max;
  const ceiling = Math.ceil(max / step) * step;
  const y = (v: number) => top + height - (height * v) / ceiling;
  const delivered = weeks.reduce((s, w) => s + w.delivered, 0);
  const returned = weeks.reduce((s, w) => s + w.returned, 0);
  const summary = `${title}, vecka ${weeks[0]?.week}–${weeks[weeks.length - 1]?.week}: ${delivered} levererade, ${returned} returnerade, ${Math.max(delivered - returned, 0)} sålda.`;
  return (
    <svg className="sales-chart" viewBox={`0 0 ${width} ${height + top + 24}`} width="100%" style={{ maxWidth: `${width * 1.6}px` }} role="img" aria-label={summary}>
      {[0, ceiling / 2, ceiling].map((v) => (
        <g key={v}>
          <line x1={left} x2={width} y1={y(v)} y2={y(v)} className="grid" />
          <text x={left - 4} y={y(v) + 4} textAnchor="end" className="tick">
            {v}
          </text>
        </g>
      ))}
      {weeks.map((w, i) => {
        const x = left + 4 + i * (bar + gap);
        return (
          <g key={w.monday}>
            <rect x={x} width={bar} y={y(w.sold)} height={y(0) - y(w.sold)} className="sold" />
            <rect x={x} width={bar} y={y(w.delivered)} height={y(w.sold) - y(w.delivered)} className="returned" />
            <text x={x + bar / 2} y={top + height + 16} textAnchor="middle" className="tick">
              {w.week}
            </text>
          </g>
        );
      })}
    </svg>
  );
}

/**
 * Each title's 13 weeks: the return rate, the hint, the chart and the table. The
 * retailer's Försäljning page (headings h2) and the staff customer page (h3, under its
 * own "Försäljning") show the same.
 */
export function SalesTitles({ titles, level = 2 }: { titles: TitleSales[]; level?: 2 | 3 }) {
  const Heading = level === 2 ? "h2" : "h3";
  return (
    <>
      {titles.map((t) => (
        <section key={t.titleId} className="card sales-title" aria-labelledby={`forsaljning-${t.titleId}`}>
          <Heading id={`forsaljning-${t.titleId}`}>{t.title}</Heading>
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
