// Text on a page: every string the kit draws goes through `printable` first, so a
// character the font has no glyph for becomes a visible stand-in instead of an
// exception (pdf-lib's standard fonts threw "WinAnsi cannot encode"). Widths, cutting
// to a width with "…", and wrapping to lines are measured on that printable text.
import type { Color, PDFFont, PDFPage } from "pdf-lib";
import { rgb } from "./color";

export type KitFont = {
  pdf: PDFFont;
  /** Whether the font has a glyph for this code point. */
  covers(codePoint: number): boolean;
};

/** What a character the font lacks is drawn as (the Unicode replacement character). */
export const STAND_IN = "\uFFFD";

// Invisible by nature (joiners, variation selectors, BOM, soft hyphen, bidi marks):
// dropped when the font has no glyph, so an emoji sequence gives one stand-in, not three.
const IGNORABLE = /^[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\u{1bca0}-\u{1bca3}\u{1d173}-\u{1d17a}\u{e0000}-\u{e0fff}]$/u;

/** `text` as the font can draw it: NFC, line breaks and tabs as spaces, missing glyphs as STAND_IN. */
export function printable(text: string, font: KitFont): string {
  let out = "";
  for (const ch of text.normalize("NFC")) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0) || cp === 0x2028 || cp === 0x2029) out += " ";
    else if (font.covers(cp)) out += ch;
    else if (!IGNORABLE.test(ch)) out += font.covers(STAND_IN.codePointAt(0)!) ? STAND_IN : "?";
  }
  return out;
}

/** Width in points of `text` (made printable) at `size`. */
export function widthOf(text: string, font: KitFont, size: number): number {
  return font.pdf.widthOfTextAtSize(printable(text, font), size);
}

/** `text` made printable and cut with "…" so it is at most `width` points wide. */
export function fit(text: string, font: KitFont, size: number, width: number): string {
  const s = printable(text, font);
  if (font.pdf.widthOfTextAtSize(s, size) <= width) return s;
  const chars = Array.from(s);
  let lo = 0;
  let hi = chars.length;
  // The longest prefix that still fits together with the ellipsis.
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (font.pdf.widthOfTextAtSize(`${chars.slice(0, mid).join("").trimEnd()}…`, size) <= width) lo = mid;
    else hi = mid - 1;
  }
  return `${chars.slice(0, Math.max(lo, 1)).join("").trimEnd()}…`;
}

/** `text` made printable and broken into lines of at most `width` points (words kept whole where they fit). */
export function wrap(text: string, font: KitFont, size: number, width: number): string[] {
  const w = (s: string) => font.pdf.widthOfTextAtSize(s, size);
  const lines: string[] = [];
  let line = "";
  for (const word of printable(text, font).split(/ +/).filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (w(candidate) <= width) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    line = "";
    // A word longer than the line is broken by character.
    let rest = word;
    while (w(rest) > width) {
      const chars = Array.from(rest);
      let n = chars.length - 1;
      while (n > 1 && w(chars.slice(0, n).join("")) > width) n--;
      lines.push(chars.slice(0, n).join(""));
      rest = chars.slice(n).join("");
    }
    line = rest;
  }
  if (line || lines.length === 0) lines.push(line);
  return lines;
}

export type Align = "left" | "right" | "center";

export type TextOptions = {
  x: number;
  y: number;
  size: number;
  font: KitFont;
  color?: Color;
  /** left: x is the start; right: x is the end; center: x is the middle. */
  align?: Align;
  /** Cut with "…" to this many points. */
  maxWidth?: number;
};

export const BLACK = rgb(0, 0, 0);

/** Draws one line of text (never throws on a character the font lacks); returns its width. */
export function drawText(page: PDFPage, text: string, o: TextOptions): number {
  const s = o.maxWidth === undefined ? printable(text, o.font) : fit(text, o.font, o.size, o.maxWidth);
  const width = o.font.pdf.widthOfTextAtSize(s, o.size);
  const x = o.align === "right" ? o.x - width : o.align === "center" ? o.x - width / 2 : o.x;
  if (s) page.drawText(s, { x, y: o.y, size: o.size, font: o.font.pdf, color: o.color ?? BLACK });
  return width;
}
