import type { ReactNode } from "react";

/**
 * A list table, or one line of text when there is nothing to list (a table with only
 * headers reads as broken to a screen reader). The wrapper lets wide tables scroll on
 * narrow screens instead of widening the page.
 */
export function TableOrEmpty({ empty, emptyText, label, children }: { empty: boolean; emptyText: ReactNode; /** The table's accessible name. */ label?: string; children: ReactNode }) {
  if (empty) return <p>{emptyText}</p>;
  return (
    <div className="table-wrap">
      <table aria-label={label}>{children}</table>
    </div>
  );
}

/** Header of the last column, which holds the row's buttons: named for screen readers only. */
export function ActionsHeader({ label = "Åtgärder" }: { label?: string }) {
  return (
    <th>
      <span className="visually-hidden">{label}</span>
    </th>
  );
}
