// The kit's one typeface: Noto Sans (regular and bold) from @expo-google-fonts/noto-sans,
// SIL Open Font License 1.1 (node_modules/@expo-google-fonts/noto-sans/LICENSE_FONT).
// It covers Latin with its extensions (Swedish, Turkish, Polish, Vietnamese …), Greek and
// Cyrillic. The TTF files are read once per process; each document embeds only the
// glyphs it uses (subset: true), so a one-page label stays a few kilobytes of font.
// Read once per process: the bytes and the set of code points the font covers.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
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

// Each document parses the font anew (about a millisecond; its first layout a few more).
// A parsed font is not shared between documents: fontkit caches glyph objects with the
// code points they were first asked for, and a glyph first met as a component of
// another (the S inside Ş) is cached with none; a later document would then leave that
// letter out of its ToUnicode map, and copying or searching its text would lose it.
type Fontkit = Parameters<PDFDocument["registerFontkit"]>[0];
type ParsedFont = ReturnType<Fontkit["create"]>;

type FontkitModule = Pick<typeof import("@pdf-lib/fontkit"), "create">;
let fontkitModule: FontkitModule | undefined;

/** Loads fontkit (a third of a second): on the first document, not at the server's start. */
export async function loadFontkit(): Promise<void> {
  // A CommonJS module: its functions are on the default export.
  fontkitModule ??= ((await import("@pdf-lib/fontkit")) as unknown as { default: FontkitModule }).default;
}

function fontkit(): FontkitModule {
  if (!fontkitModule) throw new Error("fontkit is not loaded: await loadFontkit() first");
  return fontkitModule;
}

/** fontkit for pdf-lib's registerFontkit, with the subset fix below. */
export const kitFontkit: Fontkit = {
  create(bytes: Uint8Array, postscriptName?: string) {
    return withEvenGlyphs(fontkit().create(bytes, postscriptName) as unknown as ParsedFont);
  },
};

type GlyphBuffer = Uint8Array & { copy(target: Uint8Array, at: number): number };
type TTFSubsetInternals = { _addGlyph(gid: number): number; glyf: GlyphBuffer[]; offset: number };

/**
 * fontkit 1.x (as @pdf-lib/fontkit) copies each glyph's bytes into the subset as they
 * are and writes a short `loca` table (offsets stored halved) whenever the subset's
 * glyph data is under 64 KiB. Noto Sans has glyphs of odd length, so the halved offsets
 * go wrong and most letters of a subset render blank (text extraction still works,
 * which hides it). Upstream fontkit pads glyphs to even length; this does the same by
 * padding each glyph the subset copies with one zero byte where its length is odd.
 */
function withEvenGlyphs(font: ParsedFont): ParsedFont {
  const createSubset = font.createSubset.bind(font);
  font.createSubset = () => {
    const subset = createSubset();
    const internals = subset as unknown as Partial<TTFSubsetInternals>;
    if (typeof internals._addGlyph !== "function") return subset; // a CFF font: no loca table
    const addGlyph = internals._addGlyph.bind(subset);
    internals._addGlyph = (gid: number) => {
      const index = addGlyph(gid);
      const s = subset as unknown as TTFSubsetInternals;
      const glyph = s.glyf[index];
      if (glyph.length % 2 === 1) {
        const padded = (glyph.constructor as unknown as { alloc(n: number): GlyphBuffer }).alloc(glyph.length + 1);
        glyph.copy(padded, 0);
        s.glyf[index] = padded;
        s.offset += 1;
      }
      return index;
    };
    return subset;
  };
  return font;
}

const loaded = new Map<Weight, FontFile>();

/** The font file of `weight`, read and parsed on first use and kept for the process. */
export function fontFile(weight: Weight): FontFile {
  let file = loaded.get(weight);
  if (!file) {
    const path = createRequire(import.meta.url).resolve(FILES[weight]);
    const bytes = new Uint8Array(readFileSync(path));
    const codePoints = new Set(fontkit().create(bytes).characterSet);
    file = { weight, bytes, codePoints };
    loaded.set(weight, file);
  }
  return file;
}
