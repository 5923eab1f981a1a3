// The Löpsedlar form's field names and texts, apart from its zod schema (schemas.ts): the
// page needs these, and a module without zod keeps the validation library out of the
// page's JavaScript.
/** The most placards a shop can ask for per title; more is a typing mistake. */
export const MAX_PLACARDS = 999;

/** How a refusal of a row changed elsewhere begins: the page then shows what is stored now. */
export const PLACARD_CHANGED_BY_OTHER = "Raden har ändrats i en annan flik eller av någon annan";

export const PLACARD_MESSAGES = {
  required: "Måste ange ett värde.",
  unreasonable: "Orimligt värde.",
  failed: "Något gick fel!",
  /** A desired amount someone else changed (another tab) since the page was loaded. */
  changedByOther: (now: number | null, typed: number) =>
    `${PLACARD_CHANGED_BY_OTHER}: nu sparat ${now ?? "inget"}, du skrev ${typed}. Kontrollera och spara igen.`,

  /** Decision 026: ten times the placards delivered now (ten or more when none are) is asked once. */
  unlikely: (typed: number, current: number) =>
    `Du skrev ${typed}: ${current > 0 ? `minst tio gånger så många som de ${current} du får nu` : "du får inga löpsedlar nu"}. Stämmer det? Tryck Spara igen så sparas ${typed}.`,
} as const;

/** Whether an amount is unlikely enough to ask about first: ten times the current, or ten when there are none. */
export const unlikelyPlacards = (typed: number, current: number) => typed >= 10 * Math.max(current, 1);

export const amountField = (titleId: number | string) => `antal-${titleId}`;
/** The amount the user was asked about and saves again (decision 026). */
export const confirmedField = (titleId: number | string) => `ja-${titleId}`;
/** What the page showed for a title's desired amount: the number, or `-` for none (never empty, so always posted). */
export const shownField = (titleId: number | string) => `fore-${titleId}`;
export const NOTHING_SHOWN = "-";
