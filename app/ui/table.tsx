import type { ReactNode } from "react";

/**
 * A list table, or one line of text when there is nothing to list (a table with only
 * headers reads as broken to a screen reader). The wrapper lets wide tables scroll on
 * narrow screens instead of widening the page. A table whose rows may hold nothing to
 * press (`frame`) gets a frame the keyboard reaches, named, so its arrow keys scroll it
 * when it does not fit (WCAG 2.1.1; axe's scrollable-region-focusable).
 */
export function TableOrEmpty({
  empty,
  emptyText,
  label,
  frame,
  children,
}: {
  empty: boolean;
  emptyText: ReactNode;
  /** The table's accessible name. */
  label?: string;
  /** The frame's accessible name: makes the frame a region reached by Tab. */
  frame?: string;
  children: ReactNode;
}) {
  if (empty) return <p>{emptyText}</p>;
  return (
    <div className="table-wrap" {...(frame ? { role: "region", "aria-label": frame, tabIndex: 0 } : {})}>
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
