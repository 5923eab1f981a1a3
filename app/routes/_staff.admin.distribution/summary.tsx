// Distribution's grouped list (back-office 9) as one table: a row per distributor with
// the figures of its card, a Totalt row, and what each figure means said in words above
// it. A distributor's row opens its card (?visa=<id>), so twenty distributors are a
// table, not twenty cards.
import { Link } from "@remix-run/react";
import { formatKr } from "~/lib/money";

export type SummaryRow = {
  id: number;
  name: string;
  reporting: number;
  customerCount: number;
  amount: number;
  priceOre: number;
  missing: number;
  lateRows: number;
  lateCopies: number;
};

const pct = new Intl.NumberFormat("sv-SE", { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** "2 av 3 (66,7 %)": reporting customers of the distributor's active customers. */
export function shareText(reporting: number, customerCount: number): string {
  return `${reporting} av ${customerCount} (${pct.format(customerCount ? (100 * reporting) / customerCount : 0)} %)`;
}

export function lateText(rows: number, copies: number): string {
  return `${rows} ${rows === 1 ? "rad" : "rader"}, ${copies} ex`;
}

/** What the figures are, in the words of the trade; shown above the table, not on hover. */
export function FigureNotes() {
  return (
    <dl className="figure-notes">
      <dt>Rapporterande kunder</dt>
      <dd>aktiva kunder som har rapporterat vad de tog emot (Mottagit) för minst en tidning i perioden, av distributörens aktiva kunder.</dd>
      <dt>Antal och Summa</dt>
      <dd>leveransreklamationer: exemplar där mottaget skiljer sig från följesedeln, och vad de är värda i kronor. Inte returer.</dd>
      <dt>Ej rapporterade efter sista returdag</dt>
      <dd>tidningar i perioden som ingen har rapporterat fast sista returdagen har passerat.</dd>
      <dt>Sena returer</dt>
      <dd>returer som sparades efter sista returdag.</dd>
      <dt>5/30 vid en kund</dt>
      <dd>hur många av de senaste 30 dagarna kunden har rapporterat Mottagit (här 5 dagar).</dd>
    </dl>
  );
}

export function DistributorSummary({ rows, openId, hrefOf, exportHrefOf }: { rows: SummaryRow[]; openId: number | null; hrefOf: (id: number | null) => string; exportHrefOf: (id: number) => string }) {
  const total = rows.reduce(
    (t, r) => ({
      reporting: t.reporting + r.reporting,
      customerCount: t.customerCount + r.customerCount,
      amount: t.amount + r.amount,
      priceOre: t.priceOre + r.priceOre,
      missing: t.missing + r.missing,
      lateRows: t.lateRows + r.lateRows,
      lateCopies: t.lateCopies + r.lateCopies,
    }),
    { reporting: 0, customerCount: 0, amount: 0, priceOre: 0, missing: 0, lateRows: 0, lateCopies: 0 },
  );
  return (
    <section aria-labelledby="per-distributor-heading" id="per-distributor">
      <h2 id="per-distributor-heading">Per distributör</h2>
      <FigureNotes />
      <div className="table-wrap">
        <table aria-labelledby="per-distributor-heading" className="summary-table">
          <thead>
            <tr>
              <th scope="col">Distributör</th>
              <th scope="col" className="num text">
                Rapporterande kunder
              </th>
              <th scope="col" className="num">
                Antal
              </th>
              <th scope="col" className="num">
                Summa
              </th>
              <th scope="col" className="num text">
                Ej rapporterade efter sista returdag
              </th>
              <th scope="col" className="num">
                Sena returer
              </th>
              <th scope="col">Excel</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => {
              const open = r.id === openId;
              return (
                <tr key={r.id} className={open ? "selected" : undefined}>
                  <th scope="row">
                    <Link to={`${hrefOf(open ? null : r.id)}#${open ? "per-distributor" : `dist-${r.id}`}`} aria-expanded={open}>
                      {r.name}
                    </Link>
                  </th>
                  <td className="num">{shareText(r.reporting, r.customerCount)}</td>
                  <td className="num">{r.amount}</td>
                  <td className="num">{formatKr(r.priceOre)}</td>
                  <td className="num">{r.missing}</td>
                  <td className="num">{lateText(r.lateRows, r.lateCopies)}</td>
                  <td>
                    <a href={exportHrefOf(r.id)} download aria-label={`Exportera ${r.name} till Excel`}>
                      Excel
                    </a>
                  </td>
                </tr>
              );
            })}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">Totalt</th>
              <td className="num">{shareText(total.reporting, total.customerCount)}</td>
              <td className="num">{total.amount}</td>
              <td className="num">{formatKr(total.priceOre)}</td>
              <td className="num">{total.missing}</td>
              <td className="num">{lateText(total.lateRows, total.lateCopies)}</td>
              <td />
            </tr>
          </tfoot>
        </table>
      </div>
    </section>
  );
}
