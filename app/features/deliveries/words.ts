// The delivery note form's values and texts, apart from its zod schema (schemas.ts): the
// page needs these, and a module without zod keeps the validation library out of the
// page's JavaScript.
export const RECEIVED_INTENT = "spara-mottaget";
export const NOT_ON_NOTE = "Leveransen finns inte på din följesedel.";

/** The note's hidden default button (Enter in a field): save every row whose typed value changed. */
export const SAVE_CHANGED = "andrade";
