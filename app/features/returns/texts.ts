// The returns form's texts and its URL state: no zod here, so the returns page's browser
// code stays small (bench B7); the schema lives in schemas.ts.

/** The texts of the returns form (spec 5), shared by the rules and the page. */
export const RETURN_MESSAGES = {
  bundleRequired: "Ange buntnr.",
  amountRequired: "Ange antal.",
  unreasonable: "Orimligt värde har angetts.",
  tooMany: "Kan inte vara större än antal levererat.",
  /** The spec's sentences with what to type instead (decision 026). */
  unreasonableAmount: "Orimligt värde har angetts. Skriv antalet med siffror, 0–999.",
  unreasonableBundle: "Orimligt värde har angetts. Skriv buntnumret med siffror.",
  nothingToSave: "Det finns inga returer att spara. Ange antal och buntnummer.",
  fixLines: "Inget sparades. Rätta raderna som är markerade nedan.",
  /** A row past its last return day under the 'reject' policy. */
  pastDeadline: (deadline: string) => `Sista returdag var ${deadline}. Returen kan inte längre rapporteras.`,
} as const;

/** A row's hint: the spec's "Levererat antal: N", and for a row below others what they already hold. */
export function deliveredHint(delivered: number, already: number): string {
  return already > 0 ? `Levererat ${delivered}, redan returnerat ${already}` : `Levererat antal: ${delivered}`;
}

/** The report state in the URL (/rapportering/1 reports, /rapportering/2 adds): 1 or 2, else null (a 404). */
export function parseReportState(param: string | undefined): 1 | 2 | null {
  return param === "1" ? 1 : param === "2" ? 2 : null;
}

/** The start page's reminder: "3 tidningar har sista returdag i morgon". */
const weekday = new Intl.DateTimeFormat("sv-SE", { weekday: "short", timeZone: "UTC" });

/** A date as a newsagent says it: "i dag", "i morgon", else "fre 27/11". */
export function dayWord(date: string, today: string): string {
  const [y, m, d] = date.split("-").map(Number);
  const at = Date.UTC(y, m - 1, d);
  const days = Math.round((at - Date.parse(`${today}T00:00:00Z`)) / 86_400_000);
  if (days === 0) return "i dag";
  if (days === 1) return "i morgon";
  return `${weekday.format(at).replace(".", "")} ${d}/${m}`;
}

/** The start page's way to the day's work. */
export function reportButtonText(count: number): string {
  return `Rapportera returer – ${count} ${count === 1 ? "tidning" : "tidningar"}`;
}

export function dueText(count: number, when: "i dag" | "i morgon"): string {
  return `${count} ${count === 1 ? "tidning" : "tidningar"} har sista returdag ${when}`;
}
