// A simple table: columns at fixed x with a width and an alignment; a row draws each
// cell cut to its column (never into the next one), optionally with cell borders and a
// shaded background, and moves the frame's cursor down by the row height.
import type { Color } from "pdf-lib";
import { rgb } from "./color";
import type { Frame } from "./frame.server";
import { drawText, type Align, type KitFont } from "./text.server";

export type Column = {
  x: number;
  width: number;
  align?: Align;
  /** Space between the column edge and its text (default 2). */
  pad?: number;
};

export type RowStyle = {
  font: KitFont;
  size: number;
  height: number;
  /** Distance from the row's top (the cursor) down to the text baseline (default 0: the cursor is the baseline). */
  baseline?: number;
  /** Cell borders in this colour. */
  border?: Color;
  borderWidth?: number;
  /** Row background in this colour, across all columns. */
  shade?: Color;
  color?: Color;
};

export const GREY = rgb(0.6, 0.6, 0.6);

/** Draws one row of `cells` (an empty cell draws nothing) at the frame's cursor, then moves it down. */
export function tableRow(frame: Frame, columns: Column[], cells: readonly string[], style: RowStyle): void {
  const { page } = frame;
  const top = frame.y;
  const bottom = top - style.height;
  if (style.shade) {
    const first = columns[0];
    const last = columns[columns.length - 1];
    page.drawRectangle({ x: first.x, y: bottom, width: last.x + last.width - first.x, height: style.height, color: style.shade });
  }
  const baseline = top - (style.baseline ?? 0);
  columns.forEach((c, i) => {
    if (style.border) page.drawRectangle({ x: c.x, y: bottom, width: c.width, height: style.height, borderColor: style.border, borderWidth: style.borderWidth ?? 0.5 });
    const text = cells[i] ?? "";
    if (!text) return;
    const pad = c.pad ?? 2;
    const align = c.align ?? "left";
    const x = align === "right" ? c.x + c.width - pad : align === "center" ? c.x + c.width / 2 : c.x + pad;
    drawText(page, text, { x, y: baseline, size: style.size, font: style.font, align, maxWidth: c.width - 2 * pad, color: style.color });
  });
  frame.y = bottom;
}

/** A horizontal line across the frame (or from `from` to `to`) at the cursor. */
export function rule(frame: Frame, options: { thickness?: number; color?: Color; from?: number; to?: number } = {}): void {
  frame.page.drawLine({
    start: { x: options.from ?? frame.left, y: frame.y },
    end: { x: options.to ?? frame.right, y: frame.y },
    thickness: options.thickness ?? 0.5,
    color: options.color ?? rgb(0, 0, 0),
  });
}
