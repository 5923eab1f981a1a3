// A new PDF document with the kit's fonts embedded (subset) and the metadata every
// document of the portal carries.
import type { PDFDocument } from "pdf-lib";
import { kitFontkit, fontFile, loadFontkit, type Weight } from "./fonts.server";
import type { KitFont } from "./text.server";
import { portalNow } from "../../db/clock";

export const A4: [number, number] = [595.28, 841.89];

export type Pdf = {
  doc: PDFDocument;
  regular: KitFont;
  bold: KitFont;
  save(): Promise<Uint8Array>;
};

// pdf-lib draws each glyph at its advance width and ignores glyph positioning (GPOS:
// kerning, mark placement), so that shaping is wasted work. Of substitution only the
// ligatures (fi, ffl) change anything, and plain letters are what the standard fonts
// printed and what copying text out of the PDF expects. Text is NFC-normalised before
// drawing (text.server.ts), so letters with diacritics are single precomposed glyphs.
// With every feature off, text layout is some eight times faster.
const FEATURES = { kern: false, liga: false, clig: false, calt: false, rlig: false, rclt: false, ccmp: false, locl: false, mark: false, mkmk: false, curs: false, dist: false, abvm: false, blwm: false };

async function embed(doc: PDFDocument, weight: Weight): Promise<KitFont> {
  const file = fontFile(weight);
  const pdf = await doc.embedFont(file.bytes, { subset: true, features: FEATURES });
  return { pdf, covers: (cp) => file.codePoints.has(cp) };
}

/** `made`: the document's date, for a record printed again later (same date, same bytes). */
export async function createPdf(title: string, made?: Date): Promise<Pdf> {
  // pdf-lib and fontkit load with the first document, not with the server.
  const [{ PDFDocument }] = await Promise.all([import("pdf-lib"), loadFontkit()]);
  const doc = await PDFDocument.create();
  // The portal's clock (db/clock.ts) when no date is given: pdf-lib would read the machine's.
  const at = made ?? new Date(portalNow());
  doc.setCreationDate(at);
  doc.setModificationDate(at);
  doc.registerFontkit(kitFontkit);
  doc.setTitle(title);
  doc.setCreator("Returportalen");
  doc.setLanguage("sv-SE");
  const [regular, bold] = await Promise.all([embed(doc, "regular"), embed(doc, "bold")]);
  return { doc, regular, bold, save: () => doc.save() };
}
