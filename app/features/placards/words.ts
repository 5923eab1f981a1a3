// The Löpsedlar form's field names and texts, apart from its zod schema (schemas.ts): the
// page needs these, and a module without zod keeps the validation library out of the
// page's JavaScript (issue 17 §5).
/** The most placards a shop can ask for per title; more is a typing mistake. */
export const MAX_PLACARDS = 999;

export const PLACARD_MESSAGES = {
  required: "Måste ange ett värde.",
  unreasonable: "Orimligt värde.",
  failed: "Något gick fel!",
  /** Issue 15.1: a desired amount someone else changed (another tab) since the page was loaded. */
  changedByOther: (now: number | null, typed: number) =>
    `Någon annan har ändrat raden: nu sparat ${now ?? "inget"}, du skrev ${typed}. Kontrollera och spara igen.`,
} as const;

export const amountField = (titleId: number | string) => `antal-${titleId}`;
/** What the page showed for a title's desired amount: the number, or `-` for none (never empty, so always posted). */
export const shownField = (titleId: number | string) => `fore-${titleId}`;
export const NOTHING_SHOWN = "-";
