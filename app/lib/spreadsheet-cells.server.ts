// Every CSV and XLSX the portal writes passes its cells through here (OWASP "CSV
// injection"): a text cell that begins with = + - @, a tab or a carriage return would
// be read by Excel or LibreOffice as a formula (a customer named
// `=HYPERLINK("http://evil.example","x")` became a live link in the payout file), so
// such text gets a leading `'`, which spreadsheets show as text. Numbers stay numbers:
// only text is touched, and a number the file spells itself (kronor with a decimal
// comma) is marked as one.

const FORMULA_START = /^[=+\-@\t\r]/;

/** `text`, with a leading `'` when a spreadsheet would take it for a formula. */
export function neutraliseFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** A number in the file's own spelling, e.g. `kronor(-1250)` = "-12,50"; anything else is text. */
export type CsvNumber = { number: string };
export type CsvValue = string | number | CsvNumber;

const NUMBER_SPELLING = /^-?\d+(?:[.,]\d+)?$/;

/** One field of a `;`-separated file: formulas neutralised, quoted when it holds `;`, `"` or a line break. */
export function csvField(value: CsvValue): string {
  let text: string;
  if (typeof value === "number") text = Number.isFinite(value) ? String(value) : neutraliseFormula(String(value));
  else if (typeof value === "object") text = NUMBER_SPELLING.test(value.number) ? value.number : neutraliseFormula(value.number);
  else text = neutraliseFormula(value);
  return /[;"\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One line (without its line break). */
export function csvLine(values: readonly CsvValue[]): string {
  return values.map(csvField).join(";");
}

/** The values of one XLSX row: strings neutralised; numbers, dates and the rest keep their type. */
export function xlsxRow<T extends Record<string, unknown>>(row: T): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) out[k] = typeof v === "string" ? neutraliseFormula(v) : v;
  return out as T;
}
