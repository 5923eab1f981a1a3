// Leveransreklamation's sortable columns, for the screen's headers and the server's order.
import type { Sort, SortParams } from "~/lib/sort";

export const COMPLAINT_COLUMNS = ["datum", "kund", "tidning", "foljesedel", "mottagit", "differens", "summa"] as const;
export type ComplaintColumn = (typeof COMPLAINT_COLUMNS)[number];
/** Newest first, as the list has always opened. */
export const COMPLAINT_DEFAULT_SORT: Sort<ComplaintColumn> = { column: "datum", descending: true };

/** The totals table's columns (one row per distributor), ordered by their own parameters. */
export const COMPLAINT_TOTAL_COLUMNS = ["utb", "reklamationer", "kunder", "differens", "summa"] as const;
export type ComplaintTotalColumn = (typeof COMPLAINT_TOTAL_COLUMNS)[number];
export const COMPLAINT_TOTAL_DEFAULT_SORT: Sort<ComplaintTotalColumn> = { column: "utb", descending: false };
export const COMPLAINT_TOTAL_SORT_PARAMS: SortParams = { column: "utbsortera", order: "utbordning" };
