// 'Buntinnehåll': the customer's bundles with the returns they hold, paged.
import { PAPER_TYPE_HEADING } from "~/catalog";
import { BUNDLE_PAGE_SIZE } from "~/catalog";
import type { BundleContent } from "~/features/bundles/index.server";
import { Pager, pageCount } from "~/ui/pager";

export function ContentsSection({ contents, page }: { contents: { bundles: BundleContent[]; total: number }; page: number }) {
  return (
    <section aria-label="Buntinnehåll">
      {contents.bundles.length === 0 ? <p>Inga buntar hittades.</p> : null}
      {contents.bundles.map((b) => (
        <article key={b.id} className="card">
          <h2>
            Bunt {b.number} – {b.open ? "Öppen" : `Stängd${b.closedDate ? ` ${b.closedDate}` : ""}`} ({PAPER_TYPE_HEADING[b.type]})
          </h2>
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  <th>Datum</th>
                  <th>Tidning</th>
                  <th className="num">Returer</th>
                </tr>
              </thead>
              <tbody>
                {b.returns.map((r, i) => (
                  <tr key={i}>
                    <td>{r.deliveryDate}</td>
                    <td>{r.paper}</td>
                    <td className="num">{r.amount}</td>
                  </tr>
                ))}
                <tr>
                  <th colSpan={2}>Totalt</th>
                  <th className="num">{b.total}</th>
                </tr>
              </tbody>
            </table>
          </div>
        </article>
      ))}
      <Pager page={page} pages={pageCount(contents.total, BUNDLE_PAGE_SIZE)} />
    </section>
  );
}
