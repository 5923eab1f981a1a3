// Leveransreklamation's sortable columns, for the screen's headers and the server's order.
import type { Sort } from "~/lib/sort";

export const COMPLAINT_COLUMNS = ["datum", "kund", "tidning", "foljesedel", "mottagit", "differens", "summa"] as const;
export type ComplaintColumn = (typeof COMPLAINT_COLUMNS)[number];
/** Newest first, as the list has always opened. */
export const COMPLAINT_DEFAULT_SORT: Sort<ComplaintColumn> = { column: "datum", descending: true };
