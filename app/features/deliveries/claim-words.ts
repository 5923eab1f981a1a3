// Delivery claims' words (decision 031): client-safe, no zod.

/** Leveransreklamation's filter value: claims waiting for a decision (`?visa=ej-beslutade`). */
export const UNDECIDED = "ej-beslutade";
/** The staff forms' intents: one claim's decision, several approved or rejected at once. */
export const DECIDE_CLAIM = "besluta";
export const APPROVE_CHOSEN = "godkann-markerade";
export const REJECT_CHOSEN = "avsla-markerade";

export type ClaimStatus = "open" | "withdrawn" | "approved" | "partly" | "rejected";

/** A claim as the retailer's pages and staff's list show it. */
export type ClaimState = {
  id: number;
  copies: number;
  status: ClaimStatus;
  approved: number | null;
  reason: string | null;
  /** The invoice that credited the approved copies. */
  invoice: number | null;
};

export const CLAIM_TEXTS = {
  /** "Reklamation 123 – Inkommen" */
  label: (claim: Pick<ClaimState, "id">, status: string) => `Reklamation ${claim.id} – ${status}`,
  closed: (deliveryDate: string, until: string) => `Reklamationstiden för leveransen ${deliveryDate} gick ut ${until}. Mottaget antal kan inte längre ändras.`,
  open: (until: string) => `Kan reklameras till ${until}.`,
  locked: (id: number) => `Reklamation ${id} är beslutad. Mottaget antal kan inte längre ändras.`,
  noneChosen: "Välj minst en reklamation.",
  partlyOneByOne: "Godkänn delvis en reklamation i taget.",
  partlyRange: (copies: number) => (copies > 1 ? `Ange hur många ex som godkänns: 1–${copies - 1} av ${copies}.` : "En reklamation på 1 ex godkänns eller avslås."),
  reasonRequired: "Ange en motivering.",
  notFound: (id: number) => `Reklamation ${id} finns inte.`,
  alreadyDecided: (id: number) => `Reklamation ${id} är redan beslutad.`,
  withdrawn: (id: number) => `Reklamation ${id} är återtagen av kunden.`,
  overdue: "Ej beslutad efter två arbetsdagar",
} as const;

/** The claim's status in words: Inkommen, Godkänd, Delvis godkänd (N ex), Avslagen (reason), Krediterad på faktura N. */
export function claimStatusText(claim: ClaimState): string {
  if (claim.invoice !== null) return `Krediterad på faktura ${claim.invoice}`;
  switch (claim.status) {
    case "open":
      return "Inkommen";
    case "withdrawn":
      return "Återtagen";
    case "approved":
      return "Godkänd";
    case "partly":
      return `Delvis godkänd (${claim.approved ?? 0} ex)`;
    case "rejected":
      return `Avslagen (${claim.reason ?? ""})`;
  }
}

/** The invoice line that credits a claim's approved copies: "Reklamation 123, Aftonbladet 2026-11-27: 3 ex". */
export function claimLine(x: { id: number; paper: string; deliveryDate: string; copies: number }): string {
  return `Reklamation ${x.id}, ${x.paper} ${x.deliveryDate}: ${x.copies} ex`;
}
