// The credit trail's texts (decision 016): client-safe, no zod.

export type CreditTrail = {
  /** The runs that settled the return: the invoice (null: nothing to bill), the copies then, the period. */
  credits: { invoice: number | null; amount: number; from: string; to: string }[];
  /** The return's copies now. */
  amount: number;
  /** The period of a run that covered the delivery without settling this return (reported after it). */
  missedRun: { from: string; to: string } | null;
};

export const CREDIT_TEXTS = {
  waiting: "Väntar på kreditering",
  credited: (invoice: number) => `Krediterad på faktura ${invoice}`,
  nothingBilled: (from: string, to: string) => `Avräknad ${from}–${to}, inget att fakturera`,
  changedAfter: (credited: number, now: number) => `Ändrad efter faktureringen: krediterat ${credited} ex, nu ${now} ex`,
  afterRun: (from: string, to: string) => `Rapporterad efter faktureringen ${from}–${to}, inte krediterad`,
} as const;
