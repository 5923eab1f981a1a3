// The credit trail's texts (decisions 016 and 030): client-safe, no zod.

export type CreditTrail = {
  /**
   * The runs that settled the return: the invoice (null: nothing to bill), the copies
   * settled then (negative: charged back), the run's period, and for a settlement after the
   * run that billed the delivery, that invoice (`after`, null when it billed nothing).
   */
  credits: { invoice: number | null; amount: number; from: string; to: string; after?: { invoice: number | null } }[];
  /** The return's copies now. */
  amount: number;
  /** Copies the next run settles: reported or increased (positive) or decreased (negative) after the run that billed the delivery. */
  pending: number;
  /** The delivery is recalled (decision 036): the trail says so. */
  recalled?: boolean;
};

export const CREDIT_TEXTS = {
  waiting: "Väntar på kreditering",
  credited: (invoice: number) => `Krediterad på faktura ${invoice}`,
  chargedBack: (invoice: number) => `Återdebiterad på faktura ${invoice}`,
  /** After a settlement on a later invoice: "(efter fakturering av faktura M)". */
  afterInvoice: (invoice: number | null) => (invoice === null ? "(efter faktureringen)" : `(efter fakturering av faktura ${invoice})`),
  copies: (n: number) => `${Math.abs(n)} ex`,
  nothingBilled: (from: string, to: string) => `Avräknad ${from}–${to}, inget att fakturera`,
  /** Reported or changed after the run: settled by the next one. */
  next: (copies: number) => (copies > 0 ? `Krediteras på nästa faktura: ${copies} ex` : `Återdebiteras på nästa faktura: ${-copies} ex`),
  /** A recalled paper's return (decision 036), before its credit. */
  recalled: "Återkallad",
} as const;

/**
 * The invoice line that settles returns changed after the run that billed their delivery:
 * "Returer efter fakturering, 2026-11-01–2026-11-30: Aftonbladet 4 ex (faktura 500243)",
 * or "Minskade returer …" for copies charged back; recalled copies "Återkallade returer …".
 */
export function afterRunLine(x: { title: string; copies: number; invoice: number | null; from: string; to: string; recalled?: boolean }): string {
  // Recalled copies (decision 036) are named as such: "Återkallade returer efter fakturering, …".
  const what = x.copies > 0 ? (x.recalled ? "Återkallade returer efter fakturering" : "Returer efter fakturering") : x.recalled ? "Minskade återkallade returer efter fakturering" : "Minskade returer efter fakturering";
  return `${what}, ${x.from}–${x.to}: ${x.title} ${Math.abs(x.copies)} ex${x.invoice === null ? "" : ` (faktura ${x.invoice})`}`;
}
