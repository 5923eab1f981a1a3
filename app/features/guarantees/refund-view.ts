// The added pay-outs on Garantibelopp as a list staff can work through: searched by
// number or name, sorted, paged (`?sok=&sortera=&sida=`), so a week with hundreds of
// customers is one page at a time. The checks before files and Klarmarkera still look at
// every added pay-out, not only the page shown.
import { pageCount, pageParam } from "~/lib/paging";
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

const total = (r: Refund) => r.amounts.reduce((sum, a) => sum + a.amountOre, 0);

const compare: Record<RefundOrder, (a: Refund, b: Refund) => number> = {
  kundnr: (a, b) => a.customerId - b.customerId,
  namn: (a, b) => svCollator.compare(a.name, b.name),
  belopp: (a, b) => total(b) - total(a),
  datum: (a, b) => a.refundDate.localeCompare(b.refundDate),
};

export function refundView<R extends Refund>(refunds: R[], params: URLSearchParams) {
  const search = (params.get("sok") ?? "").slice(0, 100);
  const raw = params.get("sortera") ?? "";
  const order: RefundOrder = Object.hasOwn(REFUND_ORDERS, raw) ? (raw as RefundOrder) : "kundnr";
  const matches = textMatcher(search);
  const shown = refunds.filter((r) => matches(r.customerId, r.name)).sort((a, b) => compare[order](a, b) || a.customerId - b.customerId);
  const pages = pageCount(shown.length, REFUNDS_PER_PAGE);
  const page = Math.min(pageParam(params.get("sida")), pages);
  return {
    search,
    order,
    page,
    pages,
    matching: shown.length,
    rows: shown.slice((page - 1) * REFUNDS_PER_PAGE, page * REFUNDS_PER_PAGE),
  };
}
