// One customer's row on Distribution, and its papers when it is the chosen one (?kund=),
// with the way into the customer's portal for an admin.
import { Form, Link } from "@remix-run/react";
import { formatKr } from "~/lib/money";
import { CsrfInput } from "~/ui/csrf";

type CustomerView = { id: number; name: string; zip: string; city: string; frequency: number; amount: number; priceOre: number; anyZero: boolean };
type PaperView = { id: number; name: string; deliveryDate: string; delivered: number; received: number };

// A customer's papers are URL state (?kund=): a month of the whole country has far
// too many paper rows to send with the page, so one customer's are fetched at a time.
export function CustomerRows({ customer: c, papers, href, canOpenPortal }: { customer: CustomerView; papers: PaperView[] | null; href: string; canOpenPortal: boolean }) {
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

