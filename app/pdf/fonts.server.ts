// The kit's one typeface: Noto Sans (regular and bold) from @expo-google-fonts/noto-sans,
// SIL Open Font License 1.1 (node_modules/@expo-google-fonts/noto-sans/LICENSE_FONT).
// It covers Latin with its extensions (Swedish, Turkish, Polish, Vietnamese …), Greek and
// Cyrillic. The TTF files are read once per process; each document embeds only the
// glyphs it uses (subset: true), so a one-page label stays a few kilobytes of font.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import fontkit from "@pdf-lib/fontkit";
import type { PDFDocument } from "pdf-lib";

export type Weight = "regular" | "bold";

const FILES: Record<Weight, string> = {
  regular: "@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf",
  bold: "@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf",
};

export type FontFile = {
  weight: Weight;
  /** The TTF as shipped, to hand to pdf-lib's embedFont. */
  bytes: Uint8Array;
  /** The Unicode code points the font has a glyph for. */
  codePoints: ReadonlySet<number>;
};

// Parsed fonts by their bytes. Parsing is cheap, but a parsed font's first text layout
// builds its shaping tables (some 100–300 ms for Noto Sans); keeping the parsed font for
// the process makes every later document's layout fast. pdf-lib only reads the font
// (each document makes its own subset), so documents can share it.
type Fontkit = Parameters<PDFDocument["registerFontkit"]>[0];
type ParsedFont = ReturnType<Fontkit["create"]>;
const parsed = new WeakMap<Uint8Array, ParsedFont>();

/** fontkit for pdf-lib's registerFontkit, answering the kit's own font files from the cache. */
export const cachedFontkit: Fontkit = {
  create(bytes: Uint8Array, postscriptName?: string) {
    if (postscriptName !== undefined) return fontkit.create(bytes, postscriptName) as unknown as ParsedFont;
    let font = parsed.get(bytes);
    if (!font) {
      font = fontkit.create(bytes) as unknown as ParsedFont;
      parsed.set(bytes, font);
    }
    return font;
  },
};

const loaded = new Map<Weight, FontFile>();

/** The font file of `weight`, read and parsed on first use and kept for the process. */
export function fontFile(weight: Weight): FontFile {
  let file = loaded.get(weight);
  if (!file) {
    const path = createRequire(import.meta.url).resolve(FILES[weight]);
    const bytes = new Uint8Array(readFileSync(path));
    const codePoints = new Set(cachedFontkit.create(bytes).characterSet);
    file = { weight, bytes, codePoints };
    loaded.set(weight, file);
  }
  return file;
}
