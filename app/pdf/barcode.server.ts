// Barcodes as vector bars: bwip-js (BWIPP's encoder) gives the module widths and the
// kit draws them as PDF rectangles, so they stay sharp at any printer resolution.
import type { PDFPage } from "pdf-lib";
import { rgb } from "./color";

/** Module widths (bar, space, bar, …) of the CODE128 symbol for `text` (bwip-js is loaded on first use). */
export async function code128Modules(text: string): Promise<number[]> {
  const { default: bwipjs } = await import("bwip-js/node");
  const [symbol] = bwipjs.raw("code128", text, {}) as Array<{ sbs: number[] }>;
  return symbol.sbs;
}

export type BarcodeStyle = {
  /** Points per narrow module. */
  module: number;
  height: number;
  /** Quiet zone on each side, in points. */
  quiet: number;
};

/** Width in points of the symbol with its quiet zones. */
export function barcodeWidth(modules: number[], style: BarcodeStyle): number {
  return modules.reduce((a, b) => a + b, 0) * style.module + 2 * style.quiet;
}

/** Draws the symbol with its left quiet zone starting at x and its bars from y up; returns the width drawn. */
export function drawBarcode(page: PDFPage, modules: number[], x: number, y: number, style: BarcodeStyle): number {
  let cursor = x + style.quiet;
  modules.forEach((width, i) => {
    if (i % 2 === 0) page.drawRectangle({ x: cursor, y, width: width * style.module, height: style.height, color: rgb(0, 0, 0) });
    cursor += width * style.module;
  });
  return cursor + style.quiet - x;
}
