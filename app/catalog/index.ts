// The catalog: the fixed codes of the newspaper business, written once (docs/architecture.md
// "Catalog"). Client-safe: screens, rules, documents, the CLI and the seeds all
// read titles, ledgers, paper types and number formats from here.

/** The two titles and their publisher ledgers (reskontra). */
export const TITLES = [
  { id: 1, name: "Aftonbladet", ledger: 83 },
  { id: 2, name: "Expressen", ledger: 80 },
] as const;
export type TitleId = (typeof TITLES)[number]["id"];

/** The editions the demo and test data use (the feed may bring others). */
export const EDITIONS = [
  { titleId: 1, editionId: 1, type: 0, description: "Aftonbladet", code: "AB" },
  { titleId: 2, editionId: 1, type: 0, description: "Expressen", code: "EX" },
  { titleId: 2, editionId: 2, type: 0, description: "Kvällsposten", code: "KVP" },
  { titleId: 1, editionId: 20, type: 1, description: "Aftonbladet Söndag", code: "ABS" },
  { titleId: 1, editionId: 21, type: 1, description: "Sportbladet", code: "ABSP" },
  { titleId: 2, editionId: 20, type: 1, description: "Expressen Söndag", code: "EXS" },
  { titleId: 2, editionId: 21, type: 1, description: "Leva & Bo", code: "EXLB" },
] as const;

/**
 * A paper as it is printed, in one line: its title, and its edition where the edition has a
 * name of its own — "Aftonbladet", "Expressen – Kvällsposten", "Aftonbladet – Sportbladet".
 * The one rule for every row, label, document and export that names a paper: a Malmö shop's
 * Kvällsposten is never shown as a second "Expressen".
 */
export function paperName(title: string, edition: string | null | undefined): string {
  return edition && edition !== title ? `${title} – ${edition}` : title;
}

/** Title of a title id, or null. */
export function titleName(titleId: number): string | null {
  return TITLES.find((t) => t.id === titleId)?.name ?? null;
}

// Publisher ledgers: 83 Aftonbladet, 80 Expressen.
export const LEDGER_TITLE = { 83: "Aftonbladet", 80: "Expressen" } as const;
export type Ledger = keyof typeof LEDGER_TITLE;
export const LEDGERS: Ledger[] = [83, 80];

/** Title filter of back-office 9: AB = title ids 1, 16; EX = 2, 4, 8, 32. */
export const TITLE_GROUPS = { AB: [1, 16], EX: [2, 4, 8, 32] } as const;

/** Paper (edition) types: 0 main newspaper, 1 insert. */
export const PAPER_TYPES = [0, 1] as const;
export type PaperType = (typeof PAPER_TYPES)[number];
/** A paper type as a heading over a group of rows (plural). */
export const PAPER_TYPE_HEADING: Readonly<Record<number, string>> = { 0: "Huvudtidningar", 1: "Bilagor" };

/** A customer number (kundnummer): 1–5 digits. */
export const CUSTOMER_NUMBER = /^\d{1,5}$/;
/** A bundle number: 1–5 digits. */
export const BUNDLE_NUMBER = /^\d{1,5}$/;

/** A 1–5 digit number typed by a person (spaces around it ignored), or null. */
export function parseShortNumber(value: unknown): number | null {
  if (typeof value !== "string") return null;
  const text = value.trim();
  return CUSTOMER_NUMBER.test(text) ? Number(text) : null;
}

// Bundle tables: 10 per page (back-office 9).
export const BUNDLE_PAGE_SIZE = 10;

// Invoice lines (back-office 9).
export const MAGAZINES = ["Aftonbladet", "Expressen"] as const;
export const PRODUCT_GROUPS = ["Exponeringsutrustning", "Huvudtidning", "Bilaga"] as const;
export const VAT_OPTIONS = [0, 6, 12, 25] as const;
/** Newspapers, main papers and inserts alike, carry the reduced VAT of 6 % (ML 9 kap. 12 §). */
export const NEWSPAPER_VAT = 6;
/** The product groups that are newspapers: their extra lines take NEWSPAPER_VAT, nothing else. */
export const NEWSPAPER_GROUPS: readonly string[] = ["Huvudtidning", "Bilaga"];
export const PAGE_SIZES = [10, 25, 50] as const;

/** The staff roles (decision 013 says which need a second factor). */
export const ROLES = ["admin", "sales", "utb"] as const;
export type Role = (typeof ROLES)[number];
