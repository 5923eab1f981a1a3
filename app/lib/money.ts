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

/**
 * VAT on a base at a rate in tenths of a percent (60 = 6 %), rounded to the öre half away
 * from zero, so a credit's VAT is the charge's with the sign turned.
 */
export function vatOnBase(netOre: number, vatPermille: number): number {
  // `+ 0` turns a credit's −0 into 0.
  return Math.sign(netOre) * Math.round((Math.abs(netOre) * vatPermille) / 1000) + 0;
}

/**
 * An invoice's VAT: per rate on that rate's base (never the sum of per-line roundings), so
 * "Moms totalt" is exactly the sum of the printed per-rate amounts. Rates ascending.
 */
export function vatPerRate(lines: readonly { netOre: number; vatPermille: number }[]): { vatPermille: number; baseOre: number; vatOre: number }[] {
  const base = new Map<number, number>();
  for (const l of lines) base.set(l.vatPermille, (base.get(l.vatPermille) ?? 0) + l.netOre);
  return [...base.entries()].sort((a, b) => a[0] - b[0]).map(([vatPermille, baseOre]) => ({ vatPermille, baseOre, vatOre: vatOnBase(baseOre, vatPermille) }));
}
