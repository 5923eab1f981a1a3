import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { requireRetailer } from "~/auth/guards.server";
import { creditNotesByInvoice, creditsByInvoice, listGuarantees, listInvoices, type BundleCredit } from "~/features/invoices/index.server";
import { formatKr } from "~/lib/money";
import { TableOrEmpty } from "~/ui/table";
import { param, readSearch } from "~/lib/search-params";

export const meta: MetaFunction = () => [{ title: "Fakturor – Returportalen" }];

// `?fel=<invoice number>`: the invoice whose PDF could not be made.
const INVOICES_SEARCH = { fel: param.id() };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireRetailer(request, context);
  const [groups, guarantees] = await Promise.all([listInvoices(user.customerId), listGuarantees(user.customerId)]);
  const { fel: failed } = readSearch(request, INVOICES_SEARCH);
  // What each invoice credited, per bundle.
  const [credits, notes] = await Promise.all([creditsByInvoice(user.customerId, groups.flatMap((g) => g.invoices.map((i) => i.number))), creditNotesByInvoice(user.customerId)]);
  return {
    groups,
    guarantees,
    credits: Object.fromEntries(credits) as Record<number, BundleCredit[]>,
    // The credit notes beside the invoice each credits (decision 032).
    notes: Object.fromEntries(notes) as Record<number, { number: number; date: string; amountOre: number }[]>,
    failed: failed === null ? null : String(failed),
  };
}

export default function Invoices() {
  const { groups, guarantees, credits, notes, failed } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Fakturor</h1>
      {groups.map((g) => (
        <section key={g.paperType} aria-labelledby={`fakturor-${g.paperType}`}>
          <h2 id={`fakturor-${g.paperType}`}>{g.name}</h2>
          <TableOrEmpty empty={g.invoices.length === 0} emptyText="Hittar inga fakturor">
            <thead>
              <tr>
                <th scope="col">Nummer</th>
                <th scope="col">Datum</th>
                <th scope="col">Förfallodatum</th>
                <th scope="col" className="num">
                  Summa
                </th>
                <th scope="col">Status</th>
                <th scope="col">Krediterat per bunt</th>
                <th scope="col">PDF</th>
              </tr>
            </thead>
            <tbody>
              {g.invoices.map((inv) => (
                <tr key={inv.number}>
                  <td>{inv.number}</td>
                  <td>{inv.date}</td>
                  <td>{inv.dueDate}</td>
                  <td className="num nowrap">{formatKr(inv.amountOre)}</td>
                  <td>
                    {inv.status}
                    {notes[inv.number]?.map((n) => (
                      <span key={n.number} className="credit">
                        <a href={`/kreditfaktura/${n.number}.pdf`} aria-label={`Ladda ner kreditfaktura ${n.number} (PDF)`}>
                          Kreditfaktura {n.number}
                        </a>{" "}
                        {n.date}, {formatKr(n.amountOre)}
                      </span>
                    ))}
                  </td>
                  <td>
                    {credits[inv.number]?.length ? (
                      <ul className="plain-list">
                        {credits[inv.number].map((c) => (
                          <li key={c.bundle}>
                            Bunt {c.bundle}: {c.copies} ex, {formatKr(c.valueOre)}
                          </li>
                        ))}
                      </ul>
                    ) : (
                      "–"
                    )}
                  </td>
                  <td>
                    <a href={`/faktura/${inv.number}.pdf`} aria-label={`Ladda ner faktura ${inv.number} (PDF)`}>
                      Ladda ner
                    </a>
                  </td>
                </tr>
              ))}
            </tbody>
          </TableOrEmpty>
        </section>
      ))}
      <section aria-labelledby="garanti">
        <h2 id="garanti">Garantibelopp</h2>
        <p>
          Garantibelopp är pengar som tidningen ska betala tillbaka till er, ett belopp per tidning. När beloppet är utbetalt står det Ja under
          Återbetald, med dagen det betalades.
        </p>
        <TableOrEmpty empty={guarantees.length === 0} emptyText="Inga garantibelopp">
          <thead>
            <tr>
              <th scope="col" className="num">
                Belopp
              </th>
              <th scope="col">Tidning</th>
              <th scope="col">Återbetald</th>
              <th scope="col">Datum</th>
            </tr>
          </thead>
          <tbody>
            {guarantees.map((g) => (
              <tr key={g.id}>
                <td className="num nowrap">{formatKr(g.amountOre)}</td>
                <td>{g.title}</td>
                <td>{g.refunded ? "Ja" : "Nej"}</td>
                <td>{g.refundDate ?? "–"}</td>
              </tr>
            ))}
          </tbody>
        </TableOrEmpty>
      </section>
      {failed ? (
        <div className="snackbar" role="alert">
          <span>Gick inte att ladda ner faktura {failed}</span>
          <Link className="snackbar-close" to="/faktura">
            Stäng
          </Link>
        </div>
      ) : null}
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
