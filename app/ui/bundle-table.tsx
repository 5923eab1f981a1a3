/** A bundle's contents (spec 2.3, 2.14): Datum, Tidning, Returer and the total. */
export function BundleTable({ lines, total }: { lines: { date: string; title: string; edition: string; amount: number }[]; total: number }) {
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
          </tr>
        </thead>
        <tbody>
          {lines.map((l, i) => (
            <tr key={i}>
              <td>{l.date}</td>
              <td>{l.edition === l.title ? l.title : `${l.title} – ${l.edition}`}</td>
              <td className="num">{l.amount}</td>
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
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
