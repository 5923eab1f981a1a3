import { paperName } from "~/catalog";
import type { ReactNode } from "react";

/** A bundle's contents (spec 2.3, 2.14): Datum, Tidning, Returer and the total. */
export function BundleTable<L extends { date: string; title: string; edition: string; amount: number }>({
  lines,
  total,
  credit,
}: {
  lines: L[];
  total: number;
  /** A "Kreditering" column, where the copies were credited. */
  credit?: (line: L) => ReactNode;
}) {
  return (
    <div className="table-wrap">
      <table>
        <thead>
          <tr>
            <th scope="col">Datum</th>
            <th scope="col">Tidning</th>
            <th scope="col" className="num">
              Returer
            </th>
            {credit ? <th scope="col">Kreditering</th> : null}
          </tr>
        </thead>
        <tbody>
          {lines.map((l, i) => (
            <tr key={i}>
              <td>{l.date}</td>
              <td>{paperName(l.title, l.edition)}</td>
              <td className="num">{l.amount}</td>
              {credit ? <td>{credit(l)}</td> : null}
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={2}>
              Totalt
            </th>
            <td className="num">
              <strong>{total}</strong>
            </td>
            {credit ? <td /> : null}
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
