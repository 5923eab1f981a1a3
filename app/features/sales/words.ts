// Försäljning: the texts and the hint's rule, apart from the server code.

/** Weeks shown: the current week and the twelve before it. */
export const SALES_WEEKS = 13;
/** The hint looks at the last this many weeks with deliveries. */
export const HINT_WEEKS = 4;
/** Every one of those weeks returned at least this share: fewer copies would do. */
export const HIGH_RETURN_RATE = 0.5;
/** Every one of those weeks returned at most this share: more copies could sell. */
export const LOW_RETURN_RATE = 0.05;

export const SALES_TEXTS = {
  title: "Försäljning",
  intro:
    "Levererat, returnerat och sålt per tidning de senaste 13 veckorna, från era egna leveranser och returer. Veckan som pågår är inte färdigrapporterad.",
  empty: "Inga leveranser de senaste 13 veckorna.",
  decrease: (title: string) => `Överväg att minska leveransen av ${title}: mer än hälften har kommit tillbaka varje vecka de senaste fyra veckorna.`,
  increase: (title: string) => `Överväg att öka leveransen av ${title}: nästan allt har sålts varje vecka de senaste fyra veckorna.`,
} as const;

const percent = new Intl.NumberFormat("sv-SE", { style: "percent", maximumFractionDigits: 0 });

/** "38 %", or "–" for a week without deliveries. */
export function formatRate(returned: number, delivered: number): string {
  return delivered > 0 ? percent.format(returned / delivered) : "–";
}
