// Counts for people, in Swedish: thousands grouped ("2 431"), the noun in its number.
const grouped = new Intl.NumberFormat("sv-SE");

/** 2431 -> "2 431" */
export function formatCount(n: number): string {
  return grouped.format(n);
}

/** (1, "kund", "kunder") -> "1 kund"; (2431, …) -> "2 431 kunder" */
export function countOf(n: number, one: string, many: string): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}
