import { CREDIT_TEXTS, type CreditTrail } from "~/features/invoices";

/**
 * Where a return's copies were credited: "Krediterad på faktura N" with a
 * link to the invoice, or why not yet. `invoiceHref` differs for the retailer and staff.
 */
export function CreditTrailText({ trail, invoiceHref }: { trail: CreditTrail | undefined; invoiceHref: (invoice: number) => string }) {
  if (!trail) return <>–</>;
  if (trail.credits.length === 0) return <>{trail.missedRun ? CREDIT_TEXTS.afterRun(trail.missedRun.from, trail.missedRun.to) : CREDIT_TEXTS.waiting}</>;
  const credited = trail.credits.reduce((s, c) => s + c.amount, 0);
  return (
    <>
      {trail.credits.map((c, i) => (
        <span key={i} className="credit">
          {c.invoice === null ? CREDIT_TEXTS.nothingBilled(c.from, c.to) : <a href={invoiceHref(c.invoice)}>{CREDIT_TEXTS.credited(c.invoice)}</a>}
        </span>
      ))}
      {credited !== trail.amount ? <span className="credit late-note">{CREDIT_TEXTS.changedAfter(credited, trail.amount)}</span> : null}
    </>
  );
}
