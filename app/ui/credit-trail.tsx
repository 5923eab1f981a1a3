import { CREDIT_TEXTS, type CreditTrail } from "~/features/invoices";

/**
 * Where a return's copies were credited: "Krediterad på faktura N" with a link to the
 * invoice, a later settlement "(efter fakturering av faktura M)", or what comes next
 * ("Väntar på kreditering", "Krediteras på nästa faktura: N ex"). `invoiceHref` differs for
 * the retailer and staff.
 */
export function CreditTrailText({ trail, invoiceHref }: { trail: CreditTrail | undefined; invoiceHref: (invoice: number) => string }) {
  if (!trail) return <>–</>;
  if (trail.credits.length === 0 && trail.pending === 0) return <>{trail.recalled ? `${CREDIT_TEXTS.recalled}, ${CREDIT_TEXTS.waiting.toLowerCase()}` : CREDIT_TEXTS.waiting}</>;
  return (
    <>
      {trail.recalled ? <strong className="credit">{CREDIT_TEXTS.recalled}</strong> : null}
      {trail.credits.map((c, i) =>
        c.amount === 0 ? null : (
          <span key={i} className="credit">
            {c.invoice === null ? (
              CREDIT_TEXTS.nothingBilled(c.from, c.to)
            ) : (
              <a href={invoiceHref(c.invoice)}>{c.amount < 0 ? CREDIT_TEXTS.chargedBack(c.invoice) : CREDIT_TEXTS.credited(c.invoice)}</a>
            )}
            {c.after ? ` ${CREDIT_TEXTS.copies(c.amount)} ${CREDIT_TEXTS.afterInvoice(c.after.invoice)}` : null}
          </span>
        ),
      )}
      {trail.pending !== 0 ? <span className="credit late-note">{CREDIT_TEXTS.next(trail.pending)}</span> : null}
    </>
  );
}
