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

/** "12,50" / "12.50" / "12" / "1 200" kronor -> öre; null when not a sum of money. */
export function parseKronor(value: string): number | null {
  const m = /^(-?)(\d{1,9})(?:[.,](\d{1,2}))?$/.exec(value.replace(/\s/g, ""));
  if (!m) return null;
  const ore = Number(m[2]) * 100 + Number((m[3] ?? "0").padEnd(2, "0"));
  return m[1] ? -ore : ore;
}
