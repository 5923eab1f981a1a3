// The retailer's Helgspärr answer in words and form values, apart from its zod schema
// (answer-schemas.ts): the page's buttons need these, and a module without zod keeps the
// validation library out of the page's JavaScript.
export const HOLIDAY_CLOSED_MESSAGE = "Den här helgdagen går inte längre att rapportera.";

export const HOLIDAY_INTENT = { open: "oppet", closed: "stangt" } as const;
/** `fore`: the answer the page showed; `-` for none (never empty, so always posted). */
export const NO_ANSWER_SHOWN = "-";
export const HOLIDAY_ANSWER_WORD = { true: "Öppet", false: "Stängt" } as const;
/** An answer someone else changed (another tab) since the page was loaded. */
export const holidayChangedByOther = (now: boolean | null, chosen: boolean) =>
  `Svaret har ändrats i en annan flik eller av någon annan: nu sparat ${now === null ? "inget" : HOLIDAY_ANSWER_WORD[`${now}`]}, du valde ${HOLIDAY_ANSWER_WORD[`${chosen}`]}. Kontrollera och spara igen.`;

/** The shown answer as the rule reads it: true/false/null, undefined when the form did not say. */
export function shownAnswer(fore: string | undefined): boolean | null | undefined {
  return fore === undefined ? undefined : fore === NO_ANSWER_SHOWN ? null : fore === HOLIDAY_INTENT.open;
}
