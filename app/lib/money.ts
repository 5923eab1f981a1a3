// Money is integer öre everywhere; these format it for people.
const sek = new Intl.NumberFormat("sv-SE", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** 12345 -> "123,45" */
export function formatOre(ore: number): string {
  return sek.format(ore / 100);
}

/** 12345 -> "123,45 kr" */
export function formatKr(ore: number): string {
  return `${formatOre(ore)} kr`;
}
