// The price calculator (In- & utpriser, spec section 9). Pure, so the page can
// run the same formula on the server (GET form, no JavaScript) and as you type.

/** The share of the consumer price left once the 6 % VAT is taken out. */
export const ORIGIN_FACTOR = 0.9434;
/** The retailer's commission, as a share of the price without VAT. */
export const COMMISSION_RATE = 0.215;
/** VAT on newspapers. */
export const VAT_RATE = 0.06;
/** The largest price the calculator accepts (kr); anything above is a typing mistake. */
export const MAX_PRICE_KR = 100_000;

export type PriceBreakdown = {
  price: number;
  origin: number;
  commission: number;
  purchasePrice: number;
  vat: number;
};

export function priceBreakdown(price: number): PriceBreakdown {
  const origin = ORIGIN_FACTOR * price;
  const commission = COMMISSION_RATE * origin;
  const purchasePrice = origin - commission;
  const vat = VAT_RATE * purchasePrice;
  return { price, origin, commission, purchasePrice, vat };
}

/**
 * Reads a price in kronor as people type it: "30", "30,00", "30.5", "1 234,50".
 * Returns null for anything that is not a non-negative amount with at most two
 * decimals, or above MAX_PRICE_KR.
 */
export function parsePrice(input: string): number | null {
  const s = input.replace(/[\s\u00a0]/g, "").replace(/kr$/i, "").replace(",", ".");
  if (!/^\d+(\.\d{1,2})?$/.test(s)) return null;
  const n = Number(s);
  return Number.isFinite(n) && n <= MAX_PRICE_KR ? n : null;
}

const sek = new Intl.NumberFormat("sv-SE", { style: "currency", currency: "SEK", minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** 28.302 -> "28,30 kr" (sv-SE; rounded half away from zero at whole öre). */
export function formatSek(kr: number): string {
  const ore = Math.round(kr * 100 + Number.EPSILON * Math.sign(kr));
  return sek.format(ore / 100);
}

export const PRICE_ERROR = "Ange ett pris i kronor, till exempel 30,00.";
