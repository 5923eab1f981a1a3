// The added pay-outs on Garantibelopp as a list staff can work through: searched by
// number or name, narrowed to a title and an ISO week of payment, sorted, paged
// (`?sok=&tidning=&vecka=&sortera=&sida=`), with the total of what is shown, so a week with
// hundreds of customers is one page at a time. The checks before files and Klarmarkera
// still look at every added pay-out, not only the page shown.
import { LEDGERS, type Ledger } from "~/catalog";
import { isoWeek } from "~/lib/dates";
import { pageCount } from "~/lib/paging";
import { param, readSearch } from "~/lib/search-params";
import { svCollator, textMatcher } from "~/lib/search-text";
import type { Refund } from "./refund";

export const REFUND_ORDERS = {
  kundnr: "Kundnummer",
  namn: "Namn",
  belopp: "Högst belopp först",
  datum: "Utbetalningsdatum",
} as const;
export type RefundOrder = keyof typeof REFUND_ORDERS;
export const REFUNDS_PER_PAGE = 25;
/** Klarmarkera batches per page of Utbetalningshistorik. */
export const PAYOUT_BATCHES_PER_PAGE = 20;

const total = (r: Refund) => r.amounts.reduce((sum, a) => sum + a.amountOre, 0);

const compare: Record<RefundOrder, (a: Refund, b: Refund) => number> = {
  kundnr: (a, b) => a.customerId - b.customerId,
  namn: (a, b) => svCollator.compare(a.name, b.name),
  belopp: (a, b) => total(b) - total(a),
  datum: (a, b) => a.refundDate.localeCompare(b.refundDate),
};

/** "2026-v50": the ISO year and week a payment date lies in (the payout files' weeks). */
export function weekTag(day: string): string {
  const { year, week } = isoWeek(day);
  return `${year}-v${String(week).padStart(2, "0")}`;
}

/** "vecka 50" (or "vecka 53 2026" when the year is not the one of `now`). */
export function weekWords(tag: string, now: string): string {
  const [year, week] = tag.split("-v");
  return year === now.slice(0, 4) ? `vecka ${Number(week)}` : `vecka ${Number(week)} ${year}`;
}

const WEEK_TAG = /^\d{4}-v\d{2}$/;

/** The list's search, title (`tidning`, the ledger), ISO week of payment, order and page. */
export const REFUND_SEARCH = {
  sok: param.text(100),
  sortera: param.oneOf(Object.keys(REFUND_ORDERS) as [RefundOrder, ...RefundOrder[]], "kundnr"),
  tidning: param.maybeOneOf(LEDGERS.map(String) as [string, ...string[]]),
  vecka: param.matching(WEEK_TAG),
  sida: param.page(),
};

export function refundView<R extends Refund>(refunds: R[], from: Request | URLSearchParams) {
  const { sok: search, sortera: order, tidning, vecka: week, sida } = readSearch(from, REFUND_SEARCH);
  const ledger = tidning === null ? null : (Number(tidning) as Ledger);
  const matches = textMatcher(search);
  const shown = refunds
    .map((r) => (ledger === null && week === null ? r : { ...r, amounts: r.amounts.filter((a) => (ledger === null || a.ledger === ledger) && (week === null || (a.refundDate ? weekTag(a.refundDate) : "") === week)) }))
    .filter((r) => r.amounts.length > 0 && matches(r.customerId, r.name))
    .sort((a, b) => compare[order](a, b) || a.customerId - b.customerId);
  const pages = pageCount(shown.length, REFUNDS_PER_PAGE);
  const page = Math.min(sida, pages);
  return {
    search,
    order,
    ledger,
    week,
    page,
    pages,
    matching: shown.length,
    /** The sum of every amount shown (all pages). */
    totalOre: shown.reduce((sum, r) => sum + total(r), 0),
    rows: shown.slice((page - 1) * REFUNDS_PER_PAGE, page * REFUNDS_PER_PAGE),
  };
}
