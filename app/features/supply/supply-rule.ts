// The suggestion rule of Leveransändring (decision 037), one pure function: from the last
// eight same weekdays' deliveries and returns of one paper at one shop, the number of copies
// that would have covered the demand, moved carefully from the usual delivery.
//
// - Demand of a day is what sold (delivered − returned); a day sold out (nothing returned)
//   sold at least one more than it had: its demand counts as sold + 1.
// - The evidence: at least four of those weekdays with a delivery. Days without one (a
//   holiday, a strike, a shop closed) are not evidence either way.
// - The target covers three of four days with a margin to sell from: the 75th percentile of
//   demand (nearest rank) plus 20 % of it, at least one copy.
// - The suggestion moves at most the larger of 2 copies and 20 % of the usual delivery, and
//   never to 0 (a shop stops a paper by asking, not by a suggestion).
// - No suggestion when the target is the usual delivery.
import { SUPPLY_RULE, weekdayPlural } from "./supply-words";

export type SameWeekday = { date: string; delivered: number; returned: number };

export type Suggestion = { copies: number; reason: string; soldOut: number; days: number };

/** The days in date order, oldest first (a copy only when they are not). */
function inOrder(history: SameWeekday[]): SameWeekday[] {
  for (let i = 1; i < history.length; i++) if (history[i - 1].date > history[i].date) return [...history].sort((a, b) => (a.date < b.date ? -1 : 1));
  return history;
}

/** The usual delivery: the most common of the last four same weekdays with a delivery (ties: the latest). */
export function usualDelivery(history: SameWeekday[]): number {
  const days = inOrder(history);
  const recent: number[] = [];
  for (let i = days.length - 1; i >= 0 && recent.length < 4; i--) if (days[i].delivered > 0) recent.push(days[i].delivered);
  if (recent.length === 0) return 0;
  let best = recent[0];
  let bestCount = 0;
  for (const n of recent) {
    let count = 0;
    for (const m of recent) if (m === n) count++;
    if (count > bestCount) [best, bestCount] = [n, count];
  }
  return best;
}

/** The largest move a suggestion makes from the usual delivery. */
export function largestMove(usual: number): number {
  return Math.max(SUPPLY_RULE.minMove, Math.floor(usual * SUPPLY_RULE.share));
}

const decimal = new Intl.NumberFormat("sv-SE", { maximumFractionDigits: 1 });

/**
 * The suggestion for one weekday (1 = Monday) from its history (the last eight same
 * weekdays, any order), or null when there is too little evidence or nothing to change.
 */
export function suggestSupply(weekday: number, history: SameWeekday[], usual = usualDelivery(history)): Suggestion | null {
  const days = inOrder(history)
    .filter((d) => d.delivered > 0)
    .slice(-SUPPLY_RULE.weeks);
  if (days.length < SUPPLY_RULE.minDays || usual === 0) return null;
  const demand = days.map((d) => Math.max(d.delivered - d.returned, 0) + (d.returned === 0 ? 1 : 0)).sort((a, b) => a - b);
  // Nearest rank: the smallest demand that covers at least 75 % of the days.
  const covered = demand[Math.ceil(SUPPLY_RULE.cover * demand.length) - 1];
  const target = covered + Math.max(1, Math.ceil(covered * SUPPLY_RULE.margin));
  const move = largestMove(usual);
  const copies = Math.max(1, Math.min(usual + move, Math.max(usual - move, target)));
  if (copies === usual) return null;
  const soldOut = days.filter((d) => d.returned === 0).length;
  const plural = weekdayPlural(weekday);
  const instead = `förslag ${copies} i stället för ${usual}`;
  if (copies > usual) {
    const why = soldOut > 0 ? `Slutsålt ${soldOut} av de ${days.length} senaste ${plural}` : `Sålde upp till ${Math.max(...demand)} ex de ${days.length} senaste ${plural}`;
    return { copies, reason: `${why}: ${instead}`, soldOut, days: days.length };
  }
  const returned = days.reduce((s, d) => s + d.returned, 0) / days.length;
  return { copies, reason: `I snitt ${decimal.format(returned)} ex i retur de ${days.length} senaste ${plural}: ${instead}`, soldOut, days: days.length };
}
