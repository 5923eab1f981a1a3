// Swedish formats for documents: numbers with a (non-breaking) space between thousands
// and a real minus sign, money in kronor from integer öre (app/lib/money.ts), ISO dates
// (the Swedish standard, SS-ISO 8601) and month names.
import { stockholmDate } from "~/lib/dates";
import { formatKr, formatOre } from "~/lib/money";

export { formatKr, formatOre };

const integer = new Intl.NumberFormat("sv-SE", { maximumFractionDigits: 0 });
const decimal = new Intl.NumberFormat("sv-SE", { maximumFractionDigits: 2 });
const month = new Intl.DateTimeFormat("sv-SE", { month: "long", year: "numeric", timeZone: "UTC" });

/** 12345 -> "12 345", -5 -> "−5" */
export function formatNumber(n: number): string {
  return integer.format(n);
}

/** 60 (‰) -> "6 %", 125 -> "12,5 %" */
export function formatPermille(permille: number): string {
  return `${decimal.format(permille / 10)} %`;
}

/** A stored date ("2026-03-18") prints as it is, the Swedish format; a moment prints as its day in Stockholm. */
export function formatDate(date: string | Date): string {
  return typeof date === "string" ? date : stockholmDate(date);
}

/** "2026-02" -> "februari 2026" */
export function formatMonth(yyyyMm: string): string {
  return month.format(new Date(`${yyyyMm}-01T00:00:00Z`));
}
